"""Barbarossa Solitaire's vocabulary: every closed set of names the rules, the journal
and the reports use, each defined once, in the rulebook's words.

The sheet has no numbered paragraphs, so a rule is cited by the name of its section
(`Rule`). The values are the journal's spellings: they are part of the game's
journals and may not change (docs/architecture.md, "Compatibility").
"""

from __future__ import annotations

from enum import StrEnum

GAME = "solitaire"  # the game's id: its package, its journals' module id
TITLE = "Barbarossa Solitaire"
# The module version is also the rules' edition (docs/architecture.md, "Compatibility"):
# module 1.1.0 words three refusals better (a garrison named as a unit, an attack on an
# area an earlier order of the file made German-controlled) and keeps module 1.0.0's
# words for its journals (RULES-ISSUES.md, "What module 1.1.0 changed").
RULES_1_1 = "1.1.0"


class Side(StrEnum):
    """The German player, the only human side, against the Soviet Combat procedure."""

    GERMAN = "german"
    SOVIET = "soviet"


class Phase(StrEnum):
    """Game Sequence: move, attack, place reinforcements, resolve the Soviet attacks;
    the set-up of the Free placement option comes before the first turn."""

    SETUP = "setup"
    MOVEMENT = "movement"
    ATTACK = "attack"
    REINFORCEMENT = "reinforcement"
    SOVIET_COMBAT = "soviet-combat"
    GAME_OVER = "game-over"


class Rule(StrEnum):
    """The sections of the rulebook the rules cite, by name."""

    SEQUENCE = "Game Sequence"
    MOVEMENT = "Movement"
    MANDATORY_GARRISON = "Movement (optional rule)"
    COMBAT = "Combat"
    CONTROL = "Combat (control)"  # what makes an area German- or Soviet-controlled
    REINFORCEMENTS = "Reinforcements"
    SOVIET_COMBAT = "Soviet Combat"
    SOVIET_TARGETS = "Soviet Combat: Soviet Random Attack Chart"
    SOVIET_EFFECTS = "Soviet Combat: Effects of Soviet Attack"
    RESTRICTIONS = "Restrictions"
    SEA_AREAS = "Sea Areas"
    VICTORY = "Victory Conditions"
    FREE_PLACEMENT = "Optional Rules: Free placement"
    # docs/architecture.md, The engine model, not the rulebook
    STANDING = "protocol §4 (standing instructions)"


class Nationality(StrEnum):
    """The nationalities of the German side's armies (Initial Setup, Reinforcements)."""

    GERMAN = "german"
    ROMANIAN = "romanian"
    HUNGARIAN = "hungarian"
    ITALIAN = "italian"


# Restrictions: Romanian and Hungarian units cannot stack in the same area.
ALLIES_APART = frozenset({Nationality.ROMANIAN, Nationality.HUNGARIAN})
OTHER_ALLY: dict[str, str] = {Nationality.ROMANIAN: Nationality.HUNGARIAN,
              Nationality.HUNGARIAN: Nationality.ROMANIAN}

GARRISON = "garrison"  # the marker of a garrison: a position file's <marker kind=>


class Via(StrEnum):
    """How two areas are joined: a land border or a sea area (Sea Areas); the kinds of
    the area board's edges and a retreat's `via`."""

    LAND = "land"
    SEA = "sea"


class AttackResult(StrEnum):
    """Combat: the results of the Attack Chart."""

    FAILS = "-1"  # the attack fails, the attacker loses 1 unit
    SUCCEEDS_WITH_LOSS = "X-1"  # the attack succeeds, the attacker loses 1 unit
    SUCCEEDS = "X"  # the attack succeeds, all attackers move in


LOSING = frozenset({AttackResult.FAILS, AttackResult.SUCCEEDS_WITH_LOSS})
SUCCEEDING = frozenset({AttackResult.SUCCEEDS, AttackResult.SUCCEEDS_WITH_LOSS})


class AttackTarget(StrEnum):
    """Soviet Combat: what the Soviet Random Attack Chart names."""

    NEAREST = "nearest"  # the front-line area nearest to the places named
    ROLL_TWICE = "roll-twice"
    WEAKEST_POINT = "weakest-point"


class SovietEffect(StrEnum):
    """Soviet Combat: the Effects of Soviet Attack."""

    NONE = "none"
    RETREAT_OR_ELIMINATE = "retreat-or-eliminate"
    ELIMINATE = "eliminate"


class DecisionKind(StrEnum):
    """The choices the rules give the German player mid-procedure (docs/architecture.md, The engine
    model)."""

    ATTACK_LOSS = "attack-loss"  # which attacker is lost (Combat)
    SOVIET_ATTACK_LOSS = "soviet-attack-loss"  # which unit a Soviet attack eliminates
    RETREAT_OR_ELIMINATE = "retreat-or-eliminate"  # a Soviet 2: retreat all, or lose one


class Choice(StrEnum):
    """The verbs of an answer (`retreat:AREA`, `eliminate:UNIT`) and of the standing
    instruction `on-retreat-or-eliminate`."""

    RETREAT = "retreat"
    ELIMINATE = "eliminate"

    def of(self, what: str) -> str:
        """The answer `retreat:odessa`, `eliminate:GER-6`."""
        return f"{self.value}:{what}"


class Instruction(StrEnum):
    """The German player's standing instructions (docs/architecture.md, The engine model): the
    attributes of
    `<standing>` and the keys of the state's `standing`."""

    LOSS_PRIORITY = "loss-priority"
    ON_RETREAT_OR_ELIMINATE = "on-retreat-or-eliminate"
    RETREAT_PRIORITY = "retreat-priority"


