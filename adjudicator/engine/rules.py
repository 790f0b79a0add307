"""The interface every game's rules implement; the engine calls nothing else."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from adjudicator.engine.events import Event
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
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
