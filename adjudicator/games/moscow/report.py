"""Moscow '41 in words and on the map: the report writer of the game (reports/games.py).

It works on projected steps only (projection.py): an untried Soviet unit is drawn as
its untried face, a "U" with its type and movement allowance, until it is revealed
(12.0); no strength of an unrevealed unit, and no counter behind a token, is ever in
a report. German units show their strength, reduced ones their reduced strength.
"""

from __future__ import annotations

import re
from typing import Any

from adjudicator.engine.module import ModuleData
from adjudicator.engine.report import (
    Calendar,
    CalendarPosition,
    Counter,
    DecisionView,
    LegendItem,
    Line,
    Loss,
    MapView,
    PositionRow,
    Section,
    Status,
    StepReport,
)
from adjudicator.games.moscow.data import Game, Piece, turn_dates, units_of
from adjudicator.games.moscow.flow import SEQUENCE
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.untried import commitment
from adjudicator.games.moscow.vocabulary import EVENT_RULES, WEATHER_ROLL_RULE, EventKind
from adjudicator.games.moscow.zoc import EnemyZones

FIELD_GRAY, EARTH_BROWN, SIBERIAN_BROWN = "#9aa583", "#c9955a", "#8a5a32"
GERMAN_ZOC, SOVIET_ZOC = "#3d4a2a", "#8c2d0f"
SIDE_NAMES = {"german": "German", "soviet": "Soviet"}
SYMBOLS = {"armor": "armor", "mechanized": "mechanized", "infantry": "infantry",
           "cavalry": "cavalry", "air": "air"}
PHASES = {"draw": "set-up: the Soviet draw", "setup": "set-up", "movement": "Movement Phase",
          "combat": "Combat Phase", "interdiction": "Air Interdiction Phase",
          "game-over": "game over"}
ECHELONS = {"division": "division", "brigade": "brigade"}


def designation(name: str) -> str:
    number = re.search(r"\d+", name)
    return number.group(0) if number else name[:4]


def piece_counter(piece: Piece, *, reduced: bool = False) -> Counter:
    """A counter that shows its strengths: German strength and MA (2.5), full or
    `reduced`; Soviet attack-defense-MA (2.6), tried. An untried Soviet counter's
    factors are its untried face (12.1 B, the face an export sets it up with, and one
    that does not say which counter it is) and then its tried face, the one shown."""
    soviet = piece.side == "soviet"
    factors: tuple[str, ...]
    face = concealed = 0
    if soviet:
        tried = f"{piece.attack}-{piece.defense}-{piece.movement}"
        factors = (f"U-{piece.movement}", tried) if piece.untried else (tried,)
        face = concealed = len(factors) - 1
        text = tried
    else:
        factors = (f"{piece.attack}-{piece.movement}", f"{piece.reduced}-{piece.movement}")
        face = 1 if reduced else 0
        text = factors[face]
    fill = (SIBERIAN_BROWN if piece.siberian else EARTH_BROWN) if soviet else FIELD_GRAY
    return Counter(text, designation(piece.name), fill, "#1d1d1b",
                   "#6b4524" if soviet else "#4e5a3b", piece.name, piece=piece.id,
                   side=piece.side, symbol=SYMBOLS.get(piece.type, ""), echelon="division",
                   factors=factors, face=face, concealed=concealed)


def untried_counter(token: str, face: dict[str, Any]) -> Counter:
    """The untried face (1.3.1 C, 12.1 B): U, the type and the MA; nothing else. Its
    one face is concealed: an export draws it exactly as every counter's untried face
    of that type and MA, so the face says nothing of which counter it is."""
    fill = SIBERIAN_BROWN if face["siberian"] else EARTH_BROWN
    return Counter(f"U-{face['movement']}", token, fill, "#1d1d1b", "#6b4524",
                   f"untried Soviet {face['type']} unit {token}", side="soviet",
                   symbol=SYMBOLS.get(face["type"], ""), echelon="division",
                   factors=(f"U-{face['movement']}",), concealed=1)


