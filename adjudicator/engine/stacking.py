"""Stacking, parametrized by the game's limits (docs/architecture.md, "The game kit").

A game says what a stack may hold (`fits`: the problem with one place's units, in the
game's own terms, or None); the kit groups the units by place, in a fixed order, and
finds the places over the limit: corps and armies per hex, units per hex, blocks
per area.

>>> over_limit({"a": 1, "b": 1, "c": 2}, lambda place, units: "too many"
...            if len(units) > 1 else None)
[(1, ['a', 'b'], 'too many')]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

P = TypeVar("P", bound=Hashable)
R = TypeVar("R")


def stacks(positions: Mapping[str, P], units: Iterable[str] | None = None) -> dict[P, list[str]]:
    """The units (all, or those named) grouped by place: places in the order their first
    unit comes in sorted id order, units sorted."""
    chosen = sorted(positions if units is None else units)
    grouped: dict[P, list[str]] = {}
    for unit in chosen:
        if unit in positions:
            grouped.setdefault(positions[unit], []).append(unit)
    return grouped


def over_limit(positions: Mapping[str, P], fits: Callable[[P, list[str]], R | None],
               units: Iterable[str] | None = None) -> list[tuple[P, list[str], R]]:
    """Every place whose stack breaks the limit, with its units and the problem."""
    found = []
    for place, stack in stacks(positions, units).items():
        problem = fits(place, stack)
        if problem is not None:
            found.append((place, stack, problem))
    return found
