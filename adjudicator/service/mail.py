"""E-mail for the service (DESIGN §9): order files in, verdicts and reports out.

Intake (`receive_email`, fed by the SMTP listener in smtp.py, `poll_maildir` or
`poll_imap`) keeps every message's raw bytes first, then finds exactly one order
file in it and hands it to `Service.submit`, which adjudicates it and queues the
answers. The From address authorizes nothing: the signature inside the order file
says whose orders they are, the From address is only where answers go. Anything
that is not one order file is answered in plain words and recorded, never dropped.

Delivery (`deliver_pending`) turns the outbox into messages (`compose`: text, the
recipient's own report as HTML, the map as PNG) and hands them to a transport: a
Maildir (exactly once per outbox row) or an SMTP relay (at least once; the
Message-ID is derived from the outbox row so a repeat can be recognized).
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import hashlib
import imaplib
import logging
import os
import re
import secrets
import smtplib
import ssl as tls
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage, Message
from email.utils import formatdate, getaddresses
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import func, select, update

from adjudicator.security.xmlsafe import MAX_ORDER_BYTES
from adjudicator.service.core import OutgoingMail, Service, Verdict, crash_point
from adjudicator.service.db import messages

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2_000_000
MAX_ATTACHMENTS = 10
MAX_PARTS = 100  # MIME parts of any kind, nested ones included
MAX_DEPTH = 10  # nesting of multiparts and forwarded messages
HEADER_BYTES = 64 * 1024  # what is read of an oversize message to find whom to answer
EMAIL_CHANNELS = ("smtp", "maildir", "imap")

RECEIVED = "received"  # a message row whose processing has not finished (yet)
XML_TYPES = frozenset({"application/xml", "text/xml"})
BASE64_DEFECTS = ("InvalidBase64CharactersDefect", "InvalidBase64PaddingDefect",
                  "InvalidBase64LengthDefect")

HOW_TO_SUBMIT = (
    "What this service reads: one e-mail holding exactly one signed order file, either\n"
    "attached (one .xml file, as `pbem sign` writes it) or pasted as the whole plain-text\n"
    "body of the e-mail with nothing before it. The signature inside the file says whose\n"
    "orders they are; the address you write from is only where the answer goes.\n"
    "An e-mail may be at most {max_bytes} bytes and an order file at most {max_order} bytes."
)

# an address we answer to: plain ASCII local part and domain, nothing that could
# smuggle a second recipient or a header into an outgoing message
_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9.-]{1,190}"
                      r"|[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@\[[0-9.]{7,15}\]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


# -- what a message holds -----------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Why a message holds no order file we can submit: a code and the words a sender reads."""

    code: str  # too-large, unreadable, too-many-parts, no-order-file, two-order-files,
    #            not-xml, body-not-orders, undecodable, order-file-too-large
    words: str


@dataclass(frozen=True)
class Incoming:
    """What a received e-mail holds, as far as the service cares."""

    sender: str | None  # where answers go (never an authorization)
    message_id: str | None
    order_file: bytes | None  # exactly one order file, or None with a problem
    problem: Problem | None
    automatic: bool = False  # an auto-reply, bounce or list mail: never answer a problem
    ignored: tuple[str, ...] = ()  # attachments beside the order file that were not read


@dataclass(frozen=True)
class Outcome:
    """What `receive_email` did with a message, for logs and tests."""

    message_row: int  # the `messages` row keeping the raw bytes
    status: str  # submitted, problem, redelivered (these exact bytes were handled before)
    sender: str | None
    verdict: Verdict | None
    problem: Problem | None
    answered: tuple[str, ...] = ()  # addresses this call queued an answer to itself

    def describe(self) -> str:
        what = (f"{self.verdict.outcome} (submission {self.verdict.submission_id})"
                if self.verdict else f"{self.problem.code}" if self.problem else "nothing")
        return f"message {self.message_row} from {self.sender or '?'}: {self.status}, {what}"


