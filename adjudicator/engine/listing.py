"""The legal orders of a position (docs/architecture.md, "The game kit").

A game proposes candidates: for each unit of the acting side where it may move (from
the kit's search, with the cost) and what it may attack, and the other orders its
phase allows (an entry, an air allocation, an answer, the end of the phase). The kit
keeps the candidates the rules accept: each is dry-run on the position by the same
step runner that adjudicates, so a listed order is never one the rules refuse, and one
that needs a die is listed (its checks come before the roll). What the property suite
plays, the order builder offers and `pbem orders list` prints all come from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import OrderSpec
from adjudicator.engine.state import State

if TYPE_CHECKING:
    from adjudicator.engine.rules import GameRules


@dataclass(frozen=True)
class Destination:
    """Where a unit (or stack) may go this phase: the place, the path it takes there and
    what the move costs, as the rules print it ("3", "2 1/2")."""

    place: str
    path: tuple[str, ...]
    cost: str


@dataclass(frozen=True)
class AttackOdds:
    """What an attack would be rolled on, before it is added: the odds as the game's
    combat table names them ("3-1", "2 units, modifier +1") and each column shift or
    modifier known now, in words with its rule; `unknown` says what only the
    adjudication will tell (the defender's air, hidden strengths)."""

    odds: str
    shifts: tuple[tuple[str, str], ...] = ()  # (words, rule)
    unknown: str = ""


@dataclass(frozen=True)
class UnitOptions:
    """What one unit of the acting side may do now."""

    unit: str
    at: str
    moves: tuple[Destination, ...] = ()
    attacks: tuple[str, ...] = ()  # the places it may attack (alone or with others)
    orders: tuple[OrderSpec, ...] = ()  # its legal orders, moves and attacks included


@dataclass(frozen=True)
class Listing:
    """The acting side's legal orders in a position."""

    side: str
    units: tuple[UnitOptions, ...] = ()
    orders: tuple[OrderSpec, ...] = ()  # every legal order, the units' ones included
    rejected: int = field(default=0, compare=False)  # candidates the rules refused
    # every unit of the side that may act now and where it stands, found without a dry
    # run (a listing may offer moves for a sample of them only): what the order
    # builder's unit list shows; a click on one asks `unit_listing` for its orders
    actors: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def for_unit(self, unit: str) -> UnitOptions | None:
        return next((u for u in self.units if u.unit == unit), None)

    def acting_units(self) -> tuple[tuple[str, str], ...]:
        """Every unit that may act, (unit, place): the game's `actors`, the listed
        units among them, sorted by id."""
        found = dict(self.actors)
        found.update((u.unit, u.at) for u in self.units)
        return tuple(sorted(found.items()))


def accepted(rules: GameRules, module: ModuleData, state: State, side: str,
             candidates: Iterable[OrderSpec]) -> tuple[list[OrderSpec], int]:
    """The candidates a dry run of each, alone on this position, does not refuse; and how
    many it refused. Duplicates are dropped, the order kept."""
    from adjudicator.engine.step import refusal

    kept: list[OrderSpec] = []
    seen: set[str] = set()
    refused = 0
    for candidate in candidates:
        text = candidate.to_xml()
        if text in seen:
            continue
        seen.add(text)
        if refusal(rules, module, state, candidate.to_order(), side) is None:
            kept.append(candidate)
        else:
            refused += 1
    return kept, refused


def attack_odds(rules: GameRules, module: ModuleData, state: State, side: str,
                attackers: tuple[str, ...], target: str) -> AttackOdds | None:
    """The odds and shifts of an attack by `attackers` on `target`, from the game's own
    combat code (`RulesBase.attack_odds`); None when the game gives none."""
    hook = getattr(rules, "attack_odds", None)
    if hook is None:
        return None
    found: AttackOdds | None = hook(module, state, side, attackers, target)
    return found


def unit_listing(rules: GameRules, module: ModuleData, state: State, side: str,
                 unit: str) -> UnitOptions | None:
    """What one unit of `side` may do now, for a click on it: the game's `unit_options`
    hook where it has one (a listing of the whole side may offer a sample of each unit's
    destinations; this gives them all), else that unit's entry of the whole listing."""
    hook = getattr(rules, "unit_options", None)
    if hook is not None:
        found: UnitOptions | None = hook(module, state, side, unit)
        return found
    return rules.legal_orders(module, state, side).for_unit(unit)
