"""The service's core: create games, take submissions from any channel, and keep the
work that follows an adjudication (reports, answers by e-mail) in the database so a
crash loses nothing that was acknowledged (docs/service.md).

One submission is one transaction: the game's row is locked (PostgreSQL) or the
database's write lock taken (SQLite), the file is adjudicated against the journal
in the database, and the journal line, the secrets, the verdict, the pending
reports and the answers to send are written together. Only then does the channel
acknowledge (HTTP response, SMTP 250). The same bytes a second time find their
verdict by digest and change nothing.
"""

from __future__ import annotations

import hashlib
import json
import secrets as token_source
from datetime import datetime, timedelta

from sqlalchemy import Connection, Engine, insert, select, update

from adjudicator.errors import PbemError
from adjudicator.games import get_game
from adjudicator.referee.gamedir import Game, current_game, game_from_lines
from adjudicator.referee.referee import Adjudication, adjudicate_in, create_game
from adjudicator.security.keys import fingerprint, load_public_key
from adjudicator.service.admin import ServiceAdmin
from adjudicator.service.db import admin_log, games, outbox, players, reports, submissions
from adjudicator.service.model import (  # noqa: F401 - the service's names, importable here
    POLICIES,
    CreatedGame,
    OutgoingMail,
    PlayerSpec,
    ServiceConfig,
    Verdict,
    aware,
    crash_point,
    token_digest,
    utc_now,
)
from adjudicator.service.queries import ServiceQueries
from adjudicator.service.sqlstore import SqlGameStore
from adjudicator.service.throttle import queue_problem, retry_after
from adjudicator.service.verdicts import claimed_game, claimed_side, now_line, step_answer
from adjudicator.service.work import ServiceWork

# a step with an order refused moved the game on: its mail does not say "rejected"
OUTCOME_SUBJECTS = {"rejected": "partly carried out", "decision": "a decision is needed"}


