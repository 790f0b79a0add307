"""Moscow '41 rule 16.0, How to Win: the sudden death of a German unit in Moscow (16.0 A),
the Soviet VPs for German casualties (16.1), the German VPs for supplied land units next
to Moscow (16.2), the victory level for the difference (16.3) and the bid (16.4).

The readings where the rulebook leaves room are in RULES-ISSUES.md (12-13, 37)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.errors import ModuleError
from adjudicator.games.moscow.data import Game, read_victory, unit_facts
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.supply import is_supplied
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.vocabulary import GERMAN, SOVIET


@dataclass(frozen=True)
class Level:
    name: str
    side: str
    low: int | None  # None: no lower bound
    high: int | None


@dataclass(frozen=True)
class VictorySchedule:
    """16.1-16.3 as printed: Soviet VPs per reduced and eliminated German unit by type,
    German VPs per hex adjacent to Moscow, the levels on German minus Soviet VPs."""

    casualties: Mapping[str, tuple[int, int]]  # type -> (reduced, eliminated)
    per_adjacent_hex: int
    levels: tuple[Level, ...]
    automatic: str  # 16.0 A

    @classmethod
    def rulebook(cls) -> VictorySchedule:
        """The tables as the rulebook's text prints them (16.0 A, 16.1-16.3)."""
        return cls({"infantry": (1, 3), "mechanized": (4, 12), "armor": (5, 15)}, 30,
                   (Level("German Strategic", GERMAN, 31, None),
                    Level("German Tactical", GERMAN, 1, 30),
                    Level("Soviet Tactical", SOVIET, -20, 0),
                    Level("Soviet Strategic", SOVIET, None, -21)), "German Strategic")

    @classmethod
    def of(cls, module: ModuleData) -> VictorySchedule:
        """The schedule of charts.xml's `<victory>` (data.py reads it)."""
        return read_victory(module)


@dataclass(frozen=True)
class GermanLoss:
    """16.1: a German unit that ends the game reduced, or was eliminated."""

    type: str  # infantry, mechanized, armor
    eliminated: bool


def german_holds_moscow(moscow: Hex, german_land_hexes: Collection[Hex]) -> bool:
    """16.0 A (checked at the end of every turn), 14.4: a German land unit occupies Moscow."""
    return moscow in german_land_hexes


def casualty_points(losses: Iterable[GermanLoss], schedule: VictorySchedule) -> int:
    """16.1: the Soviet VPs for reduced and eliminated German units at the end.

    >>> rules = VictorySchedule.rulebook()
    >>> casualty_points([GermanLoss("infantry", False), GermanLoss("infantry", True),
    ...                  GermanLoss("mechanized", False), GermanLoss("armor", True)], rules)
    23
    """
    total = 0
    for loss in losses:
        if loss.type not in schedule.casualties:
            raise ValueError(f"16.1 scores no German {loss.type} units")
        reduced, eliminated = schedule.casualties[loss.type]
        total += eliminated if loss.eliminated else reduced
    return total


def moscow_points(board: HexBoard, moscow: Hex, german_hexes: Mapping[Hex, bool],
                  schedule: VictorySchedule) -> int:
    """16.2: the German VPs, 30 for each hex adjacent to Moscow occupied by German land
    units in supply (`german_hexes`: hex German land units occupy -> in supply;
    RULES-ISSUES 37)."""
    return schedule.per_adjacent_hex * sum(
        1 for h in board.neighbours(moscow) if german_hexes.get(h, False))


def victory_level(difference: int, schedule: VictorySchedule) -> str:
    """16.3: the level for German VPs minus Soviet VPs.

    >>> rules = VictorySchedule.rulebook()
    >>> for difference in (31, 30, 1, 0, -20, -21):
    ...     print(difference, victory_level(difference, rules))
    31 German Strategic
    30 German Tactical
    1 German Tactical
    0 Soviet Tactical
    -20 Soviet Tactical
    -21 Soviet Strategic
    """
    for level in schedule.levels:
        if (level.low is None or difference >= level.low) and \
                (level.high is None or difference <= level.high):
            return level.name
    raise ModuleError(f"the victory schedule has no level for a difference of {difference}")


