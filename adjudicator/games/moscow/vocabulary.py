"""The words of Moscow '41, each defined once: the game, the sides, the phases of the
sequence of play, the counters' types, the weather, and the numbers the rulebook fixes
(the stacking limit, the interdiction table, the air units a combat may have).

The values are the module's and the journal's spellings, so a StrEnum member is the very
string the data and the journals hold.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

GAME = "moscow"  # the game's id: its package, its module's game="", its journals
TITLE = "Moscow '41"

# The rules' edition (docs/architecture.md, "Compatibility"): from module 0.2.0 on, the
# fixes listed in RULES-ISSUES.md, "What module 0.2.0 changed", apply. A journal of module
# 0.1.0 is replayed by the rules it was played by, so every fix asks
# `module.at_least(RULES_0_2_0)` and keeps the old behaviour otherwise.
RULES_0_2_0 = "0.2.0"
# From module 0.3.0 the referee's pass ends only the phases of the side that missed its
# deadline (RULES-ISSUES.md, "What module 0.3.0 changed").
RULES_0_3_0 = "0.3.0"


class Side(StrEnum):
    """1.1: the German player and the Soviet player."""

    GERMAN = "german"
    SOVIET = "soviet"


GERMAN, SOVIET = Side.GERMAN, Side.SOVIET
SIDES = (GERMAN.value, SOVIET.value)


def other_side(side: str) -> Side:
    return SOVIET if side == GERMAN else GERMAN


class Phase(StrEnum):
    """1.3 (the set-up, after the cup draw) and 3.1 (the phases of a player turn)."""

    DRAW = "draw"
    SETUP = "setup"
    MOVEMENT = "movement"
    COMBAT = "combat"
    INTERDICTION = "interdiction"
    GAME_OVER = "game-over"


class UnitType(StrEnum):
    """2.4.4: the unit types of the counters."""

    ARMOR = "armor"
    MECHANIZED = "mechanized"
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    AIR = "air"


ARMOR_TYPES = frozenset({UnitType.ARMOR, UnitType.MECHANIZED})  # 2.7 B: the Armor/Mech column
WEATHERS = ("clear", "rasputitsa", "snow")  # 15.0; "clear" is charts.xml's name

STACKING_LIMIT = 4  # 4.0 D, 4.5 A, 4.6 A, 7.4 A, 8.11 B, 8.12 A
SOVIET_SETUP_STACK = 2  # 1.3.1 E, 3.2 B: two Soviet units a hex until normal stacking
MAX_AIR = 3  # 11.0 A, 11.0 E: air units on one combat (the chart's max-units wins)
MAX_INTERDICTING = 2  # 11.0 D: air units on one interdicted hex
INTERDICTION_FACTOR = {0: 1, 1: 2, 2: 4}  # 11.3 A-B: costs doubled, quadrupled
SUPPLY_LINE_MPS = Fraction(5)  # 9.0 E


DIE = range(1, 7)


class EventKind(StrEnum):
    """Every event the Moscow '41 rules record, by its journal spelling."""

    UNTRIED_DRAWN = "untried-drawn"
    UNTRIED_REVEALED = "untried-revealed"
    SETUP_DRAWN = "setup-drawn"
    UNIT_PLACED = "unit-placed"
    UNITS_MOVED = "units-moved"
    AIR_INTERDICTED = "air-interdicted"
    REINFORCEMENT_DRAWN = "reinforcement-drawn"
    REINFORCEMENT_ENTERED = "reinforcement-entered"
    REINFORCEMENT_LOST = "reinforcement-lost"
    UNIT_ELIMINATED = "unit-eliminated"
    STANDING_SET = "standing-set"
    PHASE_ENDED = "phase-ended"
    TURN_BEGAN = "turn-began"
    GAME_ENDED = "game-ended"
    ATTACK_DECLARED = "attack-declared"
    AIR_COMMITTED = "air-committed"
    COMBAT_RESOLVED = "combat-resolved"
    LOSS_CHOSEN = "loss-chosen"
    UNIT_REDUCED = "unit-reduced"
    UNIT_RETREATED = "unit-retreated"
    UNITS_ADVANCED = "units-advanced"
    OVERRUN_MOVERS = "overrun-movers"
    COMBAT_FINISHED = "combat-finished"
    STANDING_INSTRUCTION_USED = "standing-instruction-used"


# The rule each event applies, as the report cites it; "" for an event that carries its
# own `rule` (an elimination, a retreat, an attack: the rule differs case by case) or
# applies none (a standing instruction set).
EVENT_RULES: dict[EventKind, str] = {
    EventKind.UNTRIED_DRAWN: "12.1",
    EventKind.UNTRIED_REVEALED: "",
    EventKind.SETUP_DRAWN: "1.3.1 C-I",
    EventKind.UNIT_PLACED: "1.3",
    EventKind.UNITS_MOVED: "4.0",
    EventKind.AIR_INTERDICTED: "11.3",
    EventKind.REINFORCEMENT_DRAWN: "14.0 C",
    EventKind.REINFORCEMENT_ENTERED: "14.1",
    EventKind.REINFORCEMENT_LOST: "",
    EventKind.UNIT_ELIMINATED: "",
    EventKind.STANDING_SET: "",
    EventKind.PHASE_ENDED: "3.1",
    EventKind.TURN_BEGAN: "3.1.2 C, 15.0",
    EventKind.GAME_ENDED: "",
    EventKind.ATTACK_DECLARED: "",
    EventKind.AIR_COMMITTED: "",
    EventKind.COMBAT_RESOLVED: "8.5, 8.9",
    EventKind.LOSS_CHOSEN: "8.9",
    EventKind.UNIT_REDUCED: "",
    EventKind.UNIT_RETREATED: "",
    EventKind.UNITS_ADVANCED: "",
    EventKind.OVERRUN_MOVERS: "7.0",
    EventKind.COMBAT_FINISHED: "8.0",
    EventKind.STANDING_INSTRUCTION_USED: "",
}
# 15.0: the weather is rolled for each turn (the roll's purpose says which)
WEATHER_ROLL_RULE = "15.0"
