"""The service on a real PostgreSQL server: migrations, the example game byte for byte,
and several processes racing on one game (row locks). The project's machines run one
on 127.0.0.1:5432 (user postgres, trust); elsewhere these tests skip, saying why."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from adjudicator.service.core import Service, ServiceConfig
from adjudicator.service.db import make_engine, migrate
from tests.service.conftest import EXAMPLE, EXAMPLE_ID, create_demo, create_example, example_turn
from tests.service.test_concurrency import race_processes

SERVER = os.environ.get("PBEM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def _admin_engine() -> sa.Engine:
    return make_engine(SERVER).execution_options(isolation_level="AUTOCOMMIT")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh database on the server for one test, dropped afterwards."""
    try:
        admin = _admin_engine()
        with admin.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - any failure to connect means: no server here
        pytest.skip(f"no PostgreSQL server at {SERVER} ({type(exc).__name__}); set "
                    "PBEM_TEST_POSTGRES to a server URL to run these tests")
    name = f"pbem_test_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    yield SERVER.rsplit("/", 1)[0] + "/" + name
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def pg_service(pg_url: str) -> Iterator[Service]:
    engine = make_engine(pg_url)
    migrate(engine)
    migrate(engine)  # idempotent
    yield Service(engine, ServiceConfig(base_url="http://testserver"))
    engine.dispose()


def test_postgres_replays_the_example_game_byte_for_byte(pg_service: Service) -> None:
    create_example(pg_service)
    for seq in range(1, 17):
        pg_service.submit(example_turn(seq), "web")
    assert pg_service.journal(EXAMPLE_ID) == (EXAMPLE / "journal.jsonl").read_bytes()
    again = pg_service.submit(example_turn(3), "smtp", "someone@example.net")
    assert again.duplicate and again.outcome == "accepted"


def test_postgres_serializes_processes_racing_for_one_step(pg_service: Service, pg_url: str,
                                                          tmp_path: Path) -> None:
    create_demo(pg_service)
    race_processes(pg_service, pg_url, "demo", tmp_path)
