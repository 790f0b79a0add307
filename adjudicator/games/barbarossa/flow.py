"""1941 rule 2.0 Sequence of Play as data (engine/flow.py): each game turn a German player
turn, then a Soviet one (2.0 B); each player turn an Air Segment and two Ground Segments
of a Movement and a Combat Phase (2.0 D), but no second Combat Phase on Turn 1 (17.1.1).
The phasing side acts in every phase (2.0 C); supply is traced at each Ground Segment
(8.0 B), surrender comes at the end of the turn (16.0), victory after the last (18.1 A).

`end_phase` is the only code that knows what follows a phase; `pass_orders` reads the
same sequence.
"""

from __future__ import annotations

from adjudicator.engine.flow import Phase as FlowPhase
from adjudicator.engine.flow import Sequence
from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa import control, naval, optional, reinforcements, surrender
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.first_turn import second_combat_held
from adjudicator.games.barbarossa.orders import EndPhase, Enter
from adjudicator.games.barbarossa.stacking import check_side_stacking, problem_with
from adjudicator.games.barbarossa.supply import unsupplied
from adjudicator.games.barbarossa.victory import result
from adjudicator.games.barbarossa.vocabulary import RULES_0_4, EventKind, Phase, Segment, Side
from adjudicator.games.barbarossa.weather import thaw

# 2.0 D: the segments and phases of one player turn, in order (the player is the state's
# phasing side, 2.0 C)
SEQUENCE = Sequence("player turn", (
    FlowPhase(Phase.AIR, segment=Segment.AIR, rule="2.1"),
    FlowPhase(Phase.MOVEMENT, segment=Segment.FIRST, rule="2.2.1"),
    FlowPhase(Phase.COMBAT, segment=Segment.FIRST, rule="2.2.2"),
    FlowPhase(Phase.MOVEMENT, segment=Segment.SECOND, rule="2.3.1"),
    FlowPhase(Phase.COMBAT, segment=Segment.SECOND, rule="2.3.2", when=second_combat_held),
))
# (segment, phase) of each phase of a player turn, in order
PHASES = tuple((str(p.segment), str(p.name)) for p in SEQUENCE.phases)
FIRST_PHASE = (Side.AXIS.value, Segment.AIR.value, Phase.AIR.value)  # 2.0 B, 2.1


def index_of(state: State) -> int:
    """Where the state stands in the player turn's sequence."""
    return SEQUENCE.find(state["phase"], segment=state["segment"])


def remaining_phases(state: State) -> int:
    """The phases of the player turn from the current one on (the set-up of 20.6 is one)."""
    if state["segment"] == Segment.DEPLOYMENT:
        return 1
    return SEQUENCE.remaining(index_of(state), state)


def pass_orders(state: State, side: str) -> list[str]:
    """A pass ends the phases of the player turn without moving or attacking (module
    0.2.0 and 0.3.0; from 0.4.0 `pass_on_board`)."""
    if state.get("pending"):
        return []
    return [EndPhase().to_xml()] * remaining_phases(state)


def pass_on_board(module: ModuleData, state: State, side: str) -> list[str]:
    """The referee's pass from module 0.4.0: the phases of the player turn end without a
    move or an attack, but 14.1.3 C holds: reinforcements may not be delayed. So when the
    pass goes through the Movement Phase of the First Ground Segment (14.1.3 A), each of
    the side's reinforcements of the turn first enters, in id order, at the first of its
    entry hexes (14.1.1-14.1.2, 17.1.5: `reinforcements.entry_hexes`, in hex order) where
    the rules take it with the entries before it and its stack fits when the phase ends
    (3.3 A, 14.1.2.2 E: the pass moves no unit on); one that can enter nowhere is
    eliminated when the phase ends (14.1.3 D)."""
    ends = pass_orders(state, side)
    if not ends or not module.at_least(RULES_0_4) or state["segment"] == Segment.DEPLOYMENT:
        return ends
    at = index_of(state)
    first_movement = SEQUENCE.find(Phase.MOVEMENT, segment=Segment.FIRST)
    if at > first_movement:
        return ends
    before = [EndPhase()] * (first_movement - at)  # the Air Phase, if the pass begins there
    entries = entries_for_pass(module, state, side, before)
    return [o.to_xml() for o in [*before, *entries]] + ends[len(before):]


