"""Area-graph boards: areas joined by typed edges, searched with rule-supplied predicates.

A board knows geometry only; which area may be entered, and at what cost, is
the rules' business and comes in as a predicate (the shape of every supply or
retreat trace). Iteration is always in sorted id order, so every search is
deterministic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

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
        seen = {s for s in starts if passable(s)}
        queue = deque(sorted(seen))
        while queue:
            here = queue.popleft()
            for there in self.neighbours(here, kinds):
                if there not in seen and passable(there):
                    seen.add(there)
                    queue.append(there)
        return seen

    def path(
        self,
        start: AreaId,
        goal: AreaId,
        passable: Passable,
        kinds: Iterable[str] = ("land",),
    ) -> list[AreaId] | None:
        """A shortest path start..goal whose every area after `start` is passable, or None."""
        kinds = tuple(kinds)
        came_from: dict[AreaId, AreaId | None] = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here == goal:
                route = [here]
                while (prev := came_from[route[-1]]) is not None:
                    route.append(prev)
                return route[::-1]
            for there in self.neighbours(here, kinds):
                if there not in came_from and passable(there):
                    came_from[there] = here
                    queue.append(there)
        return None

    def distances(self, start: AreaId, kinds: Iterable[str] = ("land",)) -> dict[AreaId, int]:
        """Number of edges from `start` to every connected area (breadth-first)."""
        kinds = tuple(kinds)
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.neighbours(here, kinds):
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist

    def __iter__(self) -> Iterator[AreaId]:
        return iter(self.areas)
