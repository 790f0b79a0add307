"""A referee's rollback (docs/journal.md, "rollback lines"): a tournament director voids
the steps after step N, with a reason, and the game goes on from the position after
step N. The journal stays append-only: the voided steps stay in it, readable and
verifiable, and the rollback is one more referee-signed line that says which steps it
voids and the state hash of the position the game resumes from.

Step numbers run on: the next step after a rollback of a game at step M is M+1, under
the commitment already published for it (its seed was never revealed and no file was
adjudicated with it), so no step number, seed or report is ever used twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.engine.state import State, state_hash
from adjudicator.errors import PbemError
from adjudicator.referee.gamedir import Game, GameDir, effective_chain, game_from_lines
from adjudicator.referee.journal import JournalLine, line_hash, sign_entry
from adjudicator.referee.store import GameStore

ROLLBACK_VERSION = 1
MAX_REASON = 2000


@dataclass(frozen=True)
class Rollback:
    entry: dict[str, Any]
    game: Game  # the game after the rollback (replayed)

    @property
    def voided(self) -> list[int]:
        return list(self.entry["voided"])

    @property
    def acting_side(self) -> str | None:
        return self.game.acting_side


def plan_rollback(game: Game, to_seq: int, reason: str) -> tuple[dict[str, Any], State]:
    """The unsigned rollback line for `game` (read with its lines) back to step `to_seq`
    (0: the starting position), and the position the game resumes from; PbemError when
    that is not a rollback one can make. The verifier asks the same of the journal
    before a rollback line, and compares."""
    reason = " ".join(reason.split())
    if not reason:
        raise PbemError("a rollback needs its reason: the players and the journal are told "
                        "why", code="no-reason")
    if len(reason) > MAX_REASON:
        raise PbemError(f"say the reason in at most {MAX_REASON} characters", code="no-reason")
    chain = effective_chain(game.lines)
    kept = [line.entry["seq"] for line in chain]
    if to_seq != 0 and to_seq not in kept:
        why = "was voided by an earlier rollback" if to_seq in game.voided else \
            f"is not a step of this game (it has steps 1 to {len(game.steps)})"
        raise PbemError(f"cannot roll back to step {to_seq}: it {why}", code="bad-rollback")
    voided = [seq for seq in kept if seq > to_seq]
    if not voided:
        raise PbemError(f"step {to_seq} is the game's position already: nothing to void",
                        code="bad-rollback")
    state = game.replay([line for line in chain if line.entry["seq"] <= to_seq])
    return {
        "type": "rollback",
        "rollback": ROLLBACK_VERSION,
        "by": "referee",
        "prev_entry": line_hash(game.last_line),
        "to_seq": to_seq,
        "voided": voided,
        "last_seq": len(game.steps),
        "reason": reason,
        "state_hash": state_hash(state),
    }, state


def roll_back(where: Path | GameStore, to_seq: int, reason: str) -> Rollback:
    """Void the steps after `to_seq` in a game directory (under its lock) or a store whose
    caller holds the game's lock; the journal line is signed by the referee."""
    if isinstance(where, Path):
        gamedir = GameDir(where)
        with gamedir.locked():
            return _roll_back(gamedir, to_seq, reason)
    return _roll_back(where, to_seq, reason)


def _roll_back(store: GameStore, to_seq: int, reason: str) -> Rollback:
    # a rare act of the referee: the whole journal is read, not the snapshot
    game = game_from_lines(store.journal_lines(), store.describe())
    unsigned, state = plan_rollback(game, to_seq, reason)
    entry = sign_entry(unsigned, store.referee_key())
    raw = store.append(entry)
    line = JournalLine(len(game.lines) + 2, raw, entry)  # the header is line 1
    after = Game(game.header, game.header_raw, [*game.lines, line], game.package,
                 game.module, game.initial, state)
    store.write_snapshot(after.snapshot())
    return Rollback(entry, after)
