"""A simple German player for Barbarossa Solitaire, used to write the example game
(tools/play_example.py) and to check the balance (balance.py).

It is a tool, not part of the adjudicator: it reads the position and writes the
orders a careful human might, keeping only orders the dry run (no dice)
accepts. Its plan: hold every front-line area with at least one unit, bring
rear units up, garrison the areas it leaves behind, attack next to the front
with enough units for the year, and place reinforcements as they come.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order, OrderSpec
from adjudicator.engine.rules import GameRules
from adjudicator.engine.state import State
from adjudicator.engine.step import run_step
from adjudicator.games.solitaire.control import (
    borders_soviet,
    front_line,
    soviet_neighbours,
    units_in,
)
from adjudicator.games.solitaire.data import charts_of
from adjudicator.games.solitaire.orders import (
    Answer,
    Attack,
    EndTurn,
    Garrison,
    Move,
    Reinforce,
    Standing,
)
from adjudicator.games.solitaire.vocabulary import Choice, Instruction, Phase, Side

LOSS_PRIORITY = ["ITA-8", "HUN-2", "RUM-4", "RUM-3", "GER-8", "GER-18", "GER-16", "GER-17",
                 "GER-11", "GER-2", "GER-4", "GER-9", "GER-6"]
# Units per attack, by year: enough for a sure or nearly sure success (Attack Chart).
ATTACKERS = {1941: 1, 1942: 2, 1943: 2, 1944: 3, 1945: 3}


@dataclass
class Draft:
    """Orders that passed the dry run so far, and the position they lead to."""

    rules: GameRules
    module: ModuleData
    state: State
    orders: list[Order]

    def try_add(self, spec: OrderSpec) -> bool:
        candidate = spec.to_order(index=len(self.orders))
        result = run_step(self.rules, self.module, self.state, [candidate], Side.GERMAN,
                          dice=None)
        if result.rejection is not None:
            return False
        self.orders.append(candidate)
        if result.dry_run_stopped_at is None:
            self.state = result.state
        return True


def plan(rules: GameRules, module: ModuleData, state: State, *, retreat_orders: bool = True,
         mistake: bool = False) -> list[Order]:
    """The German orders for the current step. With `mistake`, the file ends with an
    order the rules forbid (to show what a rejection looks like)."""
    draft = Draft(rules, module, state, [])
    pending = state.get("pending")
    if pending:
        draft.try_add(Answer(pending["id"], choose(pending)))
        return draft.orders
    set_standing_instructions(draft, retreat_orders)
    if state["phase"] == Phase.MOVEMENT:
        plan_moves(draft)
    if state["phase"] in (Phase.MOVEMENT, Phase.ATTACK):
        plan_attacks(draft)
    if mistake:
        unit = sorted(state["units"])[0]
        draft.orders.append(Move(unit, state["units"][unit]).to_order(index=len(draft.orders)))
        return draft.orders
    plan_reinforcements(draft)
    draft.try_add(EndTurn())
    return draft.orders


def set_standing_instructions(draft: Draft, retreat_orders: bool) -> None:
    wanted: dict[str, Any] = {Instruction.LOSS_PRIORITY: LOSS_PRIORITY}
    if retreat_orders:
        charts = charts_of(draft.module)
        from_berlin = charts.board.distances("berlin")
        wanted[Instruction.ON_RETREAT_OR_ELIMINATE] = Choice.RETREAT
        wanted[Instruction.RETREAT_PRIORITY] = sorted(charts.board.areas,
                                                      key=lambda a: from_berlin[a])
    have = draft.state["standing"].get(Side.GERMAN, {})
    if all(have.get(k) == v for k, v in wanted.items()):
        return
    draft.try_add(Standing(tuple(wanted[Instruction.LOSS_PRIORITY]),
                           wanted.get(Instruction.ON_RETREAT_OR_ELIMINATE, ""),
                           tuple(wanted.get(Instruction.RETREAT_PRIORITY, ()))))


def choose(pending: dict[str, Any]) -> str:
    """Retreat westward if offered, else lose the least useful unit."""
    retreats = [o for o in pending["options"] if o.startswith(f"{Choice.RETREAT}:")]
    if retreats:
        return str(retreats[0])
    return str(min(pending["options"], key=lambda o: LOSS_PRIORITY.index(o.split(":")[1])))


def soviet_distance(draft: Draft, area: str) -> int:
    charts = charts_of(draft.module)
    dist = charts.board.distances(area)
    return min((dist[a] for a, side in draft.state["control"].items()
                if side == Side.SOVIET and a in dist), default=99)


def plan_moves(draft: Draft) -> None:
    """Fill empty-looking front areas first, then bring rear units closer."""
    charts = charts_of(draft.module)
    for unit in sorted(draft.state["units"]):
        here = draft.state["units"][unit]
        line = front_line(charts, draft.state)
        if here in line and len(units_in(draft.state, here)) <= 2:
            continue
        targets = sorted(
            (a for a, side in draft.state["control"].items() if side == Side.GERMAN
             and a != here),
            key=lambda a: (a not in line or len(units_in(draft.state, a)) > 1,
                           soviet_distance(draft, a), len(units_in(draft.state, a)), a))
        for area in targets:
            if soviet_distance(draft, area) >= soviet_distance(draft, here) and here not in line:
                break
            if draft.try_add(Move(unit, area)):
                draft.try_add(Garrison(here))
                break


def plan_attacks(draft: Draft) -> None:
    """Attack from each front-line area: every Soviet neighbour at once when there
    are units enough (then the area is no longer on the front), otherwise keep one
    unit behind and attack what the rest can."""
    charts = charts_of(draft.module)
    size = ATTACKERS[charts.turn(draft.state["turn"]).year]
    taken: set[str] = set()
    for area in front_line(charts, draft.state):
        free = [u for u in units_in(draft.state, area) if u not in draft.state["attacked"]]
        free.sort(key=LOSS_PRIORITY.index, reverse=True)
        targets = [t for t in soviet_neighbours(charts, draft.state, area) if t not in taken]
        targets.sort(key=lambda t: (charts.board.distances(t).get("moscow", 99), t))
        if len(free) < len(targets) * size:
            free = free[:-1]  # one stays to hold the area
        for target in targets:
            if len(free) < size:
                break
            group, free = free[:size], free[size:]
            loss = min(group, key=LOSS_PRIORITY.index)
            if draft.try_add(Attack(target, tuple(sorted(group)), loss)):
                taken.add(target)


def plan_reinforcements(draft: Draft) -> None:
    charts = charts_of(draft.module)
    for entry in list(draft.state["queue"]):
        for area in charts.nationalities[charts.nationality(entry["unit"])].enters:
            if not borders_soviet(charts, draft.state, area) and \
                    draft.try_add(Reinforce(entry["unit"], area)):
                break


def to_xml(orders: list[Order]) -> str:
    return "\n".join(
        f"  <{o.kind}{''.join(f' {k}={chr(34)}{v}{chr(34)}' for k, v in o.attrs.items())}/>"
        for o in orders)


# -- what the example driver (tools/play_example.py) asks of the player -------------------
MAX_STEPS = 80
TURN_FILE = "step-{seq:02d}.xml"
ENTROPY = "example entropy for step {seq}"
KEEP_PNG = True  # the area map's PNG is small: the examples keep it beside each page


def orders_for(position: Any, side: str, seq: int) -> str:
    """The German file of step `seq`: standing retreat orders come only from step 6, so
    the early Soviet attacks ask the player; step 2 ends with a mistake, to show a
    rejected order."""
    return to_xml(plan(position.package.rules, position.module, position.state,
                       retreat_orders=seq >= 6, mistake=seq == 2))


def finished(position: Any) -> bool:
    """The example is played to the end of the game."""
    return False


def kept_reports(journal_lines: list[str]) -> list[int] | None:
    """Every step's report is kept (None)."""
    return None
