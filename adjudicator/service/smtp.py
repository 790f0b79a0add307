"""The SMTP listener of the service (docs/service.md): a real SMTP server (aiosmtpd) whose
every accepted message is an e-mail to the adjudicator.

The 250 after DATA is the service's acknowledgement, so it is given only after
`receive_email` has committed the message (and the submission it carried). Any
internal error answers 451, a temporary failure: the sending server keeps the
message and tries again, and the retry is recognized by its bytes. Messages over
the size limit are refused by aiosmtpd with 552 before they reach us; recipients
outside the service's own domains are refused with 550 (we relay nothing).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from adjudicator.service.core import Service
from adjudicator.service.mail import Outcome, receive_email
from adjudicator.service.mime import MAX_MESSAGE_BYTES

log = logging.getLogger(__name__)

LOCAL_DOMAINS = ("localhost", ".localhost", "[127.0.0.1]")  # ".x": any subdomain of x


class IntakeHandler:
    """aiosmtpd handler: recipients at our domains only, each message to the service."""

    def __init__(self, service: Service, domains: Sequence[str] | None = LOCAL_DOMAINS,
                 max_message_bytes: int = MAX_MESSAGE_BYTES) -> None:
        self.service = service
        self.domains = None if domains is None else frozenset(d.lower() for d in domains)
        self.max_message_bytes = max_message_bytes

    def accepts(self, address: str) -> bool:
        """Any local part at one of our domains (every domain when `domains` is None);
        a domain written ".example.org" takes every subdomain of example.org."""
        local, at, domain = address.rpartition("@")
        if not at or not local:
            return False
        domain = domain.lower()
        return self.domains is None or any(
            domain == d or (d.startswith(".") and domain.endswith(d)) for d in self.domains)

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        if not self.accepts(address):
            return "550 5.7.1 Relaying denied: this server only takes mail for the adjudicator"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        loop = asyncio.get_running_loop()
        try:
            outcome = await loop.run_in_executor(None, self._receive, raw)
        except Exception:
            # the client keeps the message and retries; say which one we failed on
            log.exception("SMTP message not taken (451): %d bytes, sha256 %s, from %s to %s, "
                          "peer %s", len(raw), hashlib.sha256(raw).hexdigest(),
                          envelope.mail_from, envelope.rcpt_tos, session.peer)
            return "451 4.3.0 Temporary failure, try again later"
        log.info("SMTP %s", outcome.describe())
        return "250 Message accepted for delivery"

    def _receive(self, raw: bytes) -> Outcome:
        return receive_email(self.service, raw, "smtp",
                             max_message_bytes=self.max_message_bytes)


def start_smtp(service: Service, host: str = "127.0.0.1", port: int = 2525, *,
               max_message_bytes: int = MAX_MESSAGE_BYTES,
               domains: Sequence[str] | None = LOCAL_DOMAINS) -> Controller:
    """Start the SMTP listener in its own thread; stop it with `.stop()`.

    `domains` are the service's own mail domains (any local part is taken there);
    None takes mail for every domain, for a listener that only its own MX reaches.
    """
    handler = IntakeHandler(service, domains, max_message_bytes)
    controller = Controller(handler, hostname=host, port=port,
                            data_size_limit=max_message_bytes)
    controller.start()
    return controller
