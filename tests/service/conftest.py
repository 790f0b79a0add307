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


def demo_key():  # noqa: ANN201 - an Ed25519 private key
    """The example's demo key (committed on purpose: it signs the example's files)."""
    from adjudicator.security.keys import load_private_key

    return load_private_key((EXAMPLE / "german.key").read_bytes())


def signed_orders(service: Service, game_id: str, body: str = "<end-turn/>",
                  entropy: bytes | None = None) -> bytes:
    """An order file for the step `game_id` waits for, signed with the demo key."""
    from lxml import etree

    from adjudicator.security.signing import ORDERS_NS, sign_orders

    game = service.load(game_id)
    root = etree.fromstring(
        f'<orders xmlns="{ORDERS_NS}" game="{game.game_id}" module="{game.package.id}" '
        f'side="{game.acting_side}" seq="{game.next_seq}" prev="{game.state_hash}" '
        f'commit="{game.current_commit}"><entropy/>{body}</orders>'.encode())
    return sign_orders(root, demo_key(), entropy=entropy)


def create_demo(service: Service, game_id: str = "demo", **kwargs: object) -> dict[str, str]:
    """A fresh game whose player holds the demo key."""
    return service.create_game(
        "solitaire", "campaign",
        [PlayerSpec("german", "Dee", "dee@example.org", (EXAMPLE / "german.pub").read_bytes())],
        game_id=game_id, **kwargs).links  # type: ignore[arg-type]
