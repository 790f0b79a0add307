"""What a submitter is told, in plain words: the game and side a file claims, and the
verdict of an adjudicated step. The same words go to the web page, the API and the
e-mail answer, so they are written once, here."""

from __future__ import annotations

from adjudicator.errors import PbemError
from adjudicator.referee.referee import Adjudication
from adjudicator.security.xmlsafe import parse_untrusted


def claimed_game(raw: bytes) -> tuple[str | None, str | None]:
    """The game id an order file names, read with the hardened parser, or why none can
    be read: the same precise words `pbem sign` gives for the same file (a DOCTYPE, a
    file that is not UTF-8, XML that is not well-formed)."""
    try:
        root = parse_untrusted(raw)
    except PbemError as exc:
        return None, exc.message
    game = root.get("game")
    if not isinstance(root.tag, str) or not root.tag.endswith("}orders") and root.tag != "orders":
        return None, f"it is XML, but not an order file: its root element is <{root.tag}>, " \
                     "not <orders>"
    if not game:
        return None, "the <orders> element has no game attribute: start from the game's " \
                     "order template (pbem orders template, or your page on the service)"
    if len(game) > 64:
        return None, "the game attribute is longer than any game id"
    return game, None


def claimed_side(raw: bytes) -> str | None:
    try:
        return parse_untrusted(raw).get("side")
    except PbemError:
        return None


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def waits_line(acting: str | None, next_seq: int) -> str:
    return f"The game now waits for {acting} (step {next_seq})." if acting \
        else "The game is over."


def step_answer(adjudication: Adjudication) -> str:
    """The verdict of an adjudicated step in plain words. Order numbers count from 1, as
    the report and `pbem check` count them."""
    entry, game_id = adjudication.entry, adjudication.before.game_id
    seq, applied = entry["seq"], entry["orders_applied"]
    lines = []
    if entry["outcome"] == "rejected":
        r = entry["rejection"]
        number = r["index"] + 1
        before = ("No order before it was carried out." if applied == 0 else
                  f"The {plural(applied, 'order')} before it {'was' if applied == 1 else 'were'}"
                  " carried out and stand, with their dice.")
        lines.append(f"Step {seq} of game {game_id} is adjudicated and partly carried out: "
                     f"order {number} (line {r['line']}) is refused under rule {r['rule']}: "
                     f"{r['message'].rstrip('.')}. {before} Order {number} and the orders "
                     "after it were not carried out.")
    elif entry["outcome"] == "decision":
        d = entry["decision"]
        lines.append(f"Step {seq} of game {game_id} is adjudicated up to a decision: "
                     f"{d['side']} must answer decision {d['id']} ({d['kind']}, rule "
                     f"{d['rule']}). {plural(applied, 'order').capitalize()} "
                     f"{'was' if applied == 1 else 'were'} carried out before it.")
    elif applied == 1:
        lines.append(f"Step {seq} of game {game_id} is adjudicated: its one order was "
                     "carried out.")
    else:
        lines.append(f"Step {seq} of game {game_id} is adjudicated: all {applied} orders "
                     "were carried out.")
    rolls = sum(1 for e in entry["events"] if e["kind"] == "roll")
    dice = "No die was rolled" if rolls == 0 else f"Dice: {plural(rolls, 'roll')}"
    lines.append(f"{dice}; the seed committed as {entry['commit'][:16]}... is revealed as "
                 f"{entry['server_seed']}.")
    lines.append(waits_line(adjudication.acting_side, adjudication.next_seq))
    return "\n".join(lines)


def now_line(text: str, acting: str | None, next_seq: int, status: str) -> str:
    """An earlier answer given again (the same file twice): its last line, which said
    what the game waited for then, replaced by what it waits for now."""
    lines = text.split("\n")
    if lines and lines[-1].startswith(("The game now waits", "The game is over",
                                       "The game still waits")):
        lines = lines[:-1]
    current = waits_line(acting, next_seq)
    if status == "paused":
        current += " It is paused: its deadline clock has stopped."
    return "\n".join([*lines, current])
