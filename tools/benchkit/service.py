"""The service under load: `pbem serve` (SQLite, loopback) taking real turns over HTTP.

Its games are the example games (each sent its own signed turn files, in order) and, per
game whose rules list their orders, several test games whose next steps were played from
the listing beforehand in a game directory with the same id, seed and keys: the same
journal commitments, so every file is addressed to the service's game and counts. The
uploads go round the games in turn, one step each, as players would send them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import socket
import subprocess
import time

from adjudicator.referee.gamedir import GameDir, current_game
from adjudicator.referee.referee import adjudicate, create_game
from benchkit.positions import Example, build_step, can_list
from benchkit.sections import Bench
from benchkit.timing import BIN, Row, percentile


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop `pbem serve` and the worker processes it started (its process group): asked
    first, then killed, so no worker goes on rendering after the benchmark."""
    group = server.pid  # the session leader of its own group (start_new_session)
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)  # what is left of the group: busy workers


def _players(example: Example) -> dict[str, tuple[str, str]]:
    return {side: (f"Bench {side}", f"{side}@bench.localhost") for side in example.public}


def played_games(bench: Bench) -> list[tuple[Example, str, bytes, list[bytes]]]:
    """The test games to create in the service (example, id, test seed) with the files of
    their next steps, played from the listing in a game directory of the same game."""
    out = []
    for example in bench.one_per_game():
        if not can_list(example.game):
            continue
        header = example.header
        for n in range(bench.budget.service_games):
            game_id = f"bench-{example.game}-{n}"
            test_seed = hashlib.sha256(game_id.encode()).digest()
            target = bench.fresh(f"service-{game_id}")
            create_game(target, example.game, header["scenario"], example.public,
                        options=header["options"], game_id=game_id, test_seed=test_seed)
            files = []
            for _ in range(bench.budget.service_steps):
                game = current_game(GameDir(target))
                if game.acting_side is None:
                    break
                built = build_step(game, test_seed, example.private[game.acting_side],
                                   scope="phase", unit_orders=4, seed=n)
                adjudicate(target, built.raw)
                files.append(built.raw)
            out.append((example, game_id, test_seed, files))
    return out


def service(bench: Bench) -> None:
    """Adjudicated submissions per second over loopback, p50 and p99 latency, and the
    share of the uploads that were real steps (not refused files)."""
    import httpx

    from adjudicator.service.model import PlayerSpec
    from adjudicator.service.runner import ServeOptions, build_service

    database = f"sqlite:///{bench.fresh('service.db')}"
    svc = build_service(ServeOptions(database=database))
    queues: list[tuple[str, list[bytes]]] = []
    for example in bench.games:
        header = example.header
        svc.create_game(example.game, header["scenario"],
                        [PlayerSpec(side, *_players(example)[side], key)
                         for side, key in example.public.items()],
                        options=header["options"], game_id=header["game_id"],
                        test_seed=example.test_seed)
        turns = [p.read_bytes() for p in example.turn_files()]
        queues.append((header["game_id"], turns[:8] if bench.budget.quick else turns))
    for example, game_id, test_seed, files in played_games(bench):
        svc.create_game(example.game, example.header["scenario"],
                        [PlayerSpec(side, *_players(example)[side], key)
                         for side, key in example.public.items()],
                        options=example.header["options"], game_id=game_id,
                        test_seed=test_seed)
        queues.append((game_id, files))
    svc.engine.dispose()

    port = free_port()
    server = subprocess.Popen(
        [str(BIN / "pbem"), "serve", "--database", database, "--port", str(port),
         "--smtp-port", "0", "--outbox", str(bench.work / "outbox")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    outcomes: dict[str, int] = {}
    try:
        with httpx.Client(timeout=60) as client:
            for _ in range(600):
                try:
                    client.get(f"{url}/api/games")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            start_all = time.perf_counter()
            for round_ in range(max(len(files) for _, files in queues)):
                for game_id, files in queues:
                    if round_ >= len(files):
                        continue
                    start = time.perf_counter()
                    answer = client.post(f"{url}/api/games/{game_id}/submissions",
                                         content=files[round_],
                                         headers={"Content-Type": "application/xml"})
                    latencies.append(time.perf_counter() - start)
                    outcome = answer.json().get("outcome", str(answer.status_code)) \
                        if answer.headers.get("content-type", "").startswith(
                            "application/json") else str(answer.status_code)
                    outcomes[outcome] = outcomes.get(outcome, 0) + 1
            elapsed = time.perf_counter() - start_all
    finally:
        stop(server)
    # a step with an order refused (rejected) is a real turn too; refused and invalid
    # files, and anything not answered with a verdict, are not
    steps = sum(outcomes.get(k, 0) for k in ("accepted", "decision", "rejected"))
    counts = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
    what = f"pbem serve, {len(queues)} games, {len(latencies)} uploads"
    bench.table.add(Row("service", f"{what}: rate", len(latencies) / elapsed, unit="/s",
                        goal=">= 100 /s", note=counts))
    bench.table.add(Row("service", "latency p50", percentile(latencies, 0.5), goal="< 200 ms"))
    bench.table.add(Row("service", "latency p99", percentile(latencies, 0.99),
                        goal="< 200 ms"))
    bench.table.add(Row("service", "adjudicated steps among the uploads", steps / len(latencies),
                        unit="share", goal=">= 1.0", note=f"{steps} of {len(latencies)}"))

