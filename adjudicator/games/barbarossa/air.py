"""1941 rule 10.0 Air Power: air points per turn (10.1, the Turn Record Chart), each
used once per turn; in combat the phasing side's points shift the odds right, then the
non-phasing side's left (10.2), German points only where a German unit fights (10.3);
and in the Air Segment, negation (10.4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.orders import Negate
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.vocabulary import EventKind, Nationality, Phase, Side


def air_shift(attacker_points: int, defender_points: int) -> int:
    """10.2: each air point of the phasing side one column right, each of the
    non-phasing side one column left."""
    return attacker_points - defender_points


def check_axis_air(points: int, attackers: Sequence[str], defenders: Sequence[str]) -> None:
    """10.3: Germany allocates air points only to attacks in which at least one German
    unit attacks or defends (`attackers`/`defenders` are nationalities)."""
    if points and Nationality.GERMAN not in (*attackers, *defenders):
        raise CATALOGUE.refuse("axis-air", "10.3", "Germany may allocate air points only to "
                               "attacks in which at least one German unit is attacking or "
                               "defending")


def german_in(game: GameData, context: dict[str, Any]) -> bool:
    """10.3: whether a German unit attacks or defends in this attack."""
    return any(game.pieces[u].nationality == Nationality.GERMAN
               for u in [*context["attackers"], *context["defenders"]])


def attack_air(game: GameData, state: State, side: str, written: str, attackers: list[str],
               defenders: list[str]) -> int:
    """10.1 B, 10.2 A, 10.3: the air points the phasing side allocates to an attack, as
    its order writes them."""
    try:
        air = int(written or 0)
    except ValueError:
        raise CATALOGUE.refuse("air-points", "10.2 A", "air is a number of air points") \
            from None
    if (air < 0 or air > state["air"][side]) and game.since_0_3:
        who = "Germany has" if side == Side.AXIS else "the Soviets have"
        raise CATALOGUE.refuse("air-points", "10.1 B", f"{who} {state['air'][side]} air points "
                               f"left this turn, not {air}; each may be used once per turn, in "
                               "either player turn")
    if air < 0 or air > state["air"][side]:  # module 0.2.0's words
        raise CATALOGUE.refuse("air-points", "10.1 B", f"{side} has {state['air'][side]} air "
                               f"points left this turn, not {air}; each may be used once")
    if side == Side.AXIS:
        check_axis_air(air, [game.pieces[u].nationality for u in attackers],
                       [game.pieces[u].nationality for u in defenders])
    return air


def defensive_air_available(game: GameData, state: State, context: dict[str, Any]) -> int:
    """10.2 B with 10.3: the air points the non-phasing side may allocate to an attack."""
    defender = Side(state["player"]).enemy
    if defender == Side.AXIS and not german_in(game, context):
        return 0  # 10.3: German air only where a German unit attacks or defends
    return int(state["air"][defender])


def negate_air(phasing: int, non_phasing: int, spent: int) -> tuple[int, int]:
    """10.4: during its Air Segment the phasing side spends air points to negate the
    other side's one for one; both sides' points left.

    >>> negate_air(3, 2, 2)   # the rule's example, Turn 6: Germany 3, the Soviets 2
    (1, 0)
    """
    if not 0 <= spent <= phasing:
        raise CATALOGUE.refuse("air-points", "10.4", f"only {phasing} air points are available "
                               f"to negate with, not {spent}")
    if spent > non_phasing:
        raise CATALOGUE.refuse("air-overkill", "10.4", f"the other side has only {non_phasing} "
                               f"air points to negate, not {spent}")
    return phasing - spent, non_phasing - spent


def negate(ctx: StepContext, order: Negate) -> None:
    """10.4: in its Air Segment the phasing side negates the other side's air points."""
    state = ctx.state
    if state["phase"] != Phase.AIR:
        raise CATALOGUE.refuse("not-air", "10.4", "air points are negated in the Air Segment")
    side = state["player"]
    other = str(Side(side).enemy)
    try:
        points = int(order.points)
    except ValueError:
        raise CATALOGUE.refuse("bad-points", "10.4", "points is a number of air points") \
            from None
    mine, theirs = negate_air(state["air"][side], state["air"][other], points)
    ctx.emit(EventKind.AIR_NEGATED, side=side, points=points, left={side: mine, other: theirs})