def parse_incoming(raw: bytes, *, max_message_bytes: int = MAX_MESSAGE_BYTES,
                   max_attachments: int = MAX_ATTACHMENTS) -> Incoming:
    """Find the sender and the one order file in an e-mail's raw bytes.

    Never raises: every way a message can fail (too large, not MIME, no file, two
    files, not XML, broken encodings) comes back as a `Problem` to answer with.
    """
    if len(raw) > max_message_bytes:
        headers = _headers_only(raw[:HEADER_BYTES])
        return _with_problem(headers, Problem(
            "too-large", f"the e-mail is {len(raw)} bytes; the limit is {max_message_bytes}."))
    try:
        message = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception:  # the parser is lenient, but a bug must not lose the message
        return Incoming(None, None, None, Problem("unreadable", "it could not be read as "
                                                  "an e-mail (MIME) message at all."))
    try:
        order_file, problem, ignored = _find_order_file(message, max_attachments)
    except Exception:  # the email package raises on some malformed headers and parts
        log.debug("MIME structure not readable", exc_info=True)
        order_file, problem, ignored = None, Problem(
            "unreadable", "its MIME structure could not be read."), ()
    return Incoming(_sender(message), _message_id(message), order_file, problem,
                    _automatic(message), ignored)


def _headers_only(head: bytes) -> Message:
    try:
        return email.message_from_bytes(head, policy=email.policy.default)
    except Exception:
        return EmailMessage()


def _with_problem(message: Message, problem: Problem) -> Incoming:
    return Incoming(_sender(message), _message_id(message), None, problem,
                    _automatic(message))


def _raw_header(message: Message, name: str) -> list[str]:
    """A header's raw values, unfolded. Raw, because the structured header parser of
    policy.default raises on some hostile values and we only need plain strings."""
    try:
        return [" ".join(str(value).split()) for key, value in message.raw_items()
                if key.lower() == name]
    except Exception:
        return []


def _sender(message: Message) -> str | None:
    """The one From address, if it is plainly an address; None otherwise."""
    values = _raw_header(message, "from")
    if len(values) != 1:
        return None
    try:
        addresses = [addr for _name, addr in getaddresses(values) if addr]
    except Exception:
        return None
    if len(addresses) != 1 or _ADDRESS.fullmatch(addresses[0]) is None:
        return None
    local, domain = addresses[0].rsplit("@", 1)
    return f"{local}@{domain.lower()}"


def _message_id(message: Message) -> str | None:
    values = _raw_header(message, "message-id")
    return _printable(values[0])[:250] if values and values[0] else None


def _printable(text: str) -> str:
    """Text from a header, safe to quote in an answer: 8-bit bytes the parser kept as
    surrogates and control characters become '?'."""
    return _CONTROL.sub("?", text.encode("utf-8", "replace").decode("utf-8"))


def _automatic(message: Message) -> bool:
    """An auto-reply, bounce or list message (RFC 3834): answering it could loop."""
    auto = [v.split(";")[0].strip().lower() for v in _raw_header(message, "auto-submitted")]
    precedence = [v.strip().lower() for v in _raw_header(message, "precedence")]
    return_path = [v.strip() for v in _raw_header(message, "return-path")]
    sender = (_sender(message) or "").lower()
    return (any(a and a != "no" for a in auto)
            or any(p in ("bulk", "junk", "list", "auto_reply") for p in precedence)
            or "<>" in return_path
            or sender.startswith(("mailer-daemon@", "postmaster@")))


class _TooComplex(Exception):
    pass


def _leaves(message: Message) -> list[Message]:
    """The leaf parts in document order, forwarded messages included (walked without
    recursion, with limits, so a hostile nesting cannot exhaust the stack)."""
    leaves: list[Message] = []
    stack: list[tuple[Message, int]] = [(message, 0)]
    seen = 0
    while stack:
        part, depth = stack.pop()
        seen += 1
        if seen > MAX_PARTS or depth > MAX_DEPTH:
            raise _TooComplex
        payload = part.get_payload()
        if part.is_multipart() and isinstance(payload, list):
            stack.extend((child, depth + 1) for child in reversed(payload)
                         if isinstance(child, Message))
        else:
            leaves.append(part)
    return leaves


