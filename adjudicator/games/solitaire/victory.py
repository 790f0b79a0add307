"""Victory Conditions: after the Soviet combat in the Summer 1945 turn (a scenario's last
turn), count the German-controlled areas and read the level of victory: 0 or 1 Soviet
Major Victory, 2 or 3 Soviet Minor Victory, 4 Draw, 5 Nazi Minor Victory, 6 Nazi Major
Victory. Which areas count is an option (RULES-ISSUES.md #7).
"""

from __future__ import annotations

from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.data import Charts
from adjudicator.games.solitaire.vocabulary import EventKind, Option, Rule, Side, VictoryCount


def german_controlled_count(charts: Charts, state: State, only_soviet_start: bool) -> int:
    """German-controlled areas, all or only those that start Soviet."""
    return sum(
        1 for area, side in state["control"].items()
        if side == Side.GERMAN and (not only_soviet_start or charts.start_side[area] == Side.SOVIET)
    )


def declare_victory(ctx: StepContext, charts: Charts) -> None:
    """After the Soviet combat of the last turn, count the German-controlled areas and
    read the level."""
    only_soviet_start = ctx.state["options"][Option.VICTORY_COUNT] == VictoryCount.SOVIET_AREAS
    count = german_controlled_count(charts, ctx.state, only_soviet_start)
    ctx.emit(EventKind.GAME_ENDED, areas=count, level=charts.victory_level(count),
             counted="areas that start Soviet" if only_soviet_start else "all areas",
             rule=Rule.VICTORY)
