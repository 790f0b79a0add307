"""1941 rule 17.0 Invasion (Turn 1): the special rules of the first turn, asked by the
rules they change.

- 17.1.1: no Combat Phase in the Second Ground Segment (`flow.SEQUENCE`);
- 17.1.2: no German rail movement, a Soviet rail capacity of two (`rail.py`);
- 17.1.3: no Soviet zones into Greater Germany in the German First Ground Segment;
- 17.1.4: the German retreats the Soviet units;
- 17.1.5: the Soviet reinforcements 1:Od and 1:E (`reinforcements.py`).
"""

from __future__ import annotations

from adjudicator.engine.state import State
from adjudicator.games.barbarossa.vocabulary import Segment, Side

FIRST_TURN = 1
SOVIET_RAIL_CAPACITY = 2  # 17.1.2 B


def is_first_turn(state: State) -> bool:
    return bool(state["turn"] == FIRST_TURN)


def second_combat_held(state: State) -> bool:
    """17.1.1: on Turn 1 the Second Ground Segment is a Movement Phase only."""
    return not is_first_turn(state)


def soviet_zones_stop(state: State, side: str) -> bool:
    """17.1.3: whether the zones `side`'s enemies exert stop at the border of Greater
    Germany: the Soviet zones, on Turn 1, throughout the German First Ground Segment (its
    Air Segment included: the zones it begins with)."""
    return side == Side.AXIS and is_first_turn(state) and state["player"] == Side.AXIS \
        and state["segment"] in (Segment.AIR, Segment.FIRST)


def retreat_chooser(state: State, owner: str) -> str:
    """17.1.4: the German side, not the Soviet, retreats the Soviet units on Turn 1; the
    owner retreats its units otherwise (7.7.2, 7.7.4)."""
    return Side.AXIS if is_first_turn(state) and owner == Side.SOVIET else owner
