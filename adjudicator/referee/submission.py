"""Opening a submitted order file: parse, authenticate, validate, address (docs/protocol.md §2)."""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from lxml import etree

from adjudicator.engine.orders import Order, orders_from_envelope
from adjudicator.errors import InvalidInput, PbemError, SignatureError, StaleSubmission
from adjudicator.games import GamePackage
from adjudicator.referee.gamedir import Game
from adjudicator.security.keys import fingerprint
from adjudicator.security.signing import (
    ORDERS_NS,
    Envelope,
    read_envelope,
    signature_fingerprint,
    verify_orders,
)
from adjudicator.security.xmlsafe import parse_untrusted


@dataclass(frozen=True)
class Submission:
    root: etree._Element
    envelope: Envelope
    orders: list[Order]
    fingerprint: str


def open_submission(game: Game, raw: bytes, *,
                    referee: Ed25519PublicKey | None = None) -> Submission:
    """Parse and authenticate a signed order file for `game`.

    The signature decides who sent it: the file's key must be the roster key of
    the side the file names, or, for a pass the referee made for a missed deadline
    (only where the caller says so by passing `referee`), the referee's key. The
    game's order schema is checked after that.

    Raises:
        InvalidInput: not XML, not an order file, not valid against the schema.
        SignatureError: unsigned, signed by a key not in the roster or by another
            side's key, or changed after signing.
    """
    root = parse_untrusted(raw)
    envelope = read_envelope(root)
    fp = signature_fingerprint(root)
    if referee is not None and fp == fingerprint(referee):
        verify_orders(root, referee)
        validate_orders_schema(game, root)
        return Submission(root, envelope, orders_from_envelope(root), fp)
    signer = game.side_of_fingerprint(fp)
    if signer is None:
        raise SignatureError(f"the file is signed with key {fp}, which is not a key of this "
                             "game's players", code="unknown-key")
    if signer != envelope.side:
        raise SignatureError(f"the file speaks for side {envelope.side!r} but is signed with "
                             f"the key of side {signer!r}", code="wrong-side-key")
    verify_orders(root, game.roster_key(signer))
    validate_orders_schema(game, root)
    return Submission(root, envelope, orders_from_envelope(root), fp)


def signed_by_player(game: Game, raw: bytes) -> bool:
    """Whether a file carries a valid signature of one of the game's players (whatever
    else is wrong with it): only such a file is a player's act that the public record
    must show. A file nobody of the game signed proves nothing about anyone."""
    try:
        root = parse_untrusted(raw)
        signer = game.side_of_fingerprint(signature_fingerprint(root))
        if signer is None:
            return False
        verify_orders(root, game.roster_key(signer))
    except PbemError:
        return False
    return True


def validate_orders_schema(game: Game, root: etree._Element) -> None:
    problem = schema_problem(game.package, root)
    if problem is not None:
        raise InvalidInput(problem, code="schema")


PLACEHOLDER_CHOICE = "CHOOSE"  # what a template leaves for the player to replace


def schema_problem(package: GamePackage, root: etree._Element) -> str | None:
    """What makes `root` not a valid order file of the game, in a player's words (a
    decision the template left to answer is named), or None."""
    for answer in root.iter(f"{{{ORDERS_NS}}}answer"):
        if answer.get("choice") == PLACEHOLDER_CHOICE:
            return (f"line {answer.sourceline}: decision {answer.get('decision')} is still to "
                    f"answer: replace choice=\"{PLACEHOLDER_CHOICE}\" with one of the options "
                    "the template's comment lists (pbem status shows them too)")
    schema = package.orders_schema
    if schema.validate(root):
        return None
    first = schema.error_log[0]
    return f"line {first.line}: this is not a valid {package.title} order file: {first.message}"


def draft_problem(root: etree._Element) -> str | None:
    """For `pbem sign`: what the game named in the file would refuse about it before
    any position is looked at (its order schema), or None; the entropy that signing
    adds is not asked for."""
    from copy import deepcopy

    from adjudicator.games import GAME_IDS, get_game
    from adjudicator.security.signing import ENTROPY_TAG

    if root.tag != f"{{{ORDERS_NS}}}orders":
        return None  # not an order file at all: signing says so in its own words
    module = root.get("module")
    if module not in GAME_IDS:
        return (f"module={module!r} names no game this adjudicator knows "
                f"({', '.join(GAME_IDS)}); start from the game's template")
    draft = deepcopy(root)
    entropy = draft.find(ENTROPY_TAG)
    if entropy is not None and not (entropy.text or "").strip():
        entropy.text = "00" * 32
    return schema_problem(get_game(module), draft)


def check_addressed(game: Game, envelope: Envelope) -> None:
    """The file must be for this game, this module, the side whose turn it is, the
    step the game waits for, the current position and the published commitment."""
    expected = {
        "game": game.game_id,
        "module": game.package.id,
        "side": game.acting_side,
        "seq": game.next_seq,
        "prev": game.state_hash,
        "commit": game.current_commit,
    }
    if game.acting_side is None:
        raise StaleSubmission("the game is over; it takes no more orders", code="game-over")
    for name, want in expected.items():
        got = getattr(envelope, name)
        if got == want:
            continue
        if name == "seq":
            stale = "already adjudicated" if got < want else "not yet reached"
            raise StaleSubmission(f"the file is for step {got}, which is {stale}; the game "
                                  f"waits for step {want}", code="stale-seq")
        if name == "side":
            raise StaleSubmission(f"it is not {got}'s step: the game waits for {want}",
                                  code="not-your-step")
        if name in ("prev", "commit"):
            raise StaleSubmission(f"the file's {name}={str(got)[:16]}... does not match the "
                                  f"game's current {name}={str(want)[:16]}...; fetch a fresh "
                                  "template (pbem orders template)", code=f"stale-{name}")
        raise StaleSubmission(f"the file is addressed to {name}={got!r}, but this is "
                              f"{name}={want!r}", code="misaddressed")
