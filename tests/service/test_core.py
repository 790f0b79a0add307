"""The service core: one transaction per submission, the journal as the source of truth."""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from lxml import etree
from sqlalchemy import update

from adjudicator.engine.state import canonical_json
from adjudicator.referee.journal import sign_entry
from adjudicator.referee.verify import verify
from adjudicator.security.signing import sign_orders
from adjudicator.service.core import PlayerSpec, Service, aware
from adjudicator.service.db import games
from adjudicator.service.sqlstore import SqlGameStore
from tests.service.conftest import EXAMPLE, EXAMPLE_ID, EXAMPLE_SEED, create_example, example_turn


def test_the_example_game_replays_into_the_service_byte_for_byte(
        service: Service, example: dict[str, str]) -> None:
    outcomes = [service.submit(example_turn(seq), "web").outcome for seq in range(1, 17)]
    assert outcomes[1] == "rejected" and outcomes[3] == "decision" and outcomes[-1] == "accepted"
    assert service.journal(EXAMPLE_ID) == (EXAMPLE / "journal.jsonl").read_bytes()
    overview = service.game_overview(EXAMPLE_ID)
    assert overview["status"] == "over" and overview["acting_side"] is None


def test_the_same_bytes_twice_get_the_same_answer_and_change_nothing(
        service: Service, example: dict[str, str]) -> None:
    first = service.submit(example_turn(1), "web")
    journal = service.journal(EXAMPLE_ID)
    again = service.submit(example_turn(1), "smtp", "mallory@example.net")
    assert again.duplicate and not first.duplicate
    assert (again.outcome, again.seq, again.text) == (first.outcome, first.seq, first.text)
    assert service.journal(EXAMPLE_ID) == journal


def test_a_stale_file_is_refused_and_the_game_does_not_move(
        service: Service, example: dict[str, str]) -> None:
    service.submit(example_turn(1), "web")
    service.submit(example_turn(2), "web")
    refused = service.submit(example_turn(1).replace(b"</orders>", b"<!-- x --></orders>"),
                             "web")
    assert refused.outcome == "refused" and "not adjudicated" in refused.text
    assert service.game_overview(EXAMPLE_ID)["next_seq"] == 3


def test_files_no_game_can_take_are_answered_and_kept(service: Service,
                                                      example: dict[str, str]) -> None:
    for raw, words in ((b"\x00\xffnot xml", "not UTF-8 text"),
                       (example_turn(1).replace(b'game="example-solitaire"',
                                                b'game="nope"'), "no game 'nope'")):
        verdict = service.submit(raw, "web")
        assert verdict.outcome == "invalid" and words in verdict.text


def test_the_journal_exported_from_the_service_verifies(service: Service,
                                                        example: dict[str, str],
                                                        tmp_path: Path) -> None:
    for seq in range(1, 6):
        service.submit(example_turn(seq), "web")
    path = tmp_path / "journal.jsonl"
    path.write_bytes(service.journal(EXAMPLE_ID))
    assert verify(path).ok


def test_reports_and_answers_wait_in_the_database_until_done(
        service: Service, example: dict[str, str]) -> None:
    service.submit(example_turn(1), "web")
    assert [m.subject for m in service.pending_mail()] == []  # reports not rendered yet
    assert service.render_pending_reports() == 2  # the initial position and step 1
    mails = service.pending_mail()
    assert [m.seq for m in mails] == [0, 1]
    assert all(m.to == "alice@example.org" and m.report_png for m in mails)
    service.mark_sent(mails[0].id)
    assert [m.seq for m in service.pending_mail()] == [1]


class Clock:
    """A service clock the test moves by hand."""

    def __init__(self) -> None:
        self.at = datetime(2026, 6, 22, 3, 15, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, hours: float) -> None:
        self.at += timedelta(hours=hours)


def test_deadlines_remind_then_apply_the_policy(service: Service) -> None:
    clock = Clock()
    service.config.clock = clock
    create_example(service)
    with service.engine.begin() as conn:
        conn.execute(update(games).values(deadline_at=datetime(2026, 6, 23, 23, tzinfo=UTC)))
    assert service.tick() == []
    clock.advance(20)  # 23:15 on the 22nd: within the 24 h reminder window
    assert service.tick() == ["reminded german of step 1 in example-solitaire"]
    assert service.tick() == []  # once
    reminder = [m for m in service.pending_mail() if "due" in m.subject][0]
    assert "2026-06-23 23:00 UTC (2026-06-24 01:00 Europe/Berlin)" in reminder.text
    clock.advance(24)
    assert service.tick()[0].startswith("german missed the deadline of step 1; new deadline")
    assert any("missed deadline" in m.subject for m in service.pending_mail())


def game_with_policy(service: Service, game_id: str, policy: str) -> Clock:
    """A two-hour-deadline game under `policy`, on a clock the test moves."""
    clock = Clock()
    service.config.clock = clock
    service.create_game("solitaire", "campaign",
                        [PlayerSpec("german", "Bo", "bo@example.org",
                                    (EXAMPLE / "german.pub").read_bytes())],
                        game_id=game_id, policy=policy, deadline_hours=2,
                        test_seed=EXAMPLE_SEED)
    return clock


