"""Initial Setup and Scenarios: the state a game starts from, from a scenario or a
position file."""

from __future__ import annotations

from typing import Any

from lxml import etree

from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.errors import InvalidInput, ModuleError
from adjudicator.games.solitaire.common import charts_of
from adjudicator.games.solitaire.control import GERMAN, compute_control, units_in
from adjudicator.games.solitaire.tables import Charts

POSITION_NS = "urn:pbem:position:1"


def resolve_options(charts: Charts, options: dict[str, str]) -> dict[str, str]:
    """Every option with its value: the given ones checked, the rest at their default."""
    specs = charts.option_specs
    for key, value in options.items():
        if key not in specs:
            raise ModuleError(f"unknown option {key!r}; this game has: {', '.join(sorted(specs))}")
        if value not in specs[key][1]:
            raise ModuleError(f"option {key} cannot be {value!r}; choose one of: "
                              f"{', '.join(specs[key][1])}")
    return {key: options.get(key, default) for key, (default, _, _) in sorted(specs.items())}


def empty_state(charts: Charts, scenario: Any, options: dict[str, str], turn: str) -> State:
    return {
        "game": "solitaire",
        "scenario": scenario.get("id"),
        "end": scenario.get("end"),
        "options": options,
        "turn": turn,
        "phase": "movement",
        "units": {},
        "garrisons": [],
        "control": dict(charts.start_side),
        "unplaced": [],
        "moved": [],
        "attacked": [],
        "vacated": [],
        "entered": 0,
        "queue": [],
        "schedule": [],
        "out": [],
        "retreat-years": [],
        "soviet": {"left": 0, "done": 0},
        "standing": {},
        "pending": None,
        "decisions": 0,
        "result": None,
    }


def scenario_state(module: ModuleData, scenario_id: str, options: dict[str, str]) -> State:
    """Initial Setup (or a scenario's): units, garrisons, control and reinforcements."""
    charts = charts_of(module)
    scenario = charts.scenario(scenario_id)
    options = resolve_options(charts, options)
    state = empty_state(charts, scenario, options, scenario.get("start"))
    ns = "{urn:pbem:module:1}"
    optional = {p.get("piece") for p in scenario.iter(f"{ns}place")
                if p.get("option") and options.get(p.get("option")) == "yes"}
    for place in scenario.iter(f"{ns}place"):
        if place.get("option") and options.get(place.get("option")) != "yes":
            continue
        state["units"][place.get("piece")] = place.get("area")
    for garrison in scenario.iter(f"{ns}garrison"):
        state["garrisons"].append(garrison.get("area"))
    state["garrisons"].sort()
    for control in scenario.iter(f"{ns}control"):
        for area in control.get("areas").split():
            state["control"][area] = control.get("side")
    for rein in scenario.iter(f"{ns}reinforcement"):
        if rein.get("piece") not in optional:
            state["schedule"].append([rein.get("piece"), rein.get("turn")])
    check_ids(charts, state)
    rear_garrisons = scenario.get("garrison-rear") == "true"
    if rear_garrisons:
        place_rear_garrisons(charts, state)  # the scenario's German-held areas
    state["control"] = compute_control(charts, state, state["control"])
    if rear_garrisons:
        place_rear_garrisons(charts, state)  # and the areas the set-up cuts off
    if options["free-placement"] == "yes":
        # Control follows each placement (german.place_unit); the Restrictions that
        # follow from it apply when play begins (german.enter_phase).
        state["unplaced"] = sorted(state["units"])
        state["units"] = {}
        state["phase"] = "setup"
        state["control"] = compute_control(charts, state, state["control"])
    queue_start_reinforcements(charts, state)
    return state


def place_rear_garrisons(charts: Charts, state: State) -> None:
    """Scenarios: 'Place garrisons in all German-controlled areas behind the front line'
    (RULES-ISSUES.md #17: every German-controlled area without units). Placed before
    control is computed, so that the scenario's empty German areas are held and not
    traced to a Soviet source."""
    for area in charts.board:
        if state["control"][area] == GERMAN and not units_in(state, area) \
                and area not in state["garrisons"]:
            state["garrisons"].append(area)
    state["garrisons"].sort()


