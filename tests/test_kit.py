"""The game kit (docs/architecture.md, "The game kit"): the one least-cost search against
independent reference searches, the path walker, zones of control, stacking, retreats,
resumable procedures, the sequence of play, the rejection catalogue, hidden
information, dice pools and typed orders."""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.catalogue import Catalogue, Rejection, rule_key
from adjudicator.engine.decisions import DecisionPending
from adjudicator.engine.dice import DiceStream
from adjudicator.engine.events import Event
from adjudicator.engine.flow import Phase, Sequence
from adjudicator.engine.hidden import Reveal, commitment, mask_events, salt_for
from adjudicator.engine.memo import Memo
from adjudicator.engine.orders import Order, OrderSpec
from adjudicator.engine.procedure import Procedure, Resumer, Step, Task, TaskQueue, ask, rest
from adjudicator.engine.retreat import retreat_paths, rings
from adjudicator.engine.search import least_costs, least_costs_to, reachable
from adjudicator.engine.stacking import over_limit, stacks
from adjudicator.engine.step import StepContext, apply_engine_event, take_answer
from adjudicator.engine.walker import Stop, walk
from adjudicator.engine.zoc import zones_of_control
from adjudicator.errors import IllegalOrder

# -- boards for the searches: random graphs of up to 12 places with random costs ---------


@st.composite
def graphs(draw: Any) -> tuple[dict[int, list[int]], dict[tuple[int, int], int | None]]:
    n = draw(st.integers(2, 12))
    edges = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                         max_size=30))
    nbrs: dict[int, set[int]] = {i: set() for i in range(n)}
    for a, b in edges:
        if a != b:
            nbrs[a].add(b)
            nbrs[b].add(a)
    costs = {(a, b): draw(st.one_of(st.none(), st.integers(0, 4)))
             for a in nbrs for b in nbrs[a]}
    return {a: sorted(b) for a, b in nbrs.items()}, costs


