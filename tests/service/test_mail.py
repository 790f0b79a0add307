"""E-mail intake and answers: what a message holds, what the service does with it, and
what reaches the players (issue 5, items 3 and 4)."""

from __future__ import annotations

import email
import email.policy
import mailbox
import socket
import socketserver
import threading
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from sqlalchemy import func, select

from adjudicator.service.core import OutgoingMail, Service
from adjudicator.service.db import admin_log, messages, outbox
from adjudicator.service.mail import finish_interrupted, poll_imap, poll_maildir, receive_email
from adjudicator.service.mime import parse_incoming
from adjudicator.service.outgoing import MaildirOutbox, compose, deliver_pending
from adjudicator.service.work import MAX_ATTEMPTS
from tests.service.conftest import ALICE, EXAMPLE_ID, example_turn

SERVICE = "referee@pbem.test"
ATTACKER = "mallory@evil.example"


# -- building and reading messages (also used by test_smtp) ------------------------------


def with_attachment(*files: bytes, sender: str = ALICE, filename: str = "orders.xml",
                    subtype: str = "xml", maintype: str = "application") -> bytes:
    """An e-mail with a short text and each of `files` attached."""
    message = _headers(sender)
    message.set_content("My orders for this step.\n")
    for n, data in enumerate(files):
        name = filename if len(files) == 1 else f"{n}-{filename}"
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message.as_bytes()


def with_body(text: str, sender: str = ALICE) -> bytes:
    message = _headers(sender)
    message.set_content(text)
    return message.as_bytes()


