"""What one source may cost the service (issue 16's two holes, docs/service.md):

- files that no player of the game signed (forged, unsigned, unreadable, for no game
  here) are counted per source, and past `ServiceConfig.submit_limit` in a window the
  service refuses to read more from it until the window has passed. A refused file a
  player signed does not count: it is that player's act, on the record, and play (a
  stale file sent twice, a race of uploads) is never held up;
- answers to such files and mails, and notices to a player whose side a refused file
  claimed, go out at most `answer_limit` times per address in a window; the rest are
  collapsed into one digest mail per address, sent when the window ends, so thirty
  forged mails make at most a few answers and one digest, never thirty.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, func, insert, select, update

from adjudicator.service.db import outbox, submissions
from adjudicator.service.model import ServiceConfig, aware

STRANGERS = ("invalid", "unattributed")  # the outcomes of files no player signed
PROBLEM, DIGEST = "problem", "digest"


def web_source(client_host: str | None) -> str:
    return f"web:{client_host or 'unknown'}"


def mail_source(sender: str | None) -> str | None:
    return f"mail:{sender.lower()}" if sender else None


def retry_after(conn: Connection, source: str, now: datetime,
                config: ServiceConfig) -> int | None:
    """Seconds until `source` may send again, or None when it may now."""
    since = now - config.submit_window
    rows = conn.execute(
        select(submissions.c.received_at)
        .where(submissions.c.source == source, submissions.c.received_at >= since,
               submissions.c.outcome.in_(STRANGERS))
        .order_by(submissions.c.received_at.desc()).limit(config.submit_limit)).scalars()
    recent = list(rows)
    if len(recent) < config.submit_limit:
        return None
    oldest = aware(recent[-1])
    assert oldest is not None
    return max(1, int((oldest + config.submit_window - now).total_seconds()) + 1)


def queue_problem(conn: Connection, now: datetime, config: ServiceConfig, to: str,
                  subject: str, text: str) -> str:
    """Queue an answer about something that was not adjudicated: at once while `to` has
    had fewer than `answer_limit` of them in the window, else into `to`'s waiting
    digest. Returns "sent" or "digest"."""
    address = to.strip()
    since = now - config.answer_window
    answered = conn.execute(
        select(func.count()).select_from(outbox)
        .where(func.lower(outbox.c.to_addr) == address.lower(), outbox.c.kind == PROBLEM,
               outbox.c.created_at >= since)).scalar_one()
    if answered < config.answer_limit:
        conn.execute(insert(outbox).values(created_at=now, to_addr=address, subject=subject,
                                           body_text=text, attempts=0, kind=PROBLEM))
        return "sent"
    line = f"- {now:%Y-%m-%d %H:%M} UTC: {subject}\n  {text.splitlines()[0] if text else ''}"
    waiting = conn.execute(
        select(outbox.c.id, outbox.c.body_text)
        .where(func.lower(outbox.c.to_addr) == address.lower(), outbox.c.kind == DIGEST,
               outbox.c.sent_at.is_(None), outbox.c.not_before > now)
        .order_by(outbox.c.id).limit(1)).first()
    if waiting is not None:
        conn.execute(update(outbox).where(outbox.c.id == waiting.id)
                     .values(body_text=f"{waiting.body_text}\n{line}"))
        return "digest"
    hours = config.answer_window.total_seconds() / 3600
    intro = (f"More than {config.answer_limit} e-mails or files that were not adjudicated "
             f"concerned this address within {hours:g} hour(s). So that nobody can flood "
             "you (or us) with answers, the rest are collected here instead of being "
             "answered one by one. Nothing in them was adjudicated.\n\n")
    conn.execute(insert(outbox).values(
        created_at=now, to_addr=address, subject="[pbem] digest: files and e-mails that "
        "were not adjudicated", body_text=intro + line, attempts=0, kind=DIGEST,
        not_before=now + config.answer_window))
    return "digest"
