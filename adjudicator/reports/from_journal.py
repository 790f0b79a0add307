"""A `StepReport` from a game's journal: the step's entry, the submission it recorded,
and the positions before and after it (replayed from the header)."""

from __future__ import annotations

import base64
from typing import Any

from adjudicator.engine.events import Event
from adjudicator.engine.orders import orders_from_envelope
from adjudicator.engine.report import StepReport
from adjudicator.engine.state import State, copy_state, state_hash
from adjudicator.errors import JournalError, PbemError
from adjudicator.referee.gamedir import Game
from adjudicator.security.xmlsafe import parse_untrusted


def waiting_for(game: Game, state: State, seq: int) -> str | None:
    """What the game waits for after step `seq`, in the words the report shows."""
    pending = state.get("pending")
    if pending:
        return f"{pending['side']}: answer to decision {pending['id']}"
    side = game.package.rules.acting_side(state)
    return None if side is None else f"{side}: orders for step {seq + 1}"


def submitted_orders(raw: bytes) -> list[dict[str, Any]]:
    """The game orders of a recorded submission, as the report lists them."""
    try:
        root = parse_untrusted(raw)
    except PbemError:
        return []
    return [{"index": o.index, "line": o.line, "kind": o.kind, "attrs": dict(o.attrs)}
            for o in orders_from_envelope(root)]


def step_report(game: Game, seq: int, side: str) -> StepReport:
    """The report input of step `seq` (0 = the initial position) for `side`."""
    if side not in game.package.rules.sides:
        raise PbemError(f"this game has no side {side!r} (its sides: "
                        f"{', '.join(game.package.rules.sides)})", code="unknown-side")
    steps = game.steps
    if not 0 <= seq <= len(steps):
        raise JournalError(f"game {game.game_id} has steps 0 to {len(steps)}, not {seq}",
                           code="no-such-step")
    common = {"game_id": game.game_id, "game": game.package.id, "title": game.package.title,
              "side": side, "seq": seq, "module": game.module}
    if seq == 0:
        state = copy_state(game.initial)
        return StepReport(
            **common, submitted_by=None, outcome="initial", orders_total=0, orders_applied=0,
            orders=[], rejection=None, decision=None, events=[], state_before=state,
            state_after=copy_state(state), state_hash=state_hash(state), commit=None,
            server_seed=None, entropy=None, next_commit=str(game.header["commit"]),
            waiting_for=waiting_for(game, state, 0))
    entry = steps[seq - 1].entry
    before = game.state_before(seq)
    after = copy_state(before)
    for event in entry["events"]:
        game.package.rules.apply(after, Event.from_json(event))
    orders = submitted_orders(base64.b64decode(entry["submission"]))
    return StepReport(
        **common,
        submitted_by=f"{entry.get('side')} (key {entry.get('key')})",
        outcome=str(entry["outcome"]),
        orders_total=len(orders),
        orders_applied=int(entry["orders_applied"]),
        orders=orders,
        rejection=entry.get("rejection"),
        decision=entry.get("decision"),
        events=list(entry["events"]),
        state_before=before,
        state_after=after,
        state_hash=str(entry["state_hash"]),
        commit=entry.get("commit"),
        server_seed=entry.get("server_seed"),
        entropy=entry.get("entropy"),
        next_commit=entry.get("next_commit"),
        waiting_for=waiting_for(game, after, seq),
    )


OUTCOME_LABELS = {
    "initial": "the starting position",
    "accepted": "carried out",
    "rejected": "partly carried out",  # the orders before the refused one stand
    "decision": "stopped for a decision",
}


def step_label(game: Game, step: StepReport) -> str:
    """A step in a few words for lists of reports: "step 4 · turn 2, movement · german ·
    partly carried out" (and "voided" when a rollback voided it)."""
    where = game.package.rules.summary(step.state_after)
    place = ", ".join(str(where[k]) for k in ("turn", "phase") if where.get(k) is not None)
    parts = [f"step {step.seq}"]
    if place:
        parts.append(f"turn {place}")
    if step.seq:
        parts.append(str(game.steps[step.seq - 1].entry.get("side")))
    parts.append(OUTCOME_LABELS.get(step.outcome, step.outcome))
    if step.seq in game.voided:
        parts.append("voided by a rollback")
    return " · ".join(parts)