def _name(part: Message) -> str:
    filename = part.get_filename()
    ctype = _printable(part.get_content_type())
    return f"{_printable(filename)[:100]!r} ({ctype})" if filename else ctype


def _is_body(part: Message, subtype: str) -> bool:
    return (part.get_content_type() == f"text/{subtype}"
            and part.get_content_disposition() != "attachment" and not part.get_filename())


def _looks_like_orders(data: bytes) -> bool:
    start = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:64]
    return start.startswith((b"<?xml", b"<orders"))


def _is_xml(part: Message) -> bool:
    ctype = part.get_content_type()
    filename = (part.get_filename() or "").lower()
    if ctype in XML_TYPES or ctype.endswith("+xml") or filename.endswith(".xml"):
        return True
    data = part.get_payload(decode=True)
    return isinstance(data, bytes) and _looks_like_orders(data)


def _find_order_file(message: Message, max_attachments: int
                     ) -> tuple[bytes | None, Problem | None, tuple[str, ...]]:
    """The one order file of a parsed message: an XML attachment, else a plain body."""
    try:
        leaves = _leaves(message)
    except _TooComplex:
        return None, Problem("too-many-parts", f"it has more than {MAX_PARTS} MIME parts or "
                             f"nests them more than {MAX_DEPTH} deep."), ()
    texts = [p for p in leaves if _is_body(p, "plain")]
    htmls = [p for p in leaves if _is_body(p, "html")]
    attachments = [p for p in leaves if p not in texts and p not in htmls]
    if len(attachments) > max_attachments:
        return None, Problem("too-many-parts", f"it has {len(attachments)} attachments; the "
                             f"limit is {max_attachments}, and one order file is all we need."), ()
    xml = [p for p in attachments if _is_xml(p)]
    ignored = tuple(_name(p) for p in attachments if p not in xml)
    if len(xml) > 1:
        names = ", ".join(_name(p) for p in xml)
        return None, Problem("two-order-files", f"it has {len(xml)} XML attachments ({names}); "
                             "send exactly one order file per e-mail."), ignored
    if xml:
        data, problem = _attachment_bytes(xml[0])
        return data, problem, ignored
    bodies = [b for b in (_body_bytes(p) for p in texts) if b is not None]
    orders = [b for b in bodies if isinstance(b, bytes) and _looks_like_orders(b)]
    if len(orders) > 1:
        return None, Problem("two-order-files", f"it holds {len(orders)} order files in its "
                             "text parts; send exactly one order file per e-mail."), ignored
    if orders:
        data, problem = _checked_size(orders[0], "the order file in the body")
        return data, problem, ignored
    problems = [b for b in bodies if isinstance(b, Problem)]
    if problems:
        return None, problems[0], ignored
    return None, _nothing_found(attachments, texts, htmls), ignored


def _nothing_found(attachments: list[Message], texts: list[Message],
                   htmls: list[Message]) -> Problem:
    if attachments:
        names = ", ".join(_name(p) for p in attachments)
        return Problem("not-xml", f"its attachment{'s' if len(attachments) > 1 else ''} "
                       f"({names}) {'are' if len(attachments) > 1 else 'is'} not an XML order "
                       "file.")
    if any(_text_of(p).strip() for p in texts):
        return Problem("body-not-orders", "it has no attachment, and its text is not an order "
                       "file (an order file begins with <?xml or <orders).")
    if htmls:
        return Problem("body-not-orders", "it has only an HTML body; attach the order file, or "
                       "paste it into a plain-text e-mail.")
    return Problem("no-order-file", "it holds no order file: no attachment and no text.")


def _text_of(part: Message) -> str:
    try:
        content = _content(part)
    except Exception:
        return ""
    return content if isinstance(content, str) else ""


def _content(part: Message) -> object:
    """A part's decoded content (policy.default parts are EmailMessages)."""
    return part.get_content() if isinstance(part, EmailMessage) else part.get_payload()


