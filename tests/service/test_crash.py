"""Crash safety (issue item 8): the real `pbem serve` is killed with SIGKILL during an
adjudication, during report rendering and during mail sending. Nothing acknowledged
is lost, the journal verifies, and after a restart the service finishes what was
pending (reports, mail), sending each mail once."""

from __future__ import annotations

import mailbox
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from adjudicator.referee.verify import verify
from adjudicator.service.core import Service
from adjudicator.service.db import make_engine
from tests.service.conftest import EXAMPLE, signed_orders
from tests.service.live import PBEM, running_service

GAME = "crashy"


def make_game(tmp_path: Path) -> Service:
    """The game, created with the admin command on the service's database."""
    database = f"sqlite:///{tmp_path / 'pbem.db'}"
    subprocess.run([PBEM, "admin", "--database", database,
                    "create", "solitaire", "--scenario", "campaign", "--game-id", GAME,
                    "--player", f"german=Dee,dee@example.org,{EXAMPLE / 'german.pub'}"],
                   check=True, capture_output=True)
    return Service(make_engine(database))


def upload(url: str, raw: bytes) -> httpx.Response:
    return httpx.post(f"{url}/api/games/{GAME}/submissions", content=raw,
                      headers={"Content-Type": "application/xml"}, timeout=60)


def wait_until(condition: object, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError("the service did not finish its pending work in time")


def journal_verifies(service: Service, tmp_path: Path) -> bool:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(service.journal(GAME))
    return verify(path).ok


def delivered(tmp_path: Path) -> list[str]:
    box = mailbox.Maildir(tmp_path / "outbox", create=False)
    return sorted(str(message["Subject"]) for message in box)


def nothing_pending(service: Service) -> bool:
    from sqlalchemy import func, select

    from adjudicator.service.db import outbox, reports

    with service.engine.connect() as conn:
        unrendered = conn.execute(select(func.count()).select_from(reports)
                                  .where(reports.c.html.is_(None))).scalar_one()
        unsent = conn.execute(select(func.count()).select_from(outbox)
                              .where(outbox.c.sent_at.is_(None))).scalar_one()
    return unrendered == 0 and unsent == 0


def test_killed_during_adjudication_nothing_half_done_remains(tmp_path: Path) -> None:
    service = make_game(tmp_path)
    raw = signed_orders(service, GAME)
    with running_service(tmp_path, crash_at="adjudicated") as (url, process):
        with pytest.raises(httpx.TransportError):
            upload(url, raw)  # the service dies before it commits or answers
        process.wait(timeout=20)
        assert process.returncode == -signal.SIGKILL
    assert service.game_overview(GAME)["next_seq"] == 1  # nothing was acknowledged
    assert journal_verifies(service, tmp_path)
    with running_service(tmp_path) as (url, _):
        answer = upload(url, raw)  # the player sends the file again
        assert answer.status_code == 200 and answer.json()["outcome"] == "accepted"
        wait_until(lambda: nothing_pending(service))
    assert journal_verifies(service, tmp_path)
    assert delivered(tmp_path).count(f"[pbem] {GAME} step 1: accepted") == 1


def test_killed_while_rendering_the_report_finishes_after_restart(tmp_path: Path) -> None:
    service = make_game(tmp_path)
    service.render_pending_reports()  # the initial report: the crash is to hit step 1's
    raw = signed_orders(service, GAME)
    with running_service(tmp_path, crash_at="rendering") as (url, process):
        answer = upload(url, raw)
        assert answer.status_code == 200 and answer.json()["outcome"] == "accepted"
        process.wait(timeout=60)  # the worker dies rendering the step's report
        assert process.returncode == -signal.SIGKILL
    assert service.game_overview(GAME)["next_seq"] == 2  # the acknowledged step stays
    assert service.report(GAME, 1, "german") is None
    assert journal_verifies(service, tmp_path)
    with running_service(tmp_path) as _:
        wait_until(lambda: nothing_pending(service))
    assert service.report(GAME, 1, "german") is not None
    assert delivered(tmp_path).count(f"[pbem] {GAME} step 1: accepted") == 1


def test_killed_while_sending_mail_sends_each_message_once(tmp_path: Path) -> None:
    service = make_game(tmp_path)
    with running_service(tmp_path, crash_at="sending") as (_, process):
        process.wait(timeout=60)  # dies after handing the welcome mail over, unmarked
        assert process.returncode == -signal.SIGKILL
    assert len(delivered(tmp_path)) == 1 and service.pending_mail()
    with running_service(tmp_path) as (url, _):
        assert upload(url, signed_orders(service, GAME)).json()["outcome"] == "accepted"
        wait_until(lambda: nothing_pending(service))
    subjects = delivered(tmp_path)
    assert len(subjects) == len(set(subjects)) == 2, subjects  # none twice
    assert f"[pbem] {GAME} step 1: accepted" in subjects
    assert journal_verifies(service, tmp_path)
