"""The sequence of play as data (engine/flow.py), Game Sequence: move units, attack,
place reinforcements, resolve the Soviet attacks; before the first turn, with the Free
placement option, the set-up. Every German phase is the German player's; the Soviet
combat is the rules' procedure (sequence.py), in which he only answers decisions.

An order of a later phase ends the phases before it; an order of an earlier phase is
too late. A pass ends the turn.
"""

from __future__ import annotations

from adjudicator.engine import flow as kit
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.data import charts_of
from adjudicator.games.solitaire.orders import EndTurn
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.restrictions import update_control
from adjudicator.games.solitaire.vocabulary import EventKind, Phase, Rule, Side


def in_setup(state: kit.State) -> bool:
    return bool(state["phase"] == Phase.SETUP)


TURN = kit.Sequence("turn", (
    kit.Phase(Phase.SETUP, player=Side.GERMAN, rule=Rule.FREE_PLACEMENT, when=in_setup),
    kit.Phase(Phase.MOVEMENT, player=Side.GERMAN, rule=Rule.MOVEMENT),
    kit.Phase(Phase.ATTACK, player=Side.GERMAN, rule=Rule.COMBAT),
    kit.Phase(Phase.REINFORCEMENT, player=Side.GERMAN, rule=Rule.REINFORCEMENTS),
    kit.Phase(Phase.SOVIET_COMBAT, player=Side.SOVIET, rule=Rule.SOVIET_COMBAT),
))


def phase_index(name: str) -> int:
    """Where a phase stands in the turn (its name is unique in this game).

    Raises:
        KeyError: no phase of that name (the game is over).
    """
    for i, phase in enumerate(TURN.phases):
        if phase.name == name:
            return i
    raise KeyError(name)


def not_over(state: State, phase: Phase) -> bool:
    """An order of `phase` may still come: the game is in that phase or an earlier one
    of the turn (the order ends the phases before it)."""
    return phase_index(state["phase"]) <= phase_index(phase)


def player_of(name: str) -> str | None:
    return TURN.phases[phase_index(name)].player


def enter_phase(ctx: StepContext, phase: Phase, doing: str) -> None:
    """Game Sequence: move, attack, place reinforcements, Soviet combat. An order of a
    later phase ends the phases before it; an order of an earlier phase is too late."""
    if phase_index(phase) < phase_index(ctx.state["phase"]):
        raise CATALOGUE.refuse(
            "phase-over", Rule.SEQUENCE,
            f"cannot {doing} now: the {phase} phase of this turn is over (the sequence is "
            f"move, attack, place reinforcements, then the Soviet attacks)")
    while ctx.state["phase"] != phase:
        end_phase(ctx)


def end_phase(ctx: StepContext) -> None:
    """The phase the game is in ends, and the next one of the turn begins."""
    current = ctx.state["phase"]
    if current == Phase.SETUP and ctx.state["unplaced"]:
        raise CATALOGUE.refuse(
            "setup-incomplete", Rule.FREE_PLACEMENT,
            f"place every unit before play begins; still to place: "
            f"{', '.join(ctx.state['unplaced'])}")
    following = TURN.following(phase_index(current), ctx.state)
    assert following is not None, "the Soviet combat ends the turn, not a phase's end"
    ctx.emit(EventKind.PHASE_ENDED, phase=current, next=following.name)
    if current == Phase.SETUP:
        # Free placement: the Restrictions that follow from control (Bucharest or
        # Budapest left Soviet-controlled) apply once every unit is placed.
        update_control(ctx, charts_of(ctx.module), "set-up complete")


def pass_orders(state: State, side: str) -> list[str]:
    """A German pass ends the turn without moving or attacking (Game Sequence); none
    while a decision waits for an answer or units wait to be placed."""
    if state.get("pending") or (state["phase"] == Phase.SETUP and state.get("unplaced")):
        return []
    return [EndTurn().to_xml()]
