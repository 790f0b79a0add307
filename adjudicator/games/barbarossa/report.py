"""1941: Operation Barbarossa in words and on the map: the report writer of the game
(the `GameReporter` of reports/games.py), told from the events of a step with the rules
they apply (`vocabulary.EVENT_RULES`), the view objects from the kit (engine/report.py),
and the rules' own facts: zones of control (`zoc.enemy_zones`), control (`control_of`),
movement allowances (`movement.movement_allowance`).

1941 hides nothing from either player, so both sides' reports show the whole board.
Counters carry the rulebook's colours (1.2.1): black on gray-green for the Germans,
white on gray-green for their allies, black on gold-brown for the Soviets, white on
gold-brown for the shock armies.
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
from adjudicator.games.barbarossa.control import control_of
from adjudicator.games.barbarossa.data import GameData, Piece
from adjudicator.games.barbarossa.flow import PHASES
from adjudicator.games.barbarossa.movement import movement_allowance
from adjudicator.games.barbarossa.optional import option
from adjudicator.games.barbarossa.report_hints import entry_hints, listed_orders
from adjudicator.games.barbarossa.vocabulary import (
    EVENT_RULES,
    GAME,
    TITLE,
    Decision,
    EventKind,
    Nationality,
    Option,
    Phase,
    Segment,
    Side,
    UnitSize,
    UnitType,
)
from adjudicator.games.barbarossa.zoc import enemy_zones

GRAY_GREEN, GOLD_BROWN = "#9aa583", "#c9955a"
AXIS_HELD, SOVIET_HELD = "#7d8a66", "#b5562f"
AXIS_ZOC, SOVIET_ZOC = "#3d4a2a", "#8c2d0f"
SIDE_NAMES = {Side.AXIS: "German", Side.SOVIET: "Soviet"}
SEGMENTS = {Segment.AIR: "Air Segment", Segment.FIRST: "First Ground Segment",
            Segment.SECOND: "Second Ground Segment", Segment.DEPLOYMENT: "set-up (20.6)"}
# the NATO symbol and echelon an export draws (a shock army is an infantry army, 1.3.2)
SYMBOLS = {UnitType.ARMOR: "armor", UnitType.INFANTRY: "infantry",
           UnitType.MOUNTAIN: "mountain", UnitType.SHOCK: "infantry"}
ECHELONS = {UnitSize.CORPS: "corps", UnitSize.GROUP: "army", UnitSize.ARMY: "army"}
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
    if piece.size == UnitSize.GROUP:
        return f"{'PzGr' if piece.side == Side.AXIS else 'TkGr'} {digits}"
    return f"{digits} {'Pz' if piece.armor and piece.side == Side.AXIS else ''}".strip()


def counter(piece: Piece) -> Counter:
    soviet = piece.side == Side.SOVIET
    white = piece.type == UnitType.SHOCK if soviet else piece.nationality != Nationality.GERMAN
    ink = "#ffffff" if white else "#1d1d1b"
    return Counter(f"{piece.attack}-{piece.movement}", designation(piece),
                   GOLD_BROWN if soviet else GRAY_GREEN, ink,
                   "#6b4524" if soviet else "#4e5a3b", piece.name, piece=piece.id,
                   side=piece.side, symbol=SYMBOLS[piece.type], echelon=ECHELONS[piece.size],
                   factors=(f"{piece.attack}-{piece.movement}",))


def zoc_hints(game: GameData, state: dict[str, Any]) -> dict[str, list[str]]:
    """The empty land hexes in each side's zones of control as the rules see them now
    (6.0, 13.5 C, 17.1.3): what the report's map rims."""
    occupied = set(state["units"].values())
    zones = [(AXIS_ZOC, enemy_zones(game, state, Side.SOVIET).any),
             (SOVIET_ZOC, enemy_zones(game, state, Side.AXIS).any)]
    hints: dict[str, list[str]] = {}
    for colour, hexes in zones:
        for h in sorted(hexes):
            label = game.board.label(h)
            if label not in occupied and not game.is_water(h):
                hints.setdefault(label, []).append(colour)
    return hints


def phase_words(state: dict[str, Any]) -> str:
    if state.get("phase") == Phase.GAME_OVER:
        return "game over"
    side = SIDE_NAMES.get(state["player"], state["player"])
    segment = SEGMENTS.get(state["segment"], state["segment"])
    phase = "" if state["phase"] in (Phase.AIR, Phase.DEPLOYMENT) \
        else f", {state['phase']} phase"
    return f"{side} player turn, {segment}{phase}"