def unit_counter(game: Game, state: dict[str, Any], unit: str) -> Counter:
    face = state.get("tokens", {}).get(unit)
    if face is not None:
        piece_id = state.get("identity", {}).get(unit)
        if unit in state.get("revealed", []) and piece_id:
            return piece_counter(game.pieces[piece_id])
        return untried_counter(unit, face)
    return piece_counter(game.pieces[unit], reduced=state.get("steps", {}).get(unit) == 1)


def unit_name(game: Game, state: dict[str, Any], unit: str) -> str:
    face = state.get("tokens", {}).get(unit)
    if face is None:  # the id tells apart same-named units (the two 123rd, 2.8 B)
        return f"{game.pieces[unit].name} ({unit})" if unit in game.pieces else unit
    piece_id = state.get("identity", {}).get(unit)
    if unit in state.get("revealed", []) and piece_id:
        return f"{game.pieces[piece_id].name} ({unit})"
    return f"untried {face['type']} {unit}"


def zoc_hints(module: ModuleData, game: Game, state: dict[str, Any]) -> dict[str, list[str]]:
    """The empty hexes in each side's zones of control (5.0), rimmed on the map."""
    terrain = Terrain.of(module)
    occupied = set(state["units"].values())
    hints: dict[str, list[str]] = {}
    for side, colour in (("german", GERMAN_ZOC), ("soviet", SOVIET_ZOC)):
        for h in sorted(EnemyZones.of(terrain, units_of(game, state, side)).zoc):
            if game.board.label(h) not in occupied:
                hints.setdefault(game.board.label(h), []).append(colour)
    return hints


def phase_words(state: dict[str, Any]) -> str:
    if state.get("phase") in ("draw", "setup", "game-over"):
        who = SIDE_NAMES.get(state["player"], state["player"])
        return PHASES[state["phase"]] + ("" if state["phase"] == "game-over" else f" ({who})")
    return f"{SIDE_NAMES[state['player']]} {PHASES[state['phase']]}"


