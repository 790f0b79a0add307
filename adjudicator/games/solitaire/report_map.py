"""What the Barbarossa Solitaire map shows: control (German-side grey, Soviet-side white,
as the rulebook's map), each area's start side as a thin rim, the front, and the
counters (army-group band on German armies; allies in their own colours;
garrisons as a small 'G' marker)."""

from __future__ import annotations

import dataclasses
from typing import Any

from adjudicator.engine.report import CalendarPosition, Counter, LegendItem, MapView
from adjudicator.engine.stacking import stacks
from adjudicator.games.solitaire import control
from adjudicator.games.solitaire.flow import TURN
from adjudicator.games.solitaire.report_lexicon import PHASES, Lexicon, plural
from adjudicator.games.solitaire.victory import german_controlled_count
from adjudicator.games.solitaire.vocabulary import GARRISON as GARRISON_PIECE
from adjudicator.games.solitaire.vocabulary import Nationality, Phase, Side

GERMAN_AREA = "#bcbcb2"
SOVIET_AREA = "#fbf2ee"
GERMAN_RIM = "#5d5d55"
SOVIET_RIM = "#dc8a78"
# the renderer's colours of the sea areas' circles, in the order of the module's seas
# (reports/areamap.py SEA_COLOURS, which a game may not import; a test keeps them equal)
SEA_COLOURS = ("#1f6fb2", "#12a3a3", "#7b3fa0", "#d4731c", "#3a8f3a", "#b8327a")
# counters: body, text, band
NATIONALITY_STYLE = {
    Nationality.GERMAN: ("#7c826e", "#ffffff", "#3f4437"),
    Nationality.ROMANIAN: ("#ecd55a", "#1d1d1b", "#a08512"),
    Nationality.HUNGARIAN: ("#4e8a3b", "#ffffff", "#2c5620"),
    Nationality.ITALIAN: ("#b9dc9e", "#1d1d1b", "#5b8c40"),
}
# German armies carry their army group's colour on the band (translator's note)
GROUP_BAND = {"AGN": "#2f5f8f", "AGC": "#2b2b28", "AGS": "#8f3a2c", "GER": "#5b4a80"}
GROUP_NAMES = {"AGN": "Army Group North", "AGC": "Army Group Centre",
               "AGS": "Army Group South", "GER": "German reinforcement"}
# the phases of a turn on the official sheet's sequence of play (the turn tracker's)
CALENDAR_PHASES = tuple(p.name for p in TURN.phases if p.when is None)  # no set-up
GARRISON = Counter("G", "", "#ffffff", "#1d1d1b", "", "Garrison", marker=True,
                   piece=GARRISON_PIECE, side=Side.GERMAN.value)


def units_by_area(lex: Lexicon, state: dict[str, Any]) -> dict[str, list[str]]:
    """The stacks, by area id, each Germans first."""
    return {a: sorted(us, key=lex.nationality_rank)
            for a, us in sorted(stacks(state.get("units", {})).items())}


def front_line(lex: Lexicon, state: dict[str, Any]) -> list[str]:
    """Areas with German forces (garrisons too) adjacent to a Soviet-controlled area:
    the rules' own definition, applied to the (projected) state."""
    assert lex.charts is not None
    return control.front_line(lex.charts, state)


def german_count(lex: Lexicon, state: dict[str, Any]) -> int:
    """The German-controlled areas, all of them (Victory Conditions' count)."""
    assert lex.charts is not None
    return german_controlled_count(lex.charts, state, only_soviet_start=False)


def counter_for(lex: Lexicon, unit: str) -> Counter:
    nat = lex.nationality(unit)
    body, ink, band = NATIONALITY_STYLE.get(nat, NATIONALITY_STYLE[Nationality.GERMAN])
    group = lex.group(unit)
    if nat == Nationality.GERMAN:
        band = GROUP_BAND.get(group, band)
    # every counter of the game is an army (rules: Initial Setup)
    return Counter(lex.short(unit), group, body, ink, band, lex.unit(unit), piece=unit,
                   side=Side.GERMAN.value, symbol="infantry", echelon="army")


