"""The service's web front (docs/service.md): game pages, upload of signed order files,
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

import logging
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from starlette.datastructures import MutableHeaders, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from adjudicator.errors import PbemError
from adjudicator.referee.referee import GAME_ID
from adjudicator.security.limits import MAX_ORDER_BYTES, in_words
from adjudicator.service.api_models import (
    zone_or_none,
)
from adjudicator.service.core import RateLimited, Service, Verdict, aware

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
    "rejected": "Adjudicated and partly carried out: one order was refused; the orders "
                "before it stand and the game has moved on.",
    "decision": "Adjudicated up to a decision that a player must now answer.",
    "refused": "Not adjudicated: the file was read but refused.",
    "invalid": "Not adjudicated: this is not an order file the service can read.",
}


OUTCOME_LABELS = {"rejected": "partly carried out", "unattributed": "refused"}


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


async def read_capped(request: Request, limit: int, said: int | None = None) -> bytes:
    """The request body, refused with 413 as soon as it is known to exceed `limit`
    (by its Content-Length, or by counting while it streams); the answer states `said`,
    the order-file limit, not the room a form adds around it."""
    said = limit if said is None else said
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise UploadProblem(400, "the request's Content-Length is not a number")
        if int(declared) > limit:
            raise UploadProblem(413, too_large(said))
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise UploadProblem(413, too_large(said))
        chunks.append(chunk)
    return b"".join(chunks)


def too_large(limit: int) -> str:
    return f"the file is too large: an order file may have at most {in_words(limit)}"


async def read_form_file(request: Request, max_bytes: int) -> tuple[bytes, str | None]:
    """The `orders` file of a multipart upload and its name, with the size capped."""
    raw, name, _ = await read_form(request, max_bytes)
    return raw, name


async def read_form(request: Request, max_bytes: int) -> tuple[bytes, str | None, str | None]:
    """The `orders` file of a multipart upload, its name, and the `token` field a
    player's own page adds (so that the verdict can link back to that page)."""
    body = await read_capped(request, max_bytes + MULTIPART_SLACK, max_bytes)

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
    token = form.get("token")
    return raw, name, token if isinstance(token, str) and len(token) <= MAX_TOKEN else None


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


BUILDER_API = re.compile(r"/games/[^/]+/me/api(?:/|$)")


def is_builder_api(request: Request) -> bool:
    return BUILDER_API.match(request.url.path) is not None


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
    here, with the path but never the query string) for anything unexpected; a client
    that disconnected while its body was read gets nothing (it is gone), and no 500."""

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
        except ClientDisconnect:  # the browser left (a page closed mid-check): nobody to answer
            log.info("client gone before its request was read: %s %s", scope.get("method"),
                     scope.get("path"))
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
            max_upload_bytes=self.max_upload_bytes,
            max_upload_words=in_words(self.max_upload_bytes),
            referee_address=self.service.config.referee_address, **context)
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
    # a step that moved the game on is not "rejected" to a player: its orders up to the
    # refused one stand (the journal keeps the protocol's word)
    env.filters["outcome_label"] = lambda outcome: OUTCOME_LABELS.get(outcome, outcome)
    return env


def create_app(service: Service, *, admin_token: str | None = None,
               max_upload_bytes: int = MAX_ORDER_BYTES) -> FastAPI:
    """The web front of `service`. Admin routes exist only when `admin_token` is set."""
    redact_access_log()
    app = FastAPI(title="PBEM adjudicator", version="1",
                  description="Game pages, signed order file upload, per-side reports, "
                              "journals, and game administration.",
                  # FastAPI's own viewers load their scripts from outside; /docs is served
                  # by the service itself (web_api.add_api_docs)
                  docs_url=None, redoc_url=None)
    web = Web(service, environment(), max_upload_bytes)
    from adjudicator.service.web_api import add_admin, add_api, add_api_docs
    from adjudicator.service.web_builder import add_builder_api
    from adjudicator.service.web_builder_page import add_builder_pages
    from adjudicator.service.web_pages import add_pages, add_player_pages

    add_error_handlers(app, web)
    add_pages(app, web)
    add_player_pages(app, web)
    add_builder_pages(app, web)
    add_api(app, web)
    add_api_docs(app, web)
    add_builder_api(app, web)
    if admin_token is not None:
        add_admin(app, web, admin_token)
    app.add_middleware(Guard)
    return app


def add_error_handlers(app: FastAPI, web: Web) -> None:
    """Errors in the request's own language: JSON under /api, a small page elsewhere."""

    def answer(request: Request, status: int, message: str, code: str | None = None,
               headers: dict[str, str] | None = None) -> Response:
        if is_builder_api(request):  # the builder's API (web_builder.py) says "error"
            return JSONResponse({"error": message, "code": code}, status,
                                headers={**PRIVATE, **(headers or {})})
        if is_api(request):
            return JSONResponse({"detail": message, "code": code}, status, headers=headers)
        return web.page("error", status, headers, status=status, message=message)

    async def on_pbem(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, PbemError)
        if isinstance(exc, RateLimited):
            return answer(request, 429, exc.message, exc.code,
                          {"retry-after": str(exc.seconds)})
        status = getattr(exc, "status", None) or {
            "unknown-game": 404, "journal-not-yet-public": 403}.get(exc.code, 422)
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
