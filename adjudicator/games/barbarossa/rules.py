"""1941: Operation Barbarossa as the engine sees it: the
sequence of play (2.0, 17.1.1) with supply traced at each Ground Segment (8.0 B) and
surrender at the end of a turn (16.0); orders: `move` (5.0-6.2, 13.x), `rail` (5.4),
`enter` (14.1, 17.1.5), `replace` (14.2), `negate` (10.4), `attack` (7.0, 9.1,
10.2), `partisans` (20.2), `bomb-rail` (20.3), `air-supply` (20.5), `answer` and
`standing` (DESIGN §4), `deploy` (20.6), `sea-move`, `neutralize` and `disband`
(20.1), `end-phase`; victory at the end (18.0, 20.4.4).

`apply` is the only place state changes; order handlers emit events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lxml import etree

from adjudicator.engine.events import Event
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import (
    PROTOCOL_RULE,
    StepContext,
    apply_engine_event,
    take_answer,
)
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa import (
    arrivals,
    battle,
    control,
    deployment,
    naval,
    setup,
    victory,
)
from adjudicator.games.barbarossa.game import Game, zoc_control
from adjudicator.games.barbarossa.movement import move
from adjudicator.games.barbarossa.position import position_state
from adjudicator.games.barbarossa.supply import surrendering, unsupplied

# 2.0 D: the segments and phases of one player turn, in order
SEQUENCE = (("air", "air"), ("first", "movement"), ("first", "combat"),
            ("second", "movement"), ("second", "combat"))
SIDES = ("axis", "soviet")


class BarbarossaRules:
    game = "barbarossa"
    sides = SIDES

    def check_module(self, module: ModuleData) -> None:
        game = Game.of(module)
        for piece in module.findall("m:pieces/m:piece"):
            code = piece.get("deploy")
            if len(code) == 4 and code.isdigit():
                game.board.hex(code)  # ValueError -> the module is broken

    def initial_state(self, module: ModuleData, scenario: str, options: dict[str, str]) -> State:
        return setup.scenario_state(module, scenario, options)

    def position_state(self, module: ModuleData, root: etree._Element,
                       options: dict[str, str]) -> State:
        return position_state(module, root, options)

    def acting_side(self, state: State) -> str | None:
        if state.get("pending"):
            return str(state["pending"]["side"])
        return None if state["phase"] == "game-over" else str(state["player"])

    def pass_orders(self, state: State, side: str) -> list[str]:
        """A pass ends the phases of the player turn without moving or attacking."""
        if state.get("pending"):
            return []
        return ["<end-phase/>"] * remaining_phases(state)

    def execute(self, ctx: StepContext, order: Order) -> None:
        if ctx.state["phase"] == "game-over":
            raise IllegalOrder("18.1 A", "the game is over", code="game-over")
        acting = self.acting_side(ctx.state)
        if order.kind == "standing" and ctx.side in SIDES:
            standing(ctx, order)  # a side's own instructions, whoever acts now (DESIGN §4)
            return
        if acting != ctx.side:
            raise IllegalOrder("2.0 C", f"it is not {ctx.side}'s step now: the game waits for "
                               f"{acting}", code="not-your-step")
        handler = ORDER_HANDLERS.get(order.kind)
        if handler is None:
            raise IllegalOrder(PROTOCOL_RULE, f"<{order.kind}> is not a 1941 order",
                               code="unknown-order")
        handler(ctx, order)
        control.settle(ctx)  # 4.0 B: control at the instant, after every order (0.3.0)
        naval.neutralize_by_control(ctx)

    def check_static(self, module: ModuleData, order: Order) -> list[str]:
        game = Game.of(module)
        problems = []
        if order.get("unit") and order.get("unit") not in game.pieces:
            problems.append(f"unknown unit {order.get('unit')!r}")
        for label in [*order.words("path"), *order.words("to"), *order.words("hex")]:
            try:
                game.board.hex(label)
            except ValueError as exc:
                problems.append(str(exc))
        return problems

    def summary(self, state: State) -> dict[str, Any]:
        return {"turn": state["turn"], "player": state["player"], "segment": state["segment"],
                "phase": state["phase"], "result": state["result"]}

    def apply(self, state: State, event: Event) -> None:
        if apply_engine_event(state, event):
            return
        handler = EVENT_HANDLERS.get(event.kind)
        if handler is None:
            raise ValueError(f"unknown 1941 event {event.kind!r}")
        handler(state, event)


# -- the sequence of play (2.0) ---------------------------------------------------------

def phases_of(turn: int) -> tuple[tuple[str, str], ...]:
    """17.1.1: on Turn 1 the Second Ground Segment is a Movement Phase only."""
    return SEQUENCE[:-1] if turn == 1 else SEQUENCE


def remaining_phases(state: State) -> int:
    if state["segment"] == "deployment":
        return 1
    phases = phases_of(state["turn"])
    return len(phases) - phases.index((state["segment"], state["phase"]))


def end_phase(ctx: StepContext, order: Order) -> None:
    """2.0 E: all activity in sequence; ending a Movement Phase checks stacking (3.0 B:
    the limits hold in every Combat Phase)."""
    state = ctx.state
    if state["segment"] == "deployment":  # 20.6
        deployment.end_deployment(ctx)
        return
    if (state["segment"], state["phase"]) == ("first", "movement"):
        arrivals.missing_reinforcements(ctx)
    if state["phase"] == "movement":
        check_phase_stacking(ctx)
    phases = phases_of(state["turn"])
    at = phases.index((state["segment"], state["phase"]))
    game = Game.of(ctx.module)
    for label, side in zoc_control(game, state):  # 4.0 B: uncontested zones of control
        ctx.emit("control-changed", hex=label, side=side)
    if at + 1 < len(phases):
        segment, phase = phases[at + 1]
        ctx.emit("phase-ended", player=state["player"], segment=segment, phase=phase)
        control.settle(ctx)  # 0.3.0: the zones as the new segment has them (17.1.3)
        if (segment, phase) == ("first", "movement"):
            arrivals.judge_replacement_rate(ctx)  # 14.2.4 B (0.3.0)
        if phase == "movement":  # 8.0 B: the phasing side traces at each Ground Segment
            ctx.emit("supply-traced", side=state["player"],
                     unsupplied=unsupplied(game, state, state["player"]))
        return
    if state["player"] == "axis":
        ctx.emit("player-turn-ended", player="soviet")
        return
    for unit in surrendering(game, state):  # 16.0 A: at the end of each turn
        ctx.emit("unit-eliminated", unit=unit, rule="16.0 A")
    control.settle(ctx)  # 0.3.0: the map without them, as victory reads it (18.1 B-D)
    if state["turn"] >= state["last_turn"]:  # 18.1 A: then victory is determined
        ctx.emit("game-ended", turn=state["turn"],
                 result=victory.result(ctx.module, state).to_json())
        return
    record = game.charts.turn(state["turn"] + 1)
    if state["weather"] == "snow" and record.weather == "mud":  # 20.4.1: the thaw
        for unit, label in sorted(state["units"].items()):
            if game.board.terrain[game.board.hex(label)] in ("sea", "lake"):
                ctx.emit("unit-eliminated", unit=unit, rule="20.4.1")
    ctx.emit("turn-began", turn=record.number, weather=record.weather, air=record.air)


def check_phase_stacking(ctx: StepContext) -> None:
    naval.check_base_stacking(ctx)
    Game.of(ctx.module).check_side_stacking(ctx.state, ctx.state["player"])


def answer(ctx: StepContext, order: Order) -> None:
    """An answer to the open decision request; the interrupted attack goes on."""
    pending, choice = take_answer(ctx, order)
    battle.answer_battle(ctx, pending, choice)


def standing(ctx: StepContext, order: Order) -> None:
    """Standing instructions for choices the rules give this side during the other
    side's player turn: `defensive-air` (10.2 B: points per attack, while they last) and
    `retreat="first"` (7.8.1: the first of equally good retreat hexes)."""
    values: dict[str, str] = {}
    if order.get("defensive-air"):
        if not order.get("defensive-air").isdigit():
            raise IllegalOrder(PROTOCOL_RULE, "defensive-air is a number of air points",
                               code="bad-standing")
        values["defensive-air"] = order.get("defensive-air")
    if order.get("retreat"):
        if order.get("retreat") not in ("first", "ask"):
            raise IllegalOrder(PROTOCOL_RULE, 'retreat is "first" or "ask"',
                               code="bad-standing")
        if order.get("retreat") == "first":
            values["retreat"] = "first"
    ctx.emit("standing-set", side=ctx.side, values=values)


ORDER_HANDLERS: dict[str, Callable[[StepContext, Order], None]] = {
    "end-phase": end_phase,
    "move": move,
    "attack": battle.attack,
    "negate": arrivals.negate,
    "rail": arrivals.rail,
    "enter": arrivals.enter,
    "replace": arrivals.replace,
    "partisans": arrivals.partisans,
    "bomb-rail": arrivals.bomb_rail,
    "air-supply": arrivals.air_supply,
    "deploy": deployment.deploy,
    "sea-move": naval.sea_move,
    "neutralize": naval.neutralize,
    "disband": naval.disband,
    "answer": answer,
    "standing": standing,
}


# -- events: the only code that changes 1941 state -----------------------------------------

def _phase_ended(state: State, event: Event) -> None:
    state["player"] = event["player"]
    state["segment"], state["phase"] = event["segment"], event["phase"]
    state.pop("entry_mps", None)
    if event["phase"] == "movement":
        state["moved"] = []
        state.pop("paths", None)
        state.pop("carried", None)
        state.pop("fleets_used", None)  # 20.1.1 A, 20.1.2 A: once per phase, per segment
    state["attacked_by"], state["retreated"] = [], []
    state.pop("defended", None)


def _player_turn_ended(state: State, event: Event) -> None:
    state["player"], state["segment"], state["phase"] = event["player"], "air", "air"
    state.pop("fleets_used", None)
    state["moved"], state["replaced"], state["air_supplied"] = [], [], []


def _turn_began(state: State, event: Event) -> None:
    state.update(turn=event["turn"], weather=event["weather"], air=dict(event["air"]),
                 player="axis", segment="air", phase="air", moved=[], air_supplied=[],
                 rail_used={"axis": 0, "soviet": 0, "finnish": 0})


def _game_ended(state: State, event: Event) -> None:
    state["phase"] = "game-over"
    state["result"] = event["result"]


def _unit_moved(state: State, event: Event) -> None:
    state["units"][event["unit"]] = event["path"][-1]
    state["moved"] = sorted({*state["moved"], event["unit"]})
    paths = state.setdefault("paths", {})  # 5.0: the unit's whole path this phase
    paths[event["unit"]] = [*paths.get(event["unit"], event["path"][:1]), *event["path"][1:]]


def _control_changed(state: State, event: Event) -> None:
    state["control"][event["hex"]] = event["side"]


def _attack_declared(state: State, event: Event) -> None:
    state["air"][event["side"]] -= event["air"]
    state["defended"] = sorted({*state.get("defended", []), *event["defenders"]})  # 7.2 E
    if event.data.get("fleet"):  # 20.1.2 A
        state["fleets_used"] = sorted({*state.get("fleets_used", []), event["fleet"]})


def _attack_resolved(state: State, event: Event) -> None:
    defender = "soviet" if state["player"] == "axis" else "axis"
    state["air"][defender] -= event["air"]["defender"]


def _attack_finished(state: State, event: Event) -> None:
    state["attacked_by"] = sorted({*state.get("attacked_by", []), *event["attackers"]})


def _unit_eliminated(state: State, event: Event) -> None:
    state["units"].pop(event["unit"], None)
    for waiting in state["arriving"].values():
        if event["unit"] in waiting:
            waiting.remove(event["unit"])
    state["eliminated"] = sorted({*state["eliminated"], event["unit"]})


def _unit_withdrawn(state: State, event: Event) -> None:
    del state["units"][event["unit"]]
    state["arriving"].setdefault(event["turn"], []).append(event["unit"])
    state["arriving"][event["turn"]].sort()


def _unit_relocated(state: State, event: Event) -> None:
    state["units"][event["unit"]] = event["to"]


def _unit_retreated(state: State, event: Event) -> None:
    state["units"][event["unit"]] = event["to"]
    state["retreated"] = sorted({*state.get("retreated", []), event["unit"]})


def _unit_shipped(state: State, event: Event) -> None:
    state["units"][event["unit"]] = event["path"][-1]
    state["moved"] = sorted({*state["moved"], event["unit"]})
    state.setdefault("carried", {})[event["unit"]] = "sea"  # 20.1.3
    state["fleets_used"] = sorted({*state.get("fleets_used", []), event["fleet"]})


def _fleet_neutralized(state: State, event: Event) -> None:
    state["air"]["axis"] -= event["points"]
    state["neutralized"] = sorted({*state.get("neutralized", []), event["fleet"]})


def _air_negated(state: State, event: Event) -> None:
    state["air"].update(event["left"])


def _unit_railed(state: State, event: Event) -> None:
    state["units"][event["unit"]] = event["path"][-1]
    state["moved"] = sorted({*state["moved"], event["unit"]})
    state.setdefault("carried", {})[event["unit"]] = "rail"  # 5.4 A
    state["rail_used"].update(event["used"])


def _partisans_declared(state: State, event: Event) -> None:
    record = state.setdefault("partisans", {"used": 0})
    record["active"] = event["turn"]
    if event["counts"]:
        record["used"] = record.get("used", 0) + 1


def _rail_bombed(state: State, event: Event) -> None:
    state["air"]["axis"] -= event["points"]
    bombed = state.setdefault("rail_bombed", {})
    bombed[event["turn"]] = bombed.get(event["turn"], 0) + event["points"]


def _air_supplied(state: State, event: Event) -> None:
    state["air"]["axis"] -= event["points"]
    state["air_supplied"] = sorted({*state.get("air_supplied", []), event["unit"]})


def _unit_replaced(state: State, event: Event) -> None:
    state["eliminated"] = [u for u in state["eliminated"] if u != event["unit"]]
    state["units"][event["unit"]] = event["hex"]
    state["replaced"] = sorted({*state.get("replaced", []), event["unit"]})
    if event.data.get("mps"):
        state.setdefault("entry_mps", {})[event["unit"]] = event["mps"]


def _unit_entered(state: State, event: Event) -> None:
    state["arriving"][event["turn"]].remove(event["unit"])
    state["units"][event["unit"]] = event["hex"]
    if event.data.get("mps"):
        state.setdefault("entry_mps", {})[event["unit"]] = event["mps"]


def _supply_traced(state: State, event: Event) -> None:
    state["unsupplied"] = list(event["unsupplied"])


def _replacements_reduced(state: State, event: Event) -> None:
    state["replacements_reduced"] = event["turn"]  # 14.2.4 B: for this turn's replacements


def _standing_set(state: State, event: Event) -> None:
    state.setdefault("standing", {})[event["side"]] = dict(event["values"])


EVENT_HANDLERS: dict[str, Callable[[State, Event], None]] = {
    "phase-ended": _phase_ended,
    "player-turn-ended": _player_turn_ended,
    "turn-began": _turn_began,
    "game-ended": _game_ended,
    "unit-moved": _unit_moved,
    "control-changed": _control_changed,
    "attack-declared": _attack_declared,
    "attack-resolved": _attack_resolved,
    "attack-finished": _attack_finished,
    "unit-eliminated": _unit_eliminated,
    "unit-retreated": _unit_retreated,
    "unit-advanced": _unit_relocated,
    "unit-deployed": _unit_relocated,
    "unit-withdrawn": _unit_withdrawn,
    "standing-set": _standing_set,
    "supply-traced": _supply_traced,
    "air-negated": _air_negated,
    "unit-railed": _unit_railed,
    "unit-entered": _unit_entered,
    "unit-replaced": _unit_replaced,
    "replacements-reduced": _replacements_reduced,
    "partisans-declared": _partisans_declared,
    "rail-bombed": _rail_bombed,
    "air-supplied": _air_supplied,
    "unit-shipped": _unit_shipped,
    "fleet-neutralized": _fleet_neutralized,
}