def entries_for_pass(module: ModuleData, state: State, side: str,
                     before: list[EndPhase]) -> list[Enter]:
    """The pass's entries (`pass_on_board`), each tried by a dry run of the step runner
    after the orders before it, so the pass holds only entries the rules take."""
    from adjudicator.engine.step import run_step
    from adjudicator.games.barbarossa.rules import RULES  # the rules list through this

    game = GameData.of(module)
    draft = run_step(RULES, module, state, [o.to_order(i) for i, o in enumerate(before)],
                     side, None)
    if draft.rejection is not None or draft.dry_run_stopped_at is not None:
        return []  # the phases before cannot be passed in a dry run: no entries offered
    position = draft.state
    chosen: list[Enter] = []
    due = sorted(u for u in position["arriving"].get(str(position["turn"]), [])
                 if game.pieces[u].side == side)
    for unit in due:
        for where in reinforcements.entry_hexes(game, position, unit):
            # 3.3 A: the pass moves nobody on, so the stack must fit when the phase ends
            if problem_with(game, position, unit, where):
                continue
            entry = Enter(unit, game.label(where))
            trial = run_step(RULES, module, position, [entry.to_order()], side, None)
            if trial.rejection is None:
                chosen.append(entry)
                position = trial.state
                break
    return chosen


def end_phase(ctx: StepContext, order: EndPhase) -> None:
    """2.0 E: all activity in sequence; ending a Movement Phase checks stacking (3.0 B:
    the limits hold in every Combat Phase)."""
    state = ctx.state
    if state["segment"] == Segment.DEPLOYMENT:  # 20.6: the set-up, then the game begins
        if optional.end_deployment(ctx):  # 20.6.4 B: the Soviets redeploy first
            ctx.emit(EventKind.PHASE_ENDED, player=Side.SOVIET.value,
                     segment=Segment.DEPLOYMENT.value, phase=Phase.REDEPLOYMENT.value)
            return
        player, segment, phase = FIRST_PHASE
        ctx.emit(EventKind.PHASE_ENDED, player=player, segment=segment, phase=phase)
        return
    if (state["segment"], state["phase"]) == (Segment.FIRST, Phase.MOVEMENT):
        reinforcements.missing_reinforcements(ctx)
    if state["phase"] == Phase.MOVEMENT:
        check_phase_stacking(ctx)
    game = GameData.of(ctx.module)
    for label, side in control.zoc_control(game, state):  # 4.0 B: uncontested zones
        ctx.emit(EventKind.CONTROL_CHANGED, hex=label, side=side)
    following = SEQUENCE.following(index_of(state), state)
    if following is not None:
        segment, phase = str(following.segment), following.name
        ctx.emit(EventKind.PHASE_ENDED, player=state["player"], segment=segment, phase=phase)
        control.settle(ctx)  # 0.3.0: the zones as the new segment has them (17.1.3)
        if (segment, phase) == (Segment.FIRST, Phase.MOVEMENT):
            reinforcements.judge_replacement_rate(ctx)  # 14.2.4 B (0.3.0)
        if phase == Phase.MOVEMENT:  # 8.0 B: the phasing side traces at each Ground Segment
            ctx.emit(EventKind.SUPPLY_TRACED, side=state["player"],
                     unsupplied=unsupplied(game, state, state["player"]))
        return
    if state["player"] == Side.AXIS:  # 2.0 B: the Soviet player turn follows
        ctx.emit(EventKind.PLAYER_TURN_ENDED, player=Side.SOVIET.value)
        return
    surrender.surrender(ctx)  # 16.0 A: at the end of each turn
    control.settle(ctx)  # 0.3.0: the map without them, as victory reads it (18.1 B-D)
    if state["turn"] >= state["last_turn"]:  # 18.1 A: then victory is determined
        ctx.emit(EventKind.GAME_ENDED, turn=state["turn"],
                 result=result(ctx.module, state).to_json())
        return
    record = game.charts.turn(state["turn"] + 1)
    thaw(ctx, record.weather)  # 20.4.1
    ctx.emit(EventKind.TURN_BEGAN, turn=record.number, weather=record.weather, air=record.air)


def check_phase_stacking(ctx: StepContext) -> None:
    """3.3 A at the end of a Movement Phase, with 20.1.1 B in a neutralized fleet's hex."""
    naval.check_base_stacking(ctx)
    check_side_stacking(GameData.of(ctx.module), ctx.state, ctx.state["player"])