def reference_dijkstra(start: int, nbrs: dict[int, list[int]], cost: Any,
                       budget: int | None) -> tuple[dict[int, int], dict[int, int]]:
    """The searches the boards used before the kit: a heap of (cost, place)."""
    best, came = {start: 0}, {}
    queue = [(0, start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > best[here]:
            continue
        for there in nbrs[here]:
            step = cost(here, there)
            if step is None:
                continue
            total = spent + step
            if (budget is None or total <= budget) and total < best.get(there, total + 1):
                best[there], came[there] = total, here
                heapq.heappush(queue, (total, there))
    return best, came


def reference_bfs(start: int, nbrs: dict[int, list[int]], ok: Any,
                  limit: int | None) -> tuple[dict[int, int], dict[int, int]]:
    length, came = {start: 0}, {}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if limit is not None and length[here] >= limit:
            continue
        for there in nbrs[here]:
            if there not in length and ok(here, there):
                length[there], came[there] = length[here] + 1, here
                queue.append(there)
    return length, came


@settings(max_examples=200, deadline=None)
@given(graphs(), st.one_of(st.none(), st.integers(0, 8)))
def test_sorted_ties_reproduce_a_heap_of_cost_and_place(graph: Any, budget: int | None) -> None:
    nbrs, costs = graph
    reached = least_costs([0], nbrs.__getitem__, lambda a, b: costs[(a, b)], budget=budget)
    best, came = reference_dijkstra(0, nbrs, lambda a, b: costs[(a, b)], budget)
    assert reached.cost == best
    assert reached.came_from == came


@settings(max_examples=200, deadline=None)
@given(graphs(), st.one_of(st.none(), st.integers(0, 5)))
def test_fifo_ties_with_unit_costs_are_a_breadth_first_search(graph: Any,
                                                             limit: int | None) -> None:
    nbrs, costs = graph
    def ok(a: int, b: int) -> bool:
        return costs[(a, b)] is not None
    reached = reachable([0], nbrs.__getitem__, ok, max_steps=limit)
    length, came = reference_bfs(0, nbrs, ok, limit)
    assert reached.cost == length
    assert reached.came_from == came


@settings(max_examples=200, deadline=None)
@given(graphs(), st.sets(st.integers(0, 11), min_size=1, max_size=3),
       st.one_of(st.none(), st.integers(0, 8)))
def test_costs_to_goals_are_what_a_search_from_each_place_finds(
        graph: Any, goal_set: set[int], budget: int | None) -> None:
    """One search backwards from the goals (a supply network) against one forward search
    from every place that stops at the first goal (a supply line per unit)."""
    nbrs, costs = graph
    goals = {g for g in goal_set if g in nbrs}
    if not goals:
        return
    to = least_costs_to(sorted(goals), nbrs.__getitem__, lambda a, b: costs[(a, b)],
                        budget=budget)
    for place in nbrs:
        ahead = least_costs([place], nbrs.__getitem__, lambda a, b: costs[(a, b)],
                            budget=budget, goals=goals.__contains__)
        if ahead.found is None:
            assert place not in to
        else:
            assert to.cost[place] == ahead.cost[ahead.found]


def test_a_memo_keeps_the_last_answers_asked() -> None:
    memo: Memo[str, list[str]] = Memo(size=2)
    first = memo.get("a", lambda: ["a"])
    assert memo.get("a", lambda: ["other"]) is first
    memo.get("b", lambda: ["b"])
    memo.get("c", lambda: ["c"])  # "a" was asked least recently: it goes
    assert len(memo) == 2
    assert memo.get("a", lambda: ["again"]) == ["again"]


def test_fractional_costs_goals_and_a_stop_that_leads_nowhere() -> None:
    line = {1: [2], 2: [1, 3], 3: [2, 4], 4: [3]}
    half = least_costs([1], line.__getitem__, lambda a, b: Fraction(1, 2), zero=Fraction(0))
    assert half.cost[4] == Fraction(3, 2)
    nearest = least_costs([1], line.__getitem__, lambda a, b: 1, goals=lambda p: p >= 3)
    assert nearest.found == 3 and nearest.path(3) == [1, 2, 3] and 4 not in nearest
    stopped = least_costs([1], line.__getitem__, lambda a, b: 1, expand=lambda p: p != 2)
    assert sorted(stopped.cost) == [1, 2]
    several = least_costs({1: 5, 4: 0}, line.__getitem__, lambda a, b: 1)
    assert several.cost == {1: 3, 2: 2, 3: 1, 4: 0} and several.path(1) == [4, 3, 2, 1]
    with pytest.raises(KeyError):
        nearest.path(4)


# -- the walker, zones, stacking, retreats ----------------------------------------------


def test_the_walker_runs_the_checks_in_order_and_stops_at_the_first() -> None:
    seen: list[str] = []

    def first(step: Any) -> Stop[int] | None:
        seen.append(f"first {step.index}")
        return Stop("blocked", step, {"at": step.there}) if step.there == 9 else None

    def second(step: Any) -> Stop[int] | None:
        seen.append(f"second {step.index}")
        return None

    def allowance(step: Any, cost: int) -> Stop[int] | None:
        return Stop("too-far", step) if step.spent_before + cost > 3 else None

    done = walk([1, 2, 3], [first, second], cost=lambda s: 1, start=1)
    assert done.ok and done.costs == (1, 1) and done.spent == 3
    assert seen == ["first 1", "second 1", "first 2", "second 2"]
    blocked = walk([1, 9, 3], [first, second], cost=lambda s: 1)
    assert blocked.stop is not None and blocked.stop.reason == "blocked"
    assert blocked.stop.facts == {"at": 9} and blocked.costs == ()
    far = walk([1, 2, 3, 4], [], cost=lambda s: 2, after_cost=[allowance])
    assert far.stop is not None and far.stop.reason == "too-far" and far.stop.step.index == 2
    priced = walk([1, 2], [], cost=lambda s: Stop("prohibited", s))
    assert priced.stop is not None and priced.stop.reason == "prohibited"


def test_zones_of_control_with_hexsides_they_do_not_cross() -> None:
    ring = {i: [(i - 1) % 6, (i + 1) % 6] for i in range(6)}
    zones = zones_of_control([("A", 0), ("T", 3)], ring.__getitem__,
                             extends=lambda a, b: (a, b) != (3, 4))
    assert zones.occupied == {0, 3}
    assert dict(zones.exerted) == {5: ("A",), 1: ("A",), 2: ("T",)}
    assert zones.of(lambda u: u == "T") == {2}
    assert zones.without(["A"]) == {2} and 1 in zones and 4 not in zones


def test_stacks_and_limits() -> None:
    where = {"b": "x", "a": "x", "c": "y"}
    assert stacks(where) == {"x": ["a", "b"], "y": ["c"]}
    assert stacks(where, ["c", "zz"]) == {"y": ["c"]}
    assert over_limit(where, lambda p, units: len(units) if len(units) > 1 else None) == \
        [("x", ["a", "b"], 2)]


def test_retreat_paths_and_rings() -> None:
    grid = {0: [1, 2], 1: [0, 3], 2: [0, 3], 3: [1, 2, 4], 4: [3]}
    assert retreat_paths(0, grid.__getitem__, 2, lambda a, b: b > a) == [(1, 3), (2, 3)]
    assert retreat_paths(0, grid.__getitem__, 2, lambda a, b: b > a,
                         rank=lambda p: p[0] != 2) == [(2, 3)]
    assert retreat_paths(0, grid.__getitem__, 1, lambda a, b: b > a,
                         end_ok=lambda p: p[-1] == 9) == []
    assert rings(0, grid.__getitem__, lambda a, b: b > a, deepest=5) == [[1, 2], [3], [4]]


# -- procedures ---------------------------------------------------------------------------


class Rules:
    """Just enough rules for a StepContext: events that record and the engine's own."""

    def apply(self, state: dict[str, Any], event: Event) -> None:
        if not apply_engine_event(state, event):
            state.setdefault("log", []).append(event.kind)


def context_for(state: dict[str, Any] | None = None) -> StepContext:
    return StepContext(Rules(), None, state or {}, None, "white")  # type: ignore[arg-type]


def answer(ctx: StepContext, resumer: Resumer, choice: str) -> None:
    pending, chosen = take_answer(ctx, Order("answer", {"decision": ctx.state["pending"]["id"],
                                                        "choice": choice}))
    resumer.resume(ctx, pending, chosen)


ATTACK = Procedure("attack", (
    Step("roll", lambda ctx, c: (ctx.emit("rolled"), {**c, "result": "EX"})[1]),
    Step("loss", lambda ctx, c: ask(ctx, "white", "loss", "7.7", ["A", "B"],
                                    {**c, "step": "loss"}) if c["result"] == "EX" else None,
         resume=lambda ctx, c, choice: ctx.emit("lost", unit=choice) and None),
    Step("finish", lambda ctx, c: ctx.emit("finished") and None),
))


def test_a_procedure_stops_for_a_decision_and_the_answer_runs_the_rest() -> None:
    ctx = context_for()
    with pytest.raises(DecisionPending) as stop:
        ATTACK.run(ctx, {"hex": "0101"})
    assert stop.value.request.context == {"hex": "0101", "result": "EX", "step": "loss"}
    answer(ctx, Resumer((ATTACK,)), "B")
    assert ctx.state["log"] == ["rolled", "lost", "finished"]
    assert ctx.state["pending"] is None


def test_a_task_queue_keeps_its_work_in_the_context() -> None:
    def retreat(ctx: StepContext, c: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
        ask(ctx, "white", "retreat", "8.10", ["north", "later"],
            {**c, "step": "retreat", "unit": task["unit"]})
        return c

    def retreated(ctx: StepContext, c: dict[str, Any], task: dict[str, Any],
                  choice: str) -> dict[str, Any]:
        if choice == "later":  # to the end of the queue
            return {**c, "queue": [*c["queue"][1:], task]}
        ctx.emit("retreated", unit=task["unit"])
        return rest(c)

    combat = TaskQueue("combat", {"retreat": Task("retreat", retreat, retreated)},
                       finish=lambda ctx, c: ctx.emit("finished") and None)
    ctx = context_for()
    with pytest.raises(DecisionPending):
        combat.run(ctx, {"queue": [{"task": "retreat", "unit": "A"},
                                   {"task": "retreat", "unit": "B"}]})
    resumer = Resumer((combat,))
    with pytest.raises(DecisionPending) as stop:
        answer(ctx, resumer, "later")
    assert stop.value.request.context["unit"] == "B"
    with pytest.raises(DecisionPending):
        answer(ctx, resumer, "north")
    answer(ctx, resumer, "north")
    assert ctx.state["log"] == ["retreated", "retreated", "finished"]
    with pytest.raises(KeyError):
        Resumer().resume(ctx, {"kind": "nothing", "context": {}}, "x")


# -- the sequence of play, the catalogue, hidden information, dice, orders ----------------


def test_a_sequence_with_a_phase_that_is_not_always_held() -> None:
    turn = Sequence("player turn", (
        Phase("air", segment="air"), Phase("movement", segment="first"),
        Phase("combat", segment="first"),
        Phase("combat", segment="second", when=lambda s: s["turn"] > 1)))
    last = turn.find("combat", segment="second")
    assert turn.following(turn.find("combat", segment="first"), {"turn": 1}) is None
    assert turn.following(0, {"turn": 2}).segment == "first"  # type: ignore[union-attr]
    assert turn.remaining(1, {"turn": 1}) == 2 and turn.remaining(1, {"turn": 2}) == 3
    assert len(turn.held({"turn": 1})) == 3 and last == 3
    with pytest.raises(KeyError):
        turn.find("supply")


def test_the_catalogue_is_closed() -> None:
    rules = Catalogue("demo", [Rejection("too-far", ("5.0 D", "4.1 A"), "beyond the MA")])
    refused = rules.refuse("too-far", "4.1 A", "GER-6 has 4 MPs")
    assert isinstance(refused, IllegalOrder) and refused.as_record()["rule"] == "4.1 A"
    with pytest.raises(KeyError):
        rules.refuse("no-such-code", "4.1 A", "x")
    with pytest.raises(KeyError):
        rules.refuse("too-far", "9.9", "x")
    assert rules.refuse("bad-choice", "7.8.1", "x").code == "bad-choice"  # any rule
    assert list(rules.by_rule())[:3] == ["4.1 A", "5.0 D", "protocol §4"]
    assert "| `too-far` | 5.0 D, 4.1 A | beyond the MA |" in rules.markdown("Demo")
    assert sorted(["10.1", "2.0", "7.8.1", "7.8 A"], key=rule_key) == \
        ["2.0", "7.8 A", "7.8.1", "10.1"]
    with pytest.raises(ValueError):
        Catalogue("demo", [Rejection("x", (), ""), Rejection("x", (), "")])


def test_commitments_reveal_and_views_mask_secret_rolls() -> None:
    from adjudicator.games.moscow.untried import commitment as untried_commitment

    salt = salt_for(b"secret", "U01")
    label = b"pbem/untried/v1"
    assert commitment(label, "U01", "SOV-X", 2, 3, salt) == \
        untried_commitment("U01", "SOV-X", 2, 3, salt)
    reveal = Reveal(commitment(label, "U01", "SOV-X", 2, 3, salt), ("U01", "SOV-X", 2, 3), salt)
    assert reveal.matches(label)
    assert not Reveal(reveal.commitment, ("U01", "SOV-Y", 2, 3), salt).matches(label)
    events = [{"kind": "roll", "purpose": "draw", "hidden": True, "choice": "SOV-X",
               "candidates": ["SOV-X"], "value": 1},
              {"kind": "roll", "purpose": "combat", "value": 4},
              {"kind": "drawn", "token": "U01", "secret": {"piece": "SOV-X"}}]
    masked = mask_events(events)
    assert masked[0] == {"kind": "roll", "purpose": "draw", "hidden": True}
    assert masked[1] == events[1] and masked[2] == {"kind": "drawn", "token": "U01"}


def test_dice_pools_and_marked_secret_draws() -> None:
    ctx = context_for()
    ctx.dice = DiceStream(b"\x01" * 32, "demo", 1, b"entropy")
    faces, hits = ctx.roll_pool(5, "fire at 12", hits_on=5)
    assert len(faces) == 5 and hits == sum(1 for f in faces if f >= 5)
    again = DiceStream(b"\x01" * 32, "demo", 1, b"entropy")
    assert faces == [again.d6() for _ in range(5)]
    ctx.pick(["b", "a", "c"], "a block from the cup", hidden=True)
    ctx.draw_secret("salts", marked=True)
    rolls = [e for e in ctx.events if e.kind == "roll"]
    assert rolls[0].data["values"] == faces and rolls[0].data["value"] == hits
    assert rolls[1].data["hidden"] and rolls[2].data["hidden"]
    with pytest.raises(ValueError):
        ctx.roll_pool(2, "x", hits_on=7)


@dataclass(frozen=True)
class Standing(OrderSpec):
    KIND = "standing"
    loss_priority: tuple[str, ...] = ()
    retreat: str = ""


def test_typed_orders_read_and_write_attributes() -> None:
    order = Order("standing", {"loss-priority": "GER-6  GER-7", "retreat": "first"})
    typed = Standing.from_order(order)
    assert typed == Standing(("GER-6", "GER-7"), "first")
    assert typed.to_xml() == '<standing loss-priority="GER-6 GER-7" retreat="first"/>'
    assert Standing.from_order(typed.to_order()) == typed
    assert Standing().to_xml() == "<standing/>"
    assert Standing(retreat='a"b<').to_xml() == '<standing retreat="a&quot;b&lt;"/>'
