"""The interface every game's rules implement; the engine calls nothing else."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from adjudicator.engine.catalogue import PROTOCOL_RULE, Catalogue
from adjudicator.engine.events import Event
from adjudicator.engine.listing import AttackOdds, Listing
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order, OrderSpec
from adjudicator.engine.procedure import Resumer
from adjudicator.engine.state import State

if TYPE_CHECKING:
    from lxml import etree

    from adjudicator.engine.step import StepContext


class GameRules(Protocol):
    """One game's rules. Pure functions of (module, state, order, dice): no I/O."""

    game: str
    sides: tuple[str, ...]

    def check_module(self, module: ModuleData) -> None:
        """ModuleError if schema-valid module data lacks what the rules read."""
        ...

    def initial_state(self, module: ModuleData, scenario: str, options: dict[str, str]) -> State:
        """The position a scenario starts from; raises ModuleError for unknown ids."""
        ...

    def position_state(
        self, module: ModuleData, position: etree._Element, options: dict[str, str]
    ) -> State:
        """The state a schema-valid position file describes; InvalidInput if it cannot be."""
        ...

    def acting_side(self, state: State) -> str | None:
        """The side whose submission the game waits for, or None when the game is over."""
        ...

    def apply(self, state: State, event: Event) -> None:
        """Change `state` in place by one event. The only way state ever changes."""
        ...

    def execute(self, ctx: StepContext, order: Order) -> None:
        """Carry out one order by emitting events; raise IllegalOrder before emitting if
        the rules forbid it, or DecisionPending after opening a request."""
        ...

    def check_static(self, module: ModuleData, order: Order) -> list[str]:
        """Problems visible without a position (unknown unit or area ids); for dry runs."""
        ...

    def pass_orders(self, state: State, side: str) -> list[str]:
        """The orders (XML elements of the order file) that make `side` pass its step
        when it missed a deadline under the "pass" policy; [] when it cannot pass now."""
        ...

    def summary(self, state: State) -> dict[str, Any]:
        """A few words of status for `pbem status`: turn, phase, score."""
        ...

    def legal_orders(self, module: ModuleData, state: State, side: str) -> Listing:
        """What `side` may order now (engine/listing.py): per unit where it may move and
        at what cost and what it may attack, and every other order the position allows."""
        ...

    def positions(self, state: State) -> dict[str, str]:
        """Where each unit on the map stands (unit -> hex or area)."""
        ...

    def pools(self, state: State) -> dict[str, list[str]]:
        """The units off the map, by pool (eliminated, waiting to enter, ...); no unit is
        in two pools or in a pool and on the map."""
        ...

    def stacking_problems(self, module: ModuleData, state: State) -> list[str]:
        """What breaks the stacking limits now, in words (empty: nothing); the limits
        hold at the end of every phase."""
        ...


def referee_pass(rules: GameRules, module: ModuleData, state: State, side: str) -> list[str]:
    """The orders the referee plays for `side` when it missed a deadline under the
    "pass" policy, and the only ones `pbem verify` accepts from him: the board-aware pass
    of a game on the kit's `RulesBase`, else the rules' `pass_orders`."""
    if isinstance(rules, RulesBase):
        return rules.pass_on_board(module, state, side)
    return rules.pass_orders(state, side)


OrderHandler = Callable[["StepContext", Order], None]
EventHandler = Callable[[State, Event], None]


class RulesBase:
    """The base a game's rules build on, in the manner of python-chess variants
    overriding a few hooks of `Board`: the dispatch of orders and events, standing
    instructions accepted from a side whoever acts, answers that resume the procedure a
    decision interrupted, the game over and the step of the wrong side refused with the
    game's rule. A game supplies its tables (`orders`, `events`, `resumer`, `catalogue`)
    and the state it starts from."""

    game: ClassVar[str]
    title: ClassVar[str]
    sides: ClassVar[tuple[str, ...]]
    catalogue: ClassVar[Catalogue]
    orders: ClassVar[Mapping[str, OrderHandler]]
    events: ClassVar[Mapping[str, EventHandler]]
    resumer: ClassVar[Resumer] = Resumer()
    game_over_rule: ClassVar[str]  # the rule that ends the game
    turn_rule: ClassVar[str | None] = None  # the rule that says whose step it is
    standing_kind: ClassVar[str | None] = "standing"
    # the game's typed orders, one per kind: what the shorthand reads and writes
    order_specs: ClassVar[tuple[type[OrderSpec], ...]] = ()

    # -- whose step ---------------------------------------------------------------------
    def acting_side(self, state: State) -> str | None:
        """The side an open decision waits for, else the phasing player; None when the
        game is over."""
        if state.get("pending"):
            return str(state["pending"]["side"])
        return None if state["phase"] == "game-over" else str(state["player"])

    # -- orders -------------------------------------------------------------------------
    def execute(self, ctx: StepContext, order: Order) -> None:
        if ctx.state["phase"] == "game-over":
            raise self.catalogue.refuse("game-over", self.game_over_rule, "the game is over")
        if order.kind == self.standing_kind and ctx.side in self.sides:
            # a side's own instructions (docs/architecture.md, "The engine model")
            self.orders[order.kind](ctx, order)
            return
        acting = self.acting_side(ctx.state)
        if self.turn_rule is not None and acting != ctx.side:
            raise self.catalogue.refuse(
                "not-your-step", self.turn_rule,
                f"it is not {ctx.side}'s step now: the game waits for {acting}")
        handler = self.orders.get(order.kind)
        if handler is None:
            raise self.catalogue.refuse("unknown-order", PROTOCOL_RULE,
                                        f"<{order.kind}> is not a {self.order_noun} order")
        handler(ctx, order)
        self.after_order(ctx, order)

    @property
    def order_noun(self) -> str:
        return self.title

    def after_order(self, ctx: StepContext, order: Order) -> None:
        """What the rules do after every order (1941 20.1.4 C-D: fleets neutralized by
        control); nothing by default."""

    def answer(self, ctx: StepContext, order: Order) -> None:
        """An answer to the open decision request: the procedure it interrupted goes on."""
        from adjudicator.engine.step import take_answer

        pending, choice = take_answer(ctx, order)
        self.resumer.resume(ctx, pending, choice)

    def check_static(self, module: ModuleData, order: Order) -> list[str]:
        return []

    # -- what the order builder shows ---------------------------------------------------
    def attack_odds(self, module: ModuleData, state: State, side: str,
                    attackers: tuple[str, ...], target: str) -> AttackOdds | None:
        """The odds and the column shifts of an attack by `attackers` on `target` in this
        position, from the game's own combat code, before any die (engine/listing.py);
        None by default: the game shows none."""
        return None

    # -- the referee's pass -------------------------------------------------------------
    def pass_orders(self, state: State, side: str) -> list[str]:
        """The pass that reads the position alone; none by default."""
        return []

    def pass_on_board(self, module: ModuleData, state: State, side: str) -> list[str]:
        """The pass when it depends on the board (1941: where units that must enter now
        may enter, 14.1.3 C); by default the one of `pass_orders`."""
        return self.pass_orders(state, side)

    # -- events -------------------------------------------------------------------------
    def apply(self, state: State, event: Event) -> None:
        from adjudicator.engine.step import apply_engine_event

        if apply_engine_event(state, event):
            return
        handler = self.events.get(event.kind)
        if handler is None:
            raise ValueError(f"unknown {self.title} event {event.kind!r}")
        handler(state, event)
