"""E-mail for the service (docs/service.md): order files in, verdicts and reports out.

Intake (`receive_email`, fed by the SMTP listener in smtp.py, `poll_maildir` or
`poll_imap`) keeps every message's raw bytes first, then finds exactly one order
file in it and hands it to `Service.submit`, which adjudicates it and queues the
answers. The From address authorizes nothing: the signature inside the order file
says whose orders they are, the From address is only where answers go. Anything
that is not one order file is answered in plain words and recorded, never dropped.

Parsing lives in mime.py, delivery of the answers in outgoing.py.
"""

from __future__ import annotations

import contextlib
import hashlib
import imaplib
import logging
import os
import ssl as tls
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select, update

from adjudicator.security.limits import in_words
from adjudicator.security.xmlsafe import MAX_ORDER_BYTES
from adjudicator.service.core import RateLimited, Service, Verdict
from adjudicator.service.db import messages
from adjudicator.service.mime import (
    MAX_ATTACHMENTS,
    MAX_MESSAGE_BYTES,
    Incoming,
    Problem,
    parse_incoming,
)
from adjudicator.service.throttle import mail_source

log = logging.getLogger(__name__)

RECEIVED = "received"  # a message row whose processing has not finished (yet)
HOW_TO_SUBMIT = (
    "What this service reads: one e-mail holding exactly one signed order file, either\n"
    "attached (one .xml file, as `pbem sign` writes it) or pasted as the whole plain-text\n"
    "body of the e-mail with nothing before it. The signature inside the file says whose\n"
    "orders they are; the address you write from is only where the answer goes.\n"
    "An e-mail may have at most {max_bytes} and an order file at most {max_order}."
)


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
    verdict = None
    if incoming.order_file is not None:
        try:
            verdict = service.submit(incoming.order_file, channel, incoming.sender,
                                     source=mail_source(incoming.sender))
        except RateLimited as exc:  # nothing is read from that address for a while
            incoming = replace(incoming, order_file=None,
                               problem=Problem("rate-limited", exc.message + "."))
    if verdict is None:
        outcome = _answer_problem(service, row, incoming)
    else:
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
    """The row that already keeps exactly these bytes (Message-ID and all), with its
    outcome: found by digest through its index, then compared byte for byte."""
    query = (select(messages.c.id, messages.c.outcome)
             .where(messages.c.sha256 == hashlib.sha256(raw).hexdigest(),
                    messages.c.raw == raw)
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
            "\n\n" + HOW_TO_SUBMIT.format(max_bytes=in_words(MAX_MESSAGE_BYTES),
                                          max_order=in_words(MAX_ORDER_BYTES)) + "\n")
    service.queue_problem_mail(incoming.sender,
                               "[pbem] your e-mail held no order file we could read", text)
    return Outcome(row, "problem", incoming.sender, None, problem, (incoming.sender,))


def _answer_replay(service: Service, incoming: Incoming, verdict: Verdict) -> tuple[str, ...]:
    """A new message with a file received before: the earlier verdict, to the sender
    (submit queues nothing for a duplicate, and a resend deserves an answer)."""
    if not _answerable(incoming):
        return ()
    assert incoming.sender is not None
    game = verdict.game_id or "your file"
    service.queue_problem_mail(incoming.sender, f"[pbem] {game}: file received before",
                               "This order file was received before, so it changes "
                               f"nothing. The answer then was:\n\n{verdict.text}\n")
    return (incoming.sender,)


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
