"""One path walker: a path a player wrote, checked step by step with the rules' checks
(docs/architecture.md, "The game kit").

A check looks at one step (the n-th place entered, where from, what was spent before
it) and either lets it pass, adds to its cost, or stops the walk with a `Stop`: a typed
reason (a code of the game's rejection catalogue and the facts its words need). The
walker runs the checks of each step in the order given, so the first rule a step breaks
is the one reported, and it never formats words itself: the game maps the stop to its
rule and the player's words.

>>> def adjacent(step):
...     return None if abs(step.there - step.here) == 1 else Stop("not-adjacent", step)
>>> def one_each(step):
...     return 1
>>> walk([3, 4, 5], [adjacent], cost=one_each).spent
2
>>> walk([3, 4, 6], [adjacent], cost=one_each).stop.reason
'not-adjacent'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

P = TypeVar("P")  # a place


@dataclass(frozen=True)
class PathStep(Generic[P]):
    """The `index`-th place entered on a path (1 = the first after the start), the
    place it is entered from, and what the path spent before entering it."""

    index: int
    here: P
    there: P
    spent_before: Any


@dataclass(frozen=True)
class Stop(Generic[P]):
    """Why a walk cannot go on: a catalogue code, the step at fault (None: the path as a
    whole, e.g. it does not start where the unit is) and the facts for the words."""

    reason: str
    step: PathStep[P] | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)


# A check: None lets the step pass, a Stop ends the walk.
Check = Callable[[PathStep[P]], "Stop[P] | None"]


@dataclass(frozen=True)
class Walk(Generic[P]):
    """A walked path: what each step cost and the total, or where and why it stopped
    (`stop`; the steps before it are in `costs`)."""

    path: tuple[P, ...]
    costs: tuple[Any, ...]
    spent: Any
    stop: Stop[P] | None = None

    @property
    def ok(self) -> bool:
        return self.stop is None


def walk(path: Sequence[P], checks: Sequence[Check[P]], *,
         cost: Callable[[PathStep[P]], Any] | None = None, start: Any = 0,
         after_cost: Sequence[Callable[[PathStep[P], Any], Stop[P] | None]] = (),
         ) -> Walk[P]:
    """Walk `path` (its first place is where the walk begins).

    For each step, in order: the `checks`; then `cost(step)` (the cost of entering, or
    a Stop); then the `after_cost` checks, which also see the step's cost (an allowance
    exceeded). `start` is what was spent before the path (a move continued in a later
    order).
    """
    costs: list[Any] = []
    spent = start
    for index, (here, there) in enumerate(zip(path, path[1:], strict=False), start=1):
        step: PathStep[P] = PathStep(index, here, there, spent)
        for check in checks:
            stop = check(step)
            if stop is not None:
                return Walk(tuple(path), tuple(costs), spent, stop)
        entered = cost(step) if cost is not None else 0
        if isinstance(entered, Stop):
            return Walk(tuple(path), tuple(costs), spent, entered)
        for late in after_cost:
            stop = late(step, entered)
            if stop is not None:
                return Walk(tuple(path), tuple(costs), spent, stop)
        costs.append(entered)
        spent = spent + entered
    return Walk(tuple(path), tuple(costs), spent)