def test_forfeit_policy_ends_the_game(service: Service) -> None:
    clock = game_with_policy(service, "strict", "forfeit")
    clock.advance(3)
    assert service.tick() == ["german missed the deadline of step 1 and forfeits"]
    assert service.game_overview("strict")["status"] == "forfeited"


def test_pause_keeps_the_time_left_and_resume_gives_it_back(service: Service) -> None:
    clock = Clock()
    service.config.clock = clock
    create_example(service)
    deadline = service.extend_deadline(EXAMPLE_ID, 10)
    left = deadline - clock.at
    service.pause(EXAMPLE_ID)
    clock.advance(24 * 7)
    assert service.tick() == []  # no clock while paused
    service.resume(EXAMPLE_ID)
    resumed = aware(service.game_overview(EXAMPLE_ID)["deadline_at"])
    assert resumed == clock.at + left
    log = [e["what"] for e in service.game_overview(EXAMPLE_ID)["log"]]
    assert log[-2:] == ["game paused", "game resumed"]


def test_pass_policy_plays_the_rules_pass_and_the_journal_verifies(service: Service,
                                                                  tmp_path: Path) -> None:
    """A missed deadline under `pass`: the referee signs the rules' pass (end the turn)
    with entropy the commitment fixes; `pbem verify` accepts exactly that and nothing
    else the referee might have played."""
    clock = game_with_policy(service, "lazy", "pass")
    clock.advance(3)
    assert service.tick() == ["german missed the deadline of step 1; the referee played "
                              "the pass the rules give: end the German turn (the Soviet "
                              "attacks follow)"]
    assert service.game_overview("lazy")["next_seq"] == 2
    journal = tmp_path / "lazy.jsonl"
    journal.write_bytes(service.journal("lazy"))
    report = verify(journal)
    assert report.ok and report.steps == 1, report
    step = json.loads(journal.read_bytes().splitlines()[1])
    assert step["by"] == "referee" and b"<end-turn" in base64.b64decode(step["submission"])

    # a referee who plays something else for the absent side is caught
    with service.engine.connect() as conn:
        key = SqlGameStore(conn, "lazy").referee_key()
    raw = base64.b64decode(step["submission"])
    root = etree.fromstring(raw.replace(b"<end-turn/>", b"<garrison area=\"kiev\"/><end-turn/>"))
    forged_raw = sign_orders(root, key, entropy=bytes.fromhex(step["entropy"]))
    forged = {**step, "submission": base64.b64encode(forged_raw).decode(),
              "submission_sha256": hashlib.sha256(forged_raw).hexdigest()}
    lines = journal.read_bytes().splitlines()
    lines[1] = canonical_json(sign_entry(forged, key))
    journal.write_bytes(b"\n".join(lines) + b"\n")
    divergence = verify(journal).divergence
    assert divergence is not None and "not the rules' pass" in divergence.message


def test_a_step_played_while_paused_starts_a_fresh_clock_on_resume(service: Service) -> None:
    """Issue 16, item 10: a paused game takes submissions, its clock stays stopped, and
    the next step gets the full time per step when the game resumes (not what the old
    step had left)."""
    clock = Clock()
    service.config.clock = clock
    create_example(service)  # 72 hours per step
    clock.advance(70)  # two hours left on step 1
    service.pause(EXAMPLE_ID)
    assert service.submit(example_turn(1), "web").outcome == "accepted"
    game = service.game_overview(EXAMPLE_ID)
    assert game["status"] == "paused" and game["deadline_at"] is None
    assert game["next_seq"] == 2
    clock.advance(24 * 7)
    assert service.tick() == []
    service.resume(EXAMPLE_ID)
    resumed = aware(service.game_overview(EXAMPLE_ID)["deadline_at"])
    assert resumed == clock.at + timedelta(hours=72)
    # an extension while paused is kept for the resumption
    service.pause(EXAMPLE_ID)
    service.extend_deadline(EXAMPLE_ID, 5)
    assert service.game_overview(EXAMPLE_ID)["deadline_at"] is None
    service.resume(EXAMPLE_ID)
    assert aware(service.game_overview(EXAMPLE_ID)["deadline_at"]) == \
        clock.at + timedelta(hours=77)


def test_the_reminder_of_a_short_deadline_comes_near_its_end(service: Service) -> None:
    """Issue 16, item 11: a one-hour step is reminded 20 minutes before its end."""
    clock = Clock()
    service.config.clock = clock
    service.create_game("solitaire", "campaign",
                        [PlayerSpec("german", "Bo", "bo@example.org",
                                    (EXAMPLE / "german.pub").read_bytes())],
                        game_id="quick", deadline_hours=1)
    assert service.tick() == []
    clock.advance(0.5)
    assert service.tick() == []
    clock.advance(0.25)
    assert service.tick() == ["reminded german of step 1 in quick"]
