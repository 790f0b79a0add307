"""Fuzzing the e-mail entry point: whatever bytes arrive, `parse_incoming` and
`receive_email` return (never raise) and the raw message is kept."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from adjudicator.service.core import Service, ServiceConfig
from adjudicator.service.db import make_engine, messages, migrate
from adjudicator.service.mail import Outcome, receive_email
from adjudicator.service.mime import Incoming, parse_incoming
from tests.service.conftest import ALICE, create_example, example_turn
from tests.service.test_mail import _headers, with_attachment, with_body


def _nested() -> bytes:
    forward = _headers(ALICE)
    forward.set_content("forwarded")
    forward.add_alternative("<p>forwarded</p>", subtype="html")
    forward.add_attachment(email.message_from_bytes(with_attachment(example_turn(2)),
                                                    policy=email.policy.default))
    return forward.as_bytes()


SEEDS = [with_attachment(example_turn(1)), with_body(example_turn(2).decode()), _nested(),
         with_attachment(b"%PDF", maintype="application", subtype="pdf", filename="a.pdf")]
TOKENS = [b"boundary", b"Content-Type", b"Content-Transfer-Encoding", b"base64",
          b"quoted-printable", b"multipart", b"message/rfc822", b"charset", b"--", b"\n\n",
          b"\n", b"From:", b"<", b"=?utf-8?b?", b"filename", b"attachment", b"xml"]
NASTY = st.sampled_from([b"", b"\x00", b"\xff\xfe", b"=\n", b"=?x?q?=ff?=", b"\r", b"--",
                         b"Content-Type: multipart/mixed; boundary=\"\"\n", b";;;", b"\"",
                         b"Content-Type: message/rfc822\n\n" * 3, b"\t\n", b"<?xml"])


@st.composite
def mutated_mime(draw: st.DrawFn) -> bytes:
    """A real message with a few structural edits: bytes cut, repeated, inserted, and
    structural tokens (boundaries, encodings, header names) replaced."""
    raw = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(raw)))
        span = draw(st.integers(0, 200))
        kind = draw(st.sampled_from(["cut", "repeat", "insert", "token", "truncate"]))
        if kind == "cut":
            del raw[at:at + span]
        elif kind == "repeat":
            raw[at:at] = raw[at:at + span] * draw(st.integers(1, 5))
        elif kind == "insert":
            raw[at:at] = draw(st.one_of(NASTY, st.binary(max_size=40)))
        elif kind == "token":
            token = draw(st.sampled_from(TOKENS))
            raw = bytearray(bytes(raw).replace(token, draw(st.one_of(NASTY, st.sampled_from(
                TOKENS))), draw(st.integers(1, 3))))
        else:
            del raw[at:]
    return bytes(raw)


@pytest.fixture(scope="module")
def fuzz_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """One database for every example (the per-test fixture would be rebuilt for each)."""
    path: Path = tmp_path_factory.mktemp("fuzz") / "service.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    service = Service(engine, ServiceConfig(base_url="http://testserver"))
    create_example(service)
    yield service
    engine.dispose()


def kept(service: Service, raw: bytes) -> bool:
    with service.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(messages)
                            .where(messages.c.raw == raw)).scalar_one() == 1


FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(raw=st.one_of(st.binary(max_size=3000), mutated_mime()))
def test_parse_incoming_never_raises(raw: bytes) -> None:
    incoming = parse_incoming(raw)
    assert isinstance(incoming, Incoming)
    assert (incoming.order_file is None) != (incoming.problem is None)


@FUZZ
@given(raw=st.one_of(st.binary(max_size=3000), mutated_mime()))
def test_receive_email_never_raises_and_keeps_the_message(fuzz_service: Service,
                                                           raw: bytes) -> None:
    outcome = receive_email(fuzz_service, raw, "smtp")
    assert isinstance(outcome, Outcome)
    assert kept(fuzz_service, raw)
