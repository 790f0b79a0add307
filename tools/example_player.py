"""A simple German player for Barbarossa Solitaire, used to write the example game.

It is a tool, not part of the adjudicator: it reads the game's position and
writes an order file the way a careful human would, checking each order with
the dry run (`check` without dice) before keeping it. Its strategy is plain:
bring rear units up to the front, garrison what they leave behind, attack the
Soviet areas next to the front (with more units once the Germans lose their
1941 edge), and place reinforcements as they come.
"""

from __future__ import annotations

from pathlib import Path

from adjudicator.engine.orders import Order
from adjudicator.engine.step import run_step
from adjudicator.games.solitaire.common import charts_of
from adjudicator.games.solitaire.control import GERMAN, SOVIET, borders_soviet, front_line
from adjudicator.referee.gamedir import Game, load_game

LOSS_PRIORITY = "ITA-8 HUN-2 RUM-4 RUM-3 GER-8 GER-18 GER-16 GER-17 GER-11 GER-2 GER-4 GER-9 GER-6"


class Draft:
    """Orders that passed the dry run so far, in order."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.orders: list[Order] = []
        self.state = game.state

    def try_add(self, kind: str, **attrs: str) -> bool:
        """Keep the order if the rules accept it in the position the kept orders
        lead to (as far as that is known without dice)."""
        candidate = Order(kind, attrs, index=len(self.orders))
        result = run_step(self.game.package.rules, self.game.module, self.state, [candidate],
                          "german", dice=None)
        if result.rejection is not None:
            return False
        self.orders.append(candidate)
        if result.dry_run_stopped_at is None:
            self.state = result.state
        return True


def plan(directory: Path, standing: bool) -> list[Order]:
    """The orders for the game's current step."""
    game = load_game(directory)
    draft = Draft(game)
    pending = game.state.get("pending")
    if pending:
        draft.try_add("answer", decision=pending["id"], choice=choose(game, pending))
        return draft.orders
    charts = charts_of(game.module)
    if standing and not game.state["standing"].get("german"):
        westward = sorted(charts.board.areas, key=lambda a: charts.board.distances("berlin")[a])
        draft.try_add("standing", **{"loss-priority": LOSS_PRIORITY,
                                     "on-retreat-or-eliminate": "retreat",
                                     "retreat-priority": " ".join(westward)})
    phase = game.state["phase"]
    if phase == "movement":
        plan_moves(draft)
    if phase in ("movement", "attack"):
        plan_attacks(draft)
    plan_reinforcements(draft)
    draft.try_add("end-turn")
    return draft.orders


def choose(game: Game, pending: dict) -> str:
    """Answer a decision: retreat westward if offered, else lose the least useful unit."""
    retreats = [o for o in pending["options"] if o.startswith("retreat:")]
    if retreats:
        return retreats[0]
    priority = LOSS_PRIORITY.split()
    return min(pending["options"], key=lambda o: priority.index(o.split(":")[1]))


def distance_to_front(draft: Draft, area: str) -> int:
    charts = charts_of(draft.game.module)
    dist = charts.board.distances(area)
    soviet = [a for a, side in draft.state["control"].items() if side == SOVIET]
    return min((dist[a] for a in soviet if a in dist), default=99)


def plan_moves(draft: Draft) -> None:
    charts = charts_of(draft.game.module)
    for unit in sorted(draft.state["units"]):
        here = draft.state["units"][unit]
        if here in front_line(charts, draft.state):
            continue
        options = [a for a, side in sorted(draft.state["control"].items())
                   if side == GERMAN and a != here]
        options.sort(key=lambda a: (distance_to_front(draft, a), a))
        for area in options:
            if distance_to_front(draft, area) >= distance_to_front(draft, here):
                break
            if draft.try_add("move", unit=unit, to=area):
                draft.try_add("garrison", area=here)
                break


def plan_attacks(draft: Draft) -> None:
    charts = charts_of(draft.game.module)
    year = charts.turn(draft.state["turn"]).year
    per_attack = 1 if year == 1941 else 2
    free = {u: a for u, a in draft.state["units"].items() if u not in draft.state["attacked"]}
    targets_taken: set[str] = set()
    for area in front_line(charts, draft.state):
        units = sorted(u for u, a in free.items() if a == area)
        targets = [t for t in charts.board.neighbours(area)
                   if draft.state["control"][t] == SOVIET and t not in targets_taken]
        targets.sort(key=lambda t: charts.board.distances(t).get("moscow", 99))
        for target in targets:
            group = units[:per_attack]
            if len(group) < per_attack or len(units) - per_attack < 1 and year > 1941:
                break  # keep one unit behind to hold the area
            loss = sorted(group, key=LOSS_PRIORITY.split().index)[0]
            if draft.try_add("attack", target=target, units=" ".join(group), lose=loss):
                targets_taken.add(target)
                units = units[per_attack:]


def plan_reinforcements(draft: Draft) -> None:
    charts = charts_of(draft.game.module)
    for entry in list(draft.state["queue"]):
        for area in charts.nationalities[charts.pieces[entry["unit"]].nationality].enters:
            if not borders_soviet(charts, draft.state, area) and \
                    draft.try_add("reinforce", unit=entry["unit"], area=area):
                break


def to_xml(orders: list[Order]) -> str:
    lines = []
    for order in orders:
        attrs = "".join(f' {k}="{v}"' for k, v in order.attrs.items())
        lines.append(f"  <{order.kind}{attrs}/>")
    return "\n".join(lines)
