"""The game-agnostic core: boards, state hashing, the step runner."""

from __future__ import annotations

import pytest

from adjudicator.engine.board import AreaBoard, Edge
from adjudicator.engine.decisions import DecisionRequest
from adjudicator.engine.dice import DiceStream
from adjudicator.engine.events import Event
from adjudicator.engine.orders import Order
from adjudicator.engine.state import canonical_json, state_hash
from adjudicator.engine.step import (
    StepContext,
    apply_engine_event,
    next_decision_id,
    request_decision,
    run_step,
)
from adjudicator.errors import IllegalOrder

LINE = AreaBoard(["a", "b", "c", "d"], [Edge("a", "b"), Edge("b", "c"), Edge("c", "d"),
                                        Edge("a", "d", "sea")])


def test_board_neighbours_by_edge_kind() -> None:
    assert LINE.neighbours("a") == ["b"]
    assert LINE.neighbours("a", ("land", "sea")) == ["b", "d"]
    assert LINE.adjacent("d", "a", ("sea",)) and not LINE.adjacent("d", "a")


def test_board_path_search_uses_the_rules_predicate() -> None:
    assert LINE.path("a", "d", lambda x: True) == ["a", "b", "c", "d"]
    assert LINE.path("a", "d", lambda x: x != "c") is None
    assert LINE.reachable(["a"], lambda x: x != "c") == {"a", "b"}
    assert LINE.reachable(["c"], lambda x: x != "c") == set()
    assert LINE.distances("a") == {"a": 0, "b": 1, "c": 2, "d": 3}


def test_board_refuses_bad_edges() -> None:
    with pytest.raises(ValueError, match="unknown area"):
        AreaBoard(["a"], [Edge("a", "z")])
    with pytest.raises(ValueError, match="itself"):
        AreaBoard(["a"], [Edge("a", "a")])


def test_canonical_json_and_hash_ignore_key_order() -> None:
    assert canonical_json({"b": 1, "a": "é"}) == '{"a":"é","b":1}'.encode()
    assert state_hash({"x": 1, "y": [1, 2]}) == state_hash({"y": [1, 2], "x": 1})
    assert state_hash({"x": 1}) != state_hash({"x": 2})


class CounterRules:
    """A toy game: `add` orders add to a counter, `roll` adds a d6, `ask` opens a decision."""

    game = "toy"
    sides = ("blue",)

    def apply(self, state, event):  # noqa: ANN001, ANN201
        if apply_engine_event(state, event):
            return
        state["n"] += event["by"]

    def execute(self, ctx: StepContext, order: Order) -> None:
        if order.kind == "add":
            by = int(order.get("by"))
            if by < 0:
                raise IllegalOrder("1.1", "you cannot subtract")
            ctx.emit("added", by=by)
        elif order.kind == "roll":
            ctx.emit("added", by=ctx.roll_d6("toy roll"))
            if order.get("then") == "fail":
                raise IllegalOrder("1.2", "this order fails after rolling")
        elif order.kind == "ask":
            request_decision(ctx, DecisionRequest(next_decision_id(ctx.state), "blue", "pick",
                                                  "1.3", ["x", "y"]))


def orders(*specs: tuple[str, dict[str, str]]) -> list[Order]:
    return [Order(kind, attrs, index=i, line=10 + i) for i, (kind, attrs) in enumerate(specs)]


def dice() -> DiceStream:
    return DiceStream(bytes(32), "toy-1", 1, bytes(16))


def test_step_stops_at_first_illegal_order_and_keeps_the_prefix() -> None:
    result = run_step(CounterRules(), None, {"n": 0},  # type: ignore[arg-type]
                      orders(("add", {"by": "2"}), ("roll", {}), ("add", {"by": "-1"}),
                             ("add", {"by": "5"})), "blue", dice())
    assert result.outcome == "rejected"
    assert result.applied == 2
    assert result.rejection is not None
    assert result.rejection.as_record() == {"index": 2, "line": 12, "rule": "1.1",
                                            "code": "illegal", "message": "you cannot subtract"}
    assert [e.kind for e in result.events] == ["added", "roll", "added"]
    assert result.state["n"] == 2 + result.events[1]["value"]


def test_an_illegal_order_that_rolled_leaves_no_trace_of_its_own() -> None:
    result = run_step(CounterRules(), None, {"n": 0},  # type: ignore[arg-type]
                      orders(("add", {"by": "1"}), ("roll", {"then": "fail"})), "blue", dice())
    assert result.applied == 1 and result.state == {"n": 1}
    assert [e.kind for e in result.events] == ["added"]


def test_dry_run_stops_quietly_at_the_first_die_roll() -> None:
    result = run_step(CounterRules(), None, {"n": 0},  # type: ignore[arg-type]
                      orders(("add", {"by": "1"}), ("roll", {}), ("add", {"by": "1"})),
                      "blue", None)
    assert result.dry_run_stopped_at == 1 and result.rejection is None
    assert result.state == {"n": 1}


def test_a_decision_request_stops_the_step_and_blocks_other_orders() -> None:
    rules = CounterRules()
    first = run_step(rules, None, {"n": 0},  # type: ignore[arg-type]
                     orders(("ask", {}), ("add", {"by": "1"})), "blue", dice())
    assert first.outcome == "decision" and first.applied == 1
    assert first.decision is not None and first.decision.id == "D1"
    assert first.state["pending"]["options"] == ["x", "y"]
    second = run_step(rules, None, first.state,  # type: ignore[arg-type]
                      orders(("add", {"by": "1"})), "blue", dice())
    assert second.rejection is not None and second.rejection.code == "decision-pending"


def test_event_json_round_trip() -> None:
    event = Event("moved", {"unit": "GER-6", "to": "kiev"})
    assert Event.from_json(event.to_json()) == event
