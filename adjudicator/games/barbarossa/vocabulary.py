"""The words of 1941: Operation Barbarossa, each defined once: the sides, the sequence of
play, the counters, the map, the weather, the results of the Combat Results Table, the
choices the rules give, the optional rules, and every event the game records with the
rule it applies (the report prints the rule from `EVENT_RULES`).

The values are the module's and the journal's spellings, so a StrEnum member is the very
string the data and the journals hold.
"""

from __future__ import annotations

from enum import StrEnum

GAME = "barbarossa"  # the game's id: its package, its module's game="", its journals
TITLE = "1941: Operation Barbarossa"

# The module version is also the rules' edition (docs/architecture.md, "Compatibility"):
# every reading module 0.3.0 changed asks `GameData.since_0_3`, and keeps the behaviour of
# module 0.2.0 for its journals (RULES-ISSUES.md, "What module 0.3.0 changed").
RULES_0_3 = "0.3.0"  # control at the instant (4.0 B), 14.2.4 B, 12.0 D, 6.2 B, refusals
# module 0.4.0: the referee's pass brings in the reinforcements due (14.1.3 C), and the
# refusal of an entry lists where the unit may enter (RULES-ISSUES.md, "module 0.4.0")
RULES_0_4 = "0.4.0"


class Side(StrEnum):
    """0.0 C: the German player (with the German allies) and the Soviet player."""

    AXIS = "axis"
    SOVIET = "soviet"

    @property
    def enemy(self) -> Side:
        return Side.SOVIET if self is Side.AXIS else Side.AXIS


SIDE_ADJECTIVES = {Side.AXIS: "Axis", Side.SOVIET: "Soviet"}  # "Axis controlled"


class Nationality(StrEnum):
    """1.2.1: the Germans, the German allies, the Soviets."""

    GERMAN = "german"
    FINNISH = "finnish"
    ROMANIAN = "romanian"
    SOVIET = "soviet"


NATIONALITY_WORDS = {Nationality.FINNISH: "Finnish", Nationality.ROMANIAN: "Romanian",
                     Nationality.SOVIET: "Soviet"}


class UnitType(StrEnum):
    """1.3.2: tank/panzer units are armor-type, all others infantry-type."""

    ARMOR = "armor"
    INFANTRY = "infantry"
    MOUNTAIN = "mountain"
    SHOCK = "shock"


class UnitSize(StrEnum):
    """1.3.1."""

    CORPS = "corps"
    GROUP = "group"
    ARMY = "army"


class Segment(StrEnum):
    """2.0 D: the segments of a player turn, and the set-up of 20.6 before the game."""

    AIR = "air"
    FIRST = "first"
    SECOND = "second"
    DEPLOYMENT = "deployment"


class Phase(StrEnum):
    """2.0 D: the phases of a segment; 20.6's placements; the end of the game (18.1 A)."""

    AIR = "air"
    MOVEMENT = "movement"
    COMBAT = "combat"
    DEPLOYMENT = "deployment"
    REDEPLOYMENT = "redeployment"
    GAME_OVER = "game-over"


class Weather(StrEnum):
    """13.0, as the Turn Record Chart gives it."""

    CLEAR = "clear"
    RAIN = "rain"
    MUD = "mud"
    FROST = "frost"
    SNOW = "snow"


class Terrain(StrEnum):
    """The hex terrain of the map and the Terrain Effects Chart."""

    CLEAR = "clear"
    ROUGH = "rough"
    FOREST = "forest"
    SWAMP = "swamp"
    SEA = "sea"
    LAKE = "lake"


WATER = frozenset({Terrain.SEA, Terrain.LAKE})  # all-sea and all-lake hexes
ENTRY_TERRAIN = frozenset({Terrain.CLEAR, Terrain.ROUGH})  # 14.1.1 A


class Feature(StrEnum):
    """What a hexside may have printed on it."""

    RIVER = "river"
    RAIL = "rail"
    BORDER = "border"
    CANAL = "canal"
    ALL_SEA = "all-sea"
    ALL_LAKE = "all-lake"


# 6.0 B: the hexsides a zone of control never extends through while unfrozen
ZONE_BLOCKING = frozenset({Feature.ALL_SEA, Feature.ALL_LAKE})


class Country(StrEnum):
    """The 22 June 1941 country of a hex; "" for none."""

    SOVIET_UNION = "soviet"
    GERMANY = "germany"  # Greater Germany
    ROMANIA = "romania"
    HUNGARY = "hungary"
    FINLAND = "finland"


class CityClass(StrEnum):
    MAJOR = "major"
    REFERENCE = "reference"


class SupplySource(StrEnum):
    """8.2: whose supply source a hex is (8.2.1 B: Helsinki for the Finns)."""

    AXIS = "axis"
    SOVIET = "soviet"
    FINNISH = "finnish"


class FinnishLimit(StrEnum):
    """15.2.2 B: where the Finns may not attack while Leningrad is Soviet."""

    SOUTH_OF_SVIR = "south-of-svir"
    EAST_OF_CANAL = "east-of-canal"


class City(StrEnum):
    """The cities the rules name (their hexes are map data)."""

    MOSCOW = "Moscow"  # 14.2.4 B
    LENINGRAD = "Leningrad"  # 15.2.2 B
    KIEV = "Kiev"  # 20.6.4
    ODESSA = "Odessa"  # 17.1.5 A


