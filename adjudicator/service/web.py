"""The service's web front (DESIGN §9): game pages, upload of signed order files,
per-side report pages behind a per-player secret link, journal download, and a JSON
API with an OpenAPI description at /openapi.json.

Everything here is a thin skin over `Service`: the service decides, the web only
reads requests carefully and says the answer in words. The rules this module keeps:

- every user-supplied string reaches HTML through Jinja2 with autoescape on;
- an upload is counted while it streams, so an oversized one is refused before it
  is held in memory;
- a per-player link shows only its own side's reports, and a wrong token learns
  nothing (403, same words whatever was wrong);
- the token never leaves the site (Referrer-Policy: no-referrer, no outside links)
  and never reaches a log line (the access log is redacted);
- a request never sees a stack trace: a service error (PbemError) is a 4xx with its
  words, anything unexpected a plain 500 that is logged here.
"""

from __future__ import annotations

import hmac
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from adjudicator.errors import PbemError
from adjudicator.referee.referee import GAME_ID
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
    VerdictOut,
    zone_or_none,
)
from adjudicator.service.core import PlayerSpec, RateLimited, Service, Verdict, aware
from adjudicator.service.throttle import web_source

log = logging.getLogger("pbem.web")

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
MULTIPART_SLACK = 16 * 1024  # room for the boundaries and part headers around the file
MAX_TOKEN = 128  # minted tokens are 32 characters; anything far longer is not one
ADJUDICATED = ("accepted", "rejected", "decision")  # the file was read and adjudicated

PAGE_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; frame-src 'self'; "
            "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'")
# The rendered report carries its CSS inline (a self-contained document that also
# travels by e-mail) and its map as inline SVG; it runs no script at all.
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
              "base-uri 'none'; form-action 'none'; frame-ancestors 'self'; "
              "sandbox allow-same-origin")
SECURITY_HEADERS = {
    "content-security-policy": PAGE_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "SAMEORIGIN",
    "cross-origin-opener-policy": "same-origin",
}
PRIVATE = {"cache-control": "no-store"}  # pages reached with a secret link

OUTCOME_WORDS = {
    "accepted": "Accepted: the step is adjudicated and all orders were carried out.",
    "rejected": "Adjudicated, with an order refused: the orders before it stand.",
    "decision": "Adjudicated up to a decision that a player must now answer.",
    "refused": "Not adjudicated: the file was read but refused.",
    "invalid": "Not adjudicated: this is not an order file the service can read.",
}


class UploadProblem(Exception):  # noqa: N818 - a 4xx answer, raised while reading
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def fmt_utc(moment: datetime | None) -> str:
    utc = aware(moment)
    return "—" if utc is None else f"{utc:%Y-%m-%d %H:%M} UTC"


def fmt_local(moment: datetime | None, zone_name: str) -> str | None:
    """A UTC moment on the player's own clock, e.g. `Wed 2 Dec 17:43 CET`."""
    utc, zone = aware(moment), zone_or_none(zone_name)
    if utc is None or zone is None:
        return None
    local = utc.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b %H:%M %Z}"


def summary_of(row: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "title", "game", "scenario", "tournament", "status", "next_seq",
            "acting_side")
    return {**{k: row[k] for k in keys}, "deadline_utc": aware(row["deadline_at"])}


def detail_of(overview: dict[str, Any]) -> dict[str, Any]:
    """A game's public view: the overview with times in UTC and on each player's clock."""
    deadline = overview["deadline_at"]
    return {
        **summary_of(overview),
        "policy": overview["policy"],
        "deadline_hours": overview["deadline_hours"],
        "players": [{**p, "deadline_local": fmt_local(deadline, p["timezone"])}
                    for p in overview["players"]],
        "log": [{"at": aware(e["at"]), "what": e["what"]} for e in overview["log"]],
        "submissions": [{**s, "received_at": aware(s["received_at"])}
                        for s in overview["submissions"]],
    }


def known_game_id(game_id: str) -> str:
    """The id, if it could name a game; a 404 otherwise (before any database work)."""
    if not GAME_ID.fullmatch(game_id):
        raise HTTPException(404, f"there is no game {game_id!r} here")
    return game_id


