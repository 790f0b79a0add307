"""Retreats, parametrized by the game's rules (docs/architecture.md, "The game kit").

Two shapes cover the games so far:

- a retreat of a fixed number of hexes along paths whose every step the rules allow,
  the best of them by the rules' priority (`retreat_paths`);
- a retreat of one hex by priority that goes on, the minimum necessary, while every
  hex it could end in is full (1941 7.8.2 C): the rings of a breadth-first search over
  the allowed steps (`rings`, over `search.least_costs`).

>>> line = {1: [2], 2: [1, 3], 3: [2, 4], 4: [3]}
>>> retreat_paths(1, line.__getitem__, 2, lambda a, b: b > a)
[(2, 3)]
>>> rings(1, line.__getitem__, lambda a, b: b > a, deepest=3)
[[2], [3], [4]]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from adjudicator.engine.search import least_costs

P = TypeVar("P", bound=Hashable)


def retreat_paths(start: P, neighbours: Callable[[P], Iterable[P]], hexes: int,
                  step_ok: Callable[[P, P], bool], *,
                  end_ok: Callable[[tuple[P, ...]], bool] | None = None,
                  rank: Callable[[tuple[P, ...]], Any] | None = None,
                  ) -> list[tuple[P, ...]]:
    """Every path of exactly `hexes` steps from `start` (the places entered, in order)
    whose every step `step_ok` allows and whose end `end_ok` accepts; with `rank`, only
    those of the lowest rank. Sorted; empty when there is none."""
    paths: list[tuple[P, ...]] = [()]
    for _ in range(hexes):
        longer: list[tuple[P, ...]] = []
        for path in paths:
            here = path[-1] if path else start
            longer += [(*path, there) for there in neighbours(here) if step_ok(here, there)]
        paths = longer
    paths = [p for p in paths if p and (end_ok is None or end_ok(p))]
    if rank is not None and paths:
        ranks = {p: rank(p) for p in paths}
        least = min(ranks.values())
        paths = [p for p in paths if ranks[p] == least]
    return sorted(paths)


def rings(start: P, neighbours: Callable[[P], Iterable[P]],
          step_ok: Callable[[P, P], bool], *, deepest: int) -> list[list[P]]:
    """The places one, two, ... `deepest` allowed steps from `start` (each place in the
    first ring it is reached in), each ring sorted; stops at the first empty ring."""
    reached = least_costs([start], neighbours,
                          lambda a, b: 1 if step_ok(a, b) else None,
                          budget=deepest, ties="fifo")
    by_ring: list[list[P]] = [[] for _ in range(deepest)]
    for place, steps in reached.cost.items():
        if steps:
            by_ring[steps - 1].append(place)
    out = []
    for ring in by_ring:
        if not ring:
            break
        out.append(sorted(ring))  # type: ignore[type-var]
    return out