def play_balance(bids: Mapping[str, int]) -> tuple[str, int]:
    """16.4: both players wish to play the German side, so each writes down a VP bid; the
    higher bid plays the Germans, and that many VPs go to the Soviet player when the game
    ends. Returns (the player who plays the Germans, the VPs). A bid is a whole number,
    zero or more; the rule does not settle a tie, so a tie is refused and both bid again
    (RULES-ISSUES 13).

    >>> play_balance({"anna": 12, "boris": 20})
    ('boris', 20)
    """
    if len(bids) != 2:
        raise CATALOGUE.refuse("bid", "16.4", "both players write down a bid")
    for player, bid in bids.items():
        if isinstance(bid, bool) or not isinstance(bid, int) or bid < 0:
            raise CATALOGUE.refuse("bid", "16.4",
                f"a bid is a number of VPs, zero or more; {player} "
                f"bid {bid!r}")
    (first, a), (second, b) = sorted(bids.items(), key=lambda kv: -kv[1])
    if a == b:
        raise CATALOGUE.refuse("bid-tie", "16.4",
            f"both players bid {a} VPs; the winning bid must be the "
            "higher number, so both bid again")
    return first, a


@dataclass(frozen=True)
class Outcome:
    level: str
    german_points: int
    soviet_points: int
    difference: int
    automatic: bool  # 16.0 A


def game_result(schedule: VictorySchedule, *, german_in_moscow: bool, german_points: int,
                soviet_points: int, bid: int = 0) -> Outcome:
    """16.0 A-D, 16.4: the automatic German victory for holding Moscow at the end of a
    turn; otherwise, after Turn 13, the level for the difference, the 16.4 bid counted
    with the Soviet VPs.

    >>> rules = VictorySchedule.rulebook()
    >>> game_result(rules, german_in_moscow=False, german_points=60, soviet_points=29).level
    'German Strategic'
    >>> game_result(rules, german_in_moscow=False, german_points=60, soviet_points=29,
    ...             bid=10).level
    'German Tactical'
    """
    soviet = soviet_points + bid
    difference = german_points - soviet
    if german_in_moscow:
        return Outcome(schedule.automatic, german_points, soviet, difference, True)
    return Outcome(victory_level(difference, schedule), german_points, soviet, difference,
                   False)


def german_in_moscow(game: Game, state: State) -> bool:
    moscow = game.board.label(game.moscow)
    return any(x == moscow and unit_facts(game, state, u)[0] == "german"
               for u, x in state["units"].items())


def final_result(ctx: StepContext) -> dict[str, Any]:
    """16.1-16.3 after Turn 13: Soviet VPs for German casualties, German VPs for supplied
    German land units next to Moscow, the level for the difference."""
    state, game = ctx.state, Game.of(ctx.module)
    schedule = VictorySchedule.of(ctx.module)
    losses = [GermanLoss(game.pieces[u].type, True) for u in state["eliminated"]
              if u in game.pieces and game.pieces[u].side == "german"]
    losses += [GermanLoss(game.pieces[u].type, False) for u, steps in state["steps"].items()
               if steps == 1 and u in state["units"]]
    terrain = Terrain.of(ctx.module)
    german = {game.board.hex(x): is_supplied(game, terrain, state, u)
              for u, x in sorted(state["units"].items())
              if unit_facts(game, state, u)[0] == "german"}
    outcome = game_result(schedule, german_in_moscow=False,
                          german_points=moscow_points(game.board, game.moscow, german,
                                                      schedule),
                          soviet_points=casualty_points(losses, schedule),
                          bid=int(state["options"].get("bid", "0")))  # 16.4
    return {"level": outcome.level, "german": outcome.german_points,
            "soviet": outcome.soviet_points, "rule": "16.3"}
