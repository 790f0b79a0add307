"""The sequence of play as data (docs/architecture.md, "The game kit"), in the manner of
boardgame.io's turn flow: the phases of a turn in order, who acts in each, which rule
makes it, when a phase is part of the turn at all, and whether the sides alternate in
impulses inside it. The rules read the flow to know what comes next, what a pass must
end and which phases an order belongs to; they never hard-code the order twice.

>>> turn = Sequence("turn", (Phase("movement", player="german"),
...                          Phase("combat", player="german"),
...                          Phase("interdiction", player="german",
...                                when=lambda state: state["air"] > 0),
...                          Phase("movement", player="soviet")))
>>> turn.following(turn.find("combat", player="german"), {"air": 0}).player
'soviet'
>>> turn.remaining(0, {"air": 1}, player="german")
3
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

State = Mapping[str, Any]


@dataclass(frozen=True)
class Phase:
    """One phase (or segment) of the sequence of play.

    `player`: the side that acts in it (None where the rules read it from the state,
    e.g. the phasing side of a player turn); `segment`: the part of the turn it belongs
    to (1941's First and Second Ground Segments); `when`: the phase is part of this turn
    only when it holds (1941 17.1.1: no second Combat Phase on Turn 1); `impulses`: the
    sides alternate inside it until the rules end it (Leningrad '41)."""

    name: str
    player: str | None = None
    segment: str | None = None
    rule: str = ""
    when: Callable[[State], bool] | None = None
    impulses: bool = False

    def held(self, state: State) -> bool:
        return self.when is None or self.when(state)


@dataclass(frozen=True)
class Sequence:
    """The phases of one turn (or one player turn), in order."""

    name: str
    phases: tuple[Phase, ...]

    def find(self, name: str, *, player: str | None = None, segment: str | None = None) -> int:
        """The index of a phase by its name and, where names repeat, its player or
        segment.

        Raises:
            KeyError: no such phase.
        """
        for i, phase in enumerate(self.phases):
            if phase.name == name and phase.player == player and phase.segment == segment:
                return i
        raise KeyError(f"{self.name} has no phase {name!r} ({player}, {segment})")

    def following(self, at: int, state: State) -> Phase | None:
        """The next phase after the one at `at` that is part of this turn; None after the
        last."""
        for phase in self.phases[at + 1:]:
            if phase.held(state):
                return phase
        return None

    def held(self, state: State) -> tuple[Phase, ...]:
        """The phases that are part of the turn in this state."""
        return tuple(p for p in self.phases if p.held(state))

    def remaining(self, at: int, state: State, *, player: str | None = None) -> int:
        """How many phases from the one at `at` (itself included) are still to come this
        turn, only those of `player` if given: what a pass must end."""
        return sum(1 for p in self.phases[at:]
                   if p.held(state) and (player is None or p.player == player))
