"""Area control and the front line (rules: Movement, Combat, Sea Areas).

- An area occupied by German-side units (garrisons included) is German-controlled.
- An unoccupied area that can be traced, through unoccupied areas, to Arkangel,
  Siberia, Gorky, Stalingrad or Astrakhan is Soviet-controlled.
- A Soviet-controlled area cut off from them becomes German-controlled, except
  one in the same sea area as an area that can still be traced.
- A German-controlled area nobody occupies stays German until a trace reaches it.
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.engine.state import State
from adjudicator.games.solitaire.tables import Charts

GERMAN = "german"
SOVIET = "soviet"


def occupied_areas(state: State) -> set[str]:
    """Areas holding German-side forces: units or a garrison."""
    return set(state["units"].values()) | set(state["garrisons"])


def traced_to_sources(charts: Charts, occupied: set[str]) -> set[str]:
    """Unoccupied areas with a trace to a Soviet source through unoccupied areas."""
    return charts.board.reachable(charts.supply_sources, lambda a: a not in occupied)


def compute_control(charts: Charts, state: State, previous: Mapping[str, str]) -> dict[str, str]:
    """Control of every area after a change (rules: Combat, 'becomes German-controlled')."""
    occupied = occupied_areas(state)
    traced = traced_to_sources(charts, occupied)
    sea_linked = {
        area
        for members in charts.seas.values()
        if traced.intersection(members)
        for area in members
    }
    control: dict[str, str] = {}
    for area in charts.board:
        if area in occupied:
            control[area] = GERMAN
        elif area in traced:
            control[area] = SOVIET
        elif previous.get(area) == SOVIET and area in sea_linked:
            control[area] = SOVIET  # rules: Sea Areas, second effect
        else:
            control[area] = GERMAN
    return control


def is_front_line(charts: Charts, state: State, area: str) -> bool:
    """A front-line area holds German forces and is adjacent to a Soviet-controlled area."""
    return area in occupied_areas(state) and borders_soviet(charts, state, area)


def borders_soviet(charts: Charts, state: State, area: str) -> bool:
    return any(state["control"][n] == SOVIET for n in charts.board.neighbours(area))


def front_line(charts: Charts, state: State) -> list[str]:
    """Every front-line area, sorted."""
    return sorted(a for a in occupied_areas(state) if borders_soviet(charts, state, a))


def units_in(state: State, area: str) -> list[str]:
    return sorted(u for u, where in state["units"].items() if where == area)


def german_controlled_count(charts: Charts, state: State, only_soviet_start: bool) -> int:
    """German-controlled areas, all or only those that start Soviet (rules: Victory)."""
    return sum(
        1 for area, side in state["control"].items()
        if side == GERMAN and (not only_soviet_start or charts.start_side[area] == SOVIET)
    )
