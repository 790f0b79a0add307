"""The step runner: one submission's orders applied in order (docs/architecture.md, The engine
model).

At the first illegal order the step stops: the orders before it and every die
they rolled stand, that order and the rest are rejected. When the rules open a
decision request the step also stops, cleanly, and waits for that side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.catalogue import PROTOCOL_RULE
from adjudicator.engine.decisions import DecisionPending, DecisionRequest
from adjudicator.engine.dice import DiceStream
from adjudicator.engine.events import Event
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.rules import GameRules
from adjudicator.engine.state import State, copy_state
from adjudicator.errors import IllegalOrder


class DiceUnavailable(Exception):  # noqa: N818 - control flow for dry runs
    """A dry run reached an order that needs a die roll; it can check no further."""


@dataclass
class StepContext:
    """What a rules procedure works with: the draft state, the dice, the event log."""

    rules: GameRules
    module: ModuleData
    state: State
    dice: DiceStream | None
    side: str
    events: list[Event] = field(default_factory=list)
    scratch: dict[str, Any] = field(default_factory=dict)
    base: State | None = None  # the position the step began from; never changed

    def checkpoint(self) -> int:
        """Where the draft is now, to go back to if the next order turns out illegal."""
        return len(self.events)

    def restore(self, checkpoint: int) -> None:
        """Back to the draft as it was at `checkpoint`. State changes only by events, so
        that is the step's starting position with the events before the checkpoint
        applied again: one copy when an order is refused, instead of one before every
        order in case it is."""
        del self.events[checkpoint:]
        if self.base is None:
            raise RuntimeError("a step context without its starting position cannot go back")
        state = copy_state(self.base)
        for event in self.events:
            self.rules.apply(state, event)
        self.state = state

    def emit(self, kind: str, **data: Any) -> Event:
        """Record an event and apply it to the draft state."""
        event = Event(kind, data)
        self.rules.apply(self.state, event)
        self.events.append(event)
        return event

    def _uniform(self, n: int) -> int:
        if self.dice is None:
            raise DiceUnavailable()
        return self.dice.uniform(n)

    def roll_d6(self, purpose: str) -> int:
        """One d6 (uniform(6) + 1), recorded as a `roll` event with its purpose."""
        value = self._uniform(6) + 1
        self.emit("roll", purpose=purpose, die="d6", sides=6, d6=value, value=value)
        return value

    def roll_d3(self, purpose: str) -> int:
        """A D3 read from one d6 as the rulebooks say: ceil(d6 / 2)."""
        d6 = self._uniform(6) + 1
        value = (d6 + 1) // 2
        self.emit("roll", purpose=purpose, die="D3", sides=6, d6=d6, value=value)
        return value

    def draw_secret(self, purpose: str, words: int = 8, *, marked: bool = False) -> bytes:
        """Secret bytes for the rules (the salt of a commitment to hidden information),
        `words` x 32 bits of the dice stream, recorded as one `roll` event whose purpose
        starts with "secret". `marked`: the event also carries `"hidden": true`, which
        every side's view masks (engine/hidden.py); games whose journals predate the
        mark recognize their secret rolls by purpose."""
        data = b"".join(self._uniform(2**32).to_bytes(4, "big") for _ in range(words))
        extra = {"hidden": True} if marked else {}
        self.emit("roll", purpose=f"secret: {purpose}", die="secret", sides=2**32,
                  value=data.hex(), **extra)
        return data

    def pick(self, candidates: Sequence[str], purpose: str, *, hidden: bool = False) -> str:
        """A random choice among ids: uniform(len) over the ids sorted (docs/protocol.md §1);
        `hidden`: a draw the sides' views must not show (a block drawn from a cup)."""
        ordered = sorted(candidates)
        if len(ordered) == 1:
            return ordered[0]
        index = self._uniform(len(ordered))
        extra = {"hidden": True} if hidden else {}
        self.emit(
            "roll", purpose=purpose, die=f"pick 1 of {len(ordered)}", sides=len(ordered),
            value=index + 1, candidates=ordered, choice=ordered[index], **extra,
        )
        return ordered[index]

    def roll_pool(self, dice: int, purpose: str, *, hits_on: int = 6) -> tuple[list[int], int]:
        """A pool of `dice` d6 rolled at once, each die a hit at `hits_on` or more (a block
        game's fire), recorded as one `roll` event with every face and the hits."""
        if dice < 0 or not 1 <= hits_on <= 6:
            raise ValueError(f"a pool of {dice} dice hitting on {hits_on}")
        faces = [self._uniform(6) + 1 for _ in range(dice)]
        hits = sum(1 for face in faces if face >= hits_on)
        self.emit("roll", purpose=purpose, die="pool", sides=6, dice=dice, hits_on=hits_on,
                  values=faces, value=hits)
        return faces, hits


