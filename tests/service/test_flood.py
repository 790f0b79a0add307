"""The two holes found under attack (issue 16, items 1 and 2): files that no player of a
game signed do not grow its public record, one source cannot flood the service, and
forged mail cannot make the service flood anybody with answers."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from lxml import etree
from sqlalchemy import func, select

from adjudicator.security.signing import ORDERS_NS, sign_orders
from adjudicator.service.core import Service, ServiceConfig
from adjudicator.service.db import journal_lines, make_engine, migrate, outbox, submissions
from adjudicator.service.mail import receive_email
from adjudicator.service.web import create_app
from tests.service.conftest import ALICE, EXAMPLE_ID, create_example
from tests.service.test_mail import ATTACKER, tampered, with_attachment


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(tmp_path, clock: Clock) -> Iterator[Service]:  # type: ignore[no-untyped-def]
    engine = make_engine(f"sqlite:///{tmp_path / 'flood.db'}")
    migrate(engine)
    yield Service(engine, ServiceConfig(base_url="http://testserver", clock=clock,
                                        submit_limit=5, answer_limit=2))
    engine.dispose()


def outsider_file(service: Service, n: int) -> bytes:
    """A well-addressed order file for the example's step, signed by a stranger."""
    game = service.current(EXAMPLE_ID)
    root = etree.fromstring(
        f'<orders xmlns="{ORDERS_NS}" game="{game.game_id}" module="{game.package.id}" '
        f'side="german" seq="{game.next_seq}" prev="{game.state_hash}" '
        f'commit="{game.current_commit}"><entropy/><end-turn/></orders>'.encode())
    return sign_orders(root, Ed25519PrivateKey.generate(), entropy=bytes([n]) * 32)


def count(service: Service, table, *where) -> int:  # type: ignore[no-untyped-def]
    with service.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table).where(*where))
                   .scalar_one())


def test_files_no_player_signed_are_kept_but_not_journalled_nor_shown(
        service: Service, clock: Clock) -> None:
    create_example(service)
    lines = count(service, journal_lines)
    client = TestClient(create_app(service))
    answers = [client.post(f"/games/{EXAMPLE_ID}/submit",
                           files={"orders": ("o.xml", outsider_file(service, n), "text/xml")})
               for n in range(5)]
    assert {a.status_code for a in answers} == {422}
    assert "which is not a key of this game" in answers[0].text
    assert "not part of the game&#39;s public record" in answers[0].text
    assert count(service, journal_lines) == lines  # the public journal did not grow
    assert count(service, submissions, submissions.c.outcome == "unattributed") == 5
    assert service.game_overview(EXAMPLE_ID)["submissions"] == []  # nor the public page
    # the sixth file from that address within the window is not even read
    again = client.post(f"/games/{EXAMPLE_ID}/submit",
                        files={"orders": ("o.xml", outsider_file(service, 9), "text/xml")})
    assert again.status_code == 429 and int(again.headers["retry-after"]) > 0
    assert count(service, submissions) == 5
    clock.at += timedelta(minutes=11)  # the window has passed
    later = client.post(f"/games/{EXAMPLE_ID}/submit",
                        files={"orders": ("o.xml", outsider_file(service, 9), "text/xml")})
    assert later.status_code == 422


def test_a_player_signed_refusal_is_still_journalled_and_play_is_never_limited(
        service: Service) -> None:
    from tests.service.conftest import example_turn

    create_example(service)
    lines = count(service, journal_lines)
    for seq in range(9, 17):  # more than the limit, each a step too early: all answered
        stale = service.submit(example_turn(seq), "web", source="web:1.2.3.4")
        assert stale.outcome == "refused"
    assert count(service, journal_lines) == lines + 8  # a player's acts are on the record
    for seq in range(1, 8):  # more steps than the limit from one address: all adjudicated
        assert service.submit(example_turn(seq), "web", source="web:1.2.3.4").outcome in (
            "accepted", "rejected", "decision")


def test_forged_mail_makes_a_few_answers_and_one_digest_per_address(
        service: Service, clock: Clock) -> None:
    create_example(service)
    for n in range(30):
        clock.at += timedelta(seconds=1)
        forged = tampered(1).replace(b"</orders>", f"<!-- {n} --></orders>".encode())
        receive_email(service, with_attachment(forged, sender=f"m{n % 3}@{ATTACKER}"), "smtp")
    with service.engine.connect() as conn:
        rows = conn.execute(select(outbox.c.to_addr, outbox.c.kind, outbox.c.body_text)
                            .where(outbox.c.kind.is_not(None))).all()
    to_player = [r for r in rows if r.to_addr == ALICE]
    assert [r.kind for r in to_player].count("problem") == 2
    assert [r.kind for r in to_player].count("digest") == 1
    [digest] = [r for r in to_player if r.kind == "digest"]
    assert digest.body_text.count("\n- ") == 28  # 28 held back, one line each
    assert len(rows) <= 3 * (2 + 1) + 3  # the three forged addresses, each limited too
    # the digest waits for the end of the window, then goes
    assert not any("digest" in m.subject for m in service.claim_mail(limit=100))
    clock.at += timedelta(hours=1, minutes=1)
    assert any(m.to == ALICE and "digest" in m.subject for m in service.claim_mail(limit=100))
