"""Concurrent submissions to one game are serialized: exactly one file is accepted
per step, every other one is answered (stale), and the journal verifies. Threads
of one process, and separate processes on one database (issue item 7)."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from adjudicator.referee.verify import verify
from adjudicator.service.core import Service
from adjudicator.service.db import make_engine, migrate
from tests.service.conftest import create_demo, signed_orders
from tests.service.live import running_service

SUBMISSIONS = 50


def rival_files(service: Service, game_id: str, n: int = SUBMISSIONS) -> list[bytes]:
    """`n` different, valid files for the same step (each with its own entropy)."""
    return [signed_orders(service, game_id, entropy=bytes([i]) * 32) for i in range(n)]


def check_one_accepted(service: Service, game_id: str, outcomes: list[str],
                       tmp_path: Path) -> None:
    assert sorted(set(outcomes)) == ["accepted", "refused"]
    assert outcomes.count("accepted") == 1
    journal = tmp_path / f"{game_id}.jsonl"
    journal.write_bytes(service.journal(game_id))
    report = verify(journal)
    assert report.ok, report
    assert service.game_overview(game_id)["next_seq"] == 2


def test_fifty_threads_race_for_one_step(service: Service, tmp_path: Path) -> None:
    create_demo(service)
    files = rival_files(service, "demo")
    with ThreadPoolExecutor(max_workers=16) as pool:
        verdicts = list(pool.map(lambda raw: service.submit(raw, "web"), files))
    check_one_accepted(service, "demo", [v.outcome for v in verdicts], tmp_path)
    refused = [v for v in verdicts if v.outcome == "refused"]
    assert all("already adjudicated" in v.text for v in refused)


def _submit_all(url: str, files: list[bytes], queue: multiprocessing.Queue) -> None:
    service = Service(make_engine(url))
    queue.put([service.submit(raw, "web").outcome for raw in files])


def race_processes(service: Service, url: str, game_id: str, tmp_path: Path) -> None:
    """Four service processes submit their share of the rival files at once."""
    files = rival_files(service, game_id)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_submit_all, args=(url, files[i::4], queue))
               for i in range(4)]
    for w in workers:
        w.start()
    outcomes = [o for _ in workers for o in queue.get(timeout=120)]
    for w in workers:
        w.join(timeout=30)
    check_one_accepted(service, game_id, outcomes, tmp_path)


def test_four_processes_share_one_sqlite_database(service: Service, tmp_path: Path) -> None:
    create_demo(service)
    race_processes(service, str(service.engine.url), "demo", tmp_path)


def test_fifty_concurrent_uploads_to_the_real_service(tmp_path: Path) -> None:
    """The same race through `pbem serve`'s HTTP API over loopback."""
    service = Service(make_engine(f"sqlite:///{tmp_path / 'pbem.db'}"))
    migrate(service.engine)
    create_demo(service)
    files = rival_files(service, "demo")
    with running_service(tmp_path) as (url, _), httpx.Client(timeout=120) as client:
        def upload(raw: bytes) -> str:
            answer = client.post(f"{url}/api/games/demo/submissions", content=raw,
                                 headers={"Content-Type": "application/xml"})
            return str(answer.json()["outcome"])

        with ThreadPoolExecutor(max_workers=SUBMISSIONS) as pool:
            outcomes = list(pool.map(upload, files))
    check_one_accepted(service, "demo", outcomes, tmp_path)