def _headers(sender: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = f"Player <{sender}>"
    message["To"] = "orders@localhost"
    message["Subject"] = "orders"
    message["Message-ID"] = make_msgid(domain="example.org")
    return message


def read_maildir(path: Path) -> list[EmailMessage]:
    """The messages of a Maildir (new/ and cur/), parsed as the recipients would."""
    box = mailbox.Maildir(path, create=False)
    found = [email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
             for key in sorted(box.keys())]
    return [m for m in found if isinstance(m, EmailMessage)]


def count(service: Service, table) -> int:  # type: ignore[no-untyped-def]
    with service.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def tampered(seq: int) -> bytes:
    """The real signed file of step `seq` with one order changed after signing."""
    data = example_turn(seq)
    assert b'<move unit="GER-11" to="budapest"/>' in data
    return data.replace(b'to="budapest"', b'to="bucharest"', 1)


def unsigned(seq: int) -> bytes:
    data = example_turn(seq)
    start = data.index(b"<signature")
    end = data.index(b"</signature>") + len(b"</signature>")
    return data[:start] + data[end:]


# -- parse_incoming -----------------------------------------------------------------------


def test_an_attached_order_file_is_taken_byte_for_byte() -> None:
    incoming = parse_incoming(with_attachment(example_turn(1)))
    assert incoming.problem is None
    assert incoming.order_file == example_turn(1)
    assert incoming.sender == ALICE
    assert incoming.message_id and incoming.message_id.endswith("@example.org>")


@pytest.mark.parametrize("maintype,subtype,filename", [
    ("text", "xml", "orders.txt"),  # by content type
    ("application", "octet-stream", "step-01.xml"),  # by file name
    ("application", "octet-stream", "orders"),  # by content (<?xml ...)
])
def test_an_attachment_is_xml_by_type_name_or_content(maintype: str, subtype: str,
                                                       filename: str) -> None:
    raw = with_attachment(example_turn(1), maintype=maintype, subtype=subtype,
                          filename=filename)
    assert parse_incoming(raw).order_file == example_turn(1)


def test_an_order_file_as_the_body_is_taken_with_a_signature_trimmed() -> None:
    text = "\n\n" + example_turn(1).decode() + "\n-- \nAlice, sent from her phone\n"
    incoming = parse_incoming(with_body(text))
    assert incoming.problem is None
    assert incoming.order_file == example_turn(1).strip()


@pytest.mark.parametrize("cte", ["base64", "quoted-printable"])
def test_transfer_encodings_of_the_body_are_undone(cte: str) -> None:
    message = _headers(ALICE)
    message.set_content(example_turn(3).decode(), cte=cte)
    assert cte.encode() in message.as_bytes()
    assert parse_incoming(message.as_bytes()).order_file == example_turn(3).strip()


def test_a_nested_multipart_is_searched() -> None:
    inner = EmailMessage()
    inner.set_content("see the attachment")
    inner.add_alternative("<p>see the attachment</p>", subtype="html")
    inner.add_attachment(example_turn(2), maintype="application", subtype="xml",
                         filename="step-02.xml")
    outer = _headers(ALICE)
    outer.make_mixed()
    outer.attach(inner)
    assert parse_incoming(outer.as_bytes()).order_file == example_turn(2)


def test_a_forwarded_message_with_the_file_is_read() -> None:
    original = email.message_from_bytes(with_attachment(example_turn(4)),
                                        policy=email.policy.default)
    forward = _headers("alice.other@example.net")
    forward.set_content("Forwarding my orders from my other address.\n")
    forward.add_attachment(original)  # message/rfc822
    incoming = parse_incoming(forward.as_bytes())
    assert incoming.order_file == example_turn(4)
    assert incoming.sender == "alice.other@example.net"


@pytest.mark.parametrize("raw,code", [
    (with_attachment(example_turn(1), example_turn(2)), "two-order-files"),
    (with_body(""), "no-order-file"),
    (with_body("Hello, my orders are: attack Minsk!"), "body-not-orders"),
    (with_attachment(b"%PDF-1.4 ...", maintype="application", subtype="pdf",
                     filename="orders.pdf"), "not-xml"),
    (with_attachment(*[b"\x89PNG"] * 11, maintype="image", subtype="png",
                     filename="x.png"), "too-many-parts"),
    (with_attachment(b"<?xml version='1.0'?><orders>" + b" " * 300_000 + b"</orders>"),
     "order-file-too-large"),
])
def test_what_is_not_one_order_file_is_a_problem(raw: bytes, code: str) -> None:
    incoming = parse_incoming(raw)
    assert incoming.order_file is None
    assert incoming.problem is not None and incoming.problem.code == code
    assert incoming.sender == ALICE


def test_an_oversize_message_still_names_its_sender() -> None:
    raw = with_attachment(example_turn(1), b"x" * 100)
    incoming = parse_incoming(raw, max_message_bytes=1000)
    assert incoming.problem is not None and incoming.problem.code == "too-large"
    assert incoming.sender == ALICE


def test_a_non_xml_attachment_beside_the_order_file_is_ignored() -> None:
    message = _headers(ALICE)
    message.set_content("orders attached")
    message.add_attachment(b"\x89PNG...", maintype="image", subtype="png", filename="logo.png")
    message.add_attachment(example_turn(1), maintype="application", subtype="xml",
                           filename="o.xml")
    incoming = parse_incoming(message.as_bytes())
    assert incoming.order_file == example_turn(1)
    assert incoming.ignored == ("'logo.png' (image/png)",)


@pytest.mark.parametrize("raw", [
    b"From: a@example.org\nContent-Type: application/xml\nContent-Transfer-Encoding: base64"
    b"\nContent-Disposition: attachment; filename=o.xml\n\nPD94b!!!WwgdmVy\n",
    b"From: a@example.org\nContent-Type: text/plain; charset=x-no-such\n\n<?xml version",
])
def test_undecodable_parts_are_a_problem(raw: bytes) -> None:
    incoming = parse_incoming(raw)
    assert incoming.problem is not None and incoming.problem.code == "undecodable"


@pytest.mark.parametrize("header", [
    b"", b"From: \n", b"From: nobody\n", b"From: a@example.org, b@example.org\n",
    b"From: a@example.org\nFrom: b@example.org\n", b"From: =?utf-8?b?!!?= <@>\n",
    b"From: \xff\xfe@\xff.org\n", b'From: "x" <a@b.org>\n\t<c@d.org>\n',
])
def test_a_missing_or_doubtful_from_gives_no_sender(header: bytes) -> None:
    assert parse_incoming(header + b"Subject: x\n\nhello\n").sender is None


def test_an_auto_reply_is_marked_automatic() -> None:
    raw = b"From: vacation@example.org\nAuto-Submitted: auto-replied\n\nI am away.\n"
    assert parse_incoming(raw).automatic
    assert not parse_incoming(with_body("hello")).automatic


# -- receive_email on the example game ----------------------------------------------------


def outbox_rows(service: Service) -> list[tuple[str, str, str]]:
    with service.engine.connect() as conn:
        return [(r.to_addr, r.subject, r.body_text) for r in conn.execute(
            select(outbox).where(outbox.c.game_id.is_(None)
                                 | (outbox.c.report_seq > 0)).order_by(outbox.c.id))]


def test_an_accepted_step_is_answered_with_the_players_own_report(
        service: Service, example: dict[str, str], tmp_path: Path) -> None:
    outcome = receive_email(service, with_attachment(example_turn(1)), "smtp")
    assert outcome.status == "submitted"
    assert outcome.verdict is not None and outcome.verdict.outcome == "accepted"
    assert outcome.verdict.seq == 1 and not outcome.verdict.duplicate
    with service.engine.connect() as conn:
        row = conn.execute(select(messages)).one()
    assert row.outcome == "accepted" and row.submission_id == outcome.verdict.submission_id
    assert row.sender == ALICE and row.channel == "smtp"

    assert service.render_pending_reports() == 2  # the welcome's step 0 and step 1
    box = tmp_path / "outbox"
    assert deliver_pending(service, MaildirOutbox(box), sender=SERVICE) == 2
    answers = {m["Subject"]: m for m in read_maildir(box)}
    answer = answers[f"[pbem] {EXAMPLE_ID} step 1: accepted"]
    assert answer["To"] == ALICE and answer["From"] == SERVICE
    assert answer["Auto-Submitted"] == "auto-replied"
    text = answer.get_body(("plain",))
    html = answer.get_body(("html",))
    assert text is not None and "all 9 orders were carried out" in text.get_content()
    own = service.report(EXAMPLE_ID, 1, "german")
    assert own is not None and html is not None
    [png] = [p for p in answer.iter_attachments() if p.get_content_type() == "image/png"]
    assert png.get_filename() == "map-step-1.png" and png.get_content() == own[1]
    link = f'href="cid:{png["Content-ID"].strip("<>")}"'  # the report's map link, in the mail
    assert html.get_content().replace(link, 'href="map.png"').strip() == own[0].strip()
    assert deliver_pending(service, MaildirOutbox(box), sender=SERVICE) == 0


def test_a_forged_sender_with_a_tampered_file_is_answered_to_the_player_too(
        service: Service, example: dict[str, str], tmp_path: Path) -> None:
    for n, data in enumerate((tampered(1), unsigned(1))):
        outcome = receive_email(service, with_attachment(data, sender=ATTACKER), "smtp")
        assert outcome.verdict is not None and outcome.verdict.outcome == "refused"
        assert outcome.sender == ATTACKER
        rows = outbox_rows(service)[2 * n:]
        assert sorted(to for to, _subject, _text in rows) == sorted([ATTACKER, ALICE])
        [to_alice] = [text for to, _subject, text in rows if to == ALICE]
        assert ATTACKER in to_alice and "not adjudicated" in to_alice
    assert service.load(EXAMPLE_ID).next_seq == 1  # nothing was adjudicated

    box = tmp_path / "outbox"
    deliver_pending(service, MaildirOutbox(box), sender=SERVICE)  # no report to render
    assert sorted(m["To"] for m in read_maildir(box)) == sorted([ATTACKER, ALICE] * 2)


def test_the_same_message_again_gets_the_same_answer_and_changes_nothing(
        service: Service, example: dict[str, str]) -> None:
    raw = with_attachment(example_turn(1))
    first = receive_email(service, raw, "smtp")
    state = (service.journal(EXAMPLE_ID), count(service, messages), count(service, outbox))
    again = receive_email(service, raw, "smtp")
    assert again.status == "redelivered" and again.message_row == first.message_row
    assert again.verdict is not None and first.verdict is not None
    assert again.verdict.text == first.verdict.text and again.verdict.duplicate
    assert (service.journal(EXAMPLE_ID), count(service, messages),
            count(service, outbox)) == state


def test_a_resent_file_in_a_new_message_is_answered_with_the_earlier_verdict(
        service: Service, example: dict[str, str]) -> None:
    first = receive_email(service, with_attachment(example_turn(1)), "smtp")
    journal = service.journal(EXAMPLE_ID)
    resent = receive_email(service, with_attachment(example_turn(1), sender=ATTACKER), "imap")
    assert resent.status == "submitted" and resent.message_row != first.message_row
    assert resent.verdict is not None and resent.verdict.duplicate
    assert resent.answered == (ATTACKER,)
    to, subject, text = outbox_rows(service)[-1]
    assert to == ATTACKER and "received before" in text
    assert first.verdict is not None and first.verdict.text in text
    assert service.journal(EXAMPLE_ID) == journal


def test_a_message_without_an_order_file_is_answered_and_kept(
        service: Service, example: dict[str, str]) -> None:
    raw = with_attachment(b"%PDF", maintype="application", subtype="pdf",
                          filename="orders.pdf", sender=ATTACKER)
    outcome = receive_email(service, raw, "maildir")
    assert outcome.status == "problem" and outcome.answered == (ATTACKER,)
    to, _subject, text = outbox_rows(service)[-1]
    assert to == ATTACKER and "'orders.pdf' (application/pdf)" in text
    assert "exactly one signed order file" in text
    with service.engine.connect() as conn:
        row = conn.execute(select(messages)).one()
    assert row.raw == raw and row.outcome == "problem not-xml"


@pytest.mark.parametrize("raw", [
    b"\x00\xff garbage without headers",
    b"From: vacation@example.org\nAuto-Submitted: auto-replied\n\nI am away.\n",
])
def test_an_unanswerable_message_is_still_kept(service: Service, raw: bytes) -> None:
    outcome = receive_email(service, raw, "smtp")
    assert outcome.status == "problem" and outcome.answered == ()
    assert count(service, outbox) == 0
    with service.engine.connect() as conn:
        row = conn.execute(select(messages)).one()
    assert row.raw == raw and row.outcome.endswith(", not answered")


def test_a_message_recorded_before_a_crash_is_finished_once(
        service: Service, example: dict[str, str]) -> None:
    raw = with_attachment(example_turn(1))
    row = service.record_message(raw, "maildir", ALICE, "received")  # then the crash
    outcome = receive_email(service, raw, "maildir")
    assert outcome.message_row == row and outcome.status == "submitted"
    assert outcome.verdict is not None and outcome.verdict.outcome == "accepted"
    assert count(service, messages) == 1


def test_an_interrupted_message_nobody_sends_again_is_finished_by_the_sweep(
        service: Service, example: dict[str, str]) -> None:
    raw = with_attachment(example_turn(1))
    service.record_message(raw, "smtp", ALICE, "received")  # then the crash; no retry
    assert finish_interrupted(service, older_than=timedelta(0)) == 1
    assert service.load(EXAMPLE_ID).next_seq == 2
    assert finish_interrupted(service, older_than=timedelta(0)) == 0


def test_eight_bit_headers_are_quoted_safely_in_the_answer(service: Service) -> None:
    raw = (b"From: a@example.org\nMessage-ID: <\x80\x01x@y>\nContent-Type: application/pdf"
           b"\nContent-Disposition: attachment; filename=\"\xff\x1b.pdf\"\n\n%PDF\n")
    outcome = receive_email(service, raw, "smtp")
    assert outcome.problem is not None and outcome.problem.code == "not-xml"
    [(_to, _subject, text)] = outbox_rows(service)
    assert "Message-ID <??x@y>" in text and "?.pdf' (application/pdf)" in text
    assert "\x1b" not in text


# -- delivery -----------------------------------------------------------------------------


def plain_mail(mail_id: int, to: str = ALICE) -> OutgoingMail:
    return OutgoingMail(mail_id, to, "[pbem] hello\r\nBcc: x@y", "Some text.\n", None, None,
                        None, None, None)


def test_compose_marks_the_answer_automatic_and_keeps_headers_clean() -> None:
    message = compose(plain_mail(7), sender=SERVICE)
    assert message["Auto-Submitted"] == "auto-replied"
    assert message["Subject"] == "[pbem] hello Bcc: x@y" and "Bcc" not in message
    assert message["Message-ID"] == compose(plain_mail(7), sender=SERVICE)["Message-ID"]
    assert message["Date"] and message.get_content_type() == "text/plain"


def test_the_maildir_outbox_writes_a_mail_once(tmp_path: Path) -> None:
    outbox_dir = MaildirOutbox(tmp_path / "out")
    message = compose(plain_mail(3), sender=SERVICE)
    outbox_dir.send(message, 3)
    outbox_dir.send(compose(plain_mail(3), sender=SERVICE), 3)  # a crash before mark_sent
    assert len(read_maildir(tmp_path / "out")) == 1
    new = tmp_path / "out" / "new"
    [name] = [p.name for p in new.iterdir()]
    new.joinpath(name).rename(tmp_path / "out" / "cur" / f"{name}:2,S")  # the reader read it
    outbox_dir.send(message, 3)
    assert len(read_maildir(tmp_path / "out")) == 1
    assert list((tmp_path / "out" / "tmp").iterdir()) == []


def test_one_failing_mail_does_not_stop_the_others(service: Service) -> None:
    service.queue_mail("not an address\r\n", "one", "x")
    service.queue_mail(ALICE, "two", "y")
    sent: list[str] = []

    class Recorder:
        def send(self, message: EmailMessage, mail_id: int) -> None:
            sent.append(str(message["Subject"]))

    assert deliver_pending(service, Recorder(), sender=SERVICE) == 1
    assert sent == ["two"]
    with service.engine.connect() as conn:
        failed = conn.execute(select(outbox).where(outbox.c.subject == "one")).one()
    # it can never be composed (a line break in the address): given up at once, and the
    # referee told in the admin log
    assert failed.attempts == MAX_ATTEMPTS and failed.sent_at is None and failed.last_error
    with service.engine.connect() as conn:
        told = conn.execute(select(admin_log.c.what).where(admin_log.c.public.is_(False))
                            ).scalars().all()
    assert any("could not be delivered" in what for what in told)


# -- pollers ------------------------------------------------------------------------------


def drop_into(box: Path, name: str, raw: bytes) -> None:
    for sub in ("tmp", "new", "cur"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    (box / "new" / name).write_bytes(raw)


def test_the_maildir_poller_receives_and_files_each_message_once(
        service: Service, example: dict[str, str], tmp_path: Path) -> None:
    box = tmp_path / "inbox"
    good, junk = with_attachment(example_turn(1)), with_body("hi", sender=ATTACKER)
    drop_into(box, "1.good", good)
    drop_into(box, "2.junk", junk)
    assert poll_maildir(service, box) == 2
    assert sorted(p.name for p in (box / "cur").iterdir()) == ["1.good:2,S", "2.junk:2,S"]
    assert list((box / "new").iterdir()) == []
    state = (service.journal(EXAMPLE_ID), count(service, messages), count(service, outbox))

    drop_into(box, "1.good", good)  # a crash after the commit, before the move
    assert poll_maildir(service, box) == 1
    assert (service.journal(EXAMPLE_ID), count(service, messages),
            count(service, outbox)) == state
    assert service.load(EXAMPLE_ID).next_seq == 2


class FakeImap(socketserver.StreamRequestHandler):
    """Just enough IMAP4rev1 for imaplib: LOGIN, SELECT, UID SEARCH/FETCH/STORE, LOGOUT."""

    mailbox: dict[int, tuple[bytes, set[str]]]  # uid -> (raw, flags), set on the class
    commands: list[str]

    def reply(self, *lines: bytes) -> None:
        self.wfile.write(b"".join(line + b"\r\n" for line in lines))

    def handle(self) -> None:
        self.reply(b"* OK fake IMAP ready")
        while line := self.rfile.readline():
            tag, command, *args = line.decode().strip().split(" ")
            self.commands.append(" ".join([command, *args]))
            if command == "UID":
                self.uid(tag.encode(), args)
                continue
            untagged = {"CAPABILITY": [b"* CAPABILITY IMAP4rev1"], "LOGOUT": [b"* BYE"],
                        "SELECT": [f"* {len(self.mailbox)} EXISTS".encode()]}
            self.reply(*untagged.get(command, []), tag.encode() + b" OK done")
            if command == "LOGOUT":
                return

    def uid(self, tag: bytes, args: list[str]) -> None:
        command, rest = args[0], args[1:]
        if command == "SEARCH":
            unseen = [str(u) for u, (_, flags) in sorted(self.mailbox.items())
                      if "\\Seen" not in flags]
            self.reply(" ".join(["* SEARCH", *unseen]).encode())
        elif command == "FETCH":
            uid = int(rest[0])
            raw = self.mailbox[uid][0]
            self.wfile.write(f"* {uid} FETCH (UID {uid} BODY[] {{{len(raw)}}}\r\n".encode()
                             + raw + b")\r\n")
        elif command == "STORE":
            uid = int(rest[0])
            self.mailbox[uid][1].add(rest[2].strip("()"))
            self.reply(f"* {uid} FETCH (UID {uid} FLAGS ({rest[2].strip('()')}))".encode())
        self.reply(tag + b" OK done")


@pytest.fixture
def imap_server() -> Iterator[tuple[int, type[FakeImap]]]:
    handler = type("Handler", (FakeImap,), {"mailbox": {}, "commands": []})
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server.server_address[1], handler
    server.shutdown()
    server.server_close()


def test_the_imap_poller_reads_unseen_mail_and_flags_it_seen(
        service: Service, example: dict[str, str],
        imap_server: tuple[int, type[FakeImap]]) -> None:
    port, handler = imap_server
    handler.mailbox.update({
        1: (with_attachment(example_turn(1)), {"\\Seen"}),  # read by a person: not ours
        2: (with_attachment(example_turn(1)), set()),
        3: (with_body("what do I do?", sender=ATTACKER), set()),
    })
    assert poll_imap(service, "127.0.0.1", port, "referee", "secret", ssl=False) == 2
    assert all("\\Seen" in flags for _raw, flags in handler.mailbox.values())
    fetches = [c for c in handler.commands if c.startswith("UID FETCH")]
    assert fetches == ["UID FETCH 2 (BODY.PEEK[])", "UID FETCH 3 (BODY.PEEK[])"]
    assert count(service, messages) == 2 and service.load(EXAMPLE_ID).next_seq == 2
    assert poll_imap(service, "127.0.0.1", port, "referee", "secret", ssl=False) == 0


def test_an_unreachable_imap_server_raises_for_the_scheduler_to_log(service: Service) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(OSError):
        poll_imap(service, "127.0.0.1", port, "u", "p", ssl=False, timeout=2)
