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

from adjudicator.engine.state import state_hash
from adjudicator.errors import PbemError
from adjudicator.referee.gamedir import Game, GameDir, effective_chain, game_from_lines
from adjudicator.referee.journal import line_hash, sign_entry
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


def rollback_entry(game: Game, to_seq: int, reason: str) -> dict[str, Any]:
    """The unsigned rollback line for `game` (read with its lines) back to step `to_seq`
    (0: the starting position); PbemError when that is not a rollback one can make."""
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
    }


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
    entry = sign_entry(rollback_entry(game, to_seq, reason), store.referee_key())
    store.append(entry)
    after = game_from_lines(store.journal_lines(), store.describe())
    store.write_snapshot(after.snapshot())
    return Rollback(entry, after)