def queue_start_reinforcements(charts: Charts, state: State) -> None:
    for unit, due in state["schedule"]:
        if due == state["turn"] and unit not in state["units"]:
            state["queue"].append({"unit": unit, "due": due})


def check_ids(charts: Charts, state: State) -> None:
    for unit, area in state["units"].items():
        if unit not in charts.pieces:
            raise ModuleError(f"the set-up names unknown unit {unit!r}")
        if area not in charts.board:
            raise ModuleError(f"the set-up places {unit} in unknown area {area!r}")
    for area in state["garrisons"]:
        if area not in charts.board:
            raise ModuleError(f"the set-up garrisons unknown area {area!r}")
    for unit, due in state["schedule"]:
        charts.turn(due)
        if unit not in charts.pieces:
            raise ModuleError(f"the set-up schedules unknown unit {unit!r}")
    for unit in [*(e["unit"] for e in state["queue"]), *state["out"]]:
        if unit not in charts.pieces:
            raise ModuleError(f"the set-up names unknown unit {unit!r}")
    places = [*state["units"], *(e["unit"] for e in state["queue"]), *state["out"]]
    twice = sorted({u for u in places if places.count(u) > 1})
    if twice:
        raise ModuleError(f"units in two places at once: {', '.join(twice)}")


def position_state(module: ModuleData, root: etree._Element, options: dict[str, str]) -> State:
    """A position file (docs/position-files.md): units, garrisons, control, pools."""
    charts = charts_of(module)
    try:
        scenario = charts.scenario(root.get("scenario", "campaign"))
        charts.turn(root.get("turn", ""))
    except ModuleError as exc:
        raise InvalidInput(f"position file: {exc.message}") from None
    state = empty_state(charts, scenario, resolve_options(charts, options), root.get("turn"))
    state["phase"] = root.get("phase", "movement")
    if state["phase"] not in ("movement", "attack", "reinforcement"):
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
        elif tag == "marker" and el.get("kind") == "garrison":
            state["garrisons"].append(el.get("at"))
        elif tag == "control":
            state["control"][el.get("area")] = el.get("side")
        elif tag == "pool" and el.get("name") in ("reinforcements", "out"):
            for unit in el.iter(f"{ns}unit"):
                if el.get("name") == "out":
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
    for rein in scenario.iter("{urn:pbem:module:1}reinforcement"):
        # The scenario's arrivals still to come, for the units the position does not
        # already place (on the map, waiting in the pool, or out).
        if charts.turn(rein.get("turn")).index > start and rein.get("piece") not in placed:
            state["schedule"].append([rein.get("piece"), rein.get("turn")])
    try:
        check_ids(charts, state)
        for entry in state["queue"]:
            charts.turn(entry["due"])
    except ModuleError as exc:
        raise InvalidInput(f"position file: {exc.message}") from None
    for area, side in state["control"].items():
        if side not in ("german", "soviet") or area not in charts.board:
            raise InvalidInput(f"position file: bad control {area}={side}")
    state["garrisons"].sort()
    problem = restriction_broken(charts, state)
    if problem:
        raise InvalidInput(f"position file: {problem}")
    state["control"] = compute_control(charts, state, state["control"])
    return state


def restriction_broken(charts: Charts, state: State) -> str | None:
    """What in a position the rules could never have produced (Movement, Restrictions)."""
    for area in sorted(set(state["units"].values())):
        units = units_in(state, area)
        nats = {charts.pieces[u].nationality for u in units}
        if {"romanian", "hungarian"} <= nats:
            return f"Romanian and Hungarian units cannot stack in the same area ({area})"
        if "romanian" in nats and area not in charts.romanian_allowed:
            return f"Romanian units cannot be north of the Romanian line ({area})"
        if area in state["garrisons"]:
            return f"a garrison and units cannot share an area ({area}): a unit removes it"
    if len(set(state["garrisons"])) != len(state["garrisons"]):
        return "an area holds two garrisons"
    return None