def verdict_out(verdict: Verdict, url_game: str) -> dict[str, Any]:
    """The verdict plus a clear word when the file names another game than the URL."""
    same = verdict.game_id is None or verdict.game_id == url_game
    note = None
    if not same and verdict.outcome != "invalid":  # invalid: its summary says it already
        note = (f"This file names game {verdict.game_id}, not game {url_game} where you "
                f"sent it; it was handled as a file for game {verdict.game_id}.")
    return {**verdict.to_json(), "same_game": same, "note": note}


def verdict_status(verdict: Verdict) -> int:
    return 200 if verdict.outcome in ADJUDICATED else 422


async def read_capped(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 as soon as it is known to exceed `limit`
    (by its Content-Length, or by counting while it streams)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise UploadProblem(400, "the request's Content-Length is not a number")
        if int(declared) > limit:
            raise UploadProblem(413, too_large(limit))
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise UploadProblem(413, too_large(limit))
        chunks.append(chunk)
    return b"".join(chunks)


def too_large(limit: int) -> str:
    return f"the file is too large: an order file may have at most {limit} bytes"


async def read_form_file(request: Request, max_bytes: int) -> tuple[bytes, str | None]:
    """The `orders` file of a multipart upload and its name, with the size capped."""
    body = await read_capped(request, max_bytes + MULTIPART_SLACK)

    async def replay() -> Message:
        return {"type": "http.request", "body": body, "more_body": False}

    try:
        form = await Request(request.scope, replay).form(max_files=2, max_fields=8)
    except (MultiPartException, HTTPException, ValueError) as exc:
        raise UploadProblem(400, "the upload is not a readable form") from exc
    field = form.get("orders")
    if isinstance(field, UploadFile):
        raw, name = await field.read(), field.filename
    elif isinstance(field, str):
        raw, name = field.encode("utf-8"), None
    else:
        raise UploadProblem(400, "no file: choose an order file (form field 'orders')")
    if not raw:
        raise UploadProblem(400, "no file: the upload is empty; choose an order file")
    if len(raw) > max_bytes:
        raise UploadProblem(413, too_large(max_bytes))
    return raw, name


async def read_upload(request: Request, max_bytes: int) -> tuple[bytes, str | None]:
    """An order file from either a form upload or a raw XML body."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "multipart/form-data":
        return await read_form_file(request, max_bytes)
    if kind not in ("application/xml", "text/xml", "application/octet-stream"):
        raise UploadProblem(415, "send the order file as application/xml (or as the "
                                 "'orders' file of a multipart/form-data upload)")
    raw = await read_capped(request, max_bytes)
    if not raw:
        raise UploadProblem(400, "no file: the request body is empty")
    return raw, None


def is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


TOKEN_IN_TEXT = re.compile(r"(token=)[^&\s\"']*")


class RedactTokens(logging.Filter):
    """Keeps secret links out of the access log: `token=...` becomes `token=[redacted]`."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(TOKEN_IN_TEXT.sub(r"\1[redacted]", a) if isinstance(a, str)
                                else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = TOKEN_IN_TEXT.sub(r"\1[redacted]", record.msg)
        return True


def redact_access_log() -> None:
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactTokens) for f in access.filters):
        access.addFilter(RedactTokens())


