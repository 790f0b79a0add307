"""Moscow '41 stacking: four units a hex (4.6 A), two Soviet units a hex at the set-up
and through the German half of Turn 1 (1.3.1 E, 3.2 B), and the end of a Movement Phase,
where the enemy player destroys the units over the limit (4.6 B-C)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.decisions import DecisionRequest
from adjudicator.engine.module import ModuleData
from adjudicator.engine.stacking import over_limit
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext, next_decision_id, request_decision
from adjudicator.games.moscow.data import Game, unit_facts
from adjudicator.games.moscow.vocabulary import (
    RULES_0_2_0,
    SOVIET_SETUP_STACK,
    STACKING_LIMIT,
    other_side,
)


def stacking_limit(ctx: StepContext, side: str) -> int:
    """4.6 A, 3.2 B: how many units of `side` a hex may hold when the limit is next
    checked: four, but two Soviet units through the German half of Turn 1 (the set-up's
    limit, 1.3.1 E, holds until normal stacking applies at the end of the first Soviet
    Movement Phase; RULES-ISSUES 14). Module 0.1.0 said four throughout."""
    state = ctx.state
    if side == "soviet" and state["turn"] == 1 and state["player"] == "german" \
            and ctx.module.at_least(RULES_0_2_0):
        return SOVIET_SETUP_STACK
    return STACKING_LIMIT


def limit_now(module: ModuleData, state: State, side: str) -> int:
    """1.3.1 E, 1.3.2 D, 3.2 B, 4.6 A: the units of `side` a hex may hold in this position:
    the set-up's two Soviet units a hex until the German half of Turn 1 is over (module
    0.1.0: until the set-up is), four otherwise."""
    if side == "soviet" and (state["phase"] in ("draw", "setup") or (
            state["turn"] == 1 and state["player"] == "german"
            and module.at_least(RULES_0_2_0))):
        return SOVIET_SETUP_STACK
    return STACKING_LIMIT


def check_end_of_movement(ctx: StepContext) -> None:
    """4.6 B-C: at the end of the Movement Phase no hex holds more than four units; the
    enemy player selects the units destroyed, one decision at a time. 3.2 B: the Soviet
    set-up limit of two a hex (1.3.1 E) gives way to normal stacking at the end of the
    first Soviet Movement Phase, so four is the limit there too (RULES-ISSUES 8, 14)."""
    state, game = ctx.state, Game.of(ctx.module)
    side = state["player"]
    limit = STACKING_LIMIT
    mine = [u for u in state["units"] if unit_facts(game, state, u)[0] == side]
    for label, units, _ in over_limit(state["units"], lambda _, stack: len(stack) > limit or None,
                                      mine):
        request_decision(ctx, DecisionRequest(
            next_decision_id(state), other_side(side), "overstack-elimination", "4.6 C",
            units, {"hex": label, "limit": limit, "step": "overstack"}))


def answer_overstack(ctx: StepContext, context: dict[str, Any], choice: str) -> None:
    ctx.emit("unit-eliminated", unit=choice, rule="4.6 C")
