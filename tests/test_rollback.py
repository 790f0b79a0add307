"""A referee's rollback (issue 16, item 13): the journal stays append-only, the voided
steps stay readable, `pbem verify` replays past the rollback, and a rollback that does
not follow from the journal before it is caught."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.engine.state import canonical_json
from adjudicator.errors import PbemError
from adjudicator.referee.gamedir import GameDir, load_game
from adjudicator.referee.journal import line_hash, sign_entry
from adjudicator.referee.referee import adjudicate
from adjudicator.referee.rollback import roll_back
from adjudicator.referee.verify import verify
from adjudicator.reports.from_journal import step_report
from tests.test_verify_tamper import STEPS, order_file, played  # noqa: F401 - the fixture


@pytest.fixture()
def game(played: Path, tmp_path: Path) -> Path:  # noqa: F811
    target = tmp_path / "game"
    shutil.copytree(played, target)
    return target


def test_a_rollback_voids_the_steps_after_it_and_the_game_goes_on(game: Path) -> None:
    before = load_game(game)
    assert before.next_seq == 4
    position_after_1 = step_report(before, 1, "german").state_hash
    lines = GameDir(game).journal.read_bytes()
    done = roll_back(game, 1, "step 2 was played on a misread of rule 7")
    assert done.voided == [2, 3]
    # append-only: everything before is byte for byte as it was
    assert GameDir(game).journal.read_bytes().startswith(lines)
    after = load_game(game)
    assert after.state_hash == position_after_1
    assert after.next_seq == 4 and after.voided == {2, 3}
    # the game goes on from step 1's position, as step 4 under the published commitment
    result = adjudicate(game, order_file(game, STEPS[1], 4))
    assert result.kind == "step" and result.seq == 4
    assert result.entry["prev_state"] == position_after_1
    # the voided steps are still readable (reports), and their positions are theirs
    assert step_report(load_game(game), 3, "german").outcome == "accepted"
    assert step_report(load_game(game), 4, "german").state_before["turn"] == \
        step_report(load_game(game), 2, "german").state_before["turn"]
    report = verify(game)
    assert report.ok, report.divergence
    assert (report.steps, report.rollbacks, report.voided) == (4, 1, 2)


def test_rollbacks_chain_and_to_the_start(game: Path) -> None:
    roll_back(game, 2, "a")
    adjudicate(game, order_file(game, STEPS[2], 4))
    with pytest.raises(PbemError, match="voided by an earlier rollback"):
        roll_back(game, 3, "b")
    assert roll_back(game, 0, "start again").voided == [1, 2, 4]
    assert load_game(game).state_hash == load_game(game).header["initial_state_hash"]
    assert verify(game).ok


def test_a_rollback_needs_a_reason_and_something_to_void(game: Path) -> None:
    with pytest.raises(PbemError, match="reason"):
        roll_back(game, 1, "   ")
    with pytest.raises(PbemError, match="nothing to void"):
        roll_back(game, 3, "why")
    with pytest.raises(PbemError, match="not a step of this game"):
        roll_back(game, 9, "why")


def test_the_cli_rolls_back_and_verify_says_so(game: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["rollback", str(game), "--to", "2", "--reason", "a slip"])
    assert done.exit_code == 0 and "step(s) 3 voided" in done.output, done.output
    checked = runner.invoke(main, ["verify", str(game)])
    assert checked.exit_code == 0 and "1 rollback(s) by the referee voided 1 step(s)" in \
        checked.output


def test_a_forged_rollback_is_caught(game: Path) -> None:
    roll_back(game, 1, "a slip")
    raw = GameDir(game).journal.read_bytes().splitlines()
    key = GameDir(game).referee_key()
    entry = json.loads(raw[-1])
    for change, kind in (({"voided": [3]}, "chain"), ({"state_hash": "0" * 64}, "state hash"),
                         ({"to_seq": 7}, "chain"), ({"rollback": 2}, "format")):
        forged = sign_entry({**entry, **change}, key)
        assert forged["prev_entry"] == line_hash(raw[-2])
        GameDir(game).journal.write_bytes(b"\n".join([*raw[:-1], canonical_json(forged)])
                                          + b"\n")
        divergence = verify(game).divergence
        assert divergence is not None and divergence.kind == kind, (change, divergence)
        assert divergence.line == len(raw)
