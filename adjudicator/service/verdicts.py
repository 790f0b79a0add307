"""What a submitter is told, in plain words: the game and side a file claims, and the
verdict of an adjudicated step."""

from __future__ import annotations

from adjudicator.errors import PbemError
from adjudicator.referee.referee import Adjudication
from adjudicator.security.xmlsafe import parse_untrusted


def claimed_game(raw: bytes) -> str | None:
    """The game id an order file names, read with the hardened parser; None if none."""
    try:
        root = parse_untrusted(raw)
    except PbemError:
        return None
    game = root.get("game")
    return game if game and len(game) <= 64 else None


def claimed_side(raw: bytes) -> str | None:
    try:
        return parse_untrusted(raw).get("side")
    except PbemError:
        return None


def step_answer(adjudication: Adjudication) -> str:
    """The verdict of an adjudicated step in plain words."""
    entry, game_id = adjudication.entry, adjudication.before.game_id
    seq, applied = entry["seq"], entry["orders_applied"]
    lines = []
    if entry["outcome"] == "rejected":
        r = entry["rejection"]
        lines.append(f"Step {seq} of game {game_id} is adjudicated: the orders before "
                     f"order {r['index']} were carried out ({applied}); order {r['index']} "
                     f"(line {r['line']}) is refused under rule {r['rule']}: {r['message']} "
                     "The orders after it were not carried out.")
    elif entry["outcome"] == "decision":
        d = entry["decision"]
        lines.append(f"Step {seq} of game {game_id} is adjudicated up to a decision: "
                     f"{d['side']} must answer decision {d['id']} ({d['kind']}, rule "
                     f"{d['rule']}); {applied} orders were carried out before it.")
    else:
        lines.append(f"Step {seq} of game {game_id} is adjudicated: all {applied} orders "
                     "were carried out.")
    rolls = sum(1 for e in entry["events"] if e["kind"] == "roll")
    lines.append(f"Dice: {rolls} rolls from the seed committed as {entry['commit'][:16]}..., "
                 f"revealed as {entry['server_seed']}.")
    side = adjudication.acting_side
    lines.append(f"The game now waits for {side} (step {adjudication.next_seq})." if side
                 else "The game is over.")
    return "\n".join(lines)
