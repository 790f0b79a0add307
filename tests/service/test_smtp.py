"""The SMTP listener end to end: a real SMTP conversation on loopback, the replies a
sending server sees, and the answers that come out of the outbox."""

from __future__ import annotations

import smtplib
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from adjudicator.service.core import Service
from adjudicator.service.db import messages
from adjudicator.service.outgoing import MaildirOutbox, deliver_pending
from adjudicator.service.smtp import start_smtp
from tests.service.conftest import ALICE, EXAMPLE_ID, example_turn
from tests.service.test_mail import SERVICE, read_maildir, with_attachment, with_body

LIMIT = 200_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def smtp_port(service: Service) -> Iterator[int]:
    port = free_port()
    controller = start_smtp(service, "127.0.0.1", port, max_message_bytes=LIMIT,
                            domains=["pbem.test", ".games.example"])
    yield port
    controller.stop()


def send(port: int, raw: bytes, rcpt: str = "orders@pbem.test") -> tuple[int, int]:
    """One SMTP conversation: the reply codes to RCPT TO and to the end of DATA (the
    message sent with CRLF line ends, as SMTP wants them)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.ehlo("player.example.org")
        client.mail(ALICE)
        rcpt_code, _ = client.rcpt(rcpt)
        if rcpt_code != 250:
            return rcpt_code, 0
        data_code, _ = client.data(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
        return rcpt_code, data_code


def test_orders_by_smtp_are_adjudicated_and_answered_with_the_report(
        service: Service, example: dict[str, str], smtp_port: int, tmp_path: Path) -> None:
    assert send(smtp_port, with_attachment(example_turn(1))) == (250, 250)
    assert send(smtp_port, with_body(example_turn(2).decode())) == (250, 250)
    assert send(smtp_port, b"Subject: hi\r\nFrom: someone@example.net\r\n\r\njunk\r\n") == (
        250, 250)  # taken, kept, and answered in words
    assert service.load(EXAMPLE_ID).next_seq == 3
    with service.engine.connect() as conn:
        outcomes = list(conn.execute(select(messages.c.outcome).order_by(messages.c.id))
                        .scalars())
    assert outcomes == ["accepted", "rejected", "problem body-not-orders"]

    service.render_pending_reports(limit=2)  # the welcome's step 0 and step 1: enough here
    box = tmp_path / "outbox"
    deliver_pending(service, MaildirOutbox(box), sender=SERVICE)
    answers = {m["Subject"]: m for m in read_maildir(box)}
    step1 = answers[f"[pbem] {EXAMPLE_ID} step 1: accepted"]
    assert step1["To"] == ALICE
    html = step1.get_body(("html",))
    assert html is not None and "<html" in html.get_content().lower()
    [png] = list(step1.iter_attachments())
    assert png.get_content_type() == "image/png" and png.get_filename() == "map-step-1.png"
    assert png.get_content().startswith(b"\x89PNG")
    junk = answers["[pbem] your e-mail held no order file we could read"]
    assert junk["To"] == "someone@example.net" and "is not an order" in junk.get_content()
    assert f"[pbem] {EXAMPLE_ID} step 2: rejected" not in answers  # its report is not rendered


def test_only_our_domains_are_taken_and_oversize_mail_is_refused(service: Service,
                                                                 smtp_port: int) -> None:
    for elsewhere in ("someone@elsewhere.example", "x@pbem.test.evil", "x@games.example"):
        assert send(smtp_port, b"Subject: x\r\n\r\nx\r\n", rcpt=elsewhere)[0] == 550
    taken = send(smtp_port, with_body("hi"), rcpt="Referee@Tournament.Games.Example")
    assert taken == (250, 250)
    assert send(smtp_port, with_attachment(b"x" * LIMIT)) == (250, 552)
    with service.engine.connect() as conn:
        assert len(conn.execute(select(messages)).all()) == 1  # the one that was taken


def test_an_internal_error_is_a_temporary_failure_and_the_retry_is_taken(
        service: Service, example: dict[str, str], smtp_port: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    raw = with_attachment(example_turn(1))

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("database gone")

    with monkeypatch.context() as patch:
        patch.setattr(service, "submit", broken)
        assert send(smtp_port, raw) == (250, 451)
    assert service.load(EXAMPLE_ID).next_seq == 1
    assert send(smtp_port, raw) == (250, 250)  # the sending server's retry
    assert service.load(EXAMPLE_ID).next_seq == 2
    with service.engine.connect() as conn:
        rows = conn.execute(select(messages.c.outcome)).all()
    assert [r.outcome for r in rows] == ["accepted"]  # kept once, finished by the retry
