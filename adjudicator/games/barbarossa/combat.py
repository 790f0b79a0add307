"""1941: Operation Barbarossa, rule 7.0 Combat with 9.0 (armor bonus) and 10.0 (air
power): strengths, halving, odds, column shifts, exchanges, air negation.

Pure procedures over plain facts; the odds columns and the Combat Results Table come
from the module's charts through `adjudicator.engine.odds`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from adjudicator.errors import IllegalOrder


@dataclass(frozen=True)
class Combatant:
    id: str
    strength: int  # printed combat strength
    armor: bool  # armor-type (1.3.2)
    halvings: int = 0  # how many times its strength is halved (supply, weather, shock)
    doubled: bool = False  # 11.0 D: infantry-type defending in a fortifications hex


def total_strength(units: Sequence[Combatant]) -> int:
    """7.4 A-C with 7.5: the strengths totalled, every halving done on the exact total
    of the units it applies to, and fractions rounded up only at the end.

    >>> total_strength([Combatant(f"u{i}", 5, False, halvings=1) for i in range(3)])
    8
    """
    exact = sum((Fraction(u.strength * (2 if u.doubled else 1), 2 ** u.halvings)
                 for u in units), Fraction(0))
    return math.ceil(exact)


def armor_bonus(attackers: Sequence[Combatant], defenders: Sequence[Combatant], *,
                defender_terrain: str, weather: str) -> bool:
    """9.1: one column right when only armor-type units attack only infantry-type units
    in a clear hex (a city or a river between is fine), not in mud or snow."""
    return (bool(attackers) and all(u.armor for u in attackers)
            and not any(u.armor for u in defenders)
            and defender_terrain == "clear" and weather not in ("mud", "snow"))


def air_shift(attacker_points: int, defender_points: int) -> int:
    """10.2: each air point of the phasing side one column right, each of the
    non-phasing side one column left."""
    return attacker_points - defender_points


def check_axis_air(points: int, attackers: Sequence[str], defenders: Sequence[str]) -> None:
    """10.3: Germany allocates air points only to attacks in which at least one German
    unit attacks or defends (`attackers`/`defenders` are nationalities)."""
    if points and "german" not in (*attackers, *defenders):
        raise IllegalOrder("10.3", "Germany may allocate air points only to attacks in "
                           "which at least one German unit is attacking or defending",
                           code="axis-air")


def negate_air(phasing: int, non_phasing: int, spent: int) -> tuple[int, int]:
    """10.4: during its Air Segment the phasing side spends air points to negate the
    other side's one for one; both sides' points left.

    >>> negate_air(3, 2, 2)   # the rule's example, Turn 6: Germany 3, the Soviets 2
    (1, 0)
    """
    if not 0 <= spent <= phasing:
        raise IllegalOrder("10.4", f"only {phasing} air points are available to negate "
                           f"with, not {spent}", code="air-points")
    if spent > non_phasing:
        raise IllegalOrder("10.4", f"the other side has only {non_phasing} air points to "
                           f"negate, not {spent}", code="air-overkill")
    return phasing - spent, non_phasing - spent


def exchange_candidates(attackers: Sequence[Combatant], lost: int) -> list[str]:
    """7.7.6 B-D: after an exchange the attacker removes one unit whose printed strength
    most closely approximates the strength the defender lost (its choice among ties),
    none if every attacker has at least three times that strength.

    >>> exchange_candidates([Combatant("a", 6, False), Combatant("b", 4, False),
    ...                      Combatant("c", 3, False)], 5)
    ['a', 'b']
    >>> exchange_candidates([Combatant("a", 16, True), Combatant("b", 14, True)], 4)
    []
    """
    if not attackers or all(u.strength >= 3 * lost for u in attackers):
        return []
    best = min(abs(u.strength - lost) for u in attackers)
    return [u.id for u in attackers if abs(u.strength - lost) == best]
