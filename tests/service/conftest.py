"""Fixtures of the service tests: a migrated SQLite database per test, the example
game (its real signed turn files replay into the service byte for byte)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.service.core import PlayerSpec, Service, ServiceConfig
from adjudicator.service.db import make_engine, migrate

EXAMPLE = Path(__file__).resolve().parent.parent.parent / "examples" / "solitaire"
EXAMPLE_SEED = hashlib.sha256(b"Barbarossa Solitaire example game").digest()
EXAMPLE_ID = "example-solitaire"
ALICE = "alice@example.org"


def example_turn(seq: int) -> bytes:
    """The signed order file of step `seq` of the example game."""
    return (EXAMPLE / "turns" / f"step-{seq:02d}.xml").read_bytes()


def create_example(service: Service, game_id: str = EXAMPLE_ID) -> dict[str, str]:
    """The example game (test seed, Alice's key) in `service`; the players' links."""
    created = service.create_game(
        "solitaire", "campaign",
        [PlayerSpec("german", "Alice", ALICE, (EXAMPLE / "german.pub").read_bytes(),
                    "Europe/Berlin")],
        game_id=game_id, test_seed=EXAMPLE_SEED)
    return created.links


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    engine = make_engine(f"sqlite:///{tmp_path / 'service.db'}")
    migrate(engine)
    yield Service(engine, ServiceConfig(base_url="http://testserver"))
    engine.dispose()


@pytest.fixture
def example(service: Service) -> dict[str, str]:
    return create_example(service)
