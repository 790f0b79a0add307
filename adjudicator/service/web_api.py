"""The service's JSON API (the same things the pages do, described at /openapi.json and
browsable at /docs) and the referee's admin routes behind the admin token."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from adjudicator.errors import PbemError
from adjudicator.service.api_models import (
    CreatedGameOut,
    CreateGameIn,
    ExtendIn,
    GameDetail,
    GameSummary,
    Problem,
    ReportList,
    ReportOut,
    RollbackIn,
    SchemeIn,
    VerdictOut,
)
from adjudicator.service.core import PlayerSpec
from adjudicator.service.web import (
    PRIVATE,
    TEMPLATES,
    Web,
    detail_of,
    known_game_id,
    read_upload,
    summary_of,
    verdict_out,
    verdict_status,
)
from adjudicator.service.web_pages import journal_response, submit_from


def add_api(app: FastAPI, web: Web) -> None:
    """The JSON API: the same things the pages do."""
    service = web.service
    problems: dict[int | str, dict[str, Any]] = {
        code: {"model": Problem} for code in (400, 403, 404, 413, 415, 422)}

    @app.get("/api/games", summary="List the games", response_model=list[GameSummary])
    def api_games(tournament: str | None = Query(None, max_length=128)) -> list[dict[str, Any]]:
        return [summary_of(g) for g in service.list_games(tournament=tournament)]

    @app.get("/api/games/{game_id}", summary="A game's status, deadline and public log",
             response_model=GameDetail, responses=problems)
    def api_game(game_id: str) -> dict[str, Any]:
        return detail_of(service.game_overview(known_game_id(game_id)))

    @app.get("/api/games/{game_id}/journal", summary="Download the game's journal (NDJSON)",
             response_class=Response, responses={
                 200: {"content": {"application/x-ndjson": {}}}, 404: {"model": Problem}})
    def api_journal(game_id: str) -> Response:
        return journal_response(service, known_game_id(game_id))

    @app.post("/api/games/{game_id}/submissions", summary="Submit a signed order file",
              description="The body is the order file (application/xml), or a multipart "
              "form with the file as `orders`. 200 when adjudicated (accepted, rejected, "
              "decision), 422 when refused or unreadable, 413 when too large.",
              response_model=VerdictOut, responses={**problems, 422: {"model": VerdictOut}},
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/xml": {"schema": {"type": "string", "format": "binary"}}}}})
    async def api_submit(game_id: str, request: Request) -> JSONResponse:
        await run_in_threadpool(service.game_overview, known_game_id(game_id))
        raw, _ = await read_upload(request, web.max_upload_bytes)
        verdict = await run_in_threadpool(submit_from, service, request, raw)
        return JSONResponse(verdict_out(verdict, game_id), verdict_status(verdict))

    @app.get("/api/games/{game_id}/reports", summary="The steps with a report for your side",
             response_model=ReportList, responses=problems)
    def api_reports(game_id: str, token: str | None = None) -> Response:
        side = web.side(game_id, token)
        return JSONResponse({"game_id": game_id, "side": side,
                             "seqs": service.report_seqs(game_id, side)}, headers=PRIVATE)

    @app.get("/api/games/{game_id}/reports/{seq}", summary="Your side's report of one step",
             response_model=ReportOut, responses=problems)
    def api_report(game_id: str, seq: int, token: str | None = None) -> Response:
        side = web.side(game_id, token)
        html, _ = web.rendered_report(game_id, seq, side)
        return JSONResponse({"game_id": game_id, "seq": seq, "side": side, "html": html},
                            headers=PRIVATE)

    @app.get("/api/standings/{name:path}", summary="A tournament's standings and results",
             responses=problems)
    def api_standings(name: str) -> dict[str, Any]:
        if not service.list_games(tournament=name):
            raise HTTPException(404, f"there is no tournament {name!r} here")
        return dict(service.tournament_standings(name).to_json())

    @app.get("/api/tournaments/{name:path}", summary="A tournament's games",
             response_model=list[GameDetail], responses=problems)
    def api_tournament(name: str) -> list[dict[str, Any]]:
        return [detail_of(service.game_overview(g["id"]))
                for g in service.list_games(tournament=name)]


def add_api_docs(app: FastAPI, web: Web) -> None:
    """/docs: the interactive API documentation, served by the service itself (FastAPI's
    own viewers load their scripts from outside, which the pages' policy refuses)."""
    script = (TEMPLATES / "service" / "apidocs.js").read_text("utf-8")

    @app.get("/static/apidocs.js", include_in_schema=False)
    def api_docs_script() -> Response:
        return Response(script, media_type="text/javascript",
                        headers={"cache-control": "public, max-age=3600"})

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def api_docs() -> HTMLResponse:
        return web.page("apidocs")


def admin_guard(admin_token: str) -> Callable[..., Awaitable[None]]:
    """A dependency that lets through only `Authorization: Bearer <admin_token>`."""
    expected = f"Bearer {admin_token}".encode()

    async def check(authorization: str | None = Header(None)) -> None:
        given = (authorization or "").encode("utf-8", "replace")
        if not hmac.compare_digest(given, expected):
            raise HTTPException(403, "this needs the referee's token "
                                     "(Authorization: Bearer ...)")

    return check


def add_admin(app: FastAPI, web: Web, admin_token: str) -> None:
    """The referee's (tournament director's) routes."""
    service = web.service
    guarded: dict[str, Any] = {"dependencies": [Depends(admin_guard(admin_token))],
                               "responses": {c: {"model": Problem} for c in (403, 404, 409, 422)},
                               "tags": ["admin"]}

    @app.post("/api/admin/games", summary="Create a game; returns the players' secret links",
              response_model=CreatedGameOut, status_code=201, **guarded)
    def admin_create(body: CreateGameIn) -> dict[str, Any]:
        roster = [PlayerSpec(p.side, p.name, p.email, p.public_key.encode("utf-8"), p.timezone)
                  for p in body.roster]
        try:
            created = service.create_game(
                body.game, body.scenario, roster, game_id=body.game_id, options=body.options,
                deadline_hours=body.deadline_hours, policy=body.policy,
                tournament=body.tournament)
        except IntegrityError as exc:
            raise HTTPException(409, "a game with this id (or a player link) exists "
                                     "already") from exc
        except PbemError as exc:  # an unknown game package is a bad request here, not a 404
            raise HTTPException(422, exc.message) from exc
        return {"game_id": created.game_id, "links": created.links}

    def act(game_id: str, action: Callable[[], object]) -> dict[str, Any]:
        known_game_id(game_id)
        action()
        return detail_of(service.game_overview(game_id))

    @app.post("/api/admin/tournaments/{name:path}/scheme",
              summary="Set a tournament's points scheme (win=3,draw=1,loss=0 or series)",
              **guarded)
    def admin_scheme(name: str, body: SchemeIn) -> dict[str, Any]:
        service.set_tournament_scheme(name, body.scheme)
        return dict(service.tournament_standings(name).to_json())

    @app.post("/api/admin/games/{game_id}/extend", summary="Extend the current deadline",
              response_model=GameDetail, **guarded)
    def admin_extend(game_id: str, body: ExtendIn) -> dict[str, Any]:
        return act(game_id, lambda: service.extend_deadline(game_id, body.hours))

    @app.post("/api/admin/games/{game_id}/pause", summary="Pause the game (a vacation)",
              response_model=GameDetail, **guarded)
    def admin_pause(game_id: str) -> dict[str, Any]:
        return act(game_id, lambda: service.pause(game_id))

    @app.post("/api/admin/games/{game_id}/resume", summary="Resume a paused game",
              response_model=GameDetail, **guarded)
    def admin_resume(game_id: str) -> dict[str, Any]:
        return act(game_id, lambda: service.resume(game_id))

    @app.post("/api/admin/games/{game_id}/rollback",
              summary="Void the steps after a step, with a reason (a signed journal line)",
              response_model=GameDetail, **guarded)
    def admin_rollback(game_id: str, body: RollbackIn) -> dict[str, Any]:
        return act(game_id, lambda: service.rollback(game_id, body.to_seq, body.reason))

    @app.post("/api/admin/games/{game_id}/missed",
              summary="Record a missed deadline and apply the game's policy",
              response_model=GameDetail, **guarded)
    def admin_missed(game_id: str) -> dict[str, Any]:
        return act(game_id, lambda: service.record_missed(game_id))
