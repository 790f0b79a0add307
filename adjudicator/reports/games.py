"""The game-specific half of a report: each game's reporter, named by its definition.

A reporter turns a (projected) step into plain-English views; the renderers in
`render.py` and `areamap.py` stay game-agnostic.
"""

from __future__ import annotations

from typing import Any, Protocol

from adjudicator.engine.module import ModuleData
from adjudicator.engine.report import (
    Calendar,
    CalendarPosition,
    Counter,
    DecisionView,
    Loss,
    MapView,
    PositionRow,
    Section,
    Status,
    StepReport,
)


class GameReporter(Protocol):
    game: str

    def narrate(self, step: StepReport) -> list[Section]:
        """Every event of the step in plain English with rule references, grouped."""
        ...

    def losses(self, step: StepReport) -> list[Loss]:
        ...

    def status(self, module: ModuleData, state: dict[str, Any]) -> Status:
        ...

    def position(self, module: ModuleData, state: dict[str, Any]) -> list[PositionRow]:
        ...

    def decision(self, module: ModuleData, request: dict[str, Any]) -> DecisionView:
        ...

    def order_hints(self, module: ModuleData, state: dict[str, Any], side: str) -> list[str]:
        """The position in brief for an order-file template, with unit and area ids."""
        ...

    def describe_order(self, module: ModuleData, order: dict[str, Any]) -> str:
        """An order in words ("move GER-6 to Lvov")."""
        ...

    def map_view(self, module: ModuleData, state: dict[str, Any], side: str,
                 caption: str | None = None) -> MapView:
        """What the map shows of an already projected state."""
        ...

    def counter_mix(self, module: ModuleData) -> list[Counter]:
        """Every counter and marker the game has, each once, with `piece` set: what an
        export offers in its piece palette. Map views use the same counters."""
        ...

    def calendar(self, module: ModuleData) -> Calendar:
        """The turn record and the sequence of play, for a turn tracker."""
        ...

    def calendar_position(self, module: ModuleData, state: dict[str, Any]) -> CalendarPosition:
        """Where `state` stands on `calendar(module)`: what a turn tracker shows."""
        ...


def reporter_for(game: str) -> GameReporter:
    """The reporter of `game`; LookupError when the game has none."""
    from adjudicator.errors import PbemError
    from adjudicator.games import get_game

    try:
        reporter: GameReporter = get_game(game).reporter()
    except (PbemError, ImportError, AttributeError) as exc:
        raise LookupError(f"no report writer for game {game!r}: {exc}") from None
    return reporter
