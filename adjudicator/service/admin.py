"""What a referee or tournament director does to a game in the service: deadlines,
pauses, missed deadlines and the clock that finds them, and rollbacks."""

from __future__ import annotations

import base64
import json
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, func, select, update

from adjudicator.errors import PbemError
from adjudicator.referee.referee import Adjudication, NoPass, adjudicate_pass
from adjudicator.service.db import games, players, reports
from adjudicator.service.model import ServiceConfig, Verdict, aware
from adjudicator.service.sqlstore import SqlGameStore


class ServiceAdmin:
    """What a referee or tournament director does, and the deadline clock."""

    engine: Engine
    config: ServiceConfig

    def now(self) -> datetime:
        raise NotImplementedError

    def _queue(self, conn: Connection, to: str, subject: str, text: str,
               game_id: str | None, seq: int | None, side: str | None) -> None:
        raise NotImplementedError

    def _log(self, conn: Connection, game_id: str | None, what: str) -> None:
        raise NotImplementedError

    def _record_step(self, conn: Connection, raw: bytes, channel: str, sender: str | None,
                     game_id: str, adjudication: Adjudication) -> Verdict:
        raise NotImplementedError

    def _game_row(self, conn: Connection, game_id: str, lock: bool = False) -> Any:
        query = select(games).where(games.c.id == game_id)
        if lock and self.engine.dialect.name == "postgresql":
            query = query.with_for_update()
        row = conn.execute(query).first()
        if row is None:
            raise PbemError(f"there is no game {game_id!r} here", code="unknown-game")
        return row

    def _tell_players(self, conn: Connection, game_id: str, subject: str, text: str) -> None:
        for player in conn.execute(select(players).where(players.c.game_id == game_id)):
            self._queue(conn, player.email, subject, text, None, None, None)

    def extend_deadline(self, game_id: str, hours: int) -> datetime:
        """Give the acting side more time: a paused game keeps it for when it resumes."""
        if not 1 <= hours <= 24 * 365:
            raise PbemError("extend by 1 hour to a year", code="bad-extension")
        with self.engine.begin() as conn:
            row = self._game_row(conn, game_id)
            if row.acting_side is None:
                raise PbemError(f"game {game_id} is over; it has no deadline", code="over")
            if row.status == "paused":
                left = fresh_seconds(row) + hours * 3600
                conn.execute(update(games).where(games.c.id == game_id)
                             .values(paused_remaining_s=left))
                deadline = self.now() + timedelta(seconds=left)
                what = (f"deadline extended by {hours} h: {left // 3600} h left when the "
                        "game resumes")
            else:
                base = max(aware(row.deadline_at) or self.now(), self.now())
                deadline = base + timedelta(hours=hours)
                conn.execute(update(games).where(games.c.id == game_id)
                             .values(deadline_at=deadline, reminded_at=None))
                what = f"deadline extended by {hours} h to {deadline:%Y-%m-%d %H:%M} UTC"
            self._log(conn, game_id, what)
            self._tell_players(conn, game_id, f"[pbem] {game_id}: {what}", what + ".")
        return deadline

    def pause(self, game_id: str) -> None:
        """A vacation: the deadline clock stops and keeps the time left; no reminder
        goes and no deadline can be missed. Submissions are still taken (the signature
        and the step say whose they are, and nobody is hurried by them): a step played
        while the game is paused starts its own clock afresh, with the full time per
        step, when the game resumes."""
        with self.engine.begin() as conn:
            row = self._game_row(conn, game_id)
            if row.status != "active":
                raise PbemError(f"game {game_id} is {row.status}, not active", code="not-active")
            left = None
            deadline = aware(row.deadline_at)
            if deadline is not None:
                left = max(0, int((deadline - self.now()).total_seconds()))
            conn.execute(update(games).where(games.c.id == game_id).values(
                status="paused", paused_remaining_s=left, deadline_at=None))
            self._log(conn, game_id, "game paused")
            self._tell_players(conn, game_id, f"[pbem] {game_id}: paused",
                               "The game is paused; the deadline clock has stopped.")

    def resume(self, game_id: str) -> None:
        with self.engine.begin() as conn:
            row = self._game_row(conn, game_id)
            if row.status != "paused":
                raise PbemError(f"game {game_id} is not paused", code="not-paused")
            deadline = None
            if row.acting_side is not None:
                deadline = self.now() + timedelta(seconds=max(fresh_seconds(row), 3600))
            conn.execute(update(games).where(games.c.id == game_id).values(
                status="active", paused_remaining_s=None, deadline_at=deadline,
                reminded_at=None))
            self._log(conn, game_id, "game resumed")
            self._tell_players(conn, game_id, f"[pbem] {game_id}: resumed",
                               "The game is resumed; the deadline clock runs again.")

    def record_missed(self, game_id: str) -> str:
        """The acting side missed its deadline: apply the game's policy (`wait`: a new
        deadline and everybody told; `pass`: the referee plays the rules' pass for the
        side, its standing instructions answering what they cover; `forfeit`: the side
        loses the game). A pass is played only if the rules take all of it; when they
        give none now or would refuse it, the game waits with a new deadline and the
        log, the players' notices and the referee's page say why (issue 16, item 12)."""
        with self.engine.begin() as conn:
            row = self._game_row(conn, game_id, lock=True)
            side = row.acting_side
            if side is None or row.status != "active":
                raise PbemError(f"game {game_id} waits for nobody", code="not-waiting")
            missed = f"{side} missed the deadline of step {row.next_seq}"
            passed: Adjudication | NoPass | None = None
            if row.policy == "pass":
                passed = adjudicate_pass(SqlGameStore(conn, game_id), "missed deadline")
            if isinstance(passed, Adjudication):
                what = f"{missed}; the referee played the pass the rules give: " \
                    f"{pass_in_words(passed)}"
                self._log(conn, game_id, what)
                raw = passed.entry["submission"]
                self._record_step(conn, base64.b64decode(raw), "referee", None, game_id,
                                  passed)
                return what
            if row.policy == "forfeit":
                conn.execute(update(games).where(games.c.id == game_id).values(
                    status="forfeited", deadline_at=None,
                    result=json.dumps({"forfeit": side}, sort_keys=True)))
                what = f"{missed} and forfeits"
            else:
                deadline = self.now() + timedelta(hours=row.deadline_hours)
                conn.execute(update(games).where(games.c.id == game_id).values(
                    deadline_at=deadline, reminded_at=None))
                what = f"{missed}; new deadline {deadline:%Y-%m-%d %H:%M} UTC"
                if isinstance(passed, NoPass):
                    what = (f"{missed}; the referee played no pass, as {passed.reason}; "
                            f"the game waits for {side}: new deadline "
                            f"{deadline:%Y-%m-%d %H:%M} UTC")
            self._log(conn, game_id, what)
            self._tell_players(conn, game_id, f"[pbem] {game_id}: missed deadline", what + ".")
        return what

    def rollback(self, game_id: str, to_seq: int, reason: str) -> str:
        """Void the steps after `to_seq` (docs/journal.md, "rollback lines"): a signed
        journal line says which and why, the game goes on from the position after step
        `to_seq` with a fresh clock, and both players are told, each with their own
        report of that position. The voided steps' reports stay readable, marked."""
        from adjudicator.referee.rollback import roll_back

        with self.engine.begin() as conn:
            row = self._game_row(conn, game_id, lock=True)
            done = roll_back(SqlGameStore(conn, game_id), to_seq, reason)
            acting, next_seq = done.acting_side, done.game.next_seq
            status = "over" if acting is None else \
                "paused" if row.status == "paused" else "active"
            deadline = self.now() + timedelta(hours=row.deadline_hours) \
                if status == "active" else None
            conn.execute(update(games).where(games.c.id == game_id).values(
                acting_side=acting, next_seq=next_seq, status=status, deadline_at=deadline,
                reminded_at=None, paused_remaining_s=None,
                result=row.result if acting is None else None))
            conn.execute(update(reports).where(reports.c.game_id == game_id,
                                               reports.c.seq.in_(done.voided))
                         .values(label=func.coalesce(reports.c.label, "") + VOIDED_MARK))
            voided = ", ".join(str(s) for s in done.voided)
            what = (f"the referee rolled back the game to step {to_seq}: step(s) {voided} "
                    f"voided. Reason: {done.entry['reason']}")
            self._log(conn, game_id, what)
            waits = (f"The game goes on from the position after step {to_seq}: it waits for "
                     f"{acting} (step {next_seq})." if acting else "The game is over.")
            for player in conn.execute(select(players).where(players.c.game_id == game_id)):
                self._queue(conn, player.email, f"[pbem] {game_id}: rolled back to step "
                            f"{to_seq}", f"{what}\n\n{waits} Your report of that position "
                            "is attached; the voided steps' reports stay on your page, "
                            "marked as voided. Templates and files for the voided steps no "
                            "longer fit: fetch a fresh template.", game_id, to_seq,
                            player.side)
        return what

    def tick(self) -> list[str]:
        """Send due reminders and apply the policy to missed deadlines; what was done."""
        done = []
        now = self.now()
        with self.engine.connect() as conn:
            due = conn.execute(select(games.c.id, games.c.deadline_at, games.c.reminded_at,
                                      games.c.acting_side, games.c.next_seq,
                                      games.c.deadline_hours)
                               .where(games.c.status == "active",
                                      games.c.deadline_at.is_not(None))).all()
        for row in due:
            deadline = aware(row.deadline_at)
            assert deadline is not None
            if now >= deadline:
                done.append(self.record_missed(row.id))
            elif row.reminded_at is None and \
                    now >= deadline - reminder_lead(self.config, row.deadline_hours):
                done.append(self._remind(row.id, row.acting_side, row.next_seq, deadline))
        return done

    def _remind(self, game_id: str, side: str, seq: int, deadline: datetime) -> str:
        from zoneinfo import ZoneInfo

        with self.engine.begin() as conn:
            player = conn.execute(select(players).where(players.c.game_id == game_id,
                                                        players.c.side == side)).first()
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(reminded_at=self.now()))
            if player is not None:
                try:
                    local = deadline.astimezone(ZoneInfo(player.timezone))
                    when = f"{deadline:%Y-%m-%d %H:%M} UTC ({local:%Y-%m-%d %H:%M} " \
                           f"{player.timezone})"
                except (KeyError, ValueError):
                    when = f"{deadline:%Y-%m-%d %H:%M} UTC"
                self._queue(conn, player.email, f"[pbem] {game_id}: your step {seq} is due",
                            f"Game {game_id} waits for your orders for step {seq}, due "
                            f"{when}.", None, None, None)
        return f"reminded {side} of step {seq} in {game_id}"