LENINGRAD_HEX = "0712"  # 15.2.2 B names the hex


class DeployCode(StrEnum):
    """17.1.5: the Soviet reinforcements of Turn 1 that do not come from a map edge."""

    ODESSA = "1:Od"
    EAST = "1:E"


class Result(StrEnum):
    """7.7: the results of the Combat Results Table."""

    AE = "AE"
    AR = "AR"
    NE = "NE"
    DR = "DR"
    DE = "DE"
    EX = "EX"


class Decision(StrEnum):
    """The choices the rules give a side in the middle of the other's turn (docs/architecture.md,
    The engine model)."""

    DEFENSIVE_AIR = "defensive-air"  # 10.2 B
    EXCHANGE_LOSS = "exchange-loss"  # 7.7.6 B
    RETREAT = "retreat"  # 7.8.1, 17.1.4


class RetreatChoice(StrEnum):
    """How a side's retreats are chosen by its standing instructions (7.8.1)."""

    FIRST = "first"  # the first of equally good hexes
    ASK = "ask"  # a decision request each time


OPTION_ON = "yes"  # the module's value of an optional rule in play


class Option(StrEnum):
    """The optional rules (20.0) a game is played with."""

    NAVAL = "naval"  # 20.1
    PARTISANS = "partisans"  # 20.2
    RAIL_BOMBING = "rail-bombing"  # 20.3
    AIR_SUPPLY = "air-supply"  # 20.5
    FREE_DEPLOYMENT = "free-deployment"  # 20.6


class Carried(StrEnum):
    """How a unit moved in this phase, if not overland (5.4 A, 20.1.3)."""

    RAIL = "rail"
    SEA = "sea"


class ReplacementKind(StrEnum):
    """14.2.2 A: what the replacement allowance counts."""

    INFANTRY = "infantry"
    TANK_CORPS = "tank corps"
    TANK_GROUP = "tank group"


NO_REPLACEMENTS = "none"  # the Turn Record Chart's allowance of a turn without any


class EventKind(StrEnum):
    """Every event the 1941 rules record, by its journal spelling."""

    PHASE_ENDED = "phase-ended"
    PLAYER_TURN_ENDED = "player-turn-ended"
    TURN_BEGAN = "turn-began"
    GAME_ENDED = "game-ended"
    UNIT_MOVED = "unit-moved"
    UNIT_RAILED = "unit-railed"
    UNIT_SHIPPED = "unit-shipped"
    CONTROL_CHANGED = "control-changed"
    SUPPLY_TRACED = "supply-traced"
    ATTACK_DECLARED = "attack-declared"
    ATTACK_RESOLVED = "attack-resolved"
    ATTACK_FINISHED = "attack-finished"
    UNIT_ELIMINATED = "unit-eliminated"
    UNIT_RETREATED = "unit-retreated"
    UNIT_ADVANCED = "unit-advanced"
    UNIT_ENTERED = "unit-entered"
    UNIT_REPLACED = "unit-replaced"
    REPLACEMENTS_REDUCED = "replacements-reduced"
    AIR_NEGATED = "air-negated"
    FLEET_NEUTRALIZED = "fleet-neutralized"
    PARTISANS_DECLARED = "partisans-declared"
    RAIL_BOMBED = "rail-bombed"
    AIR_SUPPLIED = "air-supplied"
    UNIT_DEPLOYED = "unit-deployed"
    UNIT_WITHDRAWN = "unit-withdrawn"
    STANDING_SET = "standing-set"


# The rule each event applies, as the report cites it; events that carry their own `rule`
# (eliminations, sea moves, neutralizations) are cited by that.
EVENT_RULES: dict[EventKind, str] = {
    EventKind.PHASE_ENDED: "2.0",
    EventKind.PLAYER_TURN_ENDED: "2.0 B",
    EventKind.TURN_BEGAN: "13.0, 10.1",
    EventKind.GAME_ENDED: "18.0",
    EventKind.UNIT_MOVED: "5.0",
    EventKind.UNIT_RAILED: "5.4",
    EventKind.UNIT_SHIPPED: "20.1",
    EventKind.CONTROL_CHANGED: "4.0 B",
    EventKind.SUPPLY_TRACED: "8.0 B",
    EventKind.ATTACK_DECLARED: "7.1",
    EventKind.ATTACK_RESOLVED: "7.4, 7.7",
    EventKind.ATTACK_FINISHED: "7.2 D",
    EventKind.UNIT_ELIMINATED: "7.7",
    EventKind.UNIT_RETREATED: "7.8",
    EventKind.UNIT_ADVANCED: "7.8.3",
    EventKind.UNIT_ENTERED: "14.1",
    EventKind.UNIT_REPLACED: "14.2",
    EventKind.REPLACEMENTS_REDUCED: "14.2.4 B",
    EventKind.AIR_NEGATED: "10.4",
    EventKind.FLEET_NEUTRALIZED: "20.1.4",
    EventKind.PARTISANS_DECLARED: "20.2",
    EventKind.RAIL_BOMBED: "20.3",
    EventKind.AIR_SUPPLIED: "20.5",
    EventKind.UNIT_DEPLOYED: "20.6",
    EventKind.UNIT_WITHDRAWN: "20.6.3 B",
    EventKind.STANDING_SET: "",  # a side's own instructions, no rule of the game
}
