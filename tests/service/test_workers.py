"""The service's background work in worker processes (issue 13): each report and each
mail is claimed by one worker before it is done; a dead worker's claim is taken over (at
once on its own machine, after the lease elsewhere); a live step's reports go before bulk
work such as the preloaded examples; `pbem worker` renders and sends on its own."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select

from adjudicator.service.core import PlayerSpec, Service
from adjudicator.service.db import outbox, reports
from adjudicator.service.work import LEASE, claim_alive
from tests.service.conftest import ALICE, EXAMPLE, EXAMPLE_SEED, create_example, example_turn


def pending(service: Service) -> int:
    with service.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(reports)
                                .where(reports.c.html.is_(None))).scalar_one())


def test_two_workers_never_claim_the_same_report(service: Service) -> None:
    create_example(service)
    service.submit(example_turn(1), "web")
    assert pending(service) == 2  # step 0 and step 1, one side
    first, second = service.claim_report("host-a:1"), service.claim_report("host-b:1")
    assert first is not None and second is not None and first != second
    assert service.claim_report("host-c:1") is None  # both held by living claims
    assert service.claim_report("host-a:1") == first  # a worker finds its own claim again


def test_a_dead_workers_claim_is_taken_over(service: Service) -> None:
    create_example(service)
    here = socket.gethostname()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert service.claim_report(f"{here}:{dead}") is not None
    assert service.claim_report(f"{here}:{os.getpid()}") is not None  # at once: it is gone
    now = service.now()
    assert claim_alive("elsewhere:7", now - LEASE / 2, now)
    assert not claim_alive("elsewhere:7", now - LEASE - timedelta(seconds=1), now)


def test_live_reports_go_before_bulk_work(service: Service) -> None:
    roster = [PlayerSpec("german", "Alice", ALICE, (EXAMPLE / "german.pub").read_bytes(),
                         "Europe/Berlin")]
    service.create_game("solitaire", "campaign", roster, game_id="bulk",
                        test_seed=EXAMPLE_SEED, bulk=True)
    for seq in (1, 2, 3):
        turn = example_turn(seq).replace(b'game="example-solitaire"', b'game="bulk"')
        service.submit(turn, "cli", bulk=True)
    create_example(service)  # a live game, after the bulk work was queued
    claimed = service.claim_report("host-a:1")
    assert claimed is not None and claimed[0] == "example-solitaire"


def test_mail_is_claimed_like_reports(service: Service) -> None:
    create_example(service)
    service.render_pending_reports()
    mine = service.claim_mail(me="host-a:1")
    assert mine and not service.claim_mail(me="host-b:1")
    service.mark_sent(mine[0].id)
    with service.engine.connect() as conn:
        row = conn.execute(select(outbox).where(outbox.c.id == mine[0].id)).one()
    assert row.sent_at is not None and row.claimed_by is None


def test_pbem_worker_renders_and_sends_on_its_own(service: Service, tmp_path: Path) -> None:
    create_example(service)
    service.submit(example_turn(1), "web")
    database = str(service.engine.url)
    worker = subprocess.Popen([sys.executable, "-m", "adjudicator.cli", "worker", "--database",
                               database, "--outbox", str(tmp_path / "outbox"),
                               "--tick-seconds", "0.2"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (pending(service) or service.pending_mail()):
            time.sleep(0.3)
        assert pending(service) == 0 and not service.pending_mail()
        assert len(list((tmp_path / "outbox" / "new").iterdir())) == 2  # welcome, step 1
    finally:
        worker.terminate()
        worker.wait(timeout=20)
    with service.engine.connect() as conn:  # what was done is no longer claimed
        assert conn.execute(select(func.count()).select_from(reports)
                            .where(reports.c.claimed_by.is_not(None))).scalar_one() == 0