def cited(kind: EventKind) -> str | None:
    """The rule an event applies, as `vocabulary.EVENT_RULES` has it (None: no rule)."""
    return EVENT_RULES[kind] or None


class BarbarossaReporter:
    game = GAME

    def turn_name(self, module: ModuleData, turn: int) -> str:
        record = GameData.of(module).charts.turn(turn)
        return f"{record.month} {record.year} (Turn {turn})"

    # -- words ---------------------------------------------------------------------------
    def narrate(self, step: StepReport) -> list[Section]:
        game = GameData.of(step.module)
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
            elif kind == EventKind.PHASE_ENDED:
                say("sequence", f"The {SEGMENTS.get(e['segment'], e['segment'])} "
                    f"{'' if e['phase'] == Phase.AIR else e['phase'] + ' phase '}begins",
                    cited(EventKind.PHASE_ENDED))
            elif kind == EventKind.PLAYER_TURN_ENDED:
                say("sequence", f"The {SIDE_NAMES[e['player']]} player turn begins",
                    cited(EventKind.PLAYER_TURN_ENDED))
            elif kind == EventKind.TURN_BEGAN:
                say("sequence", f"{self.turn_name(step.module, e['turn'])} begins: weather "
                    f"{e['weather']}, air points German {e['air']['axis']}, Soviet "
                    f"{e['air']['soviet']}", cited(EventKind.TURN_BEGAN))
            elif kind == EventKind.SUPPLY_TRACED:
                cut = [name[u] for u in e["unsupplied"]]
                say("supply", f"{SIDE_NAMES[e['side']]} supply traced: "
                    + (f"out of supply: {', '.join(cut)}" if cut else "every unit in supply"),
                    cited(EventKind.SUPPLY_TRACED))
            elif kind == EventKind.UNIT_MOVED:
                say("move", f"{name[e['unit']]} moves {' → '.join(e['path'])} "
                    f"({sum(e['mps'])} MP)", cited(EventKind.UNIT_MOVED))
            elif kind == EventKind.UNIT_RAILED:
                say("move", f"{name[e['unit']]} moves by rail {e['path'][0]} → "
                    f"{e['path'][-1]}", cited(EventKind.UNIT_RAILED))
            elif kind == EventKind.UNIT_SHIPPED:
                fleet = game.fleets[e["fleet"]].name
                say("move", f"The {fleet} carries {name[e['unit']]} {e['path'][0]} → "
                    f"{e['path'][-1]}", e["rule"])
            elif kind == EventKind.FLEET_NEUTRALIZED:
                how = f"by {e['points']} German air points" if e["points"] else \
                    "by German control"
                say("air" if e["points"] else "move", f"The {game.fleets[e['fleet']].name} is "
                    f"neutralized {how} for the rest of the game", e["rule"])
            elif kind == EventKind.PARTISANS_DECLARED:
                say("move", f"Soviet partisans cut the Axis rail capacity to one corps on Turn "
                    f"{e['turn']}", cited(EventKind.PARTISANS_DECLARED))
            elif kind == EventKind.RAIL_BOMBED:
                say("air", f"German air bombs Soviet railroads with {e['points']} air points: "
                    f"the Soviet rail capacity drops by {2 * e['points']}",
                        cited(EventKind.RAIL_BOMBED))
            elif kind == EventKind.AIR_SUPPLIED:
                say("air", f"{name[e['unit']]} is supplied by air ({e['points']} air points)",
                    cited(EventKind.AIR_SUPPLIED))
            elif kind == EventKind.UNIT_ENTERED:
                say("move", f"{name[e['unit']]} enters play at {e['hex']}",
                    cited(EventKind.UNIT_ENTERED))
            elif kind == EventKind.UNIT_DEPLOYED:
                say("move", f"{name[e['unit']]} is deployed at {e['to']}",
                    cited(EventKind.UNIT_DEPLOYED))
            elif kind == EventKind.UNIT_WITHDRAWN:
                say("move", f"{name[e['unit']]} leaves the set-up: it arrives on Turn "
                    f"{e['turn']} instead", cited(EventKind.UNIT_WITHDRAWN))
            elif kind == EventKind.UNIT_REPLACED:
                say("move", f"{name[e['unit']]} returns as a replacement at {e['hex']}",
                    cited(EventKind.UNIT_REPLACED))
            elif kind == EventKind.REPLACEMENTS_REDUCED:
                say("move", f"Moscow ({e['hex']}) is Axis controlled as the Soviet First "
                    f"Movement Phase begins: the Soviet replacements of Turn {e['turn']} are "
                    "one infantry-type unit fewer, even if Moscow is retaken",
                        cited(EventKind.REPLACEMENTS_REDUCED))
            elif kind == EventKind.CONTROL_CHANGED:
                say("move", f"{e['hex']} is now {SIDE_NAMES[e['side']]}-controlled",
                    cited(EventKind.CONTROL_CHANGED))
            elif kind == EventKind.AIR_NEGATED:
                say("air", f"{SIDE_NAMES[e['side']]} air negates {e['points']} enemy air "
                    "points", cited(EventKind.AIR_NEGATED))
            elif kind == EventKind.ATTACK_DECLARED:
                units = ", ".join(name[u] for u in e["attackers"])
                held = ", ".join(name[u] for u in e["defenders"])
                verb = "attacks" if len(e["attackers"]) == 1 else "attack"
                say("combat", f"{units} {verb} {e['hex']} ({held})"
                    + (f" with {e['air']} air points" if e["air"] else "")
                    + (f"; {name[e['naval']]} attacks from the sea with the "
                       f"{game.fleets[e['fleet']].name}, as across a river" if e.get("naval")
                       else ""), "20.1.2 A" if e.get("naval") else cited(EventKind.ATTACK_DECLARED))
            elif kind == EventKind.ATTACK_RESOLVED:
                parts = {"terrain (7.6)": e.get("shifts", {}).get("terrain", 0),
                         "armor (9.1)": e.get("shifts", {}).get("armor", 0),
                         "attacking air (10.2 A)": e["air"]["attacker"],
                         "defending air (10.2 B)": -e["air"]["defender"]}
                why = ", ".join(f"{k} {v:+d}" for k, v in parts.items() if v)
                say("combat", f"{e['attack']} against {e['defence']}, column shift "
                    f"{e['shift']:+d}{f' ({why})' if why else ''}: {e['odds']}; roll "
                    f"{e['roll']}: {e['result']}", cited(EventKind.ATTACK_RESOLVED), [rolls])
            elif kind == EventKind.UNIT_ELIMINATED:
                say("combat", f"{name[e['unit']]} is eliminated "
                    f"({RULE_WORDS.get(e['rule'], e['rule'])})", str(e["rule"]))
            elif kind == EventKind.UNIT_RETREATED:
                say("combat", f"{name[e['unit']]} retreats to {e['to']}",
                    cited(EventKind.UNIT_RETREATED))
            elif kind == EventKind.UNIT_ADVANCED:
                say("combat", f"{name[e['unit']]} advances into {e['to']}",
                    cited(EventKind.UNIT_ADVANCED))
            elif kind == "decision-requested":
                r = e["request"]
                say("decision", f"Decision {r['id']} opened for the "
                    f"{SIDE_NAMES.get(r['side'], r['side'])} player ({r['kind']}): "
                    f"{', '.join(r['options'])}", r["rule"])
            elif kind == "decision-answered":
                say("decision", f"Decision {e['id']} answered: {e['choice']}", None)
            elif kind == EventKind.STANDING_SET:
                say("decision", f"{SIDE_NAMES[e['side']]} standing instructions: "
                    + (", ".join(f"{k}={v}" for k, v in e["values"].items()) or "none"),
                    cited(EventKind.STANDING_SET))
            elif kind == EventKind.GAME_ENDED:
                result = e["result"]
                say("sequence", f"The game ends: {result['level']} with {result['points']} "
                    "victory points" + (", a German strategic victory" if result["strategic"]
                                        else ""), cited(EventKind.GAME_ENDED))
        return list(sections.values())

    def losses(self, step: StepReport) -> list[Loss]:
        game = GameData.of(step.module)
        before = step.state_before.get("units", {})
        return [Loss(game.pieces[e["unit"]].name, before.get(e["unit"], "(not on the map)"),
                     RULE_WORDS.get(e["rule"], e["rule"]), str(e["rule"]),
                     "may return as a replacement"
                     if game.pieces[e["unit"]].side == Side.SOVIET else "out of the game")
                for e in step.events if e.get("kind") == EventKind.UNIT_ELIMINATED]

    def status(self, module: ModuleData, state: dict[str, Any]) -> Status:
        status = Status(self.turn_name(module, int(state["turn"])), phase_words(state))
        if state.get("result"):
            r = state["result"]
            status.result = f"{r['level']}: {r['points']} VP" + (
                ", German strategic victory" if r.get("strategic") else "")
        status.facts += [("Weather", str(state["weather"])),
                         ("Air points left", f"German {state['air'][Side.AXIS]}, Soviet "
                          f"{state['air'][Side.SOVIET]}"),
                         ("Units eliminated", str(len(state["eliminated"])))]
        if state.get("unsupplied"):
            status.facts.append(("Out of supply", ", ".join(state["unsupplied"])))
        return status

    def position(self, module: ModuleData, state: dict[str, Any]) -> list[PositionRow]:
        game = GameData.of(module)
        stacks: dict[str, list[str]] = {}
        for unit, label in sorted(state["units"].items()):
            stacks.setdefault(label, []).append(f"{game.pieces[unit].name} ({unit})")
        return [PositionRow(label, control_of(game, state, game.board.hex(label)), False,
                            units, False)
                for label, units in sorted(stacks.items())]

    def decision(self, module: ModuleData, request: dict[str, Any]) -> DecisionView:
        name = {u: p.name for u, p in GameData.of(module).pieces.items()}
        context = request.get("context", {})
        attack = (f"the attack on {context.get('hex')} by "
                  f"{', '.join(name.get(u, u) for u in context.get('attackers', []))}")
        questions = {
            Decision.DEFENSIVE_AIR: f"In {attack}, with {context.get('air', 0)} attacking air "
                                    "points, how many of your air points shift the odds "
                                    "against it (10.2 B)?",
            Decision.RETREAT: f"Where does {name.get(context.get('unit', ''), 'the unit')} "
                              f"retreat after {attack}?",
            Decision.EXCHANGE_LOSS: f"Which of your units is lost in the exchange of {attack}?"}
        return DecisionView(request["id"], request["kind"], request["rule"],
                            questions.get(request["kind"], request["kind"]),
                            [(o, o) for o in request["options"]],
                            '<standing defensive-air="N" retreat="first"/>')

    def order_hints(self, module: ModuleData, state: dict[str, Any], side: str) -> list[str]:
        game = GameData.of(module)
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
        hints += entry_hints(module, state, side)  # where they may enter (14.1.3 A, C)
        hints.append(f"  air points: {state['air'][side]}")
        if option(state, Option.NAVAL):  # 20.1
            for fleet_id, fleet in game.fleets.items():
                status = "neutralized" if fleet_id in state.get("neutralized", []) else \
                    "used this phase" if fleet_id in state.get("fleets_used", []) else "ready"
                hints.append(f"  {fleet.name}: {status}")
        return hints + listed_orders(module, state, side)

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
        game = GameData.of(module)
        fills = {label: AXIS_HELD if held == Side.AXIS else SOVIET_HELD
                 for label, held in sorted(state["control"].items())
                 if held != game.start_side(game.board.hex(label))}
        counters: dict[str, list[Counter]] = {}
        for unit, label in sorted(state["units"].items()):
            counters.setdefault(label, []).append(counter(game.pieces[unit]))
        title = f"{TITLE} — {self.turn_name(module, int(state['turn']))}"
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
            key = UnitType.SHOCK.value if piece.type == UnitType.SHOCK else piece.nationality
            samples.setdefault(key, piece)
        for key, piece in samples.items():
            legend.append(LegendItem("counter", f"{key.capitalize()} unit",
                                     counter=counter(piece)))
        return MapView(title, subtitle, fills, {}, [], set(), counters, legend,
                       zoc_hints(game, state))

    def counter_mix(self, module: ModuleData) -> list[Counter]:
        game = GameData.of(module)
        return [counter(p) for _, p in sorted(game.pieces.items())]

    def calendar(self, module: ModuleData) -> Calendar:
        game = GameData.of(module)
        turns = [f"{t.month} {t.year}" for _, t in sorted(game.charts.turns.items())]
        phases = [f"{SIDE_NAMES[side]} {SEGMENTS[Segment(segment)]}"
                  f"{'' if phase == Phase.AIR else ' ' + phase}"
                  for side in (Side.AXIS, Side.SOVIET) for segment, phase in PHASES]
        return Calendar(turns, phases)

    def calendar_position(self, module: ModuleData, state: dict[str, Any]) -> CalendarPosition:
        turns = sorted(GameData.of(module).charts.turns)
        turn = turns.index(state["turn"]) if state["turn"] in turns else len(turns) - 1
        key = (state.get("segment"), state.get("phase"))
        side = 1 if state.get("player") == Side.SOVIET else 0
        if key in PHASES:
            return CalendarPosition(turn, side * len(PHASES) + PHASES.index(key))
        # the deployment (20.6) comes before the first phase; a finished game stands at
        # the end of its last turn
        return CalendarPosition(turn, 2 * len(PHASES) - 1
                                if state.get("phase") == Phase.GAME_OVER else 0)


REPORTER = BarbarossaReporter()
