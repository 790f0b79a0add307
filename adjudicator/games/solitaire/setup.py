"""Initial Setup and Scenarios: the state a game starts from (position files:
position.py).

Initial Setup: Konigsberg 18th and 16th Armies, Warsaw 2nd, 4th and 9th, Slovakia 6th,
11th and 17th, Bucharest the Romanian 3rd and 4th; garrisons in Silesia, Budapest,
Belgrade, Prague and Berlin; any area without German units is Soviet-controlled. The
scenarios Operation Blau and Operation Uranus place their units and garrison every
German-controlled area behind the front line.
"""

from __future__ import annotations

from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.errors import ModuleError
from adjudicator.games.solitaire.control import compute_control, units_in
from adjudicator.games.solitaire.data import Charts, Scenario, charts_of
from adjudicator.games.solitaire.vocabulary import GAME, Option, Phase, Side, Switch


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


def empty_state(charts: Charts, scenario: Scenario, options: dict[str, str], turn: str) -> State:
    """A state with nothing placed yet: control as the areas start (German-side grey,
    Soviet-side white)."""
    return {
        "game": GAME,
        "scenario": scenario.id,
        "end": scenario.end,
        "options": options,
        "turn": turn,
        "phase": Phase.MOVEMENT,
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
    """Initial Setup (or a scenario's): units, garrisons, control and reinforcements; the
    Voluntary alliance option adds its units; Free placement takes them all off the map
    to be placed."""
    charts = charts_of(module)
    scenario = charts.scenario(scenario_id)
    options = resolve_options(charts, options)
    state = empty_state(charts, scenario, options, scenario.start)
    chosen = [p for p in scenario.places if not p.option or options.get(p.option) == Switch.YES]
    placed_by_option = {p.piece for p in chosen if p.option}
    for place in chosen:
        state["units"][place.piece] = place.area
    state["garrisons"] = sorted(scenario.garrisons)
    for area, side in scenario.control:
        state["control"][area] = side
    for arrival in scenario.reinforcements:
        if arrival.piece not in placed_by_option:
            state["schedule"].append([arrival.piece, arrival.turn])
    check_ids(charts, state)
    if scenario.rear_garrisons:
        place_rear_garrisons(charts, state)  # the scenario's German-held areas
    state["control"] = compute_control(charts, state, state["control"])
    if scenario.rear_garrisons:
        place_rear_garrisons(charts, state)  # and the areas the set-up cuts off
    if options[Option.FREE_PLACEMENT] == Switch.YES:
        # Control follows each placement (optional.place_unit); the Restrictions that
        # follow from it apply when play begins (flow.end_phase).
        state["unplaced"] = sorted(state["units"])
        state["units"] = {}
        state["phase"] = Phase.SETUP
        state["control"] = compute_control(charts, state, state["control"])
    queue_start_reinforcements(state)
    return state


def place_rear_garrisons(charts: Charts, state: State) -> None:
    """Scenarios: 'Place garrisons in all German-controlled areas behind the front line'
    (RULES-ISSUES.md #17: every German-controlled area without units). Placed before
    control is computed, so that the scenario's empty German areas are held and not
    traced to a Soviet source."""
    for area in charts.board:
        if state["control"][area] == Side.GERMAN and not units_in(state, area) \
                and area not in state["garrisons"]:
            state["garrisons"].append(area)
    state["garrisons"].sort()


def queue_start_reinforcements(state: State) -> None:
    """The reinforcements due in the first turn wait to enter from the start."""
    for unit, due in state["schedule"]:
        if due == state["turn"] and unit not in state["units"]:
            state["queue"].append({"unit": unit, "due": due})


def arriving_later(state: State) -> list[str]:
    """The units the schedule brings in a later turn (the scenario's reinforcements, the
    units that return) that are nowhere else now."""
    elsewhere = {*state["units"], *(e["unit"] for e in state["queue"]), *state["out"],
                 *state["unplaced"]}
    return sorted({unit for unit, _ in state["schedule"]} - elsewhere)


def check_ids(charts: Charts, state: State) -> None:
    """ModuleError for a set-up that names what the module lacks, or a unit twice."""
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
