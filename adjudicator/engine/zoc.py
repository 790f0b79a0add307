"""Zones of control, parametrized by the game's rules (docs/architecture.md, "The game
kit").

The kit says only who exerts a zone into which place; what a zone does (stops a move,
blocks a supply line, costs extra to leave) is each game's rule, read from a `Zones`.
Which hexsides a zone does not extend across is the game's too (`extends`: all-sea,
all-lake or lake hexsides). A game with no zones of control never builds one.

>>> line = {1: [2], 2: [1, 3], 3: [2, 4], 4: [3]}
>>> zones = zones_of_control([("A", 1), ("B", 4)], line.__getitem__)
>>> sorted(zones.places), zones.exerted[2]
([2, 3], ('A',))
>>> sorted(zones.of(lambda unit: unit == "B"))
[3]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)


def _everywhere(a: object, b: object) -> bool:
    return True


@dataclass(frozen=True)
class Zones(Generic[P]):
    """The zones of control of a set of units: for each place, the units whose zone
    reaches it (sorted ids), and the places the units stand in."""

    exerted: Mapping[P, tuple[str, ...]]
    occupied: frozenset[P]

    @property
    def places(self) -> frozenset[P]:
        return frozenset(self.exerted)

    def __contains__(self, place: object) -> bool:
        return place in self.exerted

    def of(self, exerts: Callable[[str], bool]) -> frozenset[P]:
        """The places in the zone of some unit for which `exerts` holds (an armor-type
        unit, a unit that is not among an overrun's defenders)."""
        return frozenset(p for p, units in self.exerted.items() if any(map(exerts, units)))

    def without(self, units: Collection[str]) -> frozenset[P]:
        """The places still in a zone when `units` exert none."""
        return self.of(lambda unit: unit not in units)


def zones_of_control(units: Iterable[tuple[str, P]], neighbours: Callable[[P], Iterable[P]],
                     *, extends: Callable[[P, P], bool] = _everywhere) -> Zones[P]:
    """The zones of `units` (id, place): each the places next to it, except where
    `extends(place, neighbour)` says the zone does not cross."""
    exerted: dict[P, list[str]] = {}
    occupied: set[P] = set()
    reach: dict[P, list[P]] = {}
    for unit, place in units:
        occupied.add(place)
        if place not in reach:
            reach[place] = [n for n in neighbours(place) if extends(place, n)]
        for there in reach[place]:
            exerted.setdefault(there, []).append(unit)
    return Zones({p: tuple(sorted(u)) for p, u in exerted.items()}, frozenset(occupied))
