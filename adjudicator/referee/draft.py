"""A draft of orders that is not yet a file: what the order builder and `pbem orders
compose` work with (docs/order-builder.md).

A draft is a list of engine orders for the step a game waits for. It is checked by the
dry run of `pbem check` (no dice: the orders run on the position until one is refused
or needs a die) and the game's order schema, each problem at the order it concerns; it
becomes the order file `pbem orders template` begins and `pbem sign` signs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from adjudicator.engine.catalogue import PROTOCOL_RULE
from adjudicator.engine.orders import ORDERS_NS, Order, orders_from_envelope
from adjudicator.engine.state import State
from adjudicator.engine.step import run_step
from adjudicator.errors import PbemError
from adjudicator.referee.gamedir import Game
from adjudicator.security.signing import ENTROPY_TAG
from adjudicator.security.xmlsafe import parse_untrusted

PLACEHOLDER_ENTROPY = "00" * 32  # what the schema sees before `pbem sign` adds entropy


def envelope_of(game: Game, side: str) -> dict[str, str]:
    """The attributes of `<orders>` for `side`'s file of the step the game waits for,
    in the order `pbem orders template` writes them (docs/protocol.md)."""
    return {"xmlns": ORDERS_NS, "game": game.game_id, "module": game.package.id,
            "side": side, "seq": str(game.next_seq), "prev": game.state_hash,
            "commit": game.current_commit}


def draft_root(game: Game, side: str, orders: list[Order], entropy: str = "") -> etree._Element:
    """The `<orders>` document of a draft: the envelope, `<entropy>` (empty until signed)
    and one element per order, each on its own line. The element is parsed back from its
    text, so each order knows its line."""
    attrs = envelope_of(game, side)
    root = etree.Element(f"{{{ORDERS_NS}}}orders", nsmap={None: ORDERS_NS})
    for name, value in attrs.items():
        if name != "xmlns":
            root.set(name, value)
    root.text = "\n  "
    chance = etree.SubElement(root, ENTROPY_TAG)
    chance.text = entropy
    chance.tail = "\n  " if orders else "\n"
    for number, order in enumerate(orders):
        try:
            element = etree.SubElement(root, f"{{{ORDERS_NS}}}{order.kind}")
            for name, value in order.attrs.items():
                element.set(name, value)
            element.text = order.text or None
        except ValueError as exc:  # lxml refuses a name or a character XML cannot hold
            raise PbemError(f"order {number + 1}: {exc}", code="draft") from None
        element.tail = "\n  " if number < len(orders) - 1 else "\n"
    text = etree.tostring(root, encoding="UTF-8", xml_declaration=True)
    return parse_untrusted(text)


def draft_text(root: etree._Element) -> str:
    """The draft as the text of an unsigned order file, ready for `pbem sign`."""
    return etree.tostring(root, encoding="unicode").join(
        ['<?xml version="1.0" encoding="UTF-8"?>\n', "\n"])


@dataclass(frozen=True)
class Verdict:
    """What the dry run says of one order: `ok` True (legal on the position as the
    orders before it leave it), False (refused: code, rule and words) or None (not
    checked against the position: after a refusal or a die roll)."""

    index: int
    ok: bool | None
    code: str | None = None
    rule: str | None = None
    message: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "ok": self.ok, "code": self.code, "rule": self.rule,
                "message": self.message}


@dataclass
class DraftCheck:
    """The dry run of a draft: a verdict per order, and the position the checked orders
    leave (the full state: project it before showing it to a side)."""

    verdicts: list[Verdict]
    checked: int
    state: State
    why_unchecked: str = ""
    problems: list[str] = field(default_factory=list)  # of the file, not of one order

    @property
    def ok(self) -> bool:
        return not self.problems and all(v.ok is not False for v in self.verdicts)

    @property
    def unchecked(self) -> int:
        return sum(1 for v in self.verdicts if v.ok is None)


def check_draft_orders(game: Game, side: str, orders: list[Order]) -> DraftCheck:
    """`pbem check`'s dry run of a draft (referee/check.py), the game's order schema
    first: an order the schema refuses is refused with its words and nothing after it
    is run; then the orders on the position, without dice; the orders the position
    could not judge are still checked for unknown ids (`check_static`)."""
    root = draft_root(game, side, orders, PLACEHOLDER_ENTROPY)
    placed = orders_from_envelope(root)
    rules = game.package.rules
    schema = game.package.orders_schema
    stop = len(placed)
    schema_verdict = None
    problems = []
    if not schema.validate(root):
        error = schema.error_log[0]
        words = f"this is not a valid {game.package.title} order: {error.message}"
        before = [o.index for o in placed if o.line is not None and o.line <= error.line]
        if placed:  # the order on (or just before) the line the schema names
            stop = before[-1] if before else 0
            schema_verdict = Verdict(stop, False, "schema", PROTOCOL_RULE, words)
        else:
            problems.append(words)
    result = run_step(rules, game.module, game.state, placed[:stop], side, dice=None)
    verdicts = [Verdict(o.index, True) for o in placed[:result.applied]]
    why = ""
    rest = placed[result.applied:]
    if result.rejection is not None:
        r = result.rejection
        verdicts.append(Verdict(result.applied, False, r.code, r.rule, r.message))
        rest = rest[1:]
        why = (f"the orders after order {result.applied + 1} were not checked against the "
               "position: the step stops at a refused order")
    elif schema_verdict is not None and result.applied == stop:
        verdicts.append(schema_verdict)
        rest = rest[1:]
        why = (f"the orders after order {stop + 1} were not checked: the order file would "
               "be refused")
    elif result.dry_run_stopped_at is not None:
        why = (f"order {result.applied + 1} needs a die roll: it and the orders after it "
               "were checked only for unknown units and places; the adjudication will tell")
    elif result.decision is not None:
        why = (f"order {result.applied} opens a decision: the orders after it wait for the "
               "answer")
    for order in rest:  # its own problems: not the file's (`problems`)
        static = rules.check_static(game.module, order)
        verdicts.append(Verdict(order.index, False, "static", None, "; ".join(static))
                        if static else Verdict(order.index, None))
    return DraftCheck(verdicts, result.applied, result.state, why, problems)
