"""Moscow '41 rule 3.0, the Sequence of Play: the set-up (1.3), the German Movement, Combat
and Air Interdiction Phases, the Soviet Movement and Combat Phases (3.1.1), and the Game
Turn Indication Phase (3.1.2) with the sudden death of 16.0 A, the victory level after
the last turn (16.1-16.4) and the weather roll of the next turn (15.0); the phases as
kit data (engine/flow.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from adjudicator.engine.flow import Phase as FlowPhase
from adjudicator.engine.flow import Sequence
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.moscow import setup
from adjudicator.games.moscow.air import air_units
from adjudicator.games.moscow.data import Game, turn_record
from adjudicator.games.moscow.reinforcements import draw_reinforcement, missing_reinforcements
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.stacking import check_end_of_movement
from adjudicator.games.moscow.victory import VictorySchedule, final_result, german_in_moscow
from adjudicator.games.moscow.vocabulary import GERMAN, SOVIET, Phase
from adjudicator.games.moscow.weather import weather_for

# 3.1.1-3.1.2: the phases of one game turn, in order; the Game Turn Indication Phase
# (3.1.2 C) is what `game_turn_indication` does once the last has ended
PHASES = (
    FlowPhase(Phase.MOVEMENT, player=GERMAN, rule="3.1.1 A"),
    FlowPhase(Phase.COMBAT, player=GERMAN, rule="3.1.1 B"),
    FlowPhase(Phase.INTERDICTION, player=GERMAN, rule="3.1.1 C"),
    FlowPhase(Phase.MOVEMENT, player=SOVIET, rule="3.1.2 A"),
    FlowPhase(Phase.COMBAT, player=SOVIET, rule="3.1.2 B"),
)
SEQUENCE = tuple((phase.player, phase.name) for phase in PHASES)  # (player, phase)


@lru_cache(maxsize=8)
def game_turn(module: ModuleData) -> Sequence:
    """The phases of a game turn in this module: 3.1.1 C, the Air Interdiction Phase is
    omitted once every German air unit has been used this turn (RULES-ISSUES 9)."""
    air = frozenset(air_units(Game.of(module)))

    def air_left(state: Mapping[str, Any]) -> bool:
        return not air <= set(state["air_used"])

    return Sequence("game turn", tuple(
        replace(p, when=air_left) if p.name == Phase.INTERDICTION else p for p in PHASES))


def remaining_phases(state: State) -> int:
    """The phases still to come this turn, the one in course included (a pass ends every
    one of them: an end-phase order each, held or not)."""
    return len(PHASES) - SEQUENCE.index((state["player"], state["phase"]))


def end_phase(ctx: StepContext, order: Order) -> None:
    """3.1: all activity in sequence; the set-up ends with its checks (1.3)."""
    next_phase(ctx)


def next_phase(ctx: StepContext) -> None:
    """The phase in course ends, with what its end requires, and the next begins."""
    state = ctx.state
    if state["phase"] in ("draw", "setup"):
        if state["phase"] == "draw":
            raise CATALOGUE.refuse("not-drawn", "1.3.1 C",
                "draw the Soviet units from the cup first (<draw/>)")
        setup.end_setup(ctx)
        return
    if (state["player"], state["phase"]) == ("soviet", "movement"):
        missing_reinforcements(ctx)  # 14.3
    if state["phase"] == "movement":
        check_end_of_movement(ctx)  # 4.6 B-C: may ask the enemy to choose
    turn = game_turn(ctx.module)
    following = turn.following(turn.find(state["phase"], player=state["player"]), state)
    if following is not None:
        ctx.emit("phase-ended", player=following.player, phase=following.name)
        if (following.player, following.name) == (SOVIET, Phase.MOVEMENT):
            draw_reinforcement(ctx)  # 14.0
        return
    game_turn_indication(ctx)


def game_turn_indication(ctx: StepContext) -> None:
    """3.1.2 C: interdicting air units leave the map and the turn ends; 16.0 A: a German
    unit in Moscow wins at once; 3.1.3 B: after Turn 13 victory is determined; 15.0 A:
    from Turn 2 the Soviet player rolls for the weather against the Turn Record Track."""
    state, game = ctx.state, Game.of(ctx.module)
    if german_in_moscow(game, state):
        level = VictorySchedule.of(ctx.module).automatic
        ctx.emit("game-ended", turn=state["turn"], result={"level": level, "rule": "16.0 A"})
        return
    if state["turn"] >= state["last_turn"]:
        ctx.emit("game-ended", turn=state["turn"], result=final_result(ctx))
        return
    turn = state["turn"] + 1
    track = turn_record(ctx.module)
    roll = ctx.roll_d6(f"weather on Turn {turn} (15.0)") if track[turn].needs_roll else None
    ctx.emit("turn-began", turn=turn, weather=weather_for(turn, roll, track))
