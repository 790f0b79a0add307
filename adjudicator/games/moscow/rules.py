"""Moscow '41 as the engine sees it: the set-up with the cup draw and untried tokens
(1.3, 12.0), and the sequence of play (3.0): the German Movement, Combat and Air
Interdiction Phases, the Soviet Movement and Combat Phases, and the Game Turn
Indication Phase with the weather roll of the next turn (15.0), the sudden death of
16.0 A and the victory level after Turn 13 (16.1-16.4). Orders: `draw`, `place` (1.3),
`move` (4.0-6.4, moving.py), `overrun` and `attack` (7.0-13.0, fighting.py),
`interdict` and `enter` (11.3, 14.0, turns.py), `standing`, `answer`, `end-phase`.

`apply` is the only place state changes; order handlers emit events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lxml import etree

from adjudicator.engine.events import Event
from adjudicator.engine.listing import Listing
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.stacking import over_limit
from adjudicator.engine.state import State
from adjudicator.engine.step import PROTOCOL_RULE, StepContext, apply_engine_event, take_answer
from adjudicator.games.moscow import fighting, listing, moving, setup, turns, untried
from adjudicator.games.moscow.game import SEQUENCE, SIDES, Game
from adjudicator.games.moscow.logistics import VictorySchedule, turn_record, weather_for
from adjudicator.games.moscow.position import position_state
from adjudicator.games.moscow.rejections import CATALOGUE


class MoscowRules:
    game = "moscow"
    sides = SIDES

    def check_module(self, module: ModuleData) -> None:
        Game.of(module)

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
        if state.get("pending") or state["phase"] in ("draw", "setup"):
            return []  # the set-up cannot be passed
        return ["<end-phase/>"] * remaining_phases(state)

    def execute(self, ctx: StepContext, order: Order) -> None:
        if ctx.state["phase"] == "game-over":
            raise CATALOGUE.refuse("game-over", "16.0", "the game is over")
        acting = self.acting_side(ctx.state)
        if order.kind == "standing" and ctx.side in SIDES:
            standing(ctx, order)  # a side's own instructions, whoever acts now (DESIGN §4)
            return
        if acting != ctx.side:
            raise CATALOGUE.refuse("not-your-step", "3.1 D",
                f"it is not {ctx.side}'s step now: the game waits "
                f"for {acting}")
        handler = ORDER_HANDLERS.get(order.kind)
        if handler is None:
            raise CATALOGUE.refuse("unknown-order", PROTOCOL_RULE,
                f"<{order.kind}> is not a Moscow '41 order")
        handler(ctx, order)

    def check_static(self, module: ModuleData, order: Order) -> list[str]:
        game = Game.of(module)
        problems = []
        for label in [*order.words("hex"), *order.words("hexes"), *order.words("path")]:
            try:
                game.board.hex(label)
            except ValueError as exc:
                problems.append(str(exc))
        return problems

    def summary(self, state: State) -> dict[str, Any]:
        return {"turn": state["turn"], "player": state["player"], "phase": state["phase"],
                "weather": state["weather"], "result": state["result"]}

    def legal_orders(self, module: ModuleData, state: State, side: str) -> Listing:
        return listing.legal_orders(module, state, side)

    def positions(self, state: State) -> dict[str, str]:
        return dict(state["units"])

    def pools(self, state: State) -> dict[str, list[str]]:
        """The German units still to set up (1.3.2), the reinforcements waiting on the Turn
        Record Track (14.0, 1.3.1 I) and the eliminated units (8.9 H-I)."""
        pools = {f"arriving {turn}": list(units) for turn, units in state["arriving"].items()}
        pools["unplaced"] = list(state["unplaced"])
        pools["eliminated"] = list(state["eliminated"])
        return pools

    def stacking_problems(self, module: ModuleData, state: State) -> list[str]:
        """4.6 A for both sides, 1.3.1 E and 3.2 B for the Soviet set-up and Turn 1."""
        game = Game.of(module)
        problems = []
        for side in SIDES:
            limit = moving.limit_now(module, state, side)
            mine = [u for u in state["units"] if moving.unit_facts(game, state, u)[0] == side]
            problems += [f"{label} holds {', '.join(units)}: more than {limit} {side} units"
                         for label, units, _ in over_limit(
                             state["units"], lambda _, stack, n=limit: len(stack) > n or None,
                             mine)]
        return problems

    def apply(self, state: State, event: Event) -> None:
        if apply_engine_event(state, event):
            return
        handler = EVENT_HANDLERS.get(event.kind)
        if handler is None:
            raise ValueError(f"unknown Moscow '41 event {event.kind!r}")
        handler(state, event.data)


# -- the sequence of play (3.0) ---------------------------------------------------------

def remaining_phases(state: State) -> int:
    return len(SEQUENCE) - SEQUENCE.index((state["player"], state["phase"]))


def end_phase(ctx: StepContext, order: Order) -> None:
    """3.1: all activity in sequence; the set-up ends with its checks (1.3)."""
    state = ctx.state
    if state["phase"] in ("draw", "setup"):
        if state["phase"] == "draw":
            raise CATALOGUE.refuse("not-drawn", "1.3.1 C",
                "draw the Soviet units from the cup first (<draw/>)")
        setup.end_setup(ctx)
        return
    if (state["player"], state["phase"]) == ("soviet", "movement"):
        turns.missing_reinforcements(ctx)  # 14.3
    if state["phase"] == "movement":
        moving.check_end_of_movement(ctx)  # 4.6 B-C: may ask the enemy to choose
    at = SEQUENCE.index((state["player"], state["phase"])) + 1
    if at < len(SEQUENCE) and SEQUENCE[at] == ("german", "interdiction") \
            and set(turns.air_units(Game.of(ctx.module))) <= set(state["air_used"]):
        at += 1  # 3.1.1 C: every air unit used: no Air Interdiction Phase (RULES-ISSUES 9)
    if at < len(SEQUENCE):
        player, phase = SEQUENCE[at]
        ctx.emit("phase-ended", player=player, phase=phase)
        if (player, phase) == ("soviet", "movement"):
            turns.draw_reinforcement(ctx)  # 14.0
        return
    game_turn_indication(ctx)


def game_turn_indication(ctx: StepContext) -> None:
    """3.1.2 C: interdicting air units leave the map and the turn ends; 16.0 A: a German
    unit in Moscow wins at once; 3.1.3 B: after Turn 13 victory is determined; 15.0 A:
    from Turn 2 the Soviet player rolls for the weather against the Turn Record Track."""
    state, game = ctx.state, Game.of(ctx.module)
    if turns.german_in_moscow(game, state):
        level = VictorySchedule.of(ctx.module).automatic
        ctx.emit("game-ended", turn=state["turn"], result={"level": level, "rule": "16.0 A"})
        return
    if state["turn"] >= state["last_turn"]:
        ctx.emit("game-ended", turn=state["turn"], result=turns.final_result(ctx))
        return
    turn = state["turn"] + 1
    track = turn_record(ctx.module)
    roll = ctx.roll_d6(f"weather on Turn {turn} (15.0)") if track[turn].needs_roll else None
    ctx.emit("turn-began", turn=turn, weather=weather_for(turn, roll, track))


def standing(ctx: StepContext, order: Order) -> None:
    """Standing instructions for the choices the rules give this side in the other
    side's player turn (DESIGN §4): `air-on-defence` (11.0 B: German air units placed on
    each Soviet attack on German units, while they last), `loss` ("retreat": retreat
    rather than lose steps when a result allows it, 8.9 D-E) and `retreat` ("first": the
    first of the safe retreat paths, 8.10-8.11) and `advance` ("never": the defender's
    victorious units stay put when the attackers' hexes are vacated, 8.12 C)."""
    values: dict[str, str] = {}
    air = order.get("air-on-defence")
    if air:
        if ctx.side != "german" or air not in ("0", "1", "2", "3"):
            raise CATALOGUE.refuse("bad-standing", "11.0 B",
                "air-on-defence is the German player's, 0 to 3 air "
                "units")
        values["air-on-defence"] = air
    for key, allowed in (("loss", ("retreat", "ask")), ("retreat", ("first", "ask")),
                         ("advance", ("never", "ask"))):
        value = order.get(key)
        if value and value not in allowed:
            raise CATALOGUE.refuse("bad-standing", PROTOCOL_RULE,
                f"{key} is {' or '.join(allowed)}")
        if value and value != "ask":
            values[key] = value
    ctx.emit("standing-set", side=ctx.side, values=values)


def answer(ctx: StepContext, order: Order) -> None:
    """An answer to the open decision request; the interrupted procedure goes on."""
    pending, choice = take_answer(ctx, order)
    if pending["context"].get("step") == "overstack":
        moving.answer_overstack(ctx, pending["context"], choice)
        end_phase(ctx, order)  # the Movement Phase ends once every hex is within limits
    elif pending["context"].get("step") in fighting.STEPS:
        fighting.answer(ctx, pending, choice)  # the attack or overrun goes on


ORDER_HANDLERS: dict[str, Callable[[StepContext, Order], None]] = {
    "draw": setup.draw,
    "place": setup.place,
    "move": moving.move,
    "overrun": fighting.overrun,
    "attack": fighting.attack,
    "interdict": turns.interdict,
    "enter": turns.enter,
    "answer": answer,
    "end-phase": end_phase,
}


# -- events: the only code that changes Moscow '41 state -------------------------------------

def _phase_ended(state: State, data: dict[str, Any]) -> None:
    state["player"], state["phase"] = data["player"], data["phase"]
    fighting.reset_fighting(state)
    if data["phase"] == "movement":
        moving.reset_movement(state)


def _standing_set(state: State, data: dict[str, Any]) -> None:
    state.setdefault("standing", {})[data["side"]] = dict(data["values"])


def _unit_eliminated(state: State, data: dict[str, Any]) -> None:
    """8.9 H-I: eliminated; Soviet infantry but the Siberians goes back to the cup."""
    unit = data["unit"]
    state["units"].pop(unit, None)
    state["eliminated"] = sorted({*state["eliminated"], unit})
    face = state["tokens"].get(unit)
    if face is not None and face["type"] == "infantry" and not face["siberian"]:
        state["cup"] = sorted({*state["cup"], state["identity"][unit]})


def _turn_began(state: State, data: dict[str, Any]) -> None:
    state.update(turn=data["turn"], weather=data["weather"], player="german",
                 phase="movement", air_used=[], interdicted={})
    moving.reset_movement(state)
    fighting.reset_fighting(state)


def _game_ended(state: State, data: dict[str, Any]) -> None:
    state["phase"] = "game-over"
    state["result"] = data["result"]


EVENT_HANDLERS: dict[str, Callable[[State, dict[str, Any]], None]] = {
    "untried-drawn": untried.apply_drawn,
    "untried-revealed": untried.apply_revealed,
    "setup-drawn": setup.apply_drawn_setup,
    "unit-placed": setup.apply_placed,
    "units-moved": moving.apply_moved,
    "air-interdicted": turns.apply_interdicted,
    "reinforcement-drawn": turns.apply_reinforcement_drawn,
    "reinforcement-entered": turns.apply_reinforcement_entered,
    "reinforcement-lost": turns.apply_reinforcement_lost,
    "unit-eliminated": _unit_eliminated,
    "standing-set": _standing_set,
    "phase-ended": _phase_ended,
    "turn-began": _turn_began,
    "game-ended": _game_ended,
    **fighting.EVENTS,
}
