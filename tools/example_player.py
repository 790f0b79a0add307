"""A simple German player for Barbarossa Solitaire, used to write the example game.

It is a tool, not part of the adjudicator: it reads the position and writes the
orders a careful human might, keeping only orders the dry run (no dice)
accepts. Its plan: hold every front-line area with at least one unit, bring
rear units up, garrison the areas it leaves behind, attack next to the front
with enough units for the year, and place reinforcements as they come.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.rules import GameRules
from adjudicator.engine.state import State
from adjudicator.engine.step import run_step
from adjudicator.games.solitaire.common import charts_of
from adjudicator.games.solitaire.control import (
    GERMAN,
    SOVIET,
    borders_soviet,
    front_line,
    units_in,
)

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

    def try_add(self, kind: str, **attrs: str) -> bool:
        candidate = Order(kind, attrs, index=len(self.orders))
        result = run_step(self.rules, self.module, self.state, [candidate], "german", dice=None)
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
        draft.try_add("answer", decision=pending["id"], choice=choose(pending))
        return draft.orders
    set_standing_instructions(draft, retreat_orders)
    if state["phase"] == "movement":
        plan_moves(draft)
    if state["phase"] in ("movement", "attack"):
        plan_attacks(draft)
    if mistake:
        unit = sorted(state["units"])[0]
        draft.orders.append(Order("move", {"unit": unit, "to": state["units"][unit]},
                                  index=len(draft.orders)))
        return draft.orders
    plan_reinforcements(draft)
    draft.try_add("end-turn")
    return draft.orders


def set_standing_instructions(draft: Draft, retreat_orders: bool) -> None:
    wanted = {"loss-priority": LOSS_PRIORITY}
    if retreat_orders:
        charts = charts_of(draft.module)
        from_berlin = charts.board.distances("berlin")
        wanted["on-retreat-or-eliminate"] = "retreat"  # type: ignore[assignment]
        wanted["retreat-priority"] = sorted(charts.board.areas, key=lambda a: from_berlin[a])
    have = draft.state["standing"].get("german", {})
    if all(have.get(k) == v for k, v in wanted.items()):
        return
    draft.try_add("standing", **{k: v if isinstance(v, str) else " ".join(v)
                                 for k, v in wanted.items()})


def choose(pending: dict) -> str:
    """Retreat westward if offered, else lose the least useful unit."""
    retreats = [o for o in pending["options"] if o.startswith("retreat:")]
    if retreats:
        return str(retreats[0])
    return str(min(pending["options"], key=lambda o: LOSS_PRIORITY.index(o.split(":")[1])))


def soviet_distance(draft: Draft, area: str) -> int:
    charts = charts_of(draft.module)
    dist = charts.board.distances(area)
    return min((dist[a] for a, side in draft.state["control"].items()
                if side == SOVIET and a in dist), default=99)


def plan_moves(draft: Draft) -> None:
    """Fill empty-looking front areas first, then bring rear units closer."""
    charts = charts_of(draft.module)
    for unit in sorted(draft.state["units"]):
        here = draft.state["units"][unit]
        line = front_line(charts, draft.state)
        if here in line and len(units_in(draft.state, here)) <= 2:
            continue
        targets = sorted(
            (a for a, side in draft.state["control"].items() if side == GERMAN and a != here),
            key=lambda a: (a not in line or len(units_in(draft.state, a)) > 1,
                           soviet_distance(draft, a), len(units_in(draft.state, a)), a))
        for area in targets:
            if soviet_distance(draft, area) >= soviet_distance(draft, here) and here not in line:
                break
            if draft.try_add("move", unit=unit, to=area):
                draft.try_add("garrison", area=here)
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
        targets = [t for t in charts.board.neighbours(area)
                   if draft.state["control"][t] == SOVIET and t not in taken]
        targets.sort(key=lambda t: (charts.board.distances(t).get("moscow", 99), t))
        if len(free) < len(targets) * size:
            free = free[:-1]  # one stays to hold the area
        for target in targets:
            if len(free) < size:
                break
            group, free = free[:size], free[size:]
            loss = min(group, key=LOSS_PRIORITY.index)
            if draft.try_add("attack", target=target, units=" ".join(sorted(group)), lose=loss):
                taken.add(target)


def plan_reinforcements(draft: Draft) -> None:
    charts = charts_of(draft.module)
    for entry in list(draft.state["queue"]):
        nationality = charts.pieces[entry["unit"]].nationality
        for area in charts.nationalities[nationality].enters:
            if not borders_soviet(charts, draft.state, area) and \
                    draft.try_add("reinforce", unit=entry["unit"], area=area):
                break


def to_xml(orders: list[Order]) -> str:
    return "\n".join(
        f"  <{o.kind}{''.join(f' {k}={chr(34)}{v}{chr(34)}' for k, v in o.attrs.items())}/>"
        for o in orders)
