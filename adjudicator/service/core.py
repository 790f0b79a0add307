"""The service's core: create games, take submissions from any channel, and keep the
work that follows an adjudication (reports, answers by e-mail) in the database so a
crash loses nothing that was acknowledged (DESIGN §9).

One submission is one transaction: the game's row is locked (PostgreSQL) or the
database's write lock taken (SQLite), the file is adjudicated against the journal
in the database, and the journal line, the secrets, the verdict, the pending
reports and the answers to send are written together. Only then does the channel
acknowledge (HTTP response, SMTP 250). The same bytes a second time find their
verdict by digest and change nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets as token_source
import signal
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update

from adjudicator.errors import PbemError
from adjudicator.games import get_game
from adjudicator.referee.gamedir import Game, current_game, game_from_lines
from adjudicator.referee.referee import (
    Adjudication,
    adjudicate_in,
    adjudicate_pass,
    create_game,
)
from adjudicator.security.keys import fingerprint, load_public_key
from adjudicator.security.xmlsafe import parse_untrusted
from adjudicator.service.db import (
    admin_log,
    games,
    messages,
    outbox,
    players,
    reports,
    submissions,
)
from adjudicator.service.sqlstore import SqlGameStore
from adjudicator.service.work import ServiceWork

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
    reminder_hours: int = 24
    clock: Clock = field(default=utc_now)


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


class ServiceQueries:
    """Reading the service's state, and the work queues that follow a commit."""

    engine: Engine

    def now(self) -> datetime:
        raise NotImplementedError

    def list_games(self, tournament: str | None = None) -> list[dict[str, Any]]:
        query = select(games).order_by(games.c.created_at, games.c.id)
        if tournament is not None:
            query = query.where(games.c.tournament == tournament)
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]

    def game_overview(self, game_id: str) -> dict[str, Any]:
        """What anybody may see of a game: status, whose step, deadline, the public log."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                raise PbemError(f"there is no game {game_id!r} here", code="unknown-game")
            roster = [dict(p._mapping) for p in conn.execute(
                select(players.c.side, players.c.name, players.c.timezone)
                .where(players.c.game_id == game_id).order_by(players.c.side))]
            log = [dict(entry._mapping) for entry in conn.execute(
                select(admin_log.c.at, admin_log.c.what)
                .where(admin_log.c.game_id == game_id, admin_log.c.public.is_(True))
                .order_by(admin_log.c.id))]
            steps = [dict(s._mapping) for s in conn.execute(
                select(submissions.c.seq, submissions.c.outcome, submissions.c.received_at,
                       submissions.c.channel)
                .where(submissions.c.game_id == game_id).order_by(submissions.c.id))]
        return {**dict(row._mapping), "players": roster, "log": log, "submissions": steps}

    def report(self, game_id: str, seq: int, side: str) -> tuple[str, bytes] | None:
        """A rendered report (HTML with the map inline, PNG map), None until rendered."""
        with self.engine.connect() as conn:
            row = conn.execute(select(reports.c.html, reports.c.png).where(
                reports.c.game_id == game_id, reports.c.seq == seq, reports.c.side == side,
                reports.c.html.is_not(None))).first()
        return None if row is None else (str(row.html), bytes(row.png))

    def report_seqs(self, game_id: str, side: str) -> list[int]:
        """The steps whose report for `side` is rendered, oldest first."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(reports.c.seq).where(
                reports.c.game_id == game_id, reports.c.side == side,
                reports.c.html.is_not(None)).order_by(reports.c.seq)).scalars())

    def queue_mail(self, to: str, subject: str, text: str) -> None:
        """A plain answer (no report), e.g. to an e-mail that held no order file."""
        with self.engine.begin() as conn:
            conn.execute(insert(outbox).values(created_at=self.now(), to_addr=to,
                                               subject=subject, body_text=text, attempts=0))

    def record_message(self, raw: bytes, channel: str, sender: str | None, outcome: str,
                       submission_id: int | None = None) -> int:
        """Keep a received e-mail's raw bytes with what became of it."""
        with self.engine.begin() as conn:
            result = conn.execute(insert(messages).values(
                channel=channel, received_at=self.now(), sender=sender, raw=raw,
                outcome=outcome, submission_id=submission_id,
                sha256=hashlib.sha256(raw).hexdigest()))
        return int(result.inserted_primary_key[0])  # type: ignore[index]



