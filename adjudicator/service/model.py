"""The service's plain values: what a player is, what a submitter is told, what a mail
carries, how the service is configured; and the crash points of the crash tests."""

from __future__ import annotations

import hashlib
import os
import signal
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

POLICIES = ("wait", "pass", "forfeit")
Clock = Callable[[], datetime]


def crash_point(name: str) -> None:
    """Die here, at once and without cleaning up, when PBEM_CRASH_AT names this point:
    the crash tests kill the service in the middle of its work this way. A worker
    process of `pbem serve` takes the service down with it (PBEM_SERVE_PID), as a
    crash of the machine would."""
    if os.environ.get("PBEM_CRASH_AT") == name:
        serve = os.environ.get("PBEM_SERVE_PID")
        if serve and serve.isdigit() and int(serve) != os.getpid():
            os.kill(int(serve), signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class PlayerSpec:
    side: str
    name: str
    email: str
    public_key: bytes  # SPKI PEM
    timezone: str = "UTC"


@dataclass(frozen=True)
class Verdict:
    """What a submitter is told, on every channel alike."""

    submission_id: int
    outcome: str  # accepted, rejected, decision, refused, invalid
    game_id: str | None
    seq: int | None
    side: str | None
    summary: str  # one line
    text: str  # the whole answer in plain words
    duplicate: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    links: dict[str, str]  # side -> the player's secret report link (path + token)


@dataclass
class ServiceConfig:
    base_url: str = "http://127.0.0.1:8000"
    reminder_hours: int = 24  # at most this long before a deadline (a third of a short one)
    clock: Clock = field(default=utc_now)
    # where players mail their order files (the From of the service's own mail)
    referee_address: str = "referee@pbem.localhost"
    # who hears of mail that could not be delivered (None: only the admin log says it)
    referee_contact: str | None = None
    # One source (a web client's address, a mail sender) may send at most this many
    # files that no player of the game signed in `submit_window`: what a flood of
    # forged or broken files costs the service, while play itself is never held up.
    submit_limit: int = 20
    submit_window: timedelta = timedelta(minutes=10)
    # Answers to mail that was not adjudicated (and notices to a player whose side a
    # refused file claimed): at most this many per address in `answer_window`; the
    # rest wait, collapsed into one digest sent when the window ends.
    answer_limit: int = 3
    answer_window: timedelta = timedelta(hours=1)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class OutgoingMail:
    id: int
    to: str
    subject: str
    text: str
    report_html: str | None  # the recipient's own side's report, when the mail carries one
    report_png: bytes | None
    game_id: str | None
    seq: int | None
    side: str | None


def aware(moment: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without their zone; they were written in UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)
