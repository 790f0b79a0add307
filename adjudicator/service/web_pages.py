"""The service's pages: the public game pages, the upload, the journal, the per-player
secret link (one side's reports and nothing of any other side), and the help pages."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from adjudicator.errors import PbemError
from adjudicator.referee.referee import GAME_ID
from adjudicator.service.core import Service, Verdict
from adjudicator.service.throttle import web_source
from adjudicator.service.web import (
    PRIVATE,
    REPORT_CSP,
    TEMPLATES,
    Web,
    detail_of,
    known_game_id,
    read_form_file,
    summary_of,
    verdict_out,
    verdict_status,
)


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