def _attachment_bytes(part: Message) -> tuple[bytes | None, Problem | None]:
    """An attachment's bytes exactly as sent (only the transfer encoding undone: the XML
    declares its own encoding)."""
    data = part.get_payload(decode=True)
    broken = [type(d).__name__ for d in part.defects if type(d).__name__ in BASE64_DEFECTS]
    if broken or not isinstance(data, bytes):
        return None, Problem("undecodable", f"the attachment {_name(part)} could not be "
                             "decoded (broken base64); attach the file again.")
    return _checked_size(data, f"the attachment {_name(part)}")


def _body_bytes(part: Message) -> bytes | Problem | None:
    """A plain-text body as UTF-8 bytes, trimmed to the order file (surrounding blank
    lines and a signature after </orders> are what mail programs add); None if empty."""
    try:
        text = _content(part)
        if not isinstance(text, str):
            return None
        data = text.strip().encode("utf-8")
    except (LookupError, UnicodeError):
        return Problem("undecodable", "its text could not be decoded (unknown or broken "
                       "character set); send the order file as an attachment.")
    if any(type(d).__name__ in BASE64_DEFECTS for d in part.defects):
        return Problem("undecodable", "its text could not be decoded (broken base64).")
    end = data.rfind(b"</orders>")
    if _looks_like_orders(data) and end >= 0:
        data = data[:end + len(b"</orders>")]
    return data or None


def _checked_size(data: bytes, what: str) -> tuple[bytes | None, Problem | None]:
    if len(data) > MAX_ORDER_BYTES:
        return None, Problem("order-file-too-large", f"{what} is {len(data)} bytes; an order "
                             f"file may be at most {MAX_ORDER_BYTES} bytes.")
    return data, None


# -- receiving ----------------------------------------------------------------------------


def receive_email(service: Service, raw: bytes, channel: str, *,
                  max_message_bytes: int = MAX_MESSAGE_BYTES,
                  max_attachments: int = MAX_ATTACHMENTS) -> Outcome:
    """Keep a received message, submit its order file or answer what was wrong.

    The raw bytes are recorded first (outcome "received"), then handled, then the row
    gets its outcome. The same bytes again (an SMTP client retrying after a lost 250,
    a poller re-reading after a crash) are recognized by that row: finished, they are
    answered from it and change nothing; unfinished, their handling resumes, which is
    safe because submit is idempotent by digest. A *new* message carrying an order
    file received before (a replay, a resend) is recorded and answered again with the
    earlier verdict.
    """
    incoming = parse_incoming(raw, max_message_bytes=max_message_bytes,
                              max_attachments=max_attachments)
    earlier = _recorded(service, raw)
    if earlier is not None and earlier[1] != RECEIVED:
        return _redelivered(service, earlier[0], incoming, channel)
    resumed = earlier is not None
    row = earlier[0] if earlier else service.record_message(raw, channel, incoming.sender,
                                                            RECEIVED)
    if incoming.order_file is None:
        outcome = _answer_problem(service, row, incoming)
    else:
        verdict = service.submit(incoming.order_file, channel, incoming.sender)
        answered: tuple[str, ...] = ()
        if verdict.duplicate and not resumed:
            answered = _answer_replay(service, incoming, verdict)
        outcome = Outcome(row, "submitted", incoming.sender, verdict, None, answered)
    _finish(service, row, outcome)
    log.info("%s via %s", outcome.describe(), channel)
    return outcome


def finish_interrupted(service: Service, *, older_than: timedelta = timedelta(minutes=10)
                       ) -> int:
    """Finish messages whose handling a crash interrupted and that nobody delivers again
    (a sender that gave up after the 451, a Maildir file removed by hand); how many.

    For the service's start and its periodic work: the raw bytes are in the row, and
    `receive_email` resumes exactly such a row. `older_than` leaves alone messages that
    another process is handling right now."""
    cutoff = service.now() - older_than
    with service.engine.connect() as conn:
        rows = conn.execute(select(messages.c.raw, messages.c.channel).where(
            messages.c.outcome == RECEIVED, messages.c.received_at < cutoff)
            .order_by(messages.c.id)).all()
    for row in rows:
        receive_email(service, bytes(row.raw), str(row.channel))
    return len(rows)


