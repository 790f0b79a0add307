"""The service's background work: rendering the reports a step left pending and
sending the mail, done by worker processes (`pbem worker`; `pbem serve` starts some),
never on the request path. Several workers may run at once, on other machines too,
sharing one PostgreSQL database: each report and each mail is claimed by one worker
before it is done. A claim of a worker that died is taken over at once on its own
machine (its process is gone) and after `LEASE` elsewhere. A live step's reports go
before bulk work such as preloading the examples (priority 0 before 1)."""

from __future__ import annotations

import os
import socket
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, Table, insert, or_, select, update

from adjudicator.service.db import admin_log, outbox, reports

LEASE = timedelta(minutes=5)  # a render or a delivery takes seconds
MAX_ATTEMPTS = 10  # a mail that failed this often is given up, and the referee told


def worker_name() -> str:
    """This process as a claimant: its machine and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


def claim_alive(claimed_by: str | None, claimed_at: datetime | None, now: datetime) -> bool:
    """Whether a claim still holds: its worker runs (on this machine we can tell), or
    its lease has not run out (on another)."""
    if not claimed_by:
        return False
    host, _, pid = claimed_by.rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        if int(pid) == os.getpid():
            return True
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return claimed_at is not None and now - aware(claimed_at) < LEASE


def aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back without their zone; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def take(conn: Connection, table: Table, where: list[Any], row: Any, me: str,
         now: datetime) -> bool:
    """Claim one row, unless another worker claimed it since it was read."""
    before = table.c.claimed_by.is_(None) if row.claimed_by is None \
        else table.c.claimed_by == row.claimed_by
    done = conn.execute(update(table).where(*where, before)
                        .values(claimed_by=me, claimed_at=now))
    return bool(done.rowcount)


class ServiceWork:
    """The reports and mail the database says are still to do."""

    engine: Engine

    def now(self) -> datetime:
        raise NotImplementedError

    def claim_report(self, me: str | None = None) -> tuple[str, int, str] | None:
        """The next report to render (live before bulk, oldest first), claimed for `me`;
        None when none is left that no living worker holds."""
        me = me or worker_name()
        now = self.now()
        query = (select(reports.c.game_id, reports.c.seq, reports.c.side,
                        reports.c.claimed_by, reports.c.claimed_at)
                 .where(reports.c.html.is_(None))
                 .order_by(reports.c.priority, reports.c.queued_at.nulls_first(),
                           reports.c.game_id, reports.c.seq, reports.c.side).limit(50))
        with self.engine.begin() as conn:
            for row in conn.execute(query).all():
                if row.claimed_by != me and claim_alive(row.claimed_by, row.claimed_at, now):
                    continue
                key = [reports.c.game_id == row.game_id, reports.c.seq == row.seq,
                       reports.c.side == row.side, reports.c.html.is_(None)]
                if take(conn, reports, key, row, me, now):
                    return row.game_id, row.seq, row.side
        return None

    def render_pending_reports(self, limit: int = 20, me: str | None = None) -> int:
        """Render up to `limit` pending reports (also those a crash left); how many."""
        from adjudicator.reports import render_report
        from adjudicator.reports.from_journal import step_label, step_report
        from adjudicator.service.core import crash_point

        me = me or worker_name()
        done = 0
        loaded: dict[str, Any] = {}
        while done < limit:
            claimed = self.claim_report(me)
            if claimed is None:
                break
            game_id, seq, side = claimed
            if game_id not in loaded:
                loaded[game_id] = self.load(game_id)  # type: ignore[attr-defined]
            step = step_report(loaded[game_id], seq, side)
            rendered = render_report(step)
            crash_point("rendering")
            with self.engine.begin() as conn:
                conn.execute(update(reports).where(
                    reports.c.game_id == game_id, reports.c.seq == seq, reports.c.side == side,
                    reports.c.html.is_(None)).values(
                    html=rendered.html, png=rendered.png, rendered_at=self.now(),
                    label=step_label(loaded[game_id], step),
                    claimed_by=None, claimed_at=None))
            done += 1
        return done

    def _mail_query(self, limit: int) -> Any:
        now = self.now()
        return (select(outbox, reports.c.html, reports.c.png)
                .select_from(outbox.outerjoin(reports, (reports.c.game_id == outbox.c.game_id)
                                              & (reports.c.seq == outbox.c.report_seq)
                                              & (reports.c.side == outbox.c.report_side)))
                .where(outbox.c.sent_at.is_(None), outbox.c.attempts < MAX_ATTEMPTS,
                       # a digest waits for the end of its window (throttle.py)
                       or_(outbox.c.not_before.is_(None), outbox.c.not_before <= now))
                .order_by(outbox.c.id).limit(limit))

    def pending_mail(self, limit: int = 50) -> list[Any]:
        """Unsent mail whose report (if it carries one) is rendered, oldest first."""
        with self.engine.connect() as conn:
            return [_outgoing(row) for row in conn.execute(self._mail_query(limit))
                    if row.report_seq is None or row.html is not None]

    def claim_mail(self, limit: int = 50, me: str | None = None) -> list[Any]:
        """Unsent mail ready to go, claimed for `me`, oldest first."""
        me = me or worker_name()
        now = self.now()
        claimed = []
        with self.engine.begin() as conn:
            for row in conn.execute(self._mail_query(limit)).all():
                if row.report_seq is not None and row.html is None:
                    continue  # its report is not rendered yet
                if row.claimed_by != me and claim_alive(row.claimed_by, row.claimed_at, now):
                    continue
                if take(conn, outbox, [outbox.c.id == row.id, outbox.c.sent_at.is_(None)],
                        row, me, now):
                    claimed.append(_outgoing(row))
        return claimed

    def mark_sent(self, mail_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(outbox).where(outbox.c.id == mail_id)
                         .values(sent_at=self.now(), claimed_by=None, claimed_at=None))

    def mark_failed(self, mail_id: int, error: str, *, permanent: bool = False) -> None:
        """Count a failed attempt; `permanent` (the mail cannot even be composed, e.g. an
        address with a line break in it) gives it up at once. A mail given up is told to
        the referee: in the admin log (`pbem admin failures`) and, when the service has a
        referee contact, by mail."""
        with self.engine.begin() as conn:
            conn.execute(update(outbox).where(outbox.c.id == mail_id).values(
                attempts=MAX_ATTEMPTS if permanent else outbox.c.attempts + 1,
                last_error=error[:2000], claimed_by=None, claimed_at=None))
            row = conn.execute(select(outbox).where(outbox.c.id == mail_id)).first()
            if row is None or row.attempts < MAX_ATTEMPTS:
                return
            what = (f"mail {mail_id} to {row.to_addr!r} ({row.subject}) could not be "
                    f"delivered and was given up after {row.attempts} attempt(s): {error}")
            conn.execute(insert(admin_log).values(game_id=row.game_id, at=self.now(),
                                                  what=what[:2000], public=False))
            contact = self.config.referee_contact  # type: ignore[attr-defined]
            if contact and contact.lower() != row.to_addr.strip().lower():
                conn.execute(insert(outbox).values(
                    created_at=self.now(), to_addr=contact, attempts=0, game_id=row.game_id,
                    subject="[pbem] a mail could not be delivered",
                    body_text=what + "\n\nCorrect the player's address and tell them "
                    "what the mail said (pbem admin failures lists every such mail)."))


def _outgoing(row: Any) -> Any:
    from adjudicator.service.core import OutgoingMail

    return OutgoingMail(row.id, row.to_addr, row.subject, row.body_text, row.html,
                        None if row.png is None else bytes(row.png), row.game_id,
                        row.report_seq, row.report_side)
