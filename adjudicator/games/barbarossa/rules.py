"""1941: Operation Barbarossa as the engine sees it (engine/rules.py `RulesBase`): the
orders and what carries each out, the events and what each changes, the procedure an
answer resumes (the attack, `combat.ATTACK`), the rejection catalogue, and the hooks the
referee and the property suite read.

Orders: `move` (5.0-6.2, 13.x), `rail` (5.4), `enter` (14.1, 17.1.5), `replace` (14.2),
`negate` (10.4), `attack` (7.0, 9.1, 10.2), `partisans` (20.2), `bomb-rail` (20.3),
`air-supply` (20.5), `answer` and `standing` (docs/architecture.md, The engine model), `deploy`
(20.6), `sea-move`,
`neutralize` and `disband` (20.1), `end-phase` (2.0); after every order control is
settled (4.0 B) and the fleets judged (20.1.4 C-D).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from lxml import etree

from adjudicator.engine.catalogue import PROTOCOL_RULE
from adjudicator.engine.listing import AttackOdds, Listing, UnitOptions
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order, OrderSpec
from adjudicator.engine.procedure import Resumer
from adjudicator.engine.rules import OrderHandler, RulesBase
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa import (
    air,
    combat,
    control,
    flow,
    naval,
    optional,
    rail,
    reinforcements,
    setup,
    stacking,
)
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.events import APPLIERS
from adjudicator.games.barbarossa.movement import move
from adjudicator.games.barbarossa.orders import (
    ORDER_SPECS,
    AirSupply,
    Attack,
    BombRail,
    Deploy,
    Disband,
    Enter,
    Negate,
    Neutralize,
    Partisans,
    Rail,
    Replace,
    SeaMove,
    Standing,
)
from adjudicator.games.barbarossa.orders import EndPhase as EndPhaseOrder
from adjudicator.games.barbarossa.orders import Move as MoveOrder
from adjudicator.games.barbarossa.position import position_state
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.setup import on_the_map
from adjudicator.games.barbarossa.vocabulary import (
    GAME,
    Decision,
    EventKind,
    RetreatChoice,
    Side,
)

SIDES = (Side.AXIS.value, Side.SOVIET.value)

S = TypeVar("S", bound=OrderSpec)


def typed(spec: type[S], handler: Callable[[StepContext, S], None]) -> OrderHandler:
    """An order handler that reads its order as the game's typed order (orders.py)."""
    def handle(ctx: StepContext, order: Order) -> None:
        handler(ctx, spec.from_order(order))
    return handle


def standing(ctx: StepContext, order: Standing) -> None:
    """Standing instructions for choices the rules give this side during the other
    side's player turn: `defensive-air` (10.2 B: points per attack, while they last) and
    `retreat="first"` (7.8.1: the first of equally good retreat hexes)."""
    values: dict[str, str] = {}
    if order.defensive_air:
        if not order.defensive_air.isdigit():
            raise CATALOGUE.refuse("bad-standing", PROTOCOL_RULE,
                                   "defensive-air is a number of air points")
        values[Decision.DEFENSIVE_AIR.value] = order.defensive_air
    if order.retreat:
        if order.retreat not in tuple(RetreatChoice):
            raise CATALOGUE.refuse("bad-standing", PROTOCOL_RULE, 'retreat is "first" or "ask"')
        if order.retreat == RetreatChoice.FIRST:
            values[Decision.RETREAT.value] = order.retreat
    ctx.emit(EventKind.STANDING_SET, side=ctx.side, values=values)


def answer(ctx: StepContext, order: Order) -> None:
    """An answer to the open decision request: the attack it interrupted goes on."""
    RULES.answer(ctx, order)