def _recorded(service: Service, raw: bytes) -> tuple[int, str] | None:
    """The row that already keeps exactly these bytes, with its outcome.

    Compares the bytes themselves (Message-ID and all): a core index on a digest of
    messages.raw would make this cheaper (see the report to the core's owner)."""
    query = (select(messages.c.id, messages.c.outcome)
             .where(func.length(messages.c.raw) == len(raw), messages.c.raw == raw)
             .order_by(messages.c.id).limit(1))
    with service.engine.connect() as conn:
        row = conn.execute(query).first()
    return None if row is None else (int(row.id), str(row.outcome))


def _finish(service: Service, row: int, outcome: Outcome) -> None:
    """Write what became of a message into its row (it was recorded as RECEIVED)."""
    if outcome.verdict is not None:
        what = outcome.verdict.outcome + (" (duplicate)" if outcome.verdict.duplicate else "")
        submission = outcome.verdict.submission_id
    else:
        assert outcome.problem is not None
        what = f"problem {outcome.problem.code}" + ("" if outcome.answered else
                                                    ", not answered")
        submission = None
    with service.engine.begin() as conn:
        conn.execute(update(messages).where(messages.c.id == row)
                     .values(outcome=what, submission_id=submission))


def _redelivered(service: Service, row: int, incoming: Incoming, channel: str) -> Outcome:
    """These exact bytes were handled before: the same answer, nothing new recorded or
    sent (submit finds the earlier verdict by digest and writes nothing)."""
    verdict = (service.submit(incoming.order_file, channel, incoming.sender)
               if incoming.order_file is not None else None)
    outcome = Outcome(row, "redelivered", incoming.sender, verdict, incoming.problem)
    log.info("%s via %s", outcome.describe(), channel)
    return outcome


def _answerable(incoming: Incoming) -> bool:
    return incoming.sender is not None and not incoming.automatic


def _answer_problem(service: Service, row: int, incoming: Incoming) -> Outcome:
    problem = incoming.problem or Problem("no-order-file", "it holds no order file.")
    if not _answerable(incoming):
        log.warning("message %d not answered (%s): %s", row,
                    "no sender address" if incoming.sender is None else "automatic message",
                    problem.words)
        return Outcome(row, "problem", incoming.sender, None, problem)
    assert incoming.sender is not None
    which = f" (Message-ID {incoming.message_id})" if incoming.message_id else ""
    text = (f"Your e-mail{which} was received but nothing was adjudicated: {problem.words}"
            "\n\n" + HOW_TO_SUBMIT.format(max_bytes=MAX_MESSAGE_BYTES,
                                          max_order=MAX_ORDER_BYTES) + "\n")
    service.queue_mail(incoming.sender, "[pbem] your e-mail held no order file we could read",
                       text)
    return Outcome(row, "problem", incoming.sender, None, problem, (incoming.sender,))


def _answer_replay(service: Service, incoming: Incoming, verdict: Verdict) -> tuple[str, ...]:
    """A new message with a file received before: the earlier verdict, to the sender
    (submit queues nothing for a duplicate, and a resend deserves an answer)."""
    if not _answerable(incoming):
        return ()
    assert incoming.sender is not None
    game = verdict.game_id or "your file"
    service.queue_mail(incoming.sender, f"[pbem] {game}: file received before",
                       "This order file was received before, so it changes nothing. "
                       f"The answer then was:\n\n{verdict.text}\n")
    return (incoming.sender,)


# -- composing and delivering -------------------------------------------------------------


def mail_key(mail: OutgoingMail) -> str:
    """A name for one outbox row that stays the same across retries and differs between
    databases that reuse row ids (so a reused Maildir never swallows new mail)."""
    digest = hashlib.sha256("\n".join((mail.to, mail.subject, mail.text)).encode()).hexdigest()
    return f"pbem-{mail.id:09d}-{digest[:12]}"


