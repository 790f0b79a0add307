"""Crash safety (issue item 8): the real `pbem serve` is killed with SIGKILL during an
adjudication, during report rendering and during mail sending. Nothing acknowledged
is lost, the journal verifies, and after a restart the service finishes what was
pending (reports, mail), sending each mail once."""

from __future__ import annotations

import mailbox
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from adjudicator.referee.verify import verify
from adjudicator.service.core import Service
from adjudicator.service.db import make_engine
from tests.service.conftest import EXAMPLE, signed_orders

GAME = "crashy"
PBEM = str(Path(sys.executable).with_name("pbem"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_service(tmp_path: Path, crash_at: str | None = None
                    ) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`pbem serve` on free ports over the test's database; yields its base URL."""
    port = free_port()
    env = {**os.environ, "PBEM_CRASH_AT": crash_at or ""}
    command = [PBEM, "serve",
               "--database", f"sqlite:///{tmp_path / 'pbem.db'}", "--port", str(port),
               "--smtp-port", "0", "--outbox", str(tmp_path / "outbox")]
    log = tmp_path / f"serve-{port}.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                if process.poll() is not None:
                    raise AssertionError(f"the service did not start: {log.read_text()}"
                                         ) from None
                time.sleep(0.1)
        yield url, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


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
