"""Reading the service's state: games, their public overview, reports, and the raw
e-mails kept with what became of them."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, insert, select, update

from adjudicator.errors import PbemError
from adjudicator.service.db import (
    admin_log,
    games,
    messages,
    outbox,
    players,
    reports,
    submissions,
    tournaments,
)
from adjudicator.service.model import ServiceConfig


class ServiceQueries:
    """Reading the service's state, and the work queues that follow a commit."""

    engine: Engine
    config: ServiceConfig

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
                # a file no player of the game signed is kept, but is nobody's act:
                # it is not part of the game's public record (throttle.py)
                .where(submissions.c.game_id == game_id,
                       submissions.c.outcome != "unattributed")
                .order_by(submissions.c.id))]
        return {**dict(row._mapping), "players": roster, "log": log, "submissions": steps}

    def tournament_standings(self, name: str) -> Any:
        """The standings of a tournament (standings.py), by its points scheme."""
        from adjudicator.games import get_game
        from adjudicator.service.standings import DEFAULT_SCHEME, standings

        found = self.list_games(tournament=name)
        with self.engine.connect() as conn:
            scheme = conn.execute(select(tournaments.c.scheme)
                                  .where(tournaments.c.name == name)).scalar()
            for game in found:
                game["players"] = [dict(p._mapping) for p in conn.execute(
                    select(players.c.side, players.c.name)
                    .where(players.c.game_id == game["id"]).order_by(players.c.side))]
        sides = {g["game"]: list(get_game(g["game"]).rules.sides) for g in found}
        return standings(found, sides, json.loads(scheme) if scheme else dict(DEFAULT_SCHEME))

    def set_tournament_scheme(self, name: str, text: str) -> dict[str, Any]:
        """Give a tournament its points scheme (standings.parse_scheme)."""
        from adjudicator.service.standings import parse_scheme

        if not self.list_games(tournament=name):
            raise PbemError(f"there is no tournament {name!r} here", code="unknown-tournament")
        scheme = parse_scheme(text)
        with self.engine.begin() as conn:
            data = json.dumps(scheme, sort_keys=True)
            done = conn.execute(update(tournaments).where(tournaments.c.name == name)
                                .values(scheme=data))
            if not done.rowcount:
                conn.execute(insert(tournaments).values(name=name, scheme=data))
        return scheme

    def referee_log(self, game_id: str | None = None,
                    containing: str | None = None) -> list[dict[str, Any]]:
        """The referee's own log lines (those not on the public page), oldest first."""
        query = select(admin_log).where(admin_log.c.public.is_(False)).order_by(admin_log.c.id)
        if game_id is not None:
            query = query.where(admin_log.c.game_id == game_id)
        if containing is not None:
            query = query.where(admin_log.c.what.contains(containing))
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]

    def report(self, game_id: str, seq: int, side: str) -> tuple[str, bytes] | None:
        """A rendered report (HTML with the map inline, PNG map), None until rendered."""
        with self.engine.connect() as conn:
            row = conn.execute(select(reports.c.html, reports.c.png).where(
                reports.c.game_id == game_id, reports.c.seq == seq, reports.c.side == side,
                reports.c.html.is_not(None))).first()
        return None if row is None else (str(row.html), bytes(row.png))

    def report_seqs(self, game_id: str, side: str) -> list[int]:
        """The steps whose report for `side` is rendered, oldest first."""
        return [seq for seq, _ in self.report_labels(game_id, side)]

    def report_labels(self, game_id: str, side: str) -> list[tuple[int, str]]:
        """The rendered reports for `side`, oldest first, each with its label (turn,
        phase, who played it, the outcome: from_journal.step_label)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(reports.c.seq, reports.c.label).where(
                reports.c.game_id == game_id, reports.c.side == side,
                reports.c.html.is_not(None)).order_by(reports.c.seq)).all()
        return [(int(r.seq), r.label or f"step {r.seq}") for r in rows]

    def queue_mail(self, to: str, subject: str, text: str) -> None:
        """A plain answer (no report), e.g. to an e-mail that held no order file."""
        with self.engine.begin() as conn:
            conn.execute(insert(outbox).values(created_at=self.now(), to_addr=to,
                                               subject=subject, body_text=text, attempts=0))

    def queue_problem_mail(self, to: str, subject: str, text: str) -> str:
        """An answer about mail that was not adjudicated, rate-limited per address
        (throttle.queue_problem): "sent" or "digest"."""
        from adjudicator.service.throttle import queue_problem

        with self.engine.begin() as conn:
            return queue_problem(conn, self.now(), self.config, to, subject, text)

    def record_message(self, raw: bytes, channel: str, sender: str | None, outcome: str,
                       submission_id: int | None = None) -> int:
        """Keep a received e-mail's raw bytes with what became of it."""
        with self.engine.begin() as conn:
            result = conn.execute(insert(messages).values(
                channel=channel, received_at=self.now(), sender=sender, raw=raw,
                outcome=outcome, submission_id=submission_id,
                sha256=hashlib.sha256(raw).hexdigest()))
        return int(result.inserted_primary_key[0])  # type: ignore[index]