def compose(mail: OutgoingMail, *, sender: str) -> EmailMessage:
    """The e-mail for one outbox row: text; with a report, the recipient's own side's
    report as an HTML alternative and the map as a PNG attachment.

    Marked Auto-Submitted: auto-replied (RFC 3834) so that auto-responders do not answer
    it and we do not answer them (see `Incoming.automatic`).
    """
    message = EmailMessage()
    domain = sender.rsplit("@", 1)[-1] or "localhost"
    message["From"] = sender
    message["To"] = mail.to
    message["Subject"] = _CONTROL.sub(" ", mail.subject)
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = f"<{mail_key(mail)}@{domain}>"
    message["Auto-Submitted"] = "auto-replied"
    message.set_content(mail.text)
    if mail.report_html is not None:
        filename = f"map-step-{mail.seq}.png"
        cid = f"{mail_key(mail)}.map@{domain}"
        message.add_alternative(mail.report_html.replace('href="map.png"', f'href="cid:{cid}"'),
                                subtype="html")
        if mail.report_png is not None:
            message.add_attachment(mail.report_png, maintype="image", subtype="png",
                                   filename=filename, cid=f"<{cid}>")
    return message


class Transport(Protocol):
    def send(self, message: EmailMessage, mail_id: int) -> None: ...


class MaildirOutbox:
    """Outgoing mail written into a Maildir (the default when no relay is configured).

    A file is written in tmp/ and linked into new/ under a name derived from the outbox
    row, so writing the same mail twice (a crash between delivery and mark_sent) leaves
    one file; a message a reader already moved to cur/ is not written again either."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        for sub in ("tmp", "new", "cur"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)

    def delivered(self, name: str) -> bool:
        return (self.path / "new" / name).exists() or any(
            entry.name == name or entry.name.startswith(name + ":")
            for entry in (self.path / "cur").iterdir())

    def send(self, message: EmailMessage, mail_id: int) -> None:
        name = message_file_name(message, mail_id)
        if self.delivered(name):
            return
        tmp = self.path / "tmp" / f"{name}.{os.getpid()}.{secrets.token_hex(4)}"
        with open(tmp, "xb") as out:
            out.write(message.as_bytes())
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(tmp, self.path / "new" / name)
        except FileExistsError:
            pass  # written by a concurrent or earlier attempt: one file stays
        finally:
            tmp.unlink()
        _fsync_directory(self.path / "new")


def message_file_name(message: EmailMessage, mail_id: int) -> str:
    """The Maildir name of a composed message: its Message-ID's stable part."""
    mid = str(message.get("Message-ID", "")).strip("<>").split("@", 1)[0]
    return mid if mid.startswith(f"pbem-{mail_id:09d}-") else f"pbem-{mail_id:09d}"


def _fsync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class SmtpRelay:
    """Outgoing mail through an SMTP relay (submission port with STARTTLS by default).

    One connection per message: the outbox is small and a failure stays with its mail."""

    def __init__(self, host: str, port: int = 587, starttls: bool = True,
                 username: str | None = None, password: str | None = None, *,
                 implicit_tls: bool = False, timeout: float = 30.0) -> None:
        self.host, self.port, self.starttls = host, port, starttls
        self.username, self.password = username, password
        self.implicit_tls, self.timeout = implicit_tls, timeout

    def send(self, message: EmailMessage, mail_id: int) -> None:
        context = tls.create_default_context()
        client = (smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
                  if self.implicit_tls else smtplib.SMTP(self.host, self.port,
                                                          timeout=self.timeout))
        with client:
            if self.starttls and not self.implicit_tls:
                client.starttls(context=context)
            if self.username:
                client.login(self.username, self.password or "")
            client.send_message(message)


