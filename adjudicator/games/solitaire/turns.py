"""The turn sequence around the German player's orders: the start of a turn, the
end of the German turn (Soviet combat), and victory."""

from __future__ import annotations

from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.common import (
    charts_of,
    remove_unit,
    update_control,
)
from adjudicator.games.solitaire.control import german_controlled_count
from adjudicator.games.solitaire.german import enter_phase
from adjudicator.games.solitaire.soviet import continue_soviet_combat, number_of_attacks
from adjudicator.games.solitaire.tables import Charts

RULE_VICTORY = "Victory Conditions"


def end_turn(ctx: StepContext) -> None:
    """Game Sequence: after the German moves, attacks and reinforcements come the
    Soviet attacks; then the next turn begins (or, after Summer 1945, victory)."""
    charts = charts_of(ctx.module)
    enter_phase(ctx, "soviet-combat", "end the turn")
    number_of_attacks(ctx, charts)
    finish_soviet_combat(ctx, charts)


def finish_soviet_combat(ctx: StepContext, charts: Charts) -> None:
    continue_soviet_combat(ctx, charts)
    ctx.emit("soviet-combat-ended", turn=ctx.state["turn"])
    if ctx.state["turn"] == ctx.state["end"]:
        declare_victory(ctx, charts)
    else:
        begin_turn(ctx, charts, charts.turns[charts.turn(ctx.state["turn"]).index + 1].id)


def begin_turn(ctx: StepContext, charts: Charts, turn_id: str) -> None:
    """A new turn: Italian units leave at the start of Autumn 1943 (Restrictions), with
    those still waiting to enter (RULES-ISSUES.md #25); the turn's reinforcements and
    returning units join the queue."""
    turn = charts.turn(turn_id)
    ctx.emit("turn-began", turn=turn.id, name=turn.name)
    if turn.eliminates:
        for unit in sorted(ctx.state["units"]):
            if charts.pieces[unit].nationality == turn.eliminates:
                remove_unit(ctx, charts, unit, f"all {turn.eliminates} units are eliminated at "
                            f"the start of {turn.name}", "Restrictions")
        for entry in list(ctx.state["queue"]):
            if charts.pieces[entry["unit"]].nationality == turn.eliminates:
                remove_unit(ctx, charts, entry["unit"], f"all {turn.eliminates} units "
                                    f"are eliminated at the start of {turn.name}, those still "
                                    "waiting to enter too", "Restrictions")
        update_control(ctx, charts, f"start of {turn.name}")
    for unit in scheduled_reinforcements(ctx, turn.id):
        ctx.emit("reinforcement-due", unit=unit, due=turn.id)


def scheduled_reinforcements(ctx: StepContext, turn_id: str) -> list[str]:
    """The scenario's reinforcements for this turn (rules: Reinforcements; Scenarios)."""
    waiting = {entry["unit"] for entry in ctx.state["queue"]}
    return [unit for unit, due in ctx.state["schedule"] if due == turn_id
            and unit not in ctx.state["units"] and unit not in ctx.state["out"]
            and unit not in waiting]


def declare_victory(ctx: StepContext, charts: Charts) -> None:
    """Victory Conditions: after the Soviet combat of the last turn, count the
    German-controlled areas and read the level."""
    only_soviet_start = ctx.state["options"]["victory-count"] == "soviet-areas"
    count = german_controlled_count(charts, ctx.state, only_soviet_start)
    ctx.emit("game-ended", areas=count, level=charts.victory_level(count),
             counted="areas that start Soviet" if only_soviet_start else "all areas",
             rule=RULE_VICTORY)