class RateLimited(PbemError):
    """A source sent too many files that were not adjudicated (throttle.py)."""

    def __init__(self, seconds: int, limit: int) -> None:
        super().__init__(f"too many files that no player of a game here signed came from "
                         f"your address (more than {limit} in a short time): nothing more "
                         f"is read from it for {seconds} seconds", code="rate-limited")
        self.seconds = seconds


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
                            self.welcome(game_id, package.title, game, p.side,
                                         tokens[p.side]), game_id, 0, p.side)
        return CreatedGame(game_id, {s: self.link(game_id, t) for s, t in tokens.items()})

    def welcome(self, game_id: str, title: str, game: str, side: str, token: str) -> str:
        """The mail that tells a player their game: their page, how to send orders, where
        the orders are explained (pages of the service: a player has no checkout)."""
        base, address = self.config.base_url, self.config.referee_address
        return (f"You play {side} in {title} (game {game_id}).\n\n"
                f"Your page: {self.link(game_id, token)}\n"
                "Keep this link to yourself: it shows your side's view. It has your reports "
                "and, when it is your step, the template of your order file.\n\n"
                "To play a step:\n"
                "1. download the template from your page and write your orders into it; "
                f"the orders of {title} are explained at {base}/help/orders/{game}\n"
                "2. sign it with your key: pbem sign FILE.xml --key YOUR.key\n"
                "3. upload it on your page, or mail it as an attachment to "
                f"{address}\n\nHow to play, step by step: {base}/help\n")

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
        """docs/architecture.md, Hidden information: the journal holds the whole truth, hidden
        information included, so
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
               source: str | None = None, bulk: bool = False) -> Verdict:
        """Adjudicate one order file (its raw bytes, whatever they are) and record the
        verdict, the journal line and what follows from them in one transaction; `bulk`
        (preloading the examples): its reports wait until no live work does.

        `source` names who sent it (`throttle.web_source`, `throttle.mail_source`): one
        that sent too many files that were not adjudicated is refused with PbemError
        `rate-limited` (nothing recorded) until its window has passed."""
        digest = hashlib.sha256(raw).hexdigest()
        with self.engine.begin() as conn:
            earlier = self._earlier_verdict(conn, digest)
            if earlier is not None:
                return earlier
            if source is not None:
                wait = retry_after(conn, source, self.now(), self.config)
                if wait is not None:
                    raise RateLimited(wait, self.config.submit_limit)
            game_id, unreadable = claimed_game(raw)
            if game_id is None or not self._lock_game(conn, game_id):
                why = unreadable or f"there is no game {game_id!r} here"
                return self._record(conn, raw, digest, channel, sender, "invalid", game_id,
                                    None, None, f"Your file was not adjudicated: {why}.",
                                    source=source)
            store = SqlGameStore(conn, game_id)
            adjudication = adjudicate_in(store, raw, journal_strangers=False)
            verdict = self._record_adjudication(conn, raw, digest, channel, sender, game_id,
                                                adjudication, bulk=bulk, source=source)
            crash_point("adjudicated")  # before the commit: nothing may remain of it
        return verdict

    def _earlier_verdict(self, conn: Connection, digest: str) -> Verdict | None:
        """The answer these bytes got before, its last line brought up to date: what the
        game waits for now, not what it waited for then."""
        row = conn.execute(select(submissions.c.id, submissions.c.answer)
                           .where(submissions.c.sha256 == digest)).first()
        if row is None:
            return None
        answer = json.loads(row.answer)
        answer["duplicate"] = True
        if answer.get("game_id"):
            game = conn.execute(select(games.c.acting_side, games.c.next_seq, games.c.status)
                                .where(games.c.id == answer["game_id"])).first()
            if game is not None:
                answer["text"] = now_line(answer["text"], game.acting_side, game.next_seq,
                                          game.status)
        return Verdict(**answer)

    def _lock_game(self, conn: Connection, game_id: str) -> bool:
        query = select(games.c.id).where(games.c.id == game_id)
        if self.postgres:
            query = query.with_for_update()
        return conn.execute(query).first() is not None

    def _record(self, conn: Connection, raw: bytes, digest: str, channel: str,
                sender: str | None, outcome: str, game_id: str | None, seq: int | None,
                side: str | None, text: str, *, source: str | None = None,
                recorded: str | None = None) -> Verdict:
        """Keep the file and its verdict; `recorded`: the outcome the submissions table
        keeps when it is not the one the submitter is told ("unattributed")."""
        summary = text.split("\n", 1)[0]
        result = conn.execute(insert(submissions).values(
            sha256=digest, raw=raw, game_id=game_id, channel=channel, sender=sender,
            received_at=self.now(), outcome=recorded or outcome, seq=seq, answer="{}",
            source=source))
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
                             adjudication: Adjudication, *, bulk: bool = False,
                             source: str | None = None) -> Verdict:
        entry = adjudication.entry
        if adjudication.kind in ("refused", "unattributed"):
            reason = entry["reason"]["message"].rstrip(".")
            kept = "" if adjudication.kind == "refused" else (
                "\nNo player of this game signed it, so it is kept here but is not part "
                "of the game's public record.")
            verdict = self._record(conn, raw, digest, channel, sender, "refused", game_id,
                                   None, claimed_side(raw),
                                   f"Your file for game {game_id} was not adjudicated: "
                                   f"{reason}.{kept}\nThe game still waits for step "
                                   f"{adjudication.next_seq}.", source=source,
                                   recorded=None if adjudication.kind == "refused"
                                   else "unattributed")
            self._notify_refusal(conn, verdict, sender, channel)
            return verdict
        seq = adjudication.seq
        verdict = self._record(conn, raw, digest, channel, sender, str(entry["outcome"]),
                               game_id, seq, str(entry["side"]), step_answer(adjudication),
                               source=source)
        self._after_step(conn, adjudication.before, seq, adjudication.acting_side,
                         adjudication.next_seq, bulk=bulk)
        if adjudication.acting_side is None and adjudication.result is not None:
            # the game is over: its result, for the standings (standings.py)
            summary = adjudication.before.package.rules.summary(adjudication.result.state)
            conn.execute(update(games).where(games.c.id == game_id).values(
                result=json.dumps(summary.get("result"), sort_keys=True)))
        said = OUTCOME_SUBJECTS.get(verdict.outcome, verdict.outcome)
        for player in conn.execute(select(players).where(players.c.game_id == game_id)):
            self._queue(conn, player.email, f"[pbem] {game_id} step {seq}: {said}",
                        verdict.text, game_id, seq, player.side)
        emails = {p.email.lower() for p in conn.execute(select(players.c.email)
                                                        .where(players.c.game_id == game_id))}
        if channel in ("smtp", "maildir", "imap") and sender and sender.lower() not in emails:
            # the sender is not a player of record: the verdict, never a report
            self._queue(conn, sender, f"[pbem] {game_id} step {seq}: {said}",
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
            queue_problem(conn, self.now(), self.config, to, subject, verdict.text + note)

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
        # Each step's clock starts fresh; in a paused game it starts when the game
        # resumes (paused_remaining_s None: the full time per step, admin.fresh_seconds).
        running = acting is not None and row.status != "paused"
        deadline = self.now() + timedelta(hours=row.deadline_hours) if running else None
        conn.execute(update(games).where(games.c.id == game.game_id).values(
            next_seq=next_seq, acting_side=acting, deadline_at=deadline, reminded_at=None,
            paused_remaining_s=None, status=row.status if acting else "over"))

    def _queue(self, conn: Connection, to: str, subject: str, text: str,
               game_id: str | None, seq: int | None, side: str | None) -> None:
        conn.execute(insert(outbox).values(
            created_at=self.now(), to_addr=to, subject=subject, body_text=text,
            game_id=game_id, report_seq=seq, report_side=side, attempts=0))

    def _log(self, conn: Connection, game_id: str | None, what: str) -> None:
        conn.execute(insert(admin_log).values(game_id=game_id, at=self.now(), what=what,
                                              public=True))
