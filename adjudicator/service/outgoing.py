"""Outgoing mail: the outbox rows turned into messages (the verdict as text, the
recipient's own side's report as HTML with the PNG map) and handed to a transport,
a Maildir (exactly once per outbox row) or an SMTP relay (at least once; the
Message-ID comes from the row, so a repeat can be recognized)."""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import smtplib
import ssl as tls
from email.message import EmailMessage
from email.utils import formatdate
from pathlib import Path
from typing import Protocol

from adjudicator.service.core import OutgoingMail, Service, crash_point

log = logging.getLogger(__name__)

_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


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
        fresh = [m for m in service.claim_mail(limit=len(tried) + batch) if m.id not in tried]
        if not fresh:
            return sent
        for mail in fresh:
            tried.add(mail.id)
            try:
                message = compose(mail, sender=sender)
            except Exception as exc:  # it never will compose: a bad address, say
                log.warning("mail %d to %r cannot be composed: %s", mail.id, mail.to, exc)
                service.mark_failed(mail.id, f"{type(exc).__name__}: {exc}", permanent=True)
                continue
            try:
                transport.send(message, mail.id)
            except Exception as exc:
                log.warning("mail %d to %s not sent: %s", mail.id, mail.to, exc)
                service.mark_failed(mail.id, f"{type(exc).__name__}: {exc}")
                continue
            crash_point("sending")  # the crash tests die here: handed over, not marked sent
            service.mark_sent(mail.id)
            sent += 1