def counter_mix(lex: Lexicon) -> list[Counter]:
    """The armies of the module and the garrison marker."""
    units = sorted(lex.pieces, key=lex.nationality_rank)
    return [counter_for(lex, u) for u in units] + [GARRISON]


def map_view(lex: Lexicon, state: dict[str, Any], side: str, caption: str | None = None) -> MapView:
    control = state.get("control", {})
    fills = {a: GERMAN_AREA if control.get(a) == Side.GERMAN else SOVIET_AREA
             for a in lex.areas}
    rims = {a: GERMAN_RIM if lex.start_side.get(a) == Side.GERMAN else SOVIET_RIM
            for a in lex.areas if lex.start_side.get(a)}
    front = sorted((a, b) for a in lex.areas if control.get(a) == Side.GERMAN
                   for b in lex.adjacent.get(a, ()) if control.get(b) == Side.SOVIET)
    counters: dict[str, list[Counter]] = {}
    for area in sorted(state.get("garrisons", [])):
        counters.setdefault(area, []).append(
            dataclasses.replace(GARRISON, title=f"Garrison in {lex.area(area)}"))
    for area, units in units_by_area(lex, state).items():
        counters.setdefault(area, []).extend(counter_for(lex, u) for u in units)

    phase = str(state.get("phase", ""))
    when = lex.turn(state.get("turn"))
    title = f"{lex.title} — {when}"
    title += ", game over" if phase == Phase.GAME_OVER else f", {PHASES.get(phase, phase)} phase"
    result = state.get("result")
    facts = [f"{plural(german_count(lex, state), 'German-controlled area')}",
             f"{plural(len(front_line(lex, state)), 'front-line area')}"]
    if result:
        facts.insert(0, str(result.get("level")))
    subtitle = " · ".join([caption or f"{side.capitalize()} player's view", *facts])
    return MapView(title, subtitle, fills, rims, front, set(front_line(lex, state)), counters,
                   legend(lex))


def legend(lex: Lexicon) -> list[LegendItem]:
    items = [
        LegendItem("area", "German-controlled", fill=GERMAN_AREA, mark="German"),
        LegendItem("area", "Soviet-controlled", fill=SOVIET_AREA, mark="Soviet"),
        LegendItem("rim", "German side at start", fill="none", stroke=GERMAN_RIM),
        LegendItem("rim", "Soviet side at start", fill="none", stroke=SOVIET_RIM),
        LegendItem("front", "Front line"),
    ]
    seen: set[str] = set()
    order = list(GROUP_NAMES)
    for unit in sorted(lex.pieces, key=lambda u: (
            lex.nationality_rank(u)[0], order.index(lex.group(u)) if lex.group(u) in order
            else len(order), lex.nationality_rank(u))):
        nat = lex.nationality(unit)
        key = lex.group(unit) if nat == Nationality.GERMAN else nat
        if key in seen:
            continue
        seen.add(key)
        name = GROUP_NAMES.get(key, f"{key} army") if nat == Nationality.GERMAN else \
            f"{lex.nationality_name(nat)} army"
        sample = counter_for(lex, unit)
        items.append(LegendItem("counter", name, counter=Counter(
            sample.text, sample.band, sample.fill, sample.ink, sample.band_fill, name)))
    items.append(LegendItem("counter", "Garrison", counter=GARRISON))
    for i, (name, _) in enumerate(lex.seas.values()):
        items.append(LegendItem("sea", name, fill=SEA_COLOURS[i % len(SEA_COLOURS)]))
    return items


def calendar_position(lex: Lexicon, state: dict[str, Any]) -> CalendarPosition:
    """Where a state stands on the turn record and the sequence of play."""
    turns = list(lex.turns)
    turn = turns.index(state["turn"]) if state.get("turn") in turns else len(turns) - 1
    phase = str(state.get("phase", ""))
    if phase in CALENDAR_PHASES:
        return CalendarPosition(turn, CALENDAR_PHASES.index(phase))
    # the set-up comes before the first phase; a finished game stands at the end
    return CalendarPosition(turn, len(CALENDAR_PHASES) - 1 if phase == Phase.GAME_OVER else 0)
