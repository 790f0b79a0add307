"""Area-graph boards: areas joined by typed edges, searched with rule-supplied predicates.

A board knows geometry only; which area may be entered, and at what cost, is
the rules' business and comes in as a predicate (the shape of every supply or
retreat trace). Iteration is always in sorted id order, and every search is the
kit's one search (search.py), so every search is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from adjudicator.engine.search import least_costs, reachable

AreaId = str
Passable = Callable[[AreaId], bool]


@dataclass(frozen=True)
class Edge:
    """A connection between two areas; `kind` is e.g. "land" or a sea area's id."""

    a: AreaId
    b: AreaId
    kind: str = "land"


@dataclass
class AreaBoard:
    areas: list[AreaId]
    edges: list[Edge] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.areas = sorted(self.areas)
        known = set(self.areas)
        self._neighbours: dict[AreaId, dict[str, set[AreaId]]] = {a: {} for a in self.areas}
        for edge in self.edges:
            for end in (edge.a, edge.b):
                if end not in known:
                    raise ValueError(f"edge {edge.a}-{edge.b} names unknown area {end!r}")
            if edge.a == edge.b:
                raise ValueError(f"edge {edge.a}-{edge.b} joins an area to itself")
            self._neighbours[edge.a].setdefault(edge.kind, set()).add(edge.b)
            self._neighbours[edge.b].setdefault(edge.kind, set()).add(edge.a)

    def __contains__(self, area: object) -> bool:
        return area in self._neighbours

    def neighbours(self, area: AreaId, kinds: Iterable[str] = ("land",)) -> list[AreaId]:
        """Areas joined to `area` by an edge of one of `kinds`, sorted."""
        found: set[AreaId] = set()
        for kind in kinds:
            found |= self._neighbours[area].get(kind, set())
        return sorted(found)

    def adjacent(self, a: AreaId, b: AreaId, kinds: Iterable[str] = ("land",)) -> bool:
        return any(b in self._neighbours[a].get(kind, set()) for kind in kinds)

    def reachable(
        self,
        starts: Iterable[AreaId],
        passable: Passable,
        kinds: Iterable[str] = ("land",),
    ) -> set[AreaId]:
        """Every area reached from `starts` through areas for which `passable` holds.

        A start that is not passable reaches nothing, not even itself.
        """
        kinds = tuple(kinds)
        begin = [s for s in starts if passable(s)]
        return set(reachable(begin, lambda a: self.neighbours(a, kinds),
                             lambda a, b: passable(b)).cost)

    def path(
        self,
        start: AreaId,
        goal: AreaId,
        passable: Passable,
        kinds: Iterable[str] = ("land",),
    ) -> list[AreaId] | None:
        """A shortest path start..goal whose every area after `start` is passable, or None
        (breadth-first: of equally short paths, the one found first)."""
        kinds = tuple(kinds)
        reached = least_costs([start], lambda a: self.neighbours(a, kinds),
                              lambda a, b: 1 if passable(b) else None,
                              goals=lambda a: a == goal, ties="fifo")
        return reached.path(goal) if reached.found == goal else None

    def distances(self, start: AreaId, kinds: Iterable[str] = ("land",)) -> dict[AreaId, int]:
        """Number of edges from `start` to every connected area (breadth-first)."""
        kinds = tuple(kinds)
        return reachable([start], lambda a: self.neighbours(a, kinds),
                         lambda a, b: True).cost

    def __iter__(self) -> Iterator[AreaId]:
        return iter(self.areas)