class BarbarossaRules(RulesBase):
    game = GAME
    title = "1941"  # as refusals and errors name the game ("<x> is not a 1941 order")
    sides = SIDES
    catalogue = CATALOGUE
    game_over_rule = "18.1 A"
    turn_rule = "2.0 C"
    resumer = Resumer((combat.ATTACK,))
    events = APPLIERS
    order_specs = ORDER_SPECS
    orders: dict[str, OrderHandler] = {
        EndPhaseOrder.KIND: typed(EndPhaseOrder, flow.end_phase),
        MoveOrder.KIND: typed(MoveOrder, move),
        Attack.KIND: typed(Attack, combat.attack),
        Negate.KIND: typed(Negate, air.negate),
        Rail.KIND: typed(Rail, rail.rail),
        Enter.KIND: typed(Enter, reinforcements.enter),
        Replace.KIND: typed(Replace, reinforcements.replace),
        Partisans.KIND: typed(Partisans, optional.partisans),
        BombRail.KIND: typed(BombRail, optional.bomb_rail),
        AirSupply.KIND: typed(AirSupply, optional.air_supply),
        Deploy.KIND: typed(Deploy, optional.deploy),
        SeaMove.KIND: typed(SeaMove, naval.sea_move),
        Neutralize.KIND: typed(Neutralize, naval.neutralize),
        Disband.KIND: typed(Disband, naval.disband),
        "answer": answer,
        Standing.KIND: typed(Standing, standing),
    }

    def check_module(self, module: ModuleData) -> None:
        game = GameData.of(module)
        for piece in game.pieces.values():
            if on_the_map(piece.deploy):
                game.board.hex(piece.deploy)  # ValueError -> the module is broken

    def initial_state(self, module: ModuleData, scenario: str, options: dict[str, str]) -> State:
        return setup.scenario_state(module, scenario, options)

    def position_state(self, module: ModuleData, root: etree._Element,
                       options: dict[str, str]) -> State:
        return position_state(module, root, options)

    def pass_orders(self, state: State, side: str) -> list[str]:
        return flow.pass_orders(state, side)

    def pass_on_board(self, module: ModuleData, state: State, side: str) -> list[str]:
        return flow.pass_on_board(module, state, side)

    def after_order(self, ctx: StepContext, order: Order) -> None:
        control.settle(ctx)  # 4.0 B: control at the instant, after every order (0.3.0)
        naval.neutralize_by_control(ctx)  # 20.1.4 C-D

    def check_static(self, module: ModuleData, order: Order) -> list[str]:
        game = GameData.of(module)
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

    # -- what the property suite reads ---------------------------------------------------------
    def legal_orders(self, module: ModuleData, state: State, side: str) -> Listing:
        from adjudicator.games.barbarossa.listing import legal_orders

        return legal_orders(module, state, side)

    def unit_options(self, module: ModuleData, state: State, side: str,
                     unit: str) -> UnitOptions | None:
        from adjudicator.games.barbarossa.listing import unit_options

        return unit_options(module, state, side, unit)

    def attack_odds(self, module: ModuleData, state: State, side: str,
                    attackers: tuple[str, ...], target: str) -> AttackOdds | None:
        from adjudicator.games.barbarossa.listing import attack_odds

        return attack_odds(module, state, side, attackers, target)

    def positions(self, state: State) -> dict[str, str]:
        return dict(state["units"])

    def pools(self, state: State) -> dict[str, list[str]]:
        """The units waiting to arrive, by turn (14.1 C), and the eliminated (14.2, 18.2 C)."""
        pools = {f"arriving {turn}": list(units) for turn, units in state["arriving"].items()}
        pools["eliminated"] = list(state["eliminated"])
        return pools

    def stacking_problems(self, module: ModuleData, state: State) -> list[str]:
        """3.0 for both sides; the hex of a neutralized fleet may stay overstacked until the
        end of the next Soviet Movement Phase (20.1.1 B), which the rules check then."""
        game = GameData.of(module)
        bases = set(naval.neutralized_bases(game, state))
        return [f"{label} holds {', '.join(units)}: {problem}"
                for side in SIDES
                for label, units, problem in stacking.side_problems(game, state, side)
                if not (side == Side.SOVIET and label in bases)]


RULES = BarbarossaRules()
