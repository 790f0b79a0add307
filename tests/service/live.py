"""The real `pbem serve` in a subprocess on free loopback ports, for the tests that
must talk to the service as its users do (crash, concurrency)."""

from __future__ import annotations

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


