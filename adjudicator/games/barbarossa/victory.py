"""1941 rule 18.0 Victory (and 20.4.4 for the winter game): the German VP total from
the Victory Point Table, the level from the Victory Table, the shifts for losses
(18.2 B-D) and the German strategic victory (18.3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.games.barbarossa.control import control_of
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.supply import east_edge_lines, sources_of
from adjudicator.games.barbarossa.vocabulary import Nationality, Side, SupplySource, UnitSize

SOVIET_LOSSES_FOR_A_SHIFT = 40  # 18.2 B
AXIS_LOSSES_FOR_A_SHIFT = 25
LAST_TURN_OF_1941 = 7  # 18.1 A; a game that goes on is the winter game (20.4)
PANZER_GROUP_PENALTY = 2  # 20.4.4 B


@dataclass(frozen=True)
class Result:
    points: int
    level: str
    strategic: bool
    encircled: list[str]
    soviet_losses: int
    axis_losses: int

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "level": self.level, "strategic": self.strategic,
                "encircled": self.encircled, "soviet_losses": self.soviet_losses,
                "axis_losses": self.axis_losses}


def victory_level(levels: Sequence[str], base: int, *, soviet_losses: int,
                  axis_losses: int) -> str:
    """18.2 B-D: the level the VP total gave (`levels` ordered from the Soviets' best to
    Germany's best, `base` its index), shifted one toward Germany for forty or more
    Soviet units eliminated and one toward the Soviets for twenty-five or more Axis
    units; both cancel out.

    >>> LEVELS = ["Soviet decisive", "Soviet substantial", "Soviet marginal",
    ...           "German marginal", "German substantial", "German decisive"]
    >>> victory_level(LEVELS, 3, soviet_losses=43, axis_losses=0)   # 18.2 B example
    'German substantial'
    >>> victory_level(LEVELS, 3, soviet_losses=0, axis_losses=27)   # the second example
    'Soviet marginal'
    """
    shift = (1 if soviet_losses >= SOVIET_LOSSES_FOR_A_SHIFT else 0) \
        - (1 if axis_losses >= AXIS_LOSSES_FOR_A_SHIFT else 0)
    return levels[max(0, min(len(levels) - 1, base + shift))]


def encircled(game: GameData, state: State, h: Hex) -> bool:
    """18.1 E: Soviet controlled, but no supply line from the city to a Soviet supply
    source on the east edge."""
    if control_of(game, state, h) != Side.SOVIET:
        return False
    sources = sources_of(game, state, SupplySource.SOVIET, Side.SOVIET)
    return not east_edge_lines(game, state, sources)(h)


def result(module: ModuleData, state: State) -> Result:
    """18.1-18.3, 20.4.4: the result of the game as the map stands at its end."""
    game = GameData.of(module)
    winter = state["last_turn"] > LAST_TURN_OF_1941
    points, surrounded = 0, []
    for city in game.victory.cities:
        h = game.board.hex(city.hex)
        holder = control_of(game, state, h)
        if holder == Side.AXIS:
            points += city.german_control
        elif encircled(game, state, h) and city.encircled:
            points += city.encircled
            surrounded.append(city.hex)
        else:
            points += city.soviet_control
    eliminated = [game.pieces[u] for u in state["eliminated"] if u not in state["units"]]
    if winter:  # 20.4.4 B
        points -= PANZER_GROUP_PENALTY * sum(1 for p in eliminated
                                             if p.nationality == Nationality.GERMAN
                                             and p.size == UnitSize.GROUP and p.armor)
    levels = game.victory.winter_levels if winter else game.victory.levels
    names = [level.name for level in levels]
    base = next(i for i, level in enumerate(levels) if level.low <= points <= level.high)
    soviet_losses = sum(1 for p in eliminated if p.side == Side.SOVIET)
    axis_losses = sum(1 for p in eliminated if p.side == Side.AXIS)
    level = names[base] if winter else victory_level(  # 20.4.4 C: no loss shifts
        names, base, soviet_losses=soviet_losses, axis_losses=axis_losses)
    objectives = [game.board.hex(o) for o in game.victory.objectives]
    strategic = not winter and all(
        control_of(game, state, h) == Side.AXIS or encircled(game, state, h) for h in objectives)
    return Result(points, level, strategic, surrounded, soviet_losses, axis_losses)
