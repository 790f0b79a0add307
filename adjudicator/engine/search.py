"""One least-cost search for every board: supply traces, movement ranges, retreat and
nearest-X questions (docs/architecture.md, "The game kit").

The search knows nothing of hexes, areas or rules. A board gives the neighbours of a
place; the rules give the cost of one step (None where the step is blocked), which
places a search may go on from, and which places are goals. Costs are any ordered type
with `+` (int for hexes counted or whole movement points, Fraction for a chart's
half points). The result is the same on every machine:

- `ties="sorted"`: places of equal cost are settled in their sort order (hexes by
  axial coordinates, areas by id), the way a priority queue of (cost, place) does;
- `ties="fifo"`: in the order they were first reached, which with unit costs is a
  breadth-first search (the order of a queue).

A place's predecessor is the first that reached it at its least cost, so a path is
one definite path, not any cheapest one.

>>> line = {1: [2], 2: [1, 3], 3: [2, 4], 4: [3]}
>>> reach = least_costs([1], line.__getitem__, lambda a, b: 1, budget=2)
>>> sorted(reach.cost.items())
[(1, 0), (2, 1), (3, 2)]
>>> reach.path(3)
[1, 2, 3]
>>> least_costs([1], line.__getitem__, lambda a, b: 1, goals={3, 4}.__contains__).found
3
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import count
from typing import Any, Generic, Literal, Protocol, TypeVar


class Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


class Summable(Ordered, Protocol):
    def __add__(self, other: Any, /) -> Any: ...


P = TypeVar("P", bound=Hashable)  # a place: a hex, an area id
C = TypeVar("C", bound=Summable)  # a cost: int, Fraction

Ties = Literal["sorted", "fifo"]


@dataclass
class Reached(Generic[P, C]):
    """What a search reached: the least cost of every place, the place each was first
    reached from at that cost, and the first goal settled (None: no goal reached)."""

    cost: dict[P, C]
    came_from: dict[P, P] = field(default_factory=dict)
    found: P | None = None

    def __contains__(self, place: object) -> bool:
        return place in self.cost

    def path(self, to: P) -> list[P]:
        """The places from a start to `to`, both included.

        Raises:
            KeyError: `to` was not reached.
        """
        if to not in self.cost:
            raise KeyError(to)
        route = [to]
        while route[-1] in self.came_from:
            route.append(self.came_from[route[-1]])
        return route[::-1]


def least_costs(
    starts: Iterable[P] | Mapping[P, C],
    neighbours: Callable[[P], Iterable[P]],
    step: Callable[[P, P], C | None],
    *,
    zero: Any = 0,
    budget: C | None = None,
    goals: Callable[[P], bool] | None = None,
    expand: Callable[[P], bool] | None = None,
    ties: Ties = "sorted",
) -> Reached[P, C]:
    """The least cost from the nearest start to every place reached.

    Args:
        starts: the places the search begins at (cost `zero`), or a mapping from each
            start to the cost it begins with.
        neighbours: the places one step away from a place; visited in the order given
            (boards give them sorted).
        step: the cost of stepping from one place into a neighbour, None if blocked.
        budget: no place costs more than this (None: no limit).
        goals: the search stops as soon as it settles a place for which this holds
            (that place is `found`); a start may be a goal.
        expand: whether the search may go on from a place it settled (a zone of control
            that stops movement: the place is reached but leads nowhere); starts are
            always expanded.
        ties: which of several places of equal cost is settled first (module docstring).
    """
    begin: dict[P, C] = dict(starts) if isinstance(starts, Mapping) \
        else dict.fromkeys(starts, zero)
    ordered = sorted(begin, key=_sort_key)
    reached: Reached[P, C] = Reached(dict(begin))
    order = count()
    queue: list[tuple[Any, Any, P]] = []
    for place in ordered:
        queue.append((begin[place], next(order) if ties == "fifo" else _sort_key(place),
                      place))
    heapq.heapify(queue)
    settled: set[P] = set()
    best = reached.cost
    while queue:
        spent, _, here = heapq.heappop(queue)
        if here in settled or best[here] < spent:
            continue
        settled.add(here)
        if goals is not None and goals(here):
            reached.found = here
            break
        if expand is not None and here not in begin and not expand(here):
            continue
        for there in neighbours(here):
            if there in settled:
                continue
            cost = step(here, there)
            if cost is None:
                continue
            total = spent + cost
            if budget is not None and budget < total:
                continue
            if there in best and not total < best[there]:
                continue
            best[there] = total
            reached.came_from[there] = here
            heapq.heappush(queue, (total, next(order) if ties == "fifo"
                                   else _sort_key(there), there))
    return reached


def _sort_key(place: Any) -> Any:
    return place


def reachable(starts: Iterable[P], neighbours: Callable[[P], Iterable[P]],
              passable: Callable[[P, P], bool], *, max_steps: int | None = None,
              ) -> Reached[P, int]:
    """Every place a trace reaches from `starts` through steps `passable` allows, with
    its length in steps, breadth-first (a supply line counted in hexes, an area trace).

    The same result, predecessors and order of the places included, as `least_costs`
    with unit costs and `ties="fifo"`, by a plain queue: with every step costing one,
    the first time a place is reached is at its least cost, so no priority queue is
    needed and a place reached already is never asked about again (supply traces run
    over the whole map at every phase end).

    >>> line = {1: [2], 2: [1, 3], 3: [2, 4], 4: [3]}
    >>> reach = reachable([1], line.__getitem__, lambda a, b: b != 4, max_steps=5)
    >>> reach.cost, reach.came_from
    ({1: 0, 2: 1, 3: 2}, {2: 1, 3: 2})
    """
    begin: dict[P, int] = dict.fromkeys(starts, 0)
    reached: Reached[P, int] = Reached(dict(begin))
    cost, came_from = reached.cost, reached.came_from
    queue = deque(sorted(begin, key=_sort_key))
    while queue:
        here = queue.popleft()
        spent = cost[here]
        if max_steps is not None and spent >= max_steps:
            continue
        for there in neighbours(here):
            if there in cost or not passable(here, there):
                continue
            cost[there] = spent + 1
            came_from[there] = here
            queue.append(there)
    return reached

def least_costs_to(
    goals: Iterable[P],
    neighbours: Callable[[P], Iterable[P]],
    step: Callable[[P, P], C | None],
    *,
    zero: Any = 0,
    budget: C | None = None,
    ties: Ties = "sorted",
) -> Reached[P, C]:
    """The least cost from every place to the nearest of `goals`, in one search from the
    goals with every step taken backwards: a supply network, asked once for all the
    units instead of one search from each unit. `step(a, b)` is the cost of stepping
    from `a` into `b`, as a trace from a unit towards the goals walks it; `neighbours`
    must be symmetric (a hex board's are). A place is in the result if and only if a
    search from it with the same `step` and `budget` reaches a goal, at the same cost;
    `came_from` leads from each place one step nearer a goal.

    >>> line = {1: [2], 2: [1, 3], 3: [2, 4], 4: [3]}
    >>> uphill = lambda a, b: 1 if b > a else 3
    >>> sorted(least_costs_to([3], line.__getitem__, uphill, budget=4).cost.items())
    [(1, 2), (2, 1), (3, 0), (4, 3)]
    """
    return least_costs(goals, neighbours, lambda nearer, farther: step(farther, nearer),
                       zero=zero, budget=budget, ties=ties)
