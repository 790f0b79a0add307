"""Hex-map boards: terrain per hex, features per hexside, searched with rule-supplied costs.

The board knows geometry and what is printed on the map; what a move costs, what
blocks a supply line, what a zone of control does, is the rules' business and
comes in as a function. Searches visit hexes in sorted order and break ties the
same way every time, so a path is the same on every machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from adjudicator.engine.hexgrid import Hex, HexGrid, Hexside
from adjudicator.engine.search import Summable, least_costs, reachable

C = TypeVar("C", bound=Summable)  # a cost: int, Fraction
NOTHING: frozenset[str] = frozenset()
# (from, to) -> movement points to enter `to` from `from`, or None if it cannot
StepCost = Callable[[Hex, Hex], Any]
# (from, to) -> may a trace (supply line, retreat) pass from `from` into `to`
Passable = Callable[[Hex, Hex], bool]


@dataclass(frozen=True)
class PathStep:
    """One hex entered on a path and the movement points spent to enter it."""

    hex: Hex
    cost: Any  # int, Fraction


class PathError(ValueError):
    """A path a player wrote that the board or the rules do not allow; `index` is the
    position in the path (0 = the starting hex) of the first hex that is wrong."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


@dataclass
class HexBoard:
    grid: HexGrid
    terrain: dict[Hex, str]
    hexsides: dict[Hexside, frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._labels: dict[Hex, str] = {}
        for side in self.hexsides:
            for end in side:
                if end not in self.terrain:
                    raise ValueError(f"hexside {self.label(side.a)}/{self.label(side.b)} "
                                     f"touches {self.label(end)}, which is not on the map")
        # Board facts computed once: every search and every move asks them many times.
        self._next: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(sorted(n for n in self.grid.neighbours(h) if n in self.terrain))
            for h in self.terrain}
        self._labels = {h: self.grid.label(h) for h in self.terrain}
        self._hexes = {label: h for h, label in self._labels.items()}
        self._sides: dict[tuple[Hex, Hex], frozenset[str]] = {}
        for h, near in self._next.items():
            for n in near:
                self._sides[(h, n)] = self.hexsides.get(Hexside.between(h, n), NOTHING)

    def __contains__(self, h: object) -> bool:
        return h in self.terrain

    def __iter__(self) -> Iterator[Hex]:
        return iter(sorted(self.terrain))

    def label(self, h: Hex) -> str:
        found = self._labels.get(h)
        return found if found is not None else self.grid.label(h)

    def hex(self, label: str) -> Hex:
        """The hex a printed label names; ValueError if it is not on this map."""
        found = self._hexes.get(label)
        if found is not None:
            return found
        h = self.grid.parse(label)
        if h not in self.terrain:
            raise ValueError(f"hex {label} is not on the map")
        return h

    def neighbours(self, h: Hex) -> list[Hex]:
        """The on-map hexes next to `h`, sorted."""
        near = self._next.get(h)
        if near is None:  # a hex off the map
            return sorted(n for n in self.grid.neighbours(h) if n in self.terrain)
        return list(near)

    def features(self, a: Hex, b: Hex) -> frozenset[str]:
        """What is printed on the hexside between two adjacent hexes (river, road, ...).

        Raises:
            ValueError: the hexes are not adjacent.
        """
        found = self._sides.get((a, b))
        if found is not None:
            return found
        return self.hexsides.get(Hexside.between(a, b), NOTHING)

    # -- movement ----------------------------------------------------------------------
    def check_path(self, path: list[Hex], cost: StepCost) -> list[PathStep]:
        """The movement points spent in every hex of a path a player wrote, hex by hex.

        Raises:
            PathError: a hex off the map, two hexes that are not adjacent, or a step
                the rules' cost function forbids (cost None), with its index.
        """
        if not path:
            raise PathError("a path needs at least its starting hex", 0)
        if path[0] not in self.terrain:
            raise PathError(f"{path[0]} is not on the map", 0)
        steps = []
        for i, (here, there) in enumerate(zip(path, path[1:], strict=False), start=1):
            if there not in self.terrain:
                raise PathError(f"{there} is not on the map", i)
            if not self.grid.adjacent(here, there):
                raise PathError(f"{self.label(there)} is not next to {self.label(here)}", i)
            spent = cost(here, there)
            if spent is None:
                raise PathError(f"{self.label(there)} cannot be entered from "
                                f"{self.label(here)}", i)
            steps.append(PathStep(there, spent))
        return steps

    def movement_costs(self, start: Hex, cost: StepCost, budget: C | None = None
                       ) -> dict[Hex, C]:
        """The least movement points to reach every hex from `start`, within `budget`
        if given."""
        return least_costs([start], self.neighbours, cost, budget=budget).cost

    def cheapest_path(self, start: Hex, goal: Hex, cost: StepCost,
                      budget: C | None = None) -> list[PathStep] | None:
        """A least-cost path from `start` to `goal` (ties broken by hex order), or None."""
        reached = least_costs([start], self.neighbours, cost, budget=budget,
                              goals=lambda h: h == goal)
        if reached.found != goal:
            return None
        return self.check_path(reached.path(goal), cost)

    # -- traces (supply lines, lines of communication, retreats) -----------------------
    def trace(self, starts: Iterable[Hex], passable: Passable,
              max_length: int | None = None) -> dict[Hex, int]:
        """Every hex a trace reaches from `starts`, with its length in hexes, through
        steps the rules allow, no longer than `max_length` if given."""
        return reachable([s for s in starts if s in self.terrain], self.neighbours, passable,
                         max_steps=max_length).cost

    def trace_to(self, goals: Iterable[Hex], passable: Passable,
                 max_length: int | None = None) -> dict[Hex, int]:
        """Every hex from which a trace through steps `passable(a, b)` allows reaches one
        of `goals`, with the length of the shortest, no longer than `max_length` if
        given: the trace run backwards from the goals (neighbours are mutual), so one
        search answers for every hex what `trace` answers for one start."""
        return reachable([g for g in goals if g in self.terrain], self.neighbours,
                         lambda a, b: passable(b, a), max_steps=max_length).cost
