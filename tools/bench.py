"""`make bench`: how long the main jobs take. It measures; it asserts nothing.

- adjudicating one solitaire turn (a full turn file of the example game),
- verifying the whole example game,
- rendering one turn report (HTML, SVG and PNG),
- the service over loopback: adjudicated uploads per second and their latency
  (p50/p99), each a new step of one game through `pbem serve`'s HTTP API.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import play_example  # noqa: E402

from adjudicator.referee.gamedir import load_game
from adjudicator.referee.referee import adjudicate, create_game
from adjudicator.referee.verify import verify
from adjudicator.reports import render_report
from adjudicator.reports.from_journal import step_report

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "solitaire"
TEST_SEED = bytes.fromhex(play_example.TEST_SEED)


def timed(label: str, job: Callable[[], object], repeat: int) -> None:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    print(f"{label:<44} median {statistics.median(times) * 1000:8.1f} ms   "
          f"min {min(times) * 1000:8.1f} ms   ({repeat} runs)")


def main() -> None:
    journal = EXAMPLE / "journal.jsonl"
    game = load_game(journal)
    first_turn = (EXAMPLE / "turns" / "step-01.xml").read_bytes()
    header = game.header
    work = Path(tempfile.mkdtemp())

    def adjudicate_one_turn() -> None:
        target = work / f"g{time.perf_counter_ns()}"
        create_game(target, "solitaire", header["scenario"],
                    {"german": (EXAMPLE / "german.pub").read_bytes()},
                    options=header["options"], game_id=header["game_id"],
                    test_seed=TEST_SEED)
        adjudicate(target, first_turn)

    try:
        timed("adjudicate one turn (incl. game creation)", adjudicate_one_turn, 5)
        timed(f"verify the example game ({len(game.steps)} steps)", lambda: verify(journal), 5)
        last = len(game.steps)
        timed("render one report (HTML + SVG + PNG)",
              lambda: render_report(step_report(game, last, "german")), 5)
        service_throughput(work)
    finally:
        shutil.rmtree(work)


def service_throughput(work: Path, steps: int = 60) -> None:
    """Start `pbem serve` on a fresh SQLite database and upload `steps` signed files in
    a row over HTTP (each one the next step: end-turn), timing each upload."""
    import subprocess

    import httpx
    from lxml import etree

    from adjudicator.security.keys import load_private_key
    from adjudicator.security.signing import ORDERS_NS, sign_orders
    from adjudicator.service.core import PlayerSpec
    from adjudicator.service.runner import ServeOptions, build_service

    database = f"sqlite:///{work / 'bench.db'}"
    service = build_service(ServeOptions(database=database))
    service.create_game("solitaire", "campaign",
                        [PlayerSpec("german", "Bench", "bench@example.org",
                                    (EXAMPLE / "german.pub").read_bytes())], game_id="bench")
    key = load_private_key((EXAMPLE / "german.key").read_bytes())
    port = free_port()
    pbem = str(Path(sys.executable).with_name("pbem"))
    server = subprocess.Popen([pbem, "serve", "--database", database, "--port", str(port),
                               "--smtp-port", "0", "--outbox", str(work / "outbox")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(timeout=30) as client:
            for _ in range(300):
                try:
                    client.get(f"{url}/api/games")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            latencies = []
            for _ in range(steps):
                game = service.load("bench")
                if game.acting_side is None:
                    break
                root = etree.fromstring(
                    f'<orders xmlns="{ORDERS_NS}" game="bench" module="solitaire" '
                    f'side="{game.acting_side}" seq="{game.next_seq}" prev="{game.state_hash}" '
                    f'commit="{game.current_commit}"><entropy/><end-turn/></orders>'.encode())
                raw = sign_orders(root, key)
                start = time.perf_counter()
                client.post(f"{url}/api/games/bench/submissions", content=raw,
                            headers={"Content-Type": "application/xml"})
                latencies.append(time.perf_counter() - start)
    finally:
        server.terminate()
        server.wait(timeout=20)
    latencies.sort()
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    print(f"{'service: adjudicated uploads over loopback':<44} "
          f"{len(latencies) / sum(latencies):8.1f} /s     p50 {p50:6.1f} ms   "
          f"p99 {p99:6.1f} ms   ({len(latencies)} steps)")


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


if __name__ == "__main__":
    main()