def deliver_pending(service: Service, transport: Transport, *, sender: str,
                    batch: int = 50) -> int:
    """Send what the outbox holds; how many were sent.

    Each mail is marked sent right after its delivery and marked failed (with the
    error, counted as an attempt) when composing or sending it fails; one bad mail
    never stops the others, and failed ones at the head of the queue do not starve
    newer ones (the window grows past them)."""
    sent = 0
    tried: set[int] = set()
    while True:
        fresh = [m for m in service.pending_mail(limit=len(tried) + batch) if m.id not in tried]
        if not fresh:
            return sent
        for mail in fresh:
            tried.add(mail.id)
            try:
                transport.send(compose(mail, sender=sender), mail.id)
            except Exception as exc:
                log.warning("mail %d to %s not sent: %s", mail.id, mail.to, exc)
                service.mark_failed(mail.id, f"{type(exc).__name__}: {exc}")
                continue
            crash_point("sending")  # the crash tests die here: handed over, not marked sent
            service.mark_sent(mail.id)
            sent += 1


# -- pollers ------------------------------------------------------------------------------


def poll_maildir(service: Service, path: Path | str) -> int:
    """Receive every message in the Maildir's new/, moving each to cur/ (flagged seen)
    only after the service committed it; how many were received.

    A crash between the commit and the move re-reads the message next time, which
    `receive_email` recognizes by its bytes: nothing is recorded or answered twice."""
    box = Path(path)
    (box / "cur").mkdir(parents=True, exist_ok=True)
    done = 0
    for entry in _maildir_new(box):
        try:
            raw = entry.read_bytes()
            receive_email(service, raw, "maildir")
            os.replace(entry, box / "cur" / f"{entry.name.split(':', 1)[0]}:2,S")
        except FileNotFoundError:
            continue  # taken by another poller
        except Exception:
            log.exception("maildir message %s left in new/ for the next poll", entry.name)
            continue
        done += 1
    return done


def _maildir_new(box: Path) -> Iterator[Path]:
    new = box / "new"
    if not new.is_dir():
        return iter(())
    return iter(sorted(p for p in new.iterdir() if not p.name.startswith(".") and p.is_file()))


def poll_imap(service: Service, host: str, port: int, username: str, password: str, *,
              ssl: bool = True, mailbox: str = "INBOX", move_to: str | None = None,
              timeout: float = 30.0) -> int:
    """Receive the mailbox's UNSEEN messages; how many were received.

    Each message is fetched with BODY.PEEK[] (which leaves it unseen), received, and
    only then flagged \\Seen (and moved to `move_to` if given), so a crash in between
    fetches it again, which `receive_email` recognizes by its bytes."""
    client = (imaplib.IMAP4_SSL(host, port, timeout=timeout,
                                ssl_context=tls.create_default_context())
              if ssl else imaplib.IMAP4(host, port, timeout=timeout))
    done = 0
    try:
        client.login(username, password)
        _ok(client.select(_quoted(mailbox)), "SELECT")
        _typ, data = _ok(client.uid("SEARCH", "UNSEEN"), "SEARCH")
        for uid in (data[0] or b"").decode("ascii", "replace").split():
            raw = _fetched_bytes(_ok(client.uid("FETCH", uid, "(BODY.PEEK[])"), "FETCH")[1])
            if raw is None:
                log.warning("IMAP message %s had no body in the FETCH answer", uid)
                continue
            receive_email(service, raw, "imap")
            _ok(client.uid("STORE", uid, "+FLAGS", "(\\Seen)"), "STORE")
            if move_to:
                _move(client, uid, move_to)
            done += 1
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            client.logout()
    return done


def _ok(answer: tuple[str, list[Any]], what: str) -> tuple[str, list[Any]]:
    if answer[0] != "OK":
        raise imaplib.IMAP4.error(f"IMAP {what} failed: {answer[1]!r}")
    return answer


def _quoted(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _fetched_bytes(data: list[Any]) -> bytes | None:
    """The literal of a FETCH answer: imaplib gives (b'1 (UID 1 BODY[] {n}', literal)."""
    for item in data:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
            return item[1]
    return None


def _move(client: imaplib.IMAP4, uid: str, target: str) -> None:
    if "MOVE" in client.capabilities:
        _ok(client.uid("MOVE", uid, _quoted(target)), "MOVE")
        return
    _ok(client.uid("COPY", uid, _quoted(target)), "COPY")
    _ok(client.uid("STORE", uid, "+FLAGS", "(\\Deleted)"), "STORE")
    client.expunge()