class MoscowReporter:
    game = "moscow"

    def turn_name(self, module: ModuleData, turn: int) -> str:
        dates = turn_dates(module).get(turn)
        days = f" ({dates[0]} to {dates[1]})" if dates is not None else ""
        return f"Turn {turn}{days}"

    def narrate(self, step: StepReport) -> list[Section]:
        game = Game.of(step.module)
        state = step.state_after
        sections: dict[str, Section] = {}
        titles = {"sequence": "Sequence of play", "setup": "Set-up", "move": "Movement",
                  "combat": "Combat", "untried": "Untried units", "decision": "Decisions"}
        rolls = 0

        def say(key: str, text: str, rule: str | None, used: list[int] | None = None) -> None:
            section = sections.setdefault(key, Section(key, titles[key]))
            section.lines.append(Line([text], rule, key, used or []))

        drawn = 0
        if step.seq <= 1:  # a game from a position file: its tokens came with it
            for token, face in sorted(step.state_before.get("tokens", {}).items()):
                say("untried", f"{token}: untried {face['type']}, MA {face['movement']} "
                    f"(from the starting position); commitment {face['commitment']}",
                    EVENT_RULES[EventKind.UNTRIED_DRAWN])
        for e in step.events:
            kind = e.get("kind")
            rule = EVENT_RULES.get(kind) or None  # a str finds its StrEnum key
            if kind == "roll":
                rolls += 1
                if str(e.get("purpose", "")).startswith("weather"):
                    say("sequence", f"Weather roll: {e['value']}", WEATHER_ROLL_RULE, [rolls])
            elif kind == "untried-drawn":  # 12.1: each token's commitment, published
                drawn += 1
                say("untried", f"{e['token']}: untried {e['type']}, MA {e['movement']}"
                    f"{', Siberian' if e['siberian'] else ''}; commitment "
                    f"{e['commitment']}", rule)
            elif kind == "setup-drawn":
                say("setup", f"{drawn} Soviet units drawn from the cup, untried face up; "
                    "the Siberian divisions wait on Turns 3 to 6 (which one where, nobody "
                    "knows)", rule)
            elif kind == "unit-placed":
                say("setup", f"{unit_name(game, state, e['unit'])} set up at {e['hex']}",
                    rule)
            elif kind == "units-moved":
                names = ", ".join(unit_name(game, state, u) for u in e["units"])
                spent = "; ".join(f"{u} {'+'.join(e['mps'][u])} MP" for u in e["units"])
                say("move", f"{names}: {' → '.join(e['path'])} ({spent})", rule)
            elif kind == "unit-eliminated":
                say("combat", f"{unit_name(game, state, e['unit'])} is destroyed",
                    str(e["rule"]))
            elif kind == "air-interdicted":
                say("move", f"{game.pieces[e['air']].name} interdicts {e['hex']}", rule)
            elif kind == "reinforcement-drawn":
                say("move", f"Soviet reinforcement {e['token']} drawn from the cup", rule)
            elif kind == "reinforcement-entered":
                stops = (", in an enemy zone of control, where it stops (4.7 B)"
                         if e.get("halted") else "")  # module 0.2.0 records it
                say("move", f"{unit_name(game, state, e['unit'])} enters at {e['hex']} "
                    f"({e['mps']} MP){stops}", rule)
            elif kind == "reinforcement-lost":
                say("move", f"Reinforcement {e['unit']} cannot enter and is lost", e["rule"])
            elif kind == "attack-declared":
                names = ", ".join(unit_name(game, state, u) for u in e["attackers"])
                air = f" with {', '.join(e['air'])}" if e.get("air") else ""
                say("combat", f"{names} {'overrun' if e['combat'] == 'overrun' else 'attack'} "
                    f"{' and '.join(e['hexes'])}{air}", e["rule"])
            elif kind == "air-committed":
                say("combat", f"Air units committed for the turn: {', '.join(e['units'])}",
                    e["rule"])
            elif kind == "combat-resolved":
                shifts = ", ".join(f"{s['name']} {s['columns']:+d} ({s['rule']})"
                                   for s in e["shifts"] if s["columns"])
                say("combat", f"{e['attack']} against {e['defense']}: {e['initial']}"
                    + (f", shifted by {shifts}" if shifts else "") + f", read on "
                    f"{e['final']}; roll {e['roll']}: {e['result']}", rule, [rolls])
            elif kind == "loss-chosen":
                say("combat", f"{SIDE_NAMES.get(e['side'], e['side'])} {e['party']}: "
                    f"{e.get('choice', e.get('part'))}", rule)
            elif kind == "unit-reduced":
                say("combat", f"{unit_name(game, state, e['unit'])} loses a step",
                    str(e["rule"]))
            elif kind == "unit-retreated":
                say("combat", f"{unit_name(game, state, e['unit'])} retreats "
                    f"{' → '.join(e['path'])}", str(e["rule"]))
            elif kind == "units-advanced":
                moves = "; ".join(f"{unit_name(game, state, m['unit'])} to "
                                  f"{' → '.join(m['path'])}" for m in e["moves"])
                if moves:
                    say("combat", f"Advance after combat: {moves}", str(e["rule"]))
                for skipped in e.get("skipped", []):
                    say("combat", f"{unit_name(game, state, skipped['unit'])} does not "
                        f"advance: {skipped['why']}", str(skipped["rule"]))
            elif kind == "standing-instruction-used":
                say("decision", f"{SIDE_NAMES.get(e['side'], e['side'])} standing instruction "
                    f"{e.get('instruction')}: {e.get('choice')}", None)
            elif kind == "standing-set":
                say("decision", f"{SIDE_NAMES[e['side']]} standing instructions: "
                    + (", ".join(f"{k}={v}" for k, v in e["values"].items()) or "none"),
                    None)
            elif kind == "untried-revealed":
                piece = game.pieces[e["piece"]]
                committed = state.get("tokens", {}).get(e["token"], {}).get("commitment")
                check = commitment(e["token"], e["piece"], e["attack"], e["defense"],
                                   e["salt"])
                verdict = "matches its commitment" if check == committed else \
                    "DOES NOT match its commitment"
                say("untried", f"{e['token']} is revealed: {piece.name}, attack {e['attack']}, "
                    f"defense {e['defense']}; with the salt {e['salt']} this {verdict} "
                    f"{committed}", e["rule"])
            elif kind == "phase-ended":
                say("sequence", f"The {phase_words(e)} begins", rule)
            elif kind == "turn-began":
                say("sequence", f"{self.turn_name(step.module, e['turn'])} begins: "
                    f"{e['weather']}", rule)
            elif kind == "decision-requested":
                r = e["request"]
                say("decision", f"Decision {r['id']} opened for the "
                    f"{SIDE_NAMES.get(r['side'], r['side'])} player ({r['kind']})", r["rule"])
            elif kind == "decision-answered":
                say("decision", f"Decision {e['id']} answered: {e['choice']}", None)
            elif kind == "game-ended":
                say("sequence", f"The game ends: {e['result']['level']}", e["result"]["rule"])
        return list(sections.values())

    def losses(self, step: StepReport) -> list[Loss]:
        game = Game.of(step.module)
        before = step.state_before.get("units", {})
        return [Loss(unit_name(game, step.state_after, e["unit"]),
                     before.get(e["unit"], "(not on the map)"), e.get("rule", ""),
                     str(e.get("rule", "")), "")
                for e in step.events if e.get("kind") == "unit-eliminated"]

    def status(self, module: ModuleData, state: dict[str, Any]) -> Status:
        status = Status(self.turn_name(module, int(state["turn"])), phase_words(state))
        if state.get("result"):
            status.result = str(state["result"]["level"])
        status.facts += [("Weather", str(state["weather"])),
                         ("Untried Soviet units", str(sum(
                             1 for t in state["tokens"] if t in state["units"]
                             and t not in state["revealed"]))),
                         ("German air units committed", ", ".join(state["air_used"]) or
                          "none")]
        return status

    def position(self, module: ModuleData, state: dict[str, Any]) -> list[PositionRow]:
        game = Game.of(module)
        stacks: dict[str, list[str]] = {}
        for unit, label in sorted(state["units"].items()):
            stacks.setdefault(label, []).append(unit_name(game, state, unit))
        # who holds the hex: its occupant's side, which is also the side that last entered it
        return [PositionRow(label, state.get("last_occupied", {}).get(
                    label, game.side_of[game.board.hex(label)]), False, units, False)
                for label, units in sorted(stacks.items())]

    def decision(self, module: ModuleData, request: dict[str, Any]) -> DecisionView:
        context = request.get("context", {})
        where = " and ".join(context.get("hexes", []))
        questions = {"overstack-elimination":
                     f"{context.get('hex')} holds more than {context.get('limit')} enemy "
                     "units at the end of their Movement Phase: which one is destroyed?",
                     "air-on-defence": f"How many air units do you place on your units "
                     f"attacked in {where} (11.0 B)? They are placed before the untried "
                     "units are revealed (11.2).",
                     "loss": f"The result in {where} is {context.get('part')} for your "
                     "units: lose steps or retreat (8.9 D-E)?",
                     "retreat": f"Which way does {context.get('unit', 'the unit')} retreat "
                     f"from {where} (8.10-8.11)? `later`: retreat it after your others.",
                     "defender-advance": f"Your units in {where} held: which of them "
                     "advances into a hex the attackers left (ID@HEX, one at a time), or "
                     "none (8.12 C)?"}
        return DecisionView(request["id"], request["kind"], request["rule"],
                            questions.get(request["kind"], request["kind"]),
                            [(o, o) for o in request["options"]],
                            '<standing air-on-defence="N" loss="retreat" retreat="first" '
                            'advance="never"/>')

    def order_hints(self, module: ModuleData, state: dict[str, Any], side: str) -> list[str]:
        game = Game.of(module)
        hints = [f"{self.turn_name(module, int(state['turn']))}, {phase_words(state)}; "
                 f"weather {state['weather']}. Orders: docs/moscow-orders.md"]
        if state["phase"] == "draw" and side == "soviet":
            hints.append("  <draw/> draws every Soviet unit from the cup (1.3.1 C)")
        if state["phase"] == "setup" and side == "soviet":
            waiting = [t for t, f in sorted(state["tokens"].items())
                       if not f["siberian"] and t not in state["units"]]
            for token in waiting:
                face = state["tokens"][token]
                hints.append(f"  {token}: untried {face['type']}, MA {face['movement']}")
        waiting = state.get("arriving", {}).get(str(state["turn"]), [])
        if side == "soviet" and waiting and state["phase"] == "movement":
            hints.append(f"  reinforcements to enter this Movement Phase (14.0, 14.3): "
                         f"{', '.join(waiting)}; entry hexes: "
                         f"{', '.join(sorted(game.board.label(h) for h in game.entries))}")
        if state["phase"] == "setup" and side == "german":
            hints.append(f"  to set up west of the front line: {', '.join(state['unplaced'])}")
        for unit, label in sorted(state["units"].items()):
            mine = (unit in state["tokens"]) == (side == "soviet")
            if mine:
                hints.append(f"  {unit} in {label}: {unit_name(game, state, unit)}")
        return hints

    def describe_order(self, module: ModuleData, order: dict[str, Any]) -> str:
        a = order.get("attrs") or {}
        words = {"draw": "draw the Soviet units from the cup",
                 "place": f"set up {a.get('unit')} at {a.get('hex')}",
                 "move": f"move {a.get('units')} along {a.get('path')}",
                 "interdict": f"interdict {a.get('hex')} with {a.get('air')}",
                 "enter": f"enter {a.get('unit')} at {a.get('hex')}",
                 "end-phase": "end the phase",
                 "answer": f"answer decision {a.get('decision')}: {a.get('choice')}"}
        return words.get(order.get("kind", ""), str(order.get("kind", "")))

    def map_view(self, module: ModuleData, state: dict[str, Any], side: str,
                 caption: str | None = None) -> MapView:
        game = Game.of(module)
        counters: dict[str, list[Counter]] = {}
        for unit, label in sorted(state["units"].items()):
            counters.setdefault(label, []).append(unit_counter(game, state, unit))
        title = f"Moscow '41 — {self.turn_name(module, int(state['turn']))}"
        subtitle = " · ".join([caption or f"{SIDE_NAMES.get(side, side)} player's view",
                               phase_words(state), f"weather {state['weather']}"])
        legend = [LegendItem("counter", "German unit (strength-MA)",
                             counter=piece_counter(next(p for p in game.pieces.values()
                                                        if p.side == "german"
                                                        and p.type != "air"))),
                  LegendItem("counter", "Untried Soviet unit (U-MA)",
                             counter=untried_counter("U", {"type": "infantry", "movement": 5,
                                                           "siberian": False}))]
        legend += [LegendItem("rim", "In a German zone of control (5.0)", fill="none",
                              stroke=GERMAN_ZOC),
                   LegendItem("rim", "In a Soviet zone of control (5.0)", fill="none",
                              stroke=SOVIET_ZOC)]
        return MapView(title, subtitle, {}, {}, [], set(), counters, legend,
                       zoc_hints(module, game, state))

    def counter_mix(self, module: ModuleData) -> list[Counter]:
        game = Game.of(module)
        return [piece_counter(p) for _, p in sorted(game.pieces.items()) if p.type != "air"]

    def calendar(self, module: ModuleData) -> Calendar:
        turns = [self.turn_name(module, t) for t in range(1, 14)]
        phases = [f"{SIDE_NAMES[side]} {PHASES[phase]}" for side, phase in SEQUENCE]
        return Calendar(turns, phases + ["Game Turn Indication Phase"])

    def calendar_position(self, module: ModuleData, state: dict[str, Any]) -> CalendarPosition:
        turn = min(max(int(state["turn"]), 1), 13) - 1
        key = (state.get("player"), state.get("phase"))
        if key in SEQUENCE:
            return CalendarPosition(turn, SEQUENCE.index(key))
        # the draw and the set-up come before the first phase; a finished game stands
        # at the end of its last turn
        return CalendarPosition(turn, len(SEQUENCE) if state.get("phase") == "game-over" else 0)


REPORTER = MoscowReporter()
