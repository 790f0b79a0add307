"""`pbem check`: a dry run of a draft order file, without dice (docs/architecture.md, The engine
model).

It reports every problem it can find: the envelope, the signature (if there is
one yet), the schema, and the orders against the current position up to the
first order that needs a die roll; after that, what can be seen without a
position (unknown units and areas).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.engine.orders import orders_from_envelope
from adjudicator.engine.step import run_step
from adjudicator.errors import PbemError
from adjudicator.referee.gamedir import Game, load_game
from adjudicator.referee.submission import check_addressed, validate_orders_schema
from adjudicator.security.signing import (
    ENTROPY_TAG,
    SIGNATURE_TAG,
    read_envelope,
    signature_fingerprint,
    verify_orders,
)
from adjudicator.security.xmlsafe import parse_untrusted

PLACEHOLDER_ENTROPY = "00" * 32


@dataclass
class CheckReport:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    orders: int = 0
    checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def check_draft(directory: Path, raw: bytes) -> CheckReport:
    game = load_game(directory)
    report = CheckReport()
    try:
        root = parse_untrusted(raw)
    except PbemError as exc:
        report.problems.append(exc.message)
        return report
    draft = copy.deepcopy(root)
    entropy = draft.find(ENTROPY_TAG)
    if entropy is not None and not (entropy.text or "").strip():
        entropy.text = PLACEHOLDER_ENTROPY
        report.notes.append("no entropy yet: `pbem sign` adds it")
    signed = draft.find(SIGNATURE_TAG) is not None
    for step in (lambda: check_envelope(game, draft), lambda: validate_orders_schema(game, draft)):
        try:
            step()
        except PbemError as exc:
            report.problems.append(exc.message)
    if signed:
        try:
            signer = game.side_of_fingerprint(signature_fingerprint(root))
            if signer is None:
                report.problems.append("signed with a key that is not a key of this game")
            else:
                verify_orders(root, game.roster_key(signer))
        except PbemError as exc:
            report.problems.append(exc.message)
    else:
        report.notes.append("not signed yet: `pbem sign` adds the signature")
    check_orders(game, draft, report)
    return report


def check_envelope(game: Game, root) -> None:  # noqa: ANN001 - an lxml element
    check_addressed(game, read_envelope(root))


def check_orders(game: Game, root, report: CheckReport) -> None:  # noqa: ANN001
    orders = orders_from_envelope(root)
    report.orders = len(orders)
    side = game.acting_side or ""
    result = run_step(game.package.rules, game.module, game.state, orders, side, dice=None)
    report.checked = result.applied
    if result.rejection is not None:
        r = result.rejection
        report.problems.append(f"order {r.index + 1} (line {r.line}) breaks rule {r.rule}: "
                               f"{r.message}")
        rest = orders[r.index + 1:]
    elif result.dry_run_stopped_at is not None:
        at = result.dry_run_stopped_at
        report.notes.append(f"order {at + 1} (line {orders[at].line}) needs a die roll: the "
                            "orders from there on are checked only for unknown units and areas")
        rest = orders[at:]
    else:
        rest = []
    for order in rest:
        for problem in game.package.rules.check_static(game.module, order):
            report.problems.append(f"order {order.index + 1} (line {order.line}): {problem}")
