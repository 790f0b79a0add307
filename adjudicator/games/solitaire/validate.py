"""What the schema cannot say about a Barbarossa Solitaire module: that its charts
have every row the rules read, and that its ids point at things that exist. A
module file a referee loads with `--module` is checked here before any game
starts with it."""

from __future__ import annotations

from adjudicator.engine.module import ModuleData
from adjudicator.errors import ModuleError
from adjudicator.games.solitaire.tables import Charts

OPTION_VALUES = {
    "soviet": {"hard", "medium", "easy", "no-purges", "random"},
    "variant": {"none", "japan-attacks", "no-lend-lease", "early-fury"},
    "free-placement": {"yes", "no"},
    "voluntary-alliance": {"yes", "no"},
    "hitlers-orders": {"yes", "no"},
    "mandatory-garrison": {"yes", "no"},
    "target-reading": {"either-place", "first-place"},
    "victory-count": {"all-areas", "soviet-areas"},
}
RANGE_SIZES = {1, 2, 3, 6}  # what soviet.roll_in_range can read from one d6


def check_module(module: ModuleData) -> None:
    """Raise ModuleError listing every problem found (schema validity is assumed)."""
    try:
        charts = Charts(module)
        problems = list(module_problems(module, charts))
    except (ModuleError, KeyError, ValueError) as exc:
        raise ModuleError(f"module {module.game}: {exc}") from None
    if problems:
        raise ModuleError(f"module {module.game} is incomplete: " + "; ".join(problems[:8])
                          + (f"; and {len(problems) - 8} more" if len(problems) > 8 else ""))


def module_problems(module: ModuleData, charts: Charts):  # noqa: ANN201 - a generator of str
    areas = set(charts.board.areas)
    turns = [t.id for t in charts.turns]
    for option, allowed in OPTION_VALUES.items():
        spec = charts.option_specs.get(option)
        if spec is None:
            yield f"option {option} is missing"
        elif not set(spec[1]) <= allowed or spec[0] not in spec[1]:
            yield f"option {option} must offer values among {sorted(allowed)} with its default"
    if len(set(turns)) != len(turns) or not turns:
        yield "the turn record needs turns with distinct ids"
    years = {int(y.get("value")) for y in module.findall("m:year-modifiers/m:year")}
    rows = {r.get("id"): r for r in module.findall("m:soviet-attack-chart/m:turn")}
    for turn in charts.turns:
        if turn.year not in years:
            yield f"no combat modifier for {turn.year}"
        if turn.id not in rows:
            yield f"the Soviet Attack Chart has no row for {turn.id}"
            continue
        low, _, high = rows[turn.id].get("random").partition("-")
        if int(low) > int(high) or int(high) - int(low) + 1 not in RANGE_SIZES:
            yield f"the Random column of {turn.id} must span 1, 2, 3 or 6 values"
    max_units, max_roll = charts.attack_limits
    chart = {int(r.get("units")): r.get("results").split()
             for r in module.findall("m:attack-chart/m:row")}
    if sorted(chart) != list(range(1, max_units + 1)) or \
            any(len(results) != max_roll for results in chart.values()):
        yield f"the Attack Chart needs rows 1-{max_units} with {max_roll} results each"
    if sorted(charts.random_attack_chart) != list(range(1, 7)):
        yield "the Soviet Random Attack Chart needs rows for rolls 1-6"
    for entry in charts.random_attack_chart.values():
        if entry.target == "nearest" and (not entry.places or not set(entry.places) <= areas):
            yield f"Random Attack Chart roll {entry.roll} names places that are not areas"
    if sorted(charts.soviet_effects) != [1, 2, 3]:
        yield "the Effects of Soviet Attack need rows for rolls 1-3"
    for count in range(len(areas) + 1):
        if not any(count >= v.low and (v.high is None or count <= v.high)
                   for v in charts.victory_levels):
            yield f"no victory level for {count} areas"
            break
    if not set(charts.supply_sources) <= areas or not charts.supply_sources:
        yield "the Soviet supply sources must be areas"
    for nat in charts.nationalities.values():
        if not set(nat.enters) <= areas or (nat.capital and nat.capital not in areas):
            yield f"the {nat.name} entry areas and capital must be areas"
    for sea, members in charts.seas.items():
        if not set(members) <= areas:
            yield f"sea area {sea} names an area that does not exist"
    for scenario in module.findall("m:scenarios/m:scenario"):
        yield from scenario_problems(charts, scenario, areas, turns)


def scenario_problems(charts: Charts, scenario, areas: set[str], turns: list[str]):  # noqa: ANN001, ANN201
    name = scenario.get("id")
    if scenario.get("start") not in turns or scenario.get("end") not in turns or \
            turns.index(scenario.get("start")) > turns.index(scenario.get("end")):
        yield f"scenario {name} must start and end on turns of the turn record, in order"
    for el in scenario:
        if not isinstance(el.tag, str):
            continue
        piece, area, turn = el.get("piece"), el.get("area"), el.get("turn")
        named_areas = el.get("areas", "").split() + ([area] if area else [])
        if piece is not None and piece not in charts.pieces:
            yield f"scenario {name} names unknown piece {piece}"
        if not set(named_areas) <= areas:
            yield f"scenario {name} names an unknown area in {sorted(named_areas)}"
        if turn is not None and turn not in turns:
            yield f"scenario {name} names unknown turn {turn}"