class Option(StrEnum):
    """The game options of the module (Soviet Combat, Optional Rules, RULES-ISSUES.md)."""

    SOVIET = "soviet"
    VARIANT = "variant"
    FREE_PLACEMENT = "free-placement"
    VOLUNTARY_ALLIANCE = "voluntary-alliance"
    HITLERS_ORDERS = "hitlers-orders"
    MANDATORY_GARRISON = "mandatory-garrison"
    TARGET_READING = "target-reading"
    VICTORY_COUNT = "victory-count"


class SovietColumn(StrEnum):
    """Soviet Combat: the scenario columns of the Soviet Attack Chart."""

    HARD = "hard"
    MEDIUM = "medium"
    EASY = "easy"
    NO_PURGES = "no-purges"
    RANDOM = "random"


class Variant(StrEnum):
    """Soviet Combat: the variants that modify the number of attacks."""

    NONE = "none"
    JAPAN_ATTACKS = "japan-attacks"
    NO_LEND_LEASE = "no-lend-lease"
    EARLY_FURY = "early-fury"


class TargetReading(StrEnum):
    """How 'nearest to the place named' reads when the chart names two (RULES-ISSUES #3)."""

    EITHER_PLACE = "either-place"
    FIRST_PLACE = "first-place"


class VictoryCount(StrEnum):
    """Which German-controlled areas count for victory (RULES-ISSUES.md #7)."""

    ALL_AREAS = "all-areas"
    SOVIET_AREAS = "soviet-areas"


class Switch(StrEnum):
    """The values of an optional rule's option."""

    YES = "yes"
    NO = "no"


# the values each option may offer (the module may offer fewer)
OPTION_VALUES: dict[Option, type[StrEnum]] = {
    Option.SOVIET: SovietColumn,
    Option.VARIANT: Variant,
    Option.FREE_PLACEMENT: Switch,
    Option.VOLUNTARY_ALLIANCE: Switch,
    Option.HITLERS_ORDERS: Switch,
    Option.MANDATORY_GARRISON: Switch,
    Option.TARGET_READING: TargetReading,
    Option.VICTORY_COUNT: VictoryCount,
}


class Pool(StrEnum):
    """Where the German side's units off the map are (the position files' `<pool
    name=>` for the first two)."""

    REINFORCEMENTS = "reinforcements"  # due, waiting to enter (the state's `queue`)
    OUT = "out"  # out of the game for good (Italian units)
    ARRIVING = "arriving"  # scheduled to enter in a later turn (the state's `schedule`)
    UNPLACED = "unplaced"  # waiting to be placed (Free placement)


class EventKind(StrEnum):
    """Every event the game emits, by its journal spelling (the engine's own `roll`,
    `decision-requested` and `decision-answered` aside)."""

    PHASE_ENDED = "phase-ended"
    UNIT_PLACED = "unit-placed"
    MOVED = "moved"
    GARRISON_PLACED = "garrison-placed"
    GARRISON_REMOVED = "garrison-removed"
    CONTROL_CHANGED = "control-changed"
    ATTACKED = "attacked"
    ADVANCED = "advanced"
    UNIT_REMOVED = "unit-removed"
    REINFORCEMENT_DUE = "reinforcement-due"
    REINFORCEMENT_PLACED = "reinforcement-placed"
    SOVIET_ATTACKS_SET = "soviet-attacks-set"
    SOVIET_ROLL_TWICE = "soviet-roll-twice"
    SOVIET_ATTACK_TARGET = "soviet-attack-target"
    SOVIET_ATTACK_EFFECT = "soviet-attack-effect"
    RETREATED = "retreated"
    STANDING_INSTRUCTIONS = "standing-instructions"
    STANDING_INSTRUCTION_USED = "standing-instruction-used"
    SOVIET_COMBAT_ENDED = "soviet-combat-ended"
    TURN_BEGAN = "turn-began"
    GAME_ENDED = "game-ended"


# The rule each kind of event is told under; an event that names its own `rule` (a
# garrison removed by a Soviet attack, a unit lost by a Restriction) cites that one.
EVENT_RULES: dict[EventKind, str] = {
    EventKind.PHASE_ENDED: Rule.SEQUENCE,
    EventKind.UNIT_PLACED: Rule.FREE_PLACEMENT,
    EventKind.MOVED: Rule.MOVEMENT,
    EventKind.GARRISON_PLACED: Rule.MOVEMENT,
    EventKind.GARRISON_REMOVED: Rule.MOVEMENT,
    EventKind.CONTROL_CHANGED: Rule.CONTROL,
    EventKind.ATTACKED: Rule.COMBAT,
    EventKind.ADVANCED: Rule.COMBAT,
    EventKind.UNIT_REMOVED: Rule.REINFORCEMENTS,
    EventKind.REINFORCEMENT_DUE: Rule.REINFORCEMENTS,
    EventKind.REINFORCEMENT_PLACED: Rule.REINFORCEMENTS,
    EventKind.SOVIET_ATTACKS_SET: Rule.SOVIET_COMBAT,
    EventKind.SOVIET_ROLL_TWICE: Rule.SOVIET_TARGETS,
    EventKind.SOVIET_ATTACK_TARGET: Rule.SOVIET_TARGETS,
    EventKind.SOVIET_ATTACK_EFFECT: Rule.SOVIET_EFFECTS,
    EventKind.RETREATED: Rule.SOVIET_EFFECTS,
    EventKind.STANDING_INSTRUCTIONS: Rule.STANDING,
    EventKind.STANDING_INSTRUCTION_USED: Rule.STANDING,
    EventKind.SOVIET_COMBAT_ENDED: Rule.SEQUENCE,
    EventKind.TURN_BEGAN: Rule.SEQUENCE,
    EventKind.GAME_ENDED: Rule.VICTORY,
}
