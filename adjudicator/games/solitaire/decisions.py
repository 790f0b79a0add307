"""The German player's choices (docs/architecture.md, The engine model, protocol §4): which unit a
result costs him,
and on a Soviet 2 whether his units retreat or lose one. Each is his: an explicit
choice in the order, else his standing instructions, else a decision request that
stops the step until he answers (RULES-ISSUES.md #11). The procedures that ask resume
from the answer (engine/procedure.py): combat.GERMAN_ATTACK and sequence.SOVIET_TURN.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.engine.orders import Order
from adjudicator.engine.procedure import ask
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.data import charts_of
from adjudicator.games.solitaire.orders import Standing, known_area, known_unit
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.vocabulary import (
    Choice,
    EventKind,
    Instruction,
    Rule,
    Side,
)


def standing_instructions(ctx: StepContext, order: Order) -> None:
    """Standing instructions for the German's choices during Soviet combat and after
    his own attacks: a loss priority, retreat or eliminate on a 2, and where to
    retreat, in order of preference."""
    charts = charts_of(ctx.module)
    standing = Standing.from_order(order)
    prefer = standing.on_retreat_or_eliminate
    if prefer and prefer not in tuple(Choice):
        raise CATALOGUE.refuse("bad-standing", Rule.STANDING, "on-retreat-or-eliminate must "
                               "be 'retreat' or 'eliminate'")
    for unit in standing.loss_priority:
        known_unit(charts, unit, Rule.STANDING)
    for area in standing.retreat_priority:
        known_area(charts, area, Rule.STANDING)
    instructions: dict[str, Any] = {
        Instruction.LOSS_PRIORITY: list(standing.loss_priority),
        Instruction.RETREAT_PRIORITY: list(standing.retreat_priority),
    }
    if prefer:
        instructions[Instruction.ON_RETREAT_OR_ELIMINATE] = prefer
    ctx.emit(EventKind.STANDING_INSTRUCTIONS, side=Side.GERMAN, instructions=instructions)


def standing_of(ctx: StepContext) -> Mapping[str, Any]:
    """The German player's standing instructions (none: an empty mapping)."""
    standing: Mapping[str, Any] = ctx.state["standing"].get(Side.GERMAN, {})
    return standing


def choose_unit_lost(ctx: StepContext, candidates: list[str], kind: str, rule: str,
                     context: Mapping[str, Any], explicit: str | None = None) -> str:
    """Which unit is lost: the player's own choice (explicit, then standing loss
    priority); a single candidate needs no choice; otherwise ask, with `context` as
    the request's (the step that asked resumes from it)."""
    candidates = sorted(candidates)
    if explicit:
        return explicit
    if len(candidates) == 1:
        return candidates[0]
    for unit in standing_of(ctx).get(Instruction.LOSS_PRIORITY, []):
        if unit in candidates:
            ctx.emit(EventKind.STANDING_INSTRUCTION_USED, instruction=Instruction.LOSS_PRIORITY,
                     choice=unit)
            return str(unit)
    ask(ctx, Side.GERMAN, kind, rule, [Choice.ELIMINATE.of(u) for u in candidates], context)
    raise AssertionError("unreachable")  # ask always raises


def standing_response(ctx: StepContext, units: list[str], retreat_to: list[str]) -> str | None:
    """The German's standing instruction for a Soviet result of 2, if it settles the
    choice: the first area of his retreat priority the units may retreat to, or the
    first unit of his loss priority among them."""
    standing = standing_of(ctx)
    prefer = standing.get(Instruction.ON_RETREAT_OR_ELIMINATE)
    choice = None
    if prefer == Choice.RETREAT:
        choice = next((Choice.RETREAT.of(a) for a in standing.get(Instruction.RETREAT_PRIORITY, [])
                       if a in retreat_to), None)
    elif prefer == Choice.ELIMINATE:
        choice = next((Choice.ELIMINATE.of(u) for u in standing.get(Instruction.LOSS_PRIORITY, [])
                       if u in units), None)
    if choice is not None:
        ctx.emit(EventKind.STANDING_INSTRUCTION_USED,
                 instruction=Instruction.ON_RETREAT_OR_ELIMINATE, choice=choice)
    return choice


def chosen(choice: str) -> tuple[str, str]:
    """An answer's verb and what it names: 'retreat:odessa' -> ('retreat', 'odessa')."""
    what, _, which = choice.partition(":")
    return what, which