@dataclass
class StepResult:
    state: State
    events: list[Event]
    applied: int
    rejection: IllegalOrder | None = None
    decision: DecisionRequest | None = None
    dry_run_stopped_at: int | None = None
    total: int = 0  # the orders submitted

    @property
    def not_reached(self) -> int:
        """Orders left undone after a decision request stopped the step."""
        return self.total - self.applied if self.decision is not None else 0

    @property
    def outcome(self) -> str:
        if self.rejection is not None:
            return "rejected"
        if self.decision is not None:
            return "decision"
        return "accepted"


def run_step(
    rules: GameRules,
    module: ModuleData,
    state: State,
    orders: Sequence[Order],
    side: str,
    dice: DiceStream | None,
) -> StepResult:
    """Apply `orders` for `side` to a copy of `state`.

    With `dice=None` it is a dry run: it stops quietly at the first order that
    needs a die roll.
    """
    ctx = StepContext(rules, module, copy_state(state), dice, side, base=state)
    for order in orders:
        checkpoint = ctx.checkpoint()
        try:
            _execute(ctx, order)
        except IllegalOrder as exc:
            ctx.restore(checkpoint)
            exc.index, exc.line = order.index, order.line
            return StepResult(ctx.state, ctx.events, order.index, rejection=exc,
                              total=len(orders))
        except DecisionPending as stop:
            return StepResult(ctx.state, ctx.events, order.index + 1, decision=stop.request,
                              total=len(orders))
        except DiceUnavailable:
            ctx.restore(checkpoint)
            return StepResult(ctx.state, ctx.events, order.index, dry_run_stopped_at=order.index,
                              total=len(orders))
    return StepResult(ctx.state, ctx.events, len(orders), total=len(orders))


def _execute(ctx: StepContext, order: Order) -> None:
    """One order of a step: while a decision waits, only its answer (protocol §4)."""
    pending = ctx.state.get("pending")
    if pending and order.kind != "answer":
        raise IllegalOrder(
            PROTOCOL_RULE,
            f"the game is waiting for your answer to decision {pending['id']} "
            f"({pending['kind']}); put an <answer> first",
            code="decision-pending",
        )
    ctx.rules.execute(ctx, order)


def refusal(rules: GameRules, module: ModuleData, state: State, order: Order,
            side: str) -> IllegalOrder | None:
    """What `run_step` of `order` alone as a dry run would reject it with (None: it
    would not), without the position after it: the listing asks this of every
    candidate, and a refused one need not have its draft rebuilt (`restore`)."""
    ctx = StepContext(rules, module, copy_state(state), None, side, base=state)
    try:
        _execute(ctx, order)
    except IllegalOrder as exc:
        return exc
    except (DecisionPending, DiceUnavailable):
        return None
    return None


def next_decision_id(state: State) -> str:
    return f"D{state.get('decisions', 0) + 1}"


def request_decision(ctx: StepContext, request: DecisionRequest) -> None:
    """Open a decision request and stop the step until `request.side` answers."""
    ctx.emit("decision-requested", request=request.to_json())
    raise DecisionPending(request)


def take_answer(ctx: StepContext, order: Order) -> tuple[dict[str, Any], str]:
    """An `<answer decision= choice=>` to the open request, checked and recorded (a
    `decision-answered` event); the request and the choice, for the rules to resume
    the procedure the request interrupted."""
    pending = ctx.state.get("pending")
    if not pending:
        raise IllegalOrder(PROTOCOL_RULE, "there is no open decision to answer",
                           code="no-decision")
    if order.get("decision") != pending["id"]:
        raise IllegalOrder(PROTOCOL_RULE, f"the open decision is {pending['id']}, not "
                           f"{order.get('decision')!r}", code="wrong-decision")
    choice = order.get("choice")
    if choice not in pending["options"]:
        raise IllegalOrder(pending["rule"], f"{choice!r} is not one of the choices: "
                           f"{', '.join(pending['options'])}", code="bad-choice")
    ctx.emit("decision-answered", id=pending["id"], choice=choice)
    return pending, choice


def apply_engine_event(state: State, event: Event) -> bool:
    """Apply the events every game shares; True if `event` was one of them."""
    if event.kind == "roll":
        pass  # a roll decides what the events after it say; by itself it changes nothing
    elif event.kind == "decision-requested":
        state["pending"] = event["request"]
        state["decisions"] = state.get("decisions", 0) + 1
    elif event.kind == "decision-answered":
        state["pending"] = None
    else:
        return False
    return True
