"""A submission never replays the journal (issue 13): the store keeps the position after
the last line, checked against the journal's state hash before it is used and never
trusted; a snapshot that is missing, stale or doctored costs one replay, nothing else.
So the work of adjudicating a step does not grow with the game's length."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from adjudicator.engine.state import state_hash
from adjudicator.referee import gamedir
from adjudicator.referee.gamedir import GameDir, current_game, load_game
from adjudicator.referee.referee import adjudicate, create_game
from adjudicator.referee.verify import verify

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "solitaire"
SEED = hashlib.sha256(b"Barbarossa Solitaire example game").digest()
TURNS = sorted((EXAMPLE / "turns").glob("step-*.xml"))


def new_game(where: Path) -> GameDir:
    header = json.loads((EXAMPLE / "journal.jsonl").read_text().splitlines()[0])
    create_game(where, "solitaire", header["scenario"],
                {"german": (EXAMPLE / "german.pub").read_bytes()},
                options=header["options"], game_id=header["game_id"], test_seed=SEED)
    return GameDir(where)


class Replays:
    """Counts the journal replays (game_from_lines) while it is installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = gamedir.game_from_lines

        def counting(*args: object, **kwargs: object) -> gamedir.Game:
            self.count += 1
            return real(*args, **kwargs)  # type: ignore[arg-type]
        monkeypatch.setattr(gamedir, "game_from_lines", counting)


def test_submissions_read_the_snapshot_not_the_journal(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    store = new_game(tmp_path / "g")
    replays = Replays(monkeypatch)
    for turn in TURNS:
        adjudicate(store.path, turn.read_bytes())
    assert replays.count == 0
    assert (store.path / "journal.jsonl").read_bytes() == \
        (EXAMPLE / "journal.jsonl").read_bytes()
    snapshot = store.read_snapshot()
    assert snapshot is not None and snapshot.lines == store.count_lines()
    assert state_hash(current_game(store).state) == state_hash(load_game(store.path).state)
    assert verify(store.path).ok


@pytest.mark.parametrize("damage", ["missing", "stale", "doctored", "garbage"])
def test_a_snapshot_that_does_not_fit_the_journal_costs_one_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    store = new_game(tmp_path / "g")
    for turn in TURNS[:3]:
        adjudicate(store.path, turn.read_bytes())
    good = store.read_snapshot()
    assert good is not None
    if damage == "missing":
        store.snapshot_file.unlink()
    elif damage == "stale":
        adjudicate(store.path, TURNS[3].read_bytes())
        store.write_snapshot(good)
    elif damage == "doctored":
        state = json.loads(json.dumps(good.state))
        unit = sorted(state["units"])[0]
        state["units"][unit] = "moscow"  # a referee moving a counter behind the journal
        store.write_snapshot(gamedir.Snapshot(good.lines, good.steps, good.step_line,
                                              good.last_line, good.commit, state))
    else:
        store.snapshot_file.write_bytes(b"{not json")
    truth = state_hash(load_game(store.path).state)
    replays = Replays(monkeypatch)
    game = current_game(store)
    assert replays.count == 1
    assert state_hash(game.state) == truth
    assert store.read_snapshot() is not None and current_game(store).tail is not None
    assert replays.count == 1  # the replay wrote a good snapshot again


def test_the_work_of_a_step_does_not_grow_with_the_game(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The events applied while adjudicating one step are that step's own (twice where an
    order is refused: the draft goes back by replaying them), early or late in the game:
    nothing of the journal before it is applied again."""
    from adjudicator.games import get_game

    store = new_game(tmp_path / "g")
    rules = get_game("solitaire").rules
    applied: list[int] = []
    real = type(rules).apply

    def counting(self: object, state: dict, event: object) -> None:
        applied[-1] += 1
        real(self, state, event)  # type: ignore[arg-type]
    monkeypatch.setattr(type(rules), "apply", counting)
    own = []
    for turn in TURNS:
        applied.append(0)
        done = adjudicate(store.path, turn.read_bytes())
        own.append(len(done.entry.get("events", [])) * (2 if done.entry.get("rejection")
                                                        else 1))
    assert applied == own