def aware(moment: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without their zone; they were written in UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


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
        if not 1 <= hours <= 24 * 365:
            raise PbemError("extend by 1 hour to a year", code="bad-extension")
        with self.engine.begin() as conn:
            row = self._game_row(conn, game_id)
            if row.acting_side is None:
                raise PbemError(f"game {game_id} is over; it has no deadline", code="over")
            base = max(aware(row.deadline_at) or self.now(), self.now())
            deadline = base + timedelta(hours=hours)
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(deadline_at=deadline, reminded_at=None))
            what = f"deadline extended by {hours} h to {deadline:%Y-%m-%d %H:%M} UTC"
            self._log(conn, game_id, what)
            self._tell_players(conn, game_id, f"[pbem] {game_id}: {what}", what + ".")
        return deadline

    def pause(self, game_id: str) -> None:
        """A vacation: the deadline clock stops and keeps the time left."""
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
                seconds = row.paused_remaining_s
                if seconds is None:
                    seconds = row.deadline_hours * 3600
                deadline = self.now() + timedelta(seconds=max(seconds, 3600))
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
        loses the game)."""
        with self.engine.begin() as conn:
            row = self._game_row(conn, game_id, lock=True)
            side = row.acting_side
            if side is None or row.status != "active":
                raise PbemError(f"game {game_id} waits for nobody", code="not-waiting")
            missed = f"{side} missed the deadline of step {row.next_seq}"
            passed = None
            if row.policy == "pass":
                passed = adjudicate_pass(SqlGameStore(conn, game_id), "missed deadline")
            if passed is not None:
                what = f"{missed}; the referee played the pass the rules give"
                self._log(conn, game_id, what)
                raw = passed.entry["submission"]
                self._record_step(conn, base64.b64decode(raw), "referee", None, game_id,
                                  passed)
                return what
            if row.policy == "forfeit":
                conn.execute(update(games).where(games.c.id == game_id).values(
                    status="forfeited", deadline_at=None))
                what = f"{missed} and forfeits"
            else:
                deadline = self.now() + timedelta(hours=row.deadline_hours)
                conn.execute(update(games).where(games.c.id == game_id).values(
                    deadline_at=deadline, reminded_at=None))
                what = f"{missed}; new deadline {deadline:%Y-%m-%d %H:%M} UTC"
                if row.policy == "pass":
                    what += " (no pass is possible now: a decision or a set-up waits)"
            self._log(conn, game_id, what)
            self._tell_players(conn, game_id, f"[pbem] {game_id}: missed deadline", what + ".")
        return what

    def tick(self) -> list[str]:
        """Send due reminders and apply the policy to missed deadlines; what was done."""
        done = []
        now = self.now()
        with self.engine.connect() as conn:
            due = conn.execute(select(games.c.id, games.c.deadline_at, games.c.reminded_at,
                                      games.c.acting_side, games.c.next_seq)
                               .where(games.c.status == "active",
                                      games.c.deadline_at.is_not(None))).all()
        for row in due:
            deadline = aware(row.deadline_at)
            assert deadline is not None
            if now >= deadline:
                done.append(self.record_missed(row.id))
            elif row.reminded_at is None and \
                    now >= deadline - timedelta(hours=self.config.reminder_hours):
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



class Service(ServiceQueries, ServiceWork, ServiceAdmin):
    def __init__(self, engine: Engine, config: ServiceConfig | None = None) -> None:
        self.engine = engine
        self.config = config or ServiceConfig()
        self.postgres = engine.dialect.name == "postgresql"

    def now(self) -> datetime:
        return self.config.clock()

    # -- games --------------------------------------------------------------------------

    def create_game(self, game: str, scenario: str, roster: list[PlayerSpec], *,
                    game_id: str | None = None, options: dict[str, str] | None = None,
                    deadline_hours: int = 72, policy: str = "wait",
                    tournament: str | None = None, test_seed: bytes | None = None,
                    link_tokens: dict[str, str] | None = None,
                    bulk: bool = False) -> CreatedGame:
        """Register a game, write its journal header, and mint each player's link
        (`link_tokens` only for demonstration games, whose links are published; `bulk`:
        its first reports wait until no live work does)."""
        if policy not in POLICIES:
            raise PbemError(f"missed-deadline policy must be one of {', '.join(POLICIES)}",
                            code="bad-policy")
        if deadline_hours < 1:
            raise PbemError("a deadline must be at least one hour", code="bad-deadline")
        package = get_game(game)
        game_id = game_id or f"{game}-{token_source.token_hex(4)}"
        tokens = link_tokens or {p.side: token_source.token_urlsafe(24) for p in roster}
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(
                id=game_id, game=game, title=package.title, scenario=scenario,
                tournament=tournament, created_at=self.now(), status="active", policy=policy,
                deadline_hours=deadline_hours, next_seq=1, acting_side=None))
            store = SqlGameStore(conn, game_id)
            created = create_game(store, game, scenario,
                                  {p.side: p.public_key for p in roster}, options=options,
                                  test_seed=test_seed, game_id=game_id)
            for p in roster:
                conn.execute(insert(players).values(
                    game_id=game_id, side=p.side, name=p.name, email=p.email,
                    timezone=p.timezone, fingerprint=fingerprint(load_public_key(p.public_key)),
                    link_token_sha256=token_digest(tokens[p.side])))
            self._after_step(conn, created, 0, created.acting_side, created.next_seq,
                             bulk=bulk)
            self._log(conn, game_id, f"game created: {package.title}, scenario {scenario}, "
                      f"deadline {deadline_hours} h, missed deadline: {policy}")
            for p in roster:
                self._queue(conn, p.email, f"[pbem] {game_id}: you play {p.side}",
                            f"You play {p.side} in {package.title} (game {game_id}).\n\n"
                            f"Your reports: {self.link(game_id, tokens[p.side])}\n"
                            "Keep this link to yourself: it shows your side's view.\n",
                            game_id, 0, p.side)
        return CreatedGame(game_id, {s: self.link(game_id, t) for s, t in tokens.items()})

    def link(self, game_id: str, token: str) -> str:
        return f"{self.config.base_url}/games/{game_id}/me?token={token}"

    def side_for_token(self, game_id: str, token: str) -> str | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(players.c.side).where(
                players.c.game_id == game_id,
                players.c.link_token_sha256 == token_digest(token))).first()
        return None if row is None else str(row.side)

    def load(self, game_id: str, conn: Connection | None = None) -> Game:
        if conn is None:
            with self.engine.connect() as own:
                return self.load(game_id, own)
        store = SqlGameStore(conn, game_id)
        if not store.has_journal():
            raise PbemError(f"there is no game {game_id!r} here", code="unknown-game")
        return game_from_lines(store.journal_lines(), store.describe())

    def current(self, game_id: str) -> Game:
        """The game as it stands, from its snapshot (the whole journal is not replayed)."""
        with self.engine.begin() as conn:
            store = SqlGameStore(conn, game_id)
            if not store.has_journal():
                raise PbemError(f"there is no game {game_id!r} here", code="unknown-game")
            return current_game(store)

    def journal_is_public(self, game_id: str) -> bool:
        """DESIGN §7: the journal holds the whole truth, hidden information included, so
        it is released during play only for games that hide nothing; else at the end."""
        from adjudicator.games import get_game

        with self.engine.connect() as conn:
            row = conn.execute(select(games.c.game, games.c.status)
                               .where(games.c.id == game_id)).first()
        if row is None:
            raise PbemError(f"there is no game {game_id!r} here", code="unknown-game")
        return not get_game(row.game).hides_information or row.status in ("over", "forfeited")

    def journal(self, game_id: str) -> bytes:
        with self.engine.connect() as conn:
            store = SqlGameStore(conn, game_id)
            if not store.has_journal():
                raise PbemError(f"there is no game {game_id!r} here", code="unknown-game")
            return store.journal_bytes()

    # -- submissions --------------------------------------------------------------------

    def submit(self, raw: bytes, channel: str, sender: str | None = None, *,
               bulk: bool = False) -> Verdict:
        """Adjudicate one order file (its raw bytes, whatever they are) and record the
        verdict, the journal line and what follows from them in one transaction; `bulk`
        (preloading the examples): its reports wait until no live work does."""
        digest = hashlib.sha256(raw).hexdigest()
        with self.engine.begin() as conn:
            earlier = self._earlier_verdict(conn, digest)
            if earlier is not None:
                return earlier
            game_id = claimed_game(raw)
            if game_id is None or not self._lock_game(conn, game_id):
                why = ("it is not an order file this service can read (no well-formed "
                       "<orders> document naming its game)" if game_id is None else
                       f"there is no game {game_id!r} here")
                return self._record(conn, raw, digest, channel, sender, "invalid", game_id,
                                    None, None, f"Your file was not adjudicated: {why}.")
            adjudication = adjudicate_in(SqlGameStore(conn, game_id), raw)
            verdict = self._record_adjudication(conn, raw, digest, channel, sender, game_id,
                                                adjudication, bulk=bulk)
            crash_point("adjudicated")  # before the commit: nothing may remain of it
        return verdict

    def _earlier_verdict(self, conn: Connection, digest: str) -> Verdict | None:
        row = conn.execute(select(submissions.c.id, submissions.c.answer)
                           .where(submissions.c.sha256 == digest)).first()
        if row is None:
            return None
        answer = json.loads(row.answer)
        answer["duplicate"] = True
        return Verdict(**answer)

    def _lock_game(self, conn: Connection, game_id: str) -> bool:
        query = select(games.c.id).where(games.c.id == game_id)
        if self.postgres:
            query = query.with_for_update()
        return conn.execute(query).first() is not None

    def _record(self, conn: Connection, raw: bytes, digest: str, channel: str,
                sender: str | None, outcome: str, game_id: str | None, seq: int | None,
                side: str | None, text: str) -> Verdict:
        summary = text.split("\n", 1)[0]
        result = conn.execute(insert(submissions).values(
            sha256=digest, raw=raw, game_id=game_id, channel=channel, sender=sender,
            received_at=self.now(), outcome=outcome, seq=seq, answer="{}"))
        submission_id = int(result.inserted_primary_key[0])  # type: ignore[index]
        verdict = Verdict(submission_id, outcome, game_id, seq, side, summary, text)
        conn.execute(update(submissions).where(submissions.c.id == submission_id)
                     .values(answer=json.dumps(verdict.to_json(), sort_keys=True)))
        return verdict

    def _record_step(self, conn: Connection, raw: bytes, channel: str, sender: str | None,
                     game_id: str, adjudication: Adjudication) -> Verdict:
        return self._record_adjudication(conn, raw, hashlib.sha256(raw).hexdigest(), channel,
                                         sender, game_id, adjudication)

    def _record_adjudication(self, conn: Connection, raw: bytes, digest: str, channel: str,
                             sender: str | None, game_id: str,
                             adjudication: Adjudication, *, bulk: bool = False) -> Verdict:
        entry = adjudication.entry
        if adjudication.kind == "refused":
            reason = entry["reason"]["message"]
            verdict = self._record(conn, raw, digest, channel, sender, "refused", game_id,
                                   None, claimed_side(raw),
                                   f"Your file for game {game_id} was not adjudicated: "
                                   f"{reason}\nThe game still waits for step "
                                   f"{adjudication.next_seq}.")
            self._notify_refusal(conn, verdict, sender, channel)
            return verdict
        seq = adjudication.seq
        verdict = self._record(conn, raw, digest, channel, sender, str(entry["outcome"]),
                               game_id, seq, str(entry["side"]), step_answer(adjudication))
        self._after_step(conn, adjudication.before, seq, adjudication.acting_side,
                         adjudication.next_seq, bulk=bulk)
        for player in conn.execute(select(players).where(players.c.game_id == game_id)):
            self._queue(conn, player.email, f"[pbem] {game_id} step {seq}: {verdict.outcome}",
                        verdict.text, game_id, seq, player.side)
        emails = {p.email.lower() for p in conn.execute(select(players.c.email)
                                                        .where(players.c.game_id == game_id))}
        if channel in ("smtp", "maildir", "imap") and sender and sender.lower() not in emails:
            # the sender is not a player of record: the verdict, never a report
            self._queue(conn, sender, f"[pbem] {game_id} step {seq}: {verdict.outcome}",
                        verdict.text, None, None, None)
        return verdict

    def _notify_refusal(self, conn: Connection, verdict: Verdict, sender: str | None,
                        channel: str) -> None:
        """A refused e-mail is answered to its sender and to the player of record of the
        side it claims, so an impersonation attempt is seen by the one impersonated."""
        if channel not in ("smtp", "maildir", "imap"):
            return
        subject = f"[pbem] {verdict.game_id}: file not adjudicated"
        recipients = {sender} if sender else set()
        row = conn.execute(select(players.c.email).where(
            players.c.game_id == verdict.game_id, players.c.side == verdict.side)).first()
        if row is not None:
            recipients.add(row.email)
        for to in sorted(recipients):
            note = "" if to == sender else (
                f"\n\nYou receive this because the file claimed to be from your side; it "
                f"came from {sender or 'an unknown sender'}.")
            self._queue(conn, to, subject, verdict.text + note, None, None, None)

    def _after_step(self, conn: Connection, game: Game, seq: int, acting: str | None,
                    next_seq: int, *, bulk: bool = False) -> None:
        """Reports to render for every side (`bulk`: after the live work, as the examples
        a start preloads), and the game's new position in the queue: `acting` plays step
        `next_seq` (the caller knows them without a replay)."""
        for side in game.package.rules.sides:
            conn.execute(insert(reports).values(game_id=game.game_id, seq=seq, side=side,
                                                queued_at=self.now(), priority=int(bulk)))
        row = conn.execute(select(games.c.deadline_hours, games.c.status)
                           .where(games.c.id == game.game_id)).one()
        deadline = self.now() + timedelta(hours=row.deadline_hours) if acting else None
        conn.execute(update(games).where(games.c.id == game.game_id).values(
            next_seq=next_seq, acting_side=acting, deadline_at=deadline, reminded_at=None,
            status=row.status if acting else "over"))

    def _queue(self, conn: Connection, to: str, subject: str, text: str,
               game_id: str | None, seq: int | None, side: str | None) -> None:
        conn.execute(insert(outbox).values(
            created_at=self.now(), to_addr=to, subject=subject, body_text=text,
            game_id=game_id, report_seq=seq, report_side=side, attempts=0))

    def _log(self, conn: Connection, game_id: str | None, what: str) -> None:
        conn.execute(insert(admin_log).values(game_id=game_id, at=self.now(), what=what,
                                              public=True))


def claimed_game(raw: bytes) -> str | None:
    """The game id an order file names, read with the hardened parser; None if none."""
    try:
        root = parse_untrusted(raw)
    except PbemError:
        return None
    game = root.get("game")
    return game if game and len(game) <= 64 else None


def claimed_side(raw: bytes) -> str | None:
    try:
        return parse_untrusted(raw).get("side")
    except PbemError:
        return None


def step_answer(adjudication: Adjudication) -> str:
    """The verdict of an adjudicated step in plain words."""
    entry, game_id = adjudication.entry, adjudication.before.game_id
    seq, applied = entry["seq"], entry["orders_applied"]
    lines = []
    if entry["outcome"] == "rejected":
        r = entry["rejection"]
        lines.append(f"Step {seq} of game {game_id} is adjudicated: the orders before "
                     f"order {r['index']} were carried out ({applied}); order {r['index']} "
                     f"(line {r['line']}) is refused under rule {r['rule']}: {r['message']} "
                     "The orders after it were not carried out.")
    elif entry["outcome"] == "decision":
        d = entry["decision"]
        lines.append(f"Step {seq} of game {game_id} is adjudicated up to a decision: "
                     f"{d['side']} must answer decision {d['id']} ({d['kind']}, rule "
                     f"{d['rule']}); {applied} orders were carried out before it.")
    else:
        lines.append(f"Step {seq} of game {game_id} is adjudicated: all {applied} orders "
                     "were carried out.")
    rolls = sum(1 for e in entry["events"] if e["kind"] == "roll")
    lines.append(f"Dice: {rolls} rolls from the seed committed as {entry['commit'][:16]}..., "
                 f"revealed as {entry['server_seed']}.")
    side = adjudication.acting_side
    lines.append(f"The game now waits for {side} (step {adjudication.next_seq})." if side
                 else "The game is over.")
    return "\n".join(lines)
