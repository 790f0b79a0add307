"""Moscow '41 as the engine sees it (engine/rules.py `RulesBase`): the orders and what
carries each out, the events and what each changes (events.py), the procedures an answer
resumes (a combat, combat.py; the units destroyed over the stacking limit, stacking.py),
the rejection catalogue, and the hooks the referee and the property suite read.

Orders: `draw` and `place` (1.3, setup.py), `move` (4.0-6.4, movement.py), `overrun`
(7.0, overrun.py), `attack` (8.0-13.0, combat.py), `interdict` (11.3, air.py), `enter`
(14.0, reinforcements.py), `standing` and `answer` (docs/protocol.md), `end-phase`
(1.3, 3.1, flow.py).
"""

from __future__ import annotations

from typing import Any, ClassVar

from lxml import etree

from adjudicator.engine.catalogue import PROTOCOL_RULE
from adjudicator.engine.listing import AttackOdds, Listing, UnitOptions
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.procedure import Resumer
from adjudicator.engine.rules import OrderHandler, RulesBase
from adjudicator.engine.stacking import over_limit
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.moscow import combat, listing, setup
from adjudicator.games.moscow.air import interdict
from adjudicator.games.moscow.combat import overrun
from adjudicator.games.moscow.data import Game, unit_facts
from adjudicator.games.moscow.events import APPLIERS
from adjudicator.games.moscow.flow import (
    SEQUENCE,
    end_phase,
    game_turn,
    next_phase,
    remaining_phases,
)
from adjudicator.games.moscow.movement import move
from adjudicator.games.moscow.orders import ORDER_KINDS
from adjudicator.games.moscow.position import position_state
from adjudicator.games.moscow.reinforcements import enter
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.stacking import answer_overstack, limit_now
from adjudicator.games.moscow.vocabulary import GAME, GERMAN, RULES_0_3_0, SIDES, TITLE, Phase


def standing(ctx: StepContext, order: Order) -> None:
    """Standing instructions for the choices the rules give this side in the other
    side's player turn (docs/protocol.md): `air-on-defence` (11.0 B: German air units
    placed on each Soviet attack on German units, while they last), `loss` ("retreat":
    retreat rather than lose steps when a result allows it, 8.9 D-E) and `retreat`
    ("first": the first of the safe retreat paths, 8.10-8.11) and `advance` ("never": the
    defender's victorious units stay put when the attackers' hexes are vacated, 8.12 C)."""
    values: dict[str, str] = {}
    air = order.get("air-on-defence")
    if air:
        if ctx.side != GERMAN or air not in ("0", "1", "2", "3"):
            raise CATALOGUE.refuse("bad-standing", "11.0 B",
                                   "air-on-defence is the German player's, 0 to 3 air units")
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


def _overstack_answered(ctx: StepContext, context: dict[str, Any], choice: str) -> None:
    """4.6 C: the unit the enemy chose is destroyed; the Movement Phase ends once every
    hex is within the limit (another hex over it asks again)."""
    answer_overstack(ctx, context, choice)
    next_phase(ctx)


class MoscowRules(RulesBase):
    game = GAME
    title = TITLE
    sides = SIDES
    catalogue = CATALOGUE
    game_over_rule = "16.0"
    turn_rule = "3.1 D"
    events = APPLIERS
    order_specs = ORDER_KINDS  # the typed orders, for the shorthand (engine/shorthand.py)
    resumer = Resumer(extra={"overstack": _overstack_answered,
                             **{step: combat.resume for step in combat.STEPS}})
    orders: ClassVar[dict[str, OrderHandler]] = {
        "draw": setup.draw,
        "place": setup.place,
        "move": move,
        "overrun": overrun,
        "attack": combat.attack,
        "interdict": interdict,
        "enter": enter,
        "standing": standing,
        "end-phase": end_phase,
    }

    def __init__(self) -> None:
        self.orders = {**type(self).orders, "answer": self.answer}

    def check_module(self, module: ModuleData) -> None:
        Game.of(module)

    def initial_state(self, module: ModuleData, scenario: str, options: dict[str, str]) -> State:
        return setup.scenario_state(module, scenario, options)

    def position_state(self, module: ModuleData, root: etree._Element,
                       options: dict[str, str]) -> State:
        return position_state(module, root, options)

    def pass_orders(self, state: State, side: str) -> list[str]:
        """The pass of modules 0.1.0 and 0.2.0: an end-phase for every phase left in the
        game turn, the other player's included, which 3.1 D refuses once the side's own
        phases are over (the service then plays no pass and says why)."""
        if state.get("pending") or state["phase"] in (Phase.DRAW, Phase.SETUP):
            return []  # the set-up cannot be passed
        return ["<end-phase/>"] * remaining_phases(state)

    def pass_on_board(self, module: ModuleData, state: State, side: str) -> list[str]:
        """From module 0.3.0 the pass ends the phases of the side's own player turn that
        are still to come (3.1.1, 3.1.2: the German Air Interdiction Phase only while it
        is held), moving and attacking with nobody, and no more."""
        ends = self.pass_orders(state, side)
        if not ends or not module.at_least(RULES_0_3_0):
            return ends
        at = SEQUENCE.index((state["player"], state["phase"]))
        return ["<end-phase/>"] * game_turn(module).remaining(at, state, player=side)

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

    # -- what the property suite and the order builder read --------------------------------
    def legal_orders(self, module: ModuleData, state: State, side: str) -> Listing:
        return listing.legal_orders(module, state, side)

    def unit_options(self, module: ModuleData, state: State, side: str,
                     unit: str) -> UnitOptions | None:
        return listing.unit_options(module, state, side, unit)

    def attack_odds(self, module: ModuleData, state: State, side: str,
                    attackers: tuple[str, ...], target: str) -> AttackOdds | None:
        return listing.attack_odds(module, state, side, attackers, target)

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
            limit = limit_now(module, state, side)
            mine = [u for u in state["units"] if unit_facts(game, state, u)[0] == side]
            problems += [f"{label} holds {', '.join(units)}: more than {limit} {side} units"
                         for label, units, _ in over_limit(
                             state["units"], lambda _, stack, n=limit: len(stack) > n or None,
                             mine)]
        return problems
