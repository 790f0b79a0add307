"""Area control and the front line, as the rules define them under Movement, Combat and
Sea Areas:

- an area occupied by German-side units (garrisons included) is German-controlled;
- an unoccupied area that can be traced, through unoccupied areas, to Arkangel,
  Siberia, Gorky, Stalingrad or Astrakhan is Soviet-controlled;
- a Soviet-controlled area cut off from them becomes German-controlled, except one in
  the same sea area as an area that can still be traced (Sea Areas);
- a German-controlled area nobody occupies stays German until a trace reaches it.

The trace is the kit's search (the area board's `reachable`).
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.data import Charts
from adjudicator.games.solitaire.sea_areas import sea_linked
from adjudicator.games.solitaire.vocabulary import EventKind, Side


def units_in(state: State, area: str) -> list[str]:
    """The units in an area, sorted."""
    return sorted(u for u, where in state["units"].items() if where == area)


def occupied_areas(state: State) -> set[str]:
    """Areas holding German-side forces: units or a garrison."""
    return set(state["units"].values()) | set(state["garrisons"])


def german_area(state: State, area: str) -> bool:
    return state["control"].get(area) == Side.GERMAN


def traced_to_sources(charts: Charts, occupied: set[str]) -> set[str]:
    """Unoccupied areas with a trace to a Soviet source through unoccupied areas."""
    return charts.board.reachable(charts.supply_sources, lambda a: a not in occupied)


def compute_control(charts: Charts, state: State, previous: Mapping[str, str]) -> dict[str, str]:
    """Control of every area after a change (Combat: 'becomes German-controlled')."""
    occupied = occupied_areas(state)
    traced = traced_to_sources(charts, occupied)
    linked = sea_linked(charts, traced)
    control: dict[str, str] = {}
    for area in charts.board:
        if area in occupied:
            control[area] = Side.GERMAN
        elif area in traced:
            control[area] = Side.SOVIET
        elif previous.get(area) == Side.SOVIET and area in linked:
            control[area] = Side.SOVIET  # Sea Areas, the second effect
        else:
            control[area] = Side.GERMAN
    return control


def refresh_control(ctx: StepContext, charts: Charts, cause: str) -> None:
    """Recompute control after a change, without the Restrictions that follow from it
    (`restrictions.update_control` adds them; during the set-up of Free placement they
    wait, as Bucharest or Budapest may still be waiting for their units)."""
    new = compute_control(charts, ctx.state, ctx.state["control"])
    for area in sorted(new):
        if new[area] != ctx.state["control"][area]:
            ctx.emit(EventKind.CONTROL_CHANGED, area=area, side=new[area], cause=cause)


def borders_soviet(charts: Charts, state: State, area: str) -> bool:
    """The area is adjacent to a Soviet-controlled area."""
    return any(state["control"][n] == Side.SOVIET for n in charts.board.neighbours(area))


def is_front_line(charts: Charts, state: State, area: str) -> bool:
    """Movement: a front-line area holds German forces (garrisons included) and is
    adjacent to a Soviet-controlled area."""
    return area in occupied_areas(state) and borders_soviet(charts, state, area)


def front_line(charts: Charts, state: State) -> list[str]:
    """Every front-line area, sorted."""
    return sorted(a for a in occupied_areas(state) if borders_soviet(charts, state, a))


def soviet_neighbours(charts: Charts, state: State, area: str) -> list[str]:
    """The Soviet-controlled areas next to `area`, sorted: what its units may attack."""
    return [n for n in charts.board.neighbours(area) if state["control"][n] == Side.SOVIET]
