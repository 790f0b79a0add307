"""The service core: one transaction per submission, the journal as the source of truth."""

from __future__ import annotations

from pathlib import Path

from adjudicator.referee.verify import verify
from adjudicator.service.core import Service
from tests.service.conftest import EXAMPLE, EXAMPLE_ID, example_turn


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
    for raw, words in ((b"\x00\xffnot xml", "not an order file"),
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
