"""1941: Operation Barbarossa in words and on the map: the report writer of the game
(reports/games.py), told from the events of a step with the rules they apply.

1941 hides nothing from either player, so both sides' reports show the whole board.
Counters carry the rulebook's colours (1.2.1): black on gray-green for the Germans,
white on gray-green for their allies, black on gold-brown for the Soviets, white on
gold-brown for the shock armies.
"""

from __future__ import annotations

import re
from typing import Any

from adjudicator.engine.module import ModuleData
from adjudicator.games.barbarossa.game import Game, Piece, enemy_zones
from adjudicator.games.barbarossa.movement import movement_allowance
from adjudicator.games.barbarossa.rules import SEQUENCE
from adjudicator.reports.model import (
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

GRAY_GREEN, GOLD_BROWN = "#9aa583", "#c9955a"
AXIS_HELD, SOVIET_HELD = "#7d8a66", "#b5562f"
AXIS_ZOC, SOVIET_ZOC = "#3d4a2a", "#8c2d0f"
SIDE_NAMES = {"axis": "German", "soviet": "Soviet"}
SEGMENTS = {"air": "Air Segment", "first": "First Ground Segment",
            "second": "Second Ground Segment", "deployment": "set-up (20.6)"}
SYMBOLS = {"armor": "armor", "infantry": "infantry", "mountain": "mountain",
           "shock": "infantry"}
ECHELONS = {"corps": "corps", "group": "army", "army": "army"}
RULE_WORDS = {"7.7.1": "attacker eliminated", "7.7.5": "defender eliminated",
              "7.7.6 A": "exchange: defenders eliminated",
              "7.7.6 B": "exchange: the attacker's loss", "7.8.2 B": "no retreat possible",
              "14.1.3 D": "could not enter", "16.0 A": "surrendered, cut off",
              "20.1.1 B": "overstacked in the Baltic Sea Fleet's hex once it is neutralized",
              "20.4.1": "drowned in the thaw"}


def designation(piece: Piece) -> str:
    """The band text: the unit's number and kind, e.g. "46 Pz", "11", "PzGr 2"."""
    number = re.search(r"\d+", piece.name)
    digits = number.group(0) if number else piece.id.rsplit("-", 1)[-1][:4]
    if piece.size == "group":
        return f"{'PzGr' if piece.side == 'axis' else 'TkGr'} {digits}"
    return f"{digits} {'Pz' if piece.armor and piece.side == 'axis' else ''}".strip()


def counter(piece: Piece) -> Counter:
    soviet = piece.side == "soviet"
    white = piece.type == "shock" if soviet else piece.nationality != "german"
    ink = "#ffffff" if white else "#1d1d1b"
    return Counter(f"{piece.attack}-{piece.movement}", designation(piece),
                   GOLD_BROWN if soviet else GRAY_GREEN, ink,
                   "#6b4524" if soviet else "#4e5a3b", piece.name, piece=piece.id,
                   side=piece.side, symbol=SYMBOLS[piece.type], echelon=ECHELONS[piece.size],
                   factors=(f"{piece.attack}-{piece.movement}",))


def zoc_hints(game: Game, state: dict[str, Any]) -> dict[str, list[str]]:
    """The empty land hexes in each side's zones of control as the rules see them now
    (6.0, 13.5 C, 17.1.3): what the report's map rims."""
    occupied = set(state["units"].values())
    zones = [(AXIS_ZOC, enemy_zones(game, state, "soviet").any),
             (SOVIET_ZOC, enemy_zones(game, state, "axis").any)]
    hints: dict[str, list[str]] = {}
    for colour, hexes in zones:
        for h in sorted(hexes):
            label = game.board.label(h)
            if label not in occupied and game.board.terrain[h] not in ("sea", "lake"):
                hints.setdefault(label, []).append(colour)
    return hints


def phase_words(state: dict[str, Any]) -> str:
    if state.get("phase") == "game-over":
        return "game over"
    side = SIDE_NAMES.get(state["player"], state["player"])
    segment = SEGMENTS.get(state["segment"], state["segment"])
    phase = "" if state["phase"] in ("air", "deployment") else f", {state['phase']} phase"
    return f"{side} player turn, {segment}{phase}"


class BarbarossaReporter:
    game = "barbarossa"

    def turn_name(self, module: ModuleData, turn: int) -> str:
        record = Game.of(module).charts.turn(turn)
        return f"{record.month} {record.year} (Turn {turn})"

    # -- words ---------------------------------------------------------------------------
    def narrate(self, step: StepReport) -> list[Section]:
        game = Game.of(step.module)
        name = {u: p.name for u, p in game.pieces.items()}
        sections: dict[str, Section] = {}
        titles = {"sequence": "Sequence of play", "move": "Movement", "combat": "Combat",
                  "supply": "Supply", "air": "Air power", "decision": "Decisions"}
        rolls = 0

        def say(key: str, text: str, rule: str | None, used: list[int] | None = None) -> None:
            section = sections.setdefault(key, Section(key, titles[key]))
            section.lines.append(Line([text], rule, key, used or []))

        for e in step.events:
            kind = e.get("kind")
            if kind == "roll":
                rolls += 1
            elif kind == "phase-ended":
                say("sequence", f"The {SEGMENTS.get(e['segment'], e['segment'])} "
                    f"{'' if e['phase'] == 'air' else e['phase'] + ' phase '}begins",
                    "2.0")
            elif kind == "player-turn-ended":
                say("sequence", f"The {SIDE_NAMES[e['player']]} player turn begins", "2.0 B")
            elif kind == "turn-began":
                say("sequence", f"{self.turn_name(step.module, e['turn'])} begins: weather "
                    f"{e['weather']}, air points German {e['air']['axis']}, Soviet "
                    f"{e['air']['soviet']}", "13.0, 10.1")
            elif kind == "supply-traced":
                cut = [name[u] for u in e["unsupplied"]]
                say("supply", f"{SIDE_NAMES[e['side']]} supply traced: "
                    + (f"out of supply: {', '.join(cut)}" if cut else "every unit in supply"),
                    "8.0 B")
            elif kind == "unit-moved":
                say("move", f"{name[e['unit']]} moves {' → '.join(e['path'])} "
                    f"({sum(e['mps'])} MP)", "5.0")
            elif kind == "unit-railed":
                say("move", f"{name[e['unit']]} moves by rail {e['path'][0]} → "
                    f"{e['path'][-1]}", "5.4")
            elif kind == "unit-shipped":
                fleet = game.fleets[e["fleet"]].name
                say("move", f"The {fleet} carries {name[e['unit']]} {e['path'][0]} → "
                    f"{e['path'][-1]}", e["rule"])
            elif kind == "fleet-neutralized":
                how = f"by {e['points']} German air points" if e["points"] else \
                    "by German control"
                say("air" if e["points"] else "move", f"The {game.fleets[e['fleet']].name} is "
                    f"neutralized {how} for the rest of the game", e["rule"])
            elif kind == "partisans-declared":
                say("move", f"Soviet partisans cut the Axis rail capacity to one corps on Turn "
                    f"{e['turn']}", "20.2")
            elif kind == "rail-bombed":
                say("air", f"German air bombs Soviet railroads with {e['points']} air points: "
                    f"the Soviet rail capacity drops by {2 * e['points']}", "20.3")
            elif kind == "air-supplied":
                say("air", f"{name[e['unit']]} is supplied by air ({e['points']} air points)",
                    "20.5")
            elif kind == "unit-entered":
                say("move", f"{name[e['unit']]} enters play at {e['hex']}", "14.1")
            elif kind == "unit-deployed":
                say("move", f"{name[e['unit']]} is deployed at {e['to']}", "20.6")
            elif kind == "unit-withdrawn":
                say("move", f"{name[e['unit']]} leaves the set-up: it arrives on Turn "
                    f"{e['turn']} instead", "20.6.3 B")
            elif kind == "unit-replaced":
                say("move", f"{name[e['unit']]} returns as a replacement at {e['hex']}",
                    "14.2")
            elif kind == "replacements-reduced":
                say("move", f"Moscow ({e['hex']}) is Axis controlled as the Soviet First "
                    f"Movement Phase begins: the Soviet replacements of Turn {e['turn']} are "
                    "one infantry-type unit fewer, even if Moscow is retaken", "14.2.4 B")
            elif kind == "control-changed":
                say("move", f"{e['hex']} is now {SIDE_NAMES[e['side']]}-controlled", "4.0 B")
            elif kind == "air-negated":
                say("air", f"{SIDE_NAMES[e['side']]} air negates {e['points']} enemy air "
                    "points", "10.4")
            elif kind == "attack-declared":
                units = ", ".join(name[u] for u in e["attackers"])
                held = ", ".join(name[u] for u in e["defenders"])
                verb = "attacks" if len(e["attackers"]) == 1 else "attack"
                say("combat", f"{units} {verb} {e['hex']} ({held})"
                    + (f" with {e['air']} air points" if e["air"] else "")
                    + (f"; {name[e['naval']]} attacks from the sea with the "
                       f"{game.fleets[e['fleet']].name}, as across a river" if e.get("naval")
                       else ""), "20.1.2 A" if e.get("naval") else "7.1")
            elif kind == "attack-resolved":
                parts = {"terrain (7.6)": e.get("shifts", {}).get("terrain", 0),
                         "armor (9.1)": e.get("shifts", {}).get("armor", 0),
                         "attacking air (10.2 A)": e["air"]["attacker"],
                         "defending air (10.2 B)": -e["air"]["defender"]}
                why = ", ".join(f"{k} {v:+d}" for k, v in parts.items() if v)
                say("combat", f"{e['attack']} against {e['defence']}, column shift "
                    f"{e['shift']:+d}{f' ({why})' if why else ''}: {e['odds']}; roll "
                    f"{e['roll']}: {e['result']}", "7.4, 7.7", [rolls])
            elif kind == "unit-eliminated":
                say("combat", f"{name[e['unit']]} is eliminated "
                    f"({RULE_WORDS.get(e['rule'], e['rule'])})", str(e["rule"]))
            elif kind == "unit-retreated":
                say("combat", f"{name[e['unit']]} retreats to {e['to']}", "7.8")
            elif kind == "unit-advanced":
                say("combat", f"{name[e['unit']]} advances into {e['to']}", "7.8.3")
            elif kind == "decision-requested":
                r = e["request"]
                say("decision", f"Decision {r['id']} opened for the "
                    f"{SIDE_NAMES.get(r['side'], r['side'])} player ({r['kind']}): "
                    f"{', '.join(r['options'])}", r["rule"])
            elif kind == "decision-answered":
                say("decision", f"Decision {e['id']} answered: {e['choice']}", None)
            elif kind == "standing-set":
                say("decision", f"{SIDE_NAMES[e['side']]} standing instructions: "
                    + (", ".join(f"{k}={v}" for k, v in e["values"].items()) or "none"),
                    None)
            elif kind == "game-ended":
                result = e["result"]
                say("sequence", f"The game ends: {result['level']} with {result['points']} "
                    "victory points" + (", a German strategic victory" if result["strategic"]
                                        else ""), "18.0")
        return list(sections.values())

    def losses(self, step: StepReport) -> list[Loss]:
        game = Game.of(step.module)
        before = step.state_before.get("units", {})
        return [Loss(game.pieces[e["unit"]].name, before.get(e["unit"], "(not on the map)"),
                     RULE_WORDS.get(e["rule"], e["rule"]), str(e["rule"]),
                     "may return as a replacement" if game.pieces[e["unit"]].side == "soviet"
                     else "out of the game")
                for e in step.events if e.get("kind") == "unit-eliminated"]

    def status(self, module: ModuleData, state: dict[str, Any]) -> Status:
        status = Status(self.turn_name(module, int(state["turn"])), phase_words(state))
        if state.get("result"):
            r = state["result"]
            status.result = f"{r['level']}: {r['points']} VP" + (
                ", German strategic victory" if r.get("strategic") else "")
        status.facts += [("Weather", str(state["weather"])),
                         ("Air points left", f"German {state['air']['axis']}, Soviet "
                          f"{state['air']['soviet']}"),
                         ("Units eliminated", str(len(state["eliminated"])))]
        if state.get("unsupplied"):
            status.facts.append(("Out of supply", ", ".join(state["unsupplied"])))
        return status

    def position(self, module: ModuleData, state: dict[str, Any]) -> list[PositionRow]:
        game = Game.of(module)
        stacks: dict[str, list[str]] = {}
        for unit, label in sorted(state["units"].items()):
            stacks.setdefault(label, []).append(f"{game.pieces[unit].name} ({unit})")
        return [PositionRow(label, state["control"].get(label, game.start_side(
            game.board.hex(label))), False, units, False)
            for label, units in sorted(stacks.items())]

    def decision(self, module: ModuleData, request: dict[str, Any]) -> DecisionView:
        name = {u: p.name for u, p in Game.of(module).pieces.items()}
        context = request.get("context", {})
        attack = (f"the attack on {context.get('hex')} by "
                  f"{', '.join(name.get(u, u) for u in context.get('attackers', []))}")
        questions = {
            "defensive-air": f"In {attack}, with {context.get('air', 0)} attacking air points, "
                             "how many of your air points shift the odds against it (10.2 B)?",
            "retreat": f"Where does {name.get(context.get('unit', ''), 'the unit')} retreat "
                       f"after {attack}?",
            "exchange-loss": f"Which of your units is lost in the exchange of {attack}?"}
        return DecisionView(request["id"], request["kind"], request["rule"],
                            questions.get(request["kind"], request["kind"]),
                            [(o, o) for o in request["options"]],
                            '<standing defensive-air="N" retreat="first"/>')

    def order_hints(self, module: ModuleData, state: dict[str, Any], side: str) -> list[str]:
        game = Game.of(module)
        hints = [f"{self.turn_name(module, int(state['turn']))}, {phase_words(state)}; "
                 f"weather {state['weather']}. Orders: docs/barbarossa-orders.md"]
        for unit, label in sorted(state["units"].items()):
            piece = game.pieces[unit]
            if piece.side == side:
                hints.append(f"  {unit} in {label}: {piece.name} {piece.attack}-"
                             f"{piece.movement}, MA now {movement_allowance(piece, state)}")
        arriving = [u for u in state["arriving"].get(str(state["turn"]), [])
                    if game.pieces[u].side == side]
        if arriving:
            hints.append(f"  arriving this turn: {', '.join(arriving)}")
        hints.append(f"  air points: {state['air'][side]}")
        if state["options"].get("naval") == "yes":  # 20.1
            for fleet_id, fleet in game.fleets.items():
                status = "neutralized" if fleet_id in state.get("neutralized", []) else \
                    "used this phase" if fleet_id in state.get("fleets_used", []) else "ready"
                hints.append(f"  {fleet.name}: {status}")
        return hints

    def describe_order(self, module: ModuleData, order: dict[str, Any]) -> str:
        a = order.get("attrs") or {}
        kind = order.get("kind", "")
        words = {"move": f"move {a.get('unit')} along {a.get('path')}",
                 "rail": f"rail {a.get('unit')} along {a.get('path')}",
                 "enter": f"enter {a.get('unit')} at {a.get('hex')}",
                 "replace": f"replace {a.get('unit')} at {a.get('hex')}",
                 "attack": f"attack {a.get('hex')} with {a.get('units')}",
                 "negate": f"negate {a.get('points')} air points",
                 "sea-move": f"carry {a.get('unit')} by sea to {a.get('to')}",
                 "neutralize": f"neutralize the {a.get('fleet')} fleet",
                 "disband": f"eliminate {a.get('unit')} (20.1.1 B)",
                 "partisans": "use the partisans",
                 "bomb-rail": f"bomb Soviet railroads with {a.get('points')} air points",
                 "air-supply": f"supply {a.get('unit')} by air",
                 "deploy": f"deploy {a.get('unit')} at {a.get('hex')}",
                 "end-phase": "end the phase",
                 "standing": "set standing instructions",
                 "answer": f"answer decision {a.get('decision')}: {a.get('choice')}"}
        return str(words.get(kind, kind))

    # -- the map -------------------------------------------------------------------------
    def map_view(self, module: ModuleData, state: dict[str, Any], side: str,
                 caption: str | None = None) -> MapView:
        game = Game.of(module)
        fills = {label: AXIS_HELD if held == "axis" else SOVIET_HELD
                 for label, held in sorted(state["control"].items())
                 if held != game.start_side(game.board.hex(label))}
        counters: dict[str, list[Counter]] = {}
        for unit, label in sorted(state["units"].items()):
            counters.setdefault(label, []).append(counter(game.pieces[unit]))
        title = f"1941: Operation Barbarossa — {self.turn_name(module, int(state['turn']))}"
        subtitle = " · ".join([caption or f"{SIDE_NAMES.get(side, side)} player's view",
                               phase_words(state), f"weather {state['weather']}"])
        # an export's control marker reads whose hex it is now (4.0)
        legend = [LegendItem("area", "Taken by the Germans", fill=AXIS_HELD, mark="German"),
                  LegendItem("area", "Retaken by the Soviets", fill=SOVIET_HELD,
                             mark="Soviet"),
                  LegendItem("rim", "In a German zone of control (6.0)", fill="none",
                             stroke=AXIS_ZOC),
                  LegendItem("rim", "In a Soviet zone of control (6.0)", fill="none",
                             stroke=SOVIET_ZOC)]
        samples: dict[str, Piece] = {}
        for piece in game.pieces.values():
            key = "shock" if piece.type == "shock" else piece.nationality
            samples.setdefault(key, piece)
        for key, piece in samples.items():
            legend.append(LegendItem("counter", f"{key.capitalize()} unit",
                                     counter=counter(piece)))
        return MapView(title, subtitle, fills, {}, [], set(), counters, legend,
                       zoc_hints(game, state))

    def counter_mix(self, module: ModuleData) -> list[Counter]:
        game = Game.of(module)
        return [counter(p) for _, p in sorted(game.pieces.items())]

    def calendar(self, module: ModuleData) -> Calendar:
        game = Game.of(module)
        turns = [f"{t.month} {t.year}" for _, t in sorted(game.charts.turns.items())]
        phases = [f"{side} {SEGMENTS[segment]}{'' if phase == 'air' else ' ' + phase}"
                  for side in ("German", "Soviet") for segment, phase in SEQUENCE]
        return Calendar(turns, phases)

    def calendar_position(self, module: ModuleData, state: dict[str, Any]) -> CalendarPosition:
        turns = sorted(Game.of(module).charts.turns)
        turn = turns.index(state["turn"]) if state["turn"] in turns else len(turns) - 1
        key = (state.get("segment"), state.get("phase"))
        side = 1 if state.get("player") == "soviet" else 0
        if key in SEQUENCE:
            return CalendarPosition(turn, side * len(SEQUENCE) + SEQUENCE.index(key))
        # the deployment (20.6) comes before the first phase; a finished game stands at
        # the end of its last turn
        return CalendarPosition(turn, 2 * len(SEQUENCE) - 1
                                if state.get("phase") == "game-over" else 0)


REPORTER = BarbarossaReporter()
