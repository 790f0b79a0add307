"""What the referee does: create a game, adjudicate a submission, dry-run a draft.

Every submission's raw bytes are archived before anything else is done with
them. A file that cannot be adjudicated (unreadable, unsigned, misaddressed) is
journalled as `refused` with the reason; the seed stays secret and the game does
not move. An adjudicated file becomes a `step`: its orders run up to the first
illegal one, its seed is revealed, and the next step's seed is committed.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from lxml import etree

from adjudicator.engine.dice import DiceStream, commitment, fresh_server_seed, seed_for_test_game
from adjudicator.engine.rules import referee_pass
from adjudicator.engine.state import state_hash
from adjudicator.engine.step import StepResult, run_step
from adjudicator.errors import JournalError, PbemError
from adjudicator.games import get_game
from adjudicator.referee.gamedir import (
    Game,
    GameDir,
    Snapshot,
    current_game,
    game_from_lines,
    header_initial_state,
    parse_position,
    test_referee_key,
)
from adjudicator.referee.journal import JOURNAL_FORMAT, line_hash, sign_entry
from adjudicator.referee.store import GameStore
from adjudicator.referee.submission import (
    Submission,
    check_addressed,
    open_submission,
    signed_by_player,
)
from adjudicator.security.keys import fingerprint, load_public_key, public_key_pem
from adjudicator.security.signing import ORDERS_NS, sign_orders

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")
PASS_ENTROPY_TAG = b"pbem/pass/v1\x00"


@dataclass(frozen=True)
class Adjudication:
    """The result of one submission: a `step` or a `refused` file."""

    kind: str  # "step", "refused", or "unattributed" (refused, not journalled)
    seq: int
    entry: dict[str, Any]
    archived: str  # where the raw bytes are kept (a file, a database row)
    before: Game  # the game the file was adjudicated against
    result: StepResult | None = None
    error: PbemError | None = None

    @property
    def acting_side(self) -> str | None:
        """The side the game waits for now (None when it is over)."""
        if self.result is None:
            return self.before.acting_side
        return self.before.package.rules.acting_side(self.result.state)

    @property
    def next_seq(self) -> int:
        return self.seq + 1 if self.kind == "step" else self.seq


def create_game(
    where: Path | GameStore, game: str, scenario: str, roster: dict[str, bytes], *,
    options: dict[str, str] | None = None, module_data: bytes | None = None,
    position: bytes | None = None, test_seed: bytes | None = None, game_id: str | None = None,
) -> Game:
    """Start a game: write the journal header and keep the first seed secret.

    `where` is a game directory or another GameStore. `roster` maps each side to
    its public key (SPKI PEM). With `test_seed`, every step's seed and the referee
    key derive from it (docs/protocol.md) and the game is marked as a test game.
    """
    store = GameDir(where) if isinstance(where, Path) else where
    package = get_game(game)
    options = dict(options or {})
    if sorted(roster) != sorted(package.rules.sides):
        raise PbemError(f"{package.title} needs a key for each side: "
                        f"{', '.join(package.rules.sides)} (got: {', '.join(roster) or 'none'})",
                        code="roster")
    if store.has_journal():
        raise PbemError(f"{store.describe()} already holds a game", code="exists")
    module = package.load_module(module_data) if module_data is not None \
        else package.bundled_module
    if game_id is None:
        tag = hashlib.sha256(test_seed).hexdigest()[:8] if test_seed else \
            fresh_server_seed().hex()[:8]
        game_id = f"{game}-{tag}"
    if not GAME_ID.fullmatch(game_id):
        raise PbemError(f"game id {game_id!r} must be 1-64 letters, digits, '.', '_' or '-'",
                        code="bad-game-id")
    header: dict[str, Any] = {
        "type": "header",
        "format": JOURNAL_FORMAT,
        "game_id": game_id,
        "module": {"id": package.id, "version": module.version, "sha256": module.sha256,
                   "data": base64.b64encode(module.raw).decode() if module_data else None},
        "scenario": scenario,
        "options": {},
        "position": base64.b64encode(position).decode() if position is not None else None,
        "roster": [],
        "dice": "pbem/dice/v1",
        "test_game": test_seed is not None,
    }
    for side in sorted(roster):
        key = load_public_key(roster[side])
        header["roster"].append({"side": side, "fingerprint": fingerprint(key),
                                 "public_key": public_key_pem(key).decode("ascii")})
    if position is not None:
        parse_position(position, package.id)
    initial = header_initial_state(package, module, {**header, "options": options})
    header["options"] = initial.get("options", options)
    header["initial_state_hash"] = state_hash(initial)
    referee_key = test_referee_key(test_seed) if test_seed else Ed25519PrivateKey.generate()
    header["referee"] = {"fingerprint": fingerprint(referee_key.public_key()),
                         "public_key": public_key_pem(referee_key.public_key()).decode("ascii")}
    seed = seed_for_test_game(test_seed, game_id, 1) if test_seed else fresh_server_seed()
    header["commit"] = commitment(seed)

    store.create(referee_key, {"seeds": {"1": seed.hex()},
                               "test_seed": test_seed.hex() if test_seed else None})
    store.append(sign_entry(header, referee_key))
    game = game_from_lines(store.journal_lines(), store.describe())
    store.write_snapshot(game.snapshot())
    return game


def adjudicate(where: Path | GameStore, raw: bytes) -> Adjudication:
    """Adjudicate one submitted file against the game in a directory (under its lock)
    or in another GameStore (whose caller holds the game's lock, a transaction)."""
    if isinstance(where, Path):
        gamedir = GameDir(where)
        with gamedir.locked():
            return adjudicate_in(gamedir, raw)
    return adjudicate_in(where, raw)


def adjudicate_in(store: GameStore, raw: bytes, *,
                  journal_strangers: bool = True) -> Adjudication:
    """Adjudicate `raw` in a store whose caller holds the game's lock. With
    `journal_strangers` False (the service, where anybody may upload), a refused file
    that no player of the game signed is archived but not journalled: it is nobody's
    act, and a journal line for it would let anyone grow the game's public record."""
    if not store.has_journal():
        raise JournalError(f"{store.describe()} holds no game: there is no journal")
    archived = store.archive(raw)  # before anything else can go wrong with it
    game = current_game(store)
    key = store.referee_key()
    try:
        submission = open_submission(game, raw)
        check_addressed(game, submission.envelope)
    except PbemError as error:
        if not journal_strangers and not signed_by_player(game, raw):
            entry = {"reason": {"code": error.code, "message": error.message}}
            return Adjudication("unattributed", game.next_seq, entry, archived, game,
                                error=error)
        entry = refused_entry(game, raw, error, key)
        line = store.append(entry)
        store.write_snapshot(after_line(game, line, game.state))
        return Adjudication("refused", game.next_seq, entry, archived, game, error=error)

    return _run_step(store, game, raw, submission, key, archived)


@dataclass(frozen=True)
class NoPass:
    """Why the referee plays no pass for a missed deadline: the deadline policy falls
    back to waiting and says this, in a player's words."""

    reason: str


def adjudicate_pass(store: GameStore, reason: str) -> Adjudication | NoPass:
    """Play the acting side's step as a pass, for a missed deadline whose policy says so
    (docs/service.md, "Deadlines"): the rules' pass orders (`engine.rules.referee_pass`),
    in a file the referee signs, with entropy fixed by the step's commitment
    (`pass_entropy`), so a referee who knows the seed cannot choose the dice. A pass is
    only played if the rules take all of it: when they give the side no pass now (a
    decision is pending, units wait to be placed) or would refuse one of its orders,
    nothing is journalled, archived or revealed, and `NoPass` says why."""
    game = current_game(store)
    side = game.acting_side
    if side is None:
        return NoPass("the game is over")
    orders = referee_pass(game.package.rules, game.module, game.state, side)
    if not orders:
        return NoPass(no_pass_reason(game, side))
    key = store.referee_key()
    root = etree.fromstring(
        f'<orders xmlns="{ORDERS_NS}" game="{game.game_id}" module="{game.package.id}" '
        f'side="{side}" seq="{game.next_seq}" prev="{game.state_hash}" '
        f'commit="{game.current_commit}"><entropy/>{"".join(orders)}</orders>'.encode())
    raw = sign_orders(root, key, entropy=pass_entropy(game.current_commit))
    submission = open_submission(game, raw, referee=key.public_key())
    check_addressed(game, submission.envelope)
    seed, result = _play(store, game, submission)
    if result.rejection is not None:
        rejection = result.rejection
        return NoPass(f"the rules refuse the pass ({rejection.rule}: {rejection.message})")
    archived = store.archive(raw)
    return _journal_step(store, game, raw, submission, key, archived, seed, result,
                         {"by": "referee", "reason": reason})


def no_pass_reason(game: Game, side: str) -> str:
    """Why the rules give `side` no pass at this step, as the policy's notice says it."""
    pending = game.state.get("pending")
    if pending:
        return (f"decision {pending.get('id')} ({pending.get('kind')}) waits for {side}'s "
                "answer, and no pass can answer it for them")
    phase = game.package.rules.summary(game.state).get("phase")
    return (f"the rules give {side} no pass in the {phase} phase: what it asks (the "
            "set-up: units to draw or place) only the player can do" if phase else
            f"the rules give {side} no pass at this step")


def pass_entropy(commit: str) -> bytes:
    """The entropy of a referee's pass: a function of the published commitment alone."""
    return hashlib.sha256(PASS_ENTROPY_TAG + bytes.fromhex(commit)).digest()


def _run_step(store: GameStore, game: Game, raw: bytes, submission: Submission,
              key: Ed25519PrivateKey, archived: str,
              extra: dict[str, Any] | None = None) -> Adjudication:
    """Run an authenticated, addressed file and journal the step."""
    seed, result = _play(store, game, submission)
    return _journal_step(store, game, raw, submission, key, archived, seed, result, extra)


def _play(store: GameStore, game: Game, submission: Submission) -> tuple[bytes, StepResult]:
    """The step's orders run with the committed seed: nothing is written yet."""
    secrets = store.read_secrets()
    seed = bytes.fromhex(secrets["seeds"][str(game.next_seq)])
    if commitment(seed) != game.current_commit:
        raise JournalError("the referee's secret seed does not match the published commitment")
    dice = DiceStream(seed, game.game_id, game.next_seq, submission.envelope.entropy)
    return seed, run_step(game.package.rules, game.module, game.state, submission.orders,
                          submission.envelope.side, dice)


def _journal_step(store: GameStore, game: Game, raw: bytes, submission: Submission,
                  key: Ed25519PrivateKey, archived: str, seed: bytes, result: StepResult,
                  extra: dict[str, Any] | None = None) -> Adjudication:
    """Journal a step that was played: commit the next seed, reveal this one."""
    seq = game.next_seq
    secrets = store.read_secrets()
    test_seed = secrets.get("test_seed")
    next_seed = seed_for_test_game(bytes.fromhex(test_seed), game.game_id, seq + 1) \
        if test_seed else fresh_server_seed()
    # Commit the next seed to the secrets before the journal reveals this one.
    secrets["seeds"][str(seq + 1)] = next_seed.hex()
    store.write_secrets(secrets)
    entry = sign_entry({**step_entry(game, raw, submission.fingerprint,
                                     submission.envelope.entropy, seed, result,
                                     commitment(next_seed)), **(extra or {})}, key)
    line = store.append(entry)
    store.write_snapshot(after_line(game, line, result.state, step=True,
                                    commit=entry["next_commit"]))
    return Adjudication("step", seq, entry, archived, game, result=result)


def after_line(game: Game, line: bytes, state: dict[str, Any], *, step: bool = False,
               commit: str | None = None) -> Snapshot:
    """The snapshot after a line just appended to the game's journal."""
    before = game.snapshot()
    lines = before.lines + 1
    return Snapshot(lines, before.steps + step, lines if step else before.step_line, line,
                    commit if commit is not None else before.commit, state)


def step_entry(game: Game, raw: bytes, fp: str, entropy: bytes, seed: bytes,
               result: StepResult, next_commit: str) -> dict[str, Any]:
    """The journal line of an adjudicated step (its fields are documented in docs/journal.md)."""
    return {
        "type": "step",
        "seq": game.next_seq,
        "side": game.acting_side,
        "prev_entry": line_hash(game.last_line),
        "submission": base64.b64encode(raw).decode("ascii"),
        "submission_sha256": hashlib.sha256(raw).hexdigest(),
        "key": fp,
        "entropy": entropy.hex(),
        "prev_state": game.state_hash,
        "commit": game.current_commit,
        "server_seed": seed.hex(),
        "outcome": result.outcome,
        "orders_applied": result.applied,
        "rejection": result.rejection.as_record() if result.rejection else None,
        "decision": result.decision.to_json() if result.decision else None,
        "events": [event.to_json() for event in result.events],
        "state_hash": state_hash(result.state),
        "next_commit": next_commit,
    }


def refused_entry(game: Game, raw: bytes, error: PbemError,
                  key: Ed25519PrivateKey) -> dict[str, Any]:
    """The journal line of a file that was not adjudicated: its digest and the reason."""
    return sign_entry({
        "type": "refused",
        "expected_seq": game.next_seq,
        "prev_entry": line_hash(game.last_line),
        "submission_sha256": hashlib.sha256(raw).hexdigest(),
        "submission_bytes": len(raw),
        "reason": {"code": error.code, "message": error.message},
    }, key)

