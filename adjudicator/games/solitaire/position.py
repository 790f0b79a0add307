"""Position files (docs/position-files.md): the state a position describes, and what in
a position the rules could never have produced (Movement, Restrictions)."""

from __future__ import annotations

from lxml import etree

from adjudicator.engine.module import ModuleData
from adjudicator.engine.stacking import stacks
from adjudicator.engine.state import State
from adjudicator.errors import InvalidInput, ModuleError
from adjudicator.games.solitaire.control import compute_control
from adjudicator.games.solitaire.data import Charts, charts_of
from adjudicator.games.solitaire.restrictions import allies_together
from adjudicator.games.solitaire.setup import check_ids, empty_state, resolve_options
from adjudicator.games.solitaire.vocabulary import GARRISON, Nationality, Phase, Pool, Side

POSITION_NS = "urn:pbem:position:1"
# a position starts in one of these phases: a set-up or a Soviet combat is never at rest
POSITION_PHASES = (Phase.MOVEMENT, Phase.ATTACK, Phase.REINFORCEMENT)


def position_state(module: ModuleData, root: etree._Element, options: dict[str, str]) -> State:
    """A position file: units, garrisons, control, pools."""
    charts = charts_of(module)
    try:
        scenario = charts.scenario(root.get("scenario", "campaign"))
        charts.turn(root.get("turn", ""))
    except ModuleError as exc:
        raise InvalidInput(f"position file: {exc.message}") from None
    state = empty_state(charts, scenario, resolve_options(charts, options), root.get("turn"))
    state["phase"] = root.get("phase", Phase.MOVEMENT)
    if state["phase"] not in POSITION_PHASES:
        raise InvalidInput(f"position file: a solitaire position starts in the movement, "
                           f"attack or reinforcement phase, not {state['phase']!r}")
    ns = f"{{{POSITION_NS}}}"
    start = charts.turn(state["turn"]).index
    for el in root:
        if not isinstance(el.tag, str):
            continue
        tag = etree.QName(el).localname
        if tag == "unit":
            state["units"][el.get("id")] = el.get("at")
        elif tag == "marker" and el.get("kind") == GARRISON:
            state["garrisons"].append(el.get("at"))
        elif tag == "control":
            state["control"][el.get("area")] = el.get("side")
        elif tag == "pool" and el.get("name") in (Pool.REINFORCEMENTS, Pool.OUT):
            for unit in el.iter(f"{ns}unit"):
                if el.get("name") == Pool.OUT:
                    state["out"].append(unit.get("id"))
                else:
                    state["queue"].append({"unit": unit.get("id"), "due": unit.get("due")})
        elif tag == "value" and el.get("name") == "retreat-year":
            state["retreat-years"].append(el.get("value"))
        else:
            kind = f" kind={el.get('kind')!r}" if el.get("kind") else ""
            raise InvalidInput(f"position file line {el.sourceline}: a solitaire position has "
                               f"no <{tag}{kind}>")
    placed = {*state["units"], *(e["unit"] for e in state["queue"]), *state["out"]}
    for arrival in scenario.reinforcements:
        # The scenario's arrivals still to come, for the units the position does not
        # already place (on the map, waiting in the pool, or out).
        if charts.turn(arrival.turn).index > start and arrival.piece not in placed:
            state["schedule"].append([arrival.piece, arrival.turn])
    try:
        check_ids(charts, state)
        for entry in state["queue"]:
            charts.turn(entry["due"])
    except ModuleError as exc:
        raise InvalidInput(f"position file: {exc.message}") from None
    for area, side in state["control"].items():
        if side not in tuple(Side) or area not in charts.board:
            raise InvalidInput(f"position file: bad control {area}={side}")
    state["garrisons"].sort()
    problem = restriction_broken(charts, state)
    if problem:
        raise InvalidInput(f"position file: {problem}")
    state["control"] = compute_control(charts, state, state["control"])
    return state


def restriction_broken(charts: Charts, state: State) -> str | None:
    """What in a position the rules could never have produced (Movement, Restrictions)."""
    groups = stacks(state["units"])
    for area in sorted(groups):
        units = groups[area]
        if allies_together(charts, units):
            return f"Romanian and Hungarian units cannot stack in the same area ({area})"
        if any(charts.nationality(u) == Nationality.ROMANIAN for u in units) \
                and area not in charts.romanian_allowed:
            return f"Romanian units cannot be north of the Romanian line ({area})"
        if area in state["garrisons"]:
            return f"a garrison and units cannot share an area ({area}): a unit removes it"
    if len(set(state["garrisons"])) != len(state["garrisons"]):
        return "an area holds two garrisons"
    return None