VOIDED_MARK = " · voided by a rollback"


def pass_in_words(passed: Adjudication) -> str:
    """The orders of a referee's pass as the game's reporter words them, repeats counted
    ("end the phase (x4)")."""
    from adjudicator.reports.games import reporter_for

    game = passed.before
    reporter = reporter_for(game.package.id)
    said: list[list[Any]] = []  # [words, times in a row]
    for order in order_records(base64.b64decode(passed.entry["submission"])):
        text = reporter.describe_order(game.module, order)
        if said and said[-1][0] == text:
            said[-1][1] += 1
        else:
            said.append([text, 1])
    return "; ".join(text if n == 1 else f"{text} (x{n})" for text, n in said)


def order_records(raw: bytes) -> list[dict[str, Any]]:
    """The orders of a file the referee signed, as the reporters read them."""
    from lxml import etree

    root = etree.fromstring(raw)
    return [{"kind": etree.QName(el).localname, "attrs": dict(el.attrib)} for el in root
            if isinstance(el.tag, str)
            and etree.QName(el).localname not in ("entropy", "signature")]


def fresh_seconds(row: Any) -> int:
    """The time a paused game's step has left: what was left when it was paused, or the
    full time per step for a step that began while it was paused (None)."""
    left = row.paused_remaining_s
    return int(row.deadline_hours * 3600 if left is None else left)


def reminder_lead(config: ServiceConfig, deadline_hours: int) -> timedelta:
    """How long before a deadline the reminder goes: `reminder_hours` (24), but never
    more than a third of the time per step, so a one-hour step is reminded 20 minutes
    before its end, not at once."""
    return min(timedelta(hours=config.reminder_hours), timedelta(hours=deadline_hours) / 3)