class Guard:
    """Outermost layer: security headers on every answer, and a plain 500 (logged
    here, with the path but never the query string) for anything unexpected."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        try:
            await self.app(scope, receive, send_secured)
        except Exception:
            log.exception("unexpected error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                return  # the answer is under way; the server will cut it short
            await Response("500 internal error: the service could not answer this request. "
                           "It has been logged.", 500, media_type="text/plain")(
                scope, receive, send_secured)


# -- the application --------------------------------------------------------------------


@dataclass
class Web:
    """What the routes share."""

    service: Service
    env: Environment
    max_upload_bytes: int

    def page(self, name: str, code: int = 200, headers: dict[str, str] | None = None, /,
             **context: Any) -> HTMLResponse:
        html = self.env.get_template(f"service/{name}.html.j2").render(
            max_upload_bytes=self.max_upload_bytes, **context)
        return HTMLResponse(html, code, headers=headers)

    def side(self, game_id: str, token: str | None) -> str:
        """The side a secret link opens; 403 for anything else, the same words always."""
        side = None
        if token and len(token) <= MAX_TOKEN and GAME_ID.fullmatch(game_id):
            side = self.service.side_for_token(game_id, token)
        if side is None:
            raise HTTPException(403, "this link does not open any report of this game")
        return side

    def rendered_report(self, game_id: str, seq: int, side: str) -> tuple[str, bytes]:
        report = self.service.report(game_id, seq, side)
        if report is None:
            raise HTTPException(404, f"the report of step {seq} is not ready (yet)")
        return report


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["utc"] = fmt_utc
    env.filters["seg"] = lambda text: quote(str(text), safe="")  # one URL path segment
    env.globals["outcome_words"] = OUTCOME_WORDS
    return env


def create_app(service: Service, *, admin_token: str | None = None,
               max_upload_bytes: int = 262144) -> FastAPI:
    """The web front of `service`. Admin routes exist only when `admin_token` is set."""
    redact_access_log()
    app = FastAPI(title="PBEM adjudicator", version="1",
                  description="Game pages, signed order file upload, per-side reports, "
                              "journals, and game administration.",
                  docs_url=None, redoc_url=None)  # the doc viewers load outside scripts
    web = Web(service, environment(), max_upload_bytes)
    add_error_handlers(app, web)
    add_pages(app, web)
    add_player_pages(app, web)
    add_api(app, web)
    if admin_token is not None:
        add_admin(app, web, admin_token)
    app.add_middleware(Guard)
    return app


def add_error_handlers(app: FastAPI, web: Web) -> None:
    """Errors in the request's own language: JSON under /api, a small page elsewhere."""

    def answer(request: Request, status: int, message: str, code: str | None = None,
               headers: dict[str, str] | None = None) -> Response:
        if is_api(request):
            return JSONResponse({"detail": message, "code": code}, status, headers=headers)
        return web.page("error", status, headers, status=status, message=message)

    async def on_pbem(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, PbemError)
        if isinstance(exc, RateLimited):
            return answer(request, 429, exc.message, exc.code,
                          {"retry-after": str(exc.seconds)})
        status = {"unknown-game": 404, "journal-not-yet-public": 403}.get(exc.code, 422)
        return answer(request, status, exc.message, exc.code)

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        message = exc.detail if isinstance(exc.detail, str) else "the request was refused"
        if exc.status_code == 404 and message == "Not Found":
            message = "there is no such page here"
        return answer(request, exc.status_code, message, headers=dict(exc.headers or {}))

    async def on_invalid(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = str(first.get("msg", "not valid")).removeprefix("Value error, ")
        return answer(request, 422, f"{where}: {message}", "invalid-request")

    async def on_upload(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, UploadProblem)
        return answer(request, exc.status, exc.message, "upload")

    app.add_exception_handler(PbemError, on_pbem)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(RequestValidationError, on_invalid)
    app.add_exception_handler(UploadProblem, on_upload)


def add_pages(app: FastAPI, web: Web) -> None:
    """The public pages: anybody may see a game's status and log, and upload to it
    (the signature inside the file is the only authority)."""
    service = web.service
    stylesheet = "\n".join((TEMPLATES / name).read_text(encoding="utf-8")
                           for name in ("report.css", "service/service.css"))

    @app.get("/static/service.css", include_in_schema=False)
    def css() -> Response:
        return Response(stylesheet, media_type="text/css",
                        headers={"cache-control": "public, max-age=3600"})

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def game_list() -> HTMLResponse:
        games = [summary_of(g) for g in service.list_games()]
        return web.page("games", games=games, tournament=None)

    @app.get("/tournaments/{name:path}", response_class=HTMLResponse, include_in_schema=False)
    def tournament(name: str) -> HTMLResponse:
        games = [detail_of(service.game_overview(g["id"]))
                 for g in service.list_games(tournament=name)]
        if not games:
            raise HTTPException(404, f"there is no tournament {name!r} here")
        return web.page("games", games=games, tournament=name)

    @app.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    def game_page(game_id: str) -> HTMLResponse:
        game = detail_of(service.game_overview(known_game_id(game_id)))
        return web.page("game", game=game)

    @app.get("/games/{game_id}/journal", include_in_schema=False)
    def journal_download(game_id: str) -> Response:
        return journal_response(service, known_game_id(game_id))

    @app.post("/games/{game_id}/submit", response_class=HTMLResponse, include_in_schema=False)
    async def upload(game_id: str, request: Request) -> HTMLResponse:
        await run_in_threadpool(service.game_overview, known_game_id(game_id))
        raw, filename = await read_form_file(request, web.max_upload_bytes)
        verdict = await run_in_threadpool(submit_from, service, request, raw)
        shown = verdict_out(verdict, game_id)
        back = verdict.game_id if verdict.game_id and GAME_ID.fullmatch(verdict.game_id) \
            and shown["same_game"] else game_id
        return web.page("verdict", verdict_status(verdict), verdict=shown,
                        filename=(filename or "")[:200], back=back)


def submit_from(service: Service, request: Request, raw: bytes) -> Verdict:
    """Submit an uploaded file, counted against its client's address (throttle.py)."""
    client = request.client.host if request.client else None
    return service.submit(raw, "web", None, source=web_source(client))


def journal_response(service: Service, game_id: str) -> Response:
    if not service.journal_is_public(game_id):
        raise PbemError("this game hides information from its players, so its journal is "
                        "released when the game ends; each side's reports carry the state "
                        "hash of every step meanwhile", code="journal-not-yet-public")
    return Response(service.journal(game_id), media_type="application/x-ndjson",
                    headers={"content-disposition":
                             f'attachment; filename="{game_id}.journal.jsonl"'})


def add_player_pages(app: FastAPI, web: Web) -> None:
    """The per-player secret link: one side's reports, and nothing of any other side."""

    @app.get("/games/{game_id}/me", response_class=HTMLResponse, include_in_schema=False)
    def my_reports(game_id: str, token: str | None = None,
                   seq: int | None = None) -> HTMLResponse:
        side = web.side(game_id, token)
        seqs = web.service.report_seqs(game_id, side)
        if seq is not None and seq not in seqs:
            raise HTTPException(404, f"the report of step {seq} is not ready (yet)")
        shown = seq if seq is not None else (seqs[-1] if seqs else None)
        game = detail_of(web.service.game_overview(game_id))
        return web.page("me", 200, PRIVATE, game=game, side=side, seqs=seqs, shown=shown,
                        token=token)

    @app.get("/games/{game_id}/me/template", include_in_schema=False)
    def my_template(game_id: str, token: str | None = None) -> Response:
        """The order-file template of the step the game waits for, as this side sees it
        (`pbem orders template`): fill it in, sign it with `pbem sign`, upload it."""
        from adjudicator.reports.template import order_template

        side = web.side(game_id, token)
        game = web.service.current(game_id)
        text = order_template(game, side)
        name = f"{game_id}-step-{game.next_seq}-{side}.xml"
        disposition = f'attachment; filename="{name}"'
        return Response(text, media_type="application/xml",
                        headers={**PRIVATE, "content-disposition": disposition})

    @app.get("/games/{game_id}/me/report/{seq:int}.png", include_in_schema=False)
    def my_map(game_id: str, seq: int, token: str | None = None) -> Response:
        _, png = web.rendered_report(game_id, seq, web.side(game_id, token))
        return Response(png, media_type="image/png", headers=PRIVATE)

    @app.get("/games/{game_id}/me/report/{seq:int}", response_class=HTMLResponse,
             include_in_schema=False)
    def my_report(game_id: str, seq: int, token: str | None = None) -> HTMLResponse:
        html, _ = web.rendered_report(game_id, seq, web.side(game_id, token))
        return HTMLResponse(with_map_link(html, seq, str(token)),
                            headers={**PRIVATE, "content-security-policy": REPORT_CSP})


def with_map_link(html: str, seq: int, token: str) -> str:
    """The stored report links its map as `map.png` (beside it in a game directory);
    here the picture lives behind the same secret link, on this site only."""
    return html.replace('href="map.png"', f'href="{seq}.png?token={quote(token, safe="")}"')


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

    @app.get("/api/tournaments/{name:path}", summary="A tournament's games",
             response_model=list[GameDetail], responses=problems)
    def api_tournament(name: str) -> list[dict[str, Any]]:
        return [detail_of(service.game_overview(g["id"]))
                for g in service.list_games(tournament=name)]


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
