"""Game Sequence: each turn the German player moves units, attacks and places
reinforcements; then the Soviet attacks are resolved and the next turn begins (after
the last turn, victory is judged). The phases are data (flow.py); this module holds
what happens at the turn's two ends.

The end of the German turn is a procedure of the kit (`SOVIET_TURN`): the Soviet
combat may stop for the German's choice, and his answer resumes it; the attacks still
to come are counted in the state, so the procedure goes on from there.
"""

from __future__ import annotations

from adjudicator.engine.orders import Order
from adjudicator.engine.procedure import Context, Procedure, Step
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire import soviet_combat
from adjudicator.games.solitaire.data import Charts, charts_of
from adjudicator.games.solitaire.flow import enter_phase
from adjudicator.games.solitaire.reinforcements import scheduled_reinforcements
from adjudicator.games.solitaire.restrictions import units_leave
from adjudicator.games.solitaire.victory import declare_victory
from adjudicator.games.solitaire.vocabulary import DecisionKind, EventKind, Phase


def end_turn(ctx: StepContext, order: Order) -> None:
    """After the German moves, attacks and reinforcements come the Soviet attacks; then
    the next turn begins (or, after the last turn, victory)."""
    enter_phase(ctx, Phase.SOVIET_COMBAT, "end the turn")
    SOVIET_TURN.run(ctx, {})


def end_of_turn(ctx: StepContext, context: Context) -> Context | None:
    """The Soviet combat is over: the next turn begins, or after the scenario's last
    turn the game ends (Victory Conditions)."""
    charts = charts_of(ctx.module)
    ctx.emit(EventKind.SOVIET_COMBAT_ENDED, turn=ctx.state["turn"])
    if ctx.state["turn"] == ctx.state["end"]:
        declare_victory(ctx, charts)
    else:
        begin_turn(ctx, charts, charts.turns[charts.turn(ctx.state["turn"]).index + 1].id)
    return None


def begin_turn(ctx: StepContext, charts: Charts, turn_id: str) -> None:
    """A new turn: Italian units leave at the start of Autumn 1943 (Restrictions), with
    those still waiting to enter (RULES-ISSUES.md #25); the turn's reinforcements and
    returning units join the queue (Reinforcements)."""
    turn = charts.turn(turn_id)
    ctx.emit(EventKind.TURN_BEGAN, turn=turn.id, name=turn.name)
    units_leave(ctx, charts, turn)
    for unit in scheduled_reinforcements(ctx.state, turn.id):
        ctx.emit(EventKind.REINFORCEMENT_DUE, unit=unit, due=turn.id)


SOVIET_TURN = Procedure("Soviet combat and the end of the turn", (
    Step("number of attacks", soviet_combat.number_of_attacks),
    # An attack that stopped for the German's choice ends here when he answers; then
    # the attacks still to come follow.
    Step(DecisionKind.SOVIET_ATTACK_LOSS, soviet_combat.no_attack_waits,
         resume=soviet_combat.elimination_chosen),
    Step(DecisionKind.RETREAT_OR_ELIMINATE, soviet_combat.no_attack_waits,
         resume=soviet_combat.response_chosen),
    Step("attacks", soviet_combat.attacks_left),
    Step("end of the turn", end_of_turn),
))
