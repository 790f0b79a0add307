"""The service's pages: the public game pages, the upload, the journal, the per-player
secret link (one side's reports and nothing of any other side), and the help pages."""

from __future__ import annotations

import threading
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from adjudicator.errors import PbemError
from adjudicator.referee.referee import GAME_ID
from adjudicator.service.core import Service, Verdict
from adjudicator.service.docpages import (
    games_with_orders,
    link_docs,
    orders_doc,
    orders_url,
    page_html,
)
from adjudicator.service.throttle import web_source
from adjudicator.service.web import (
    PRIVATE,
    REPORT_CSP,
    TEMPLATES,
    Web,
    detail_of,
    known_game_id,
    read_form,
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
        return web.page("games", games=games, tournament=None, standings=None)

    @app.get("/tournaments/{name:path}", response_class=HTMLResponse, include_in_schema=False)
    def tournament(name: str) -> HTMLResponse:
        table = service.tournament_standings(name)
        words = {r["game_id"]: r["words"] for r in table.results}
        games = [{**detail_of(service.game_overview(g["id"])), "result_words": words.get(g["id"])}
                 for g in service.list_games(tournament=name)]
        if not games:
            raise HTTPException(404, f"there is no tournament {name!r} here")
        return web.page("games", games=games, tournament=name, standings=table)

    @app.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    def game_page(game_id: str) -> HTMLResponse:
        from adjudicator.games import get_game
        from adjudicator.service.standings import outcome_of

        overview = service.game_overview(known_game_id(game_id))
        game = detail_of(overview)
        sides = [p["side"] for p in overview["players"]]
        outcome = outcome_of(overview, sides)
        return web.page("game", game=game, orders_url=orders_url(overview["game"]),
                        journal_public=service.journal_is_public(game_id),
                        hides=get_game(overview["game"]).hides_information,
                        result=outcome.words if outcome else None)

    @app.get("/games/{game_id}/map.png", include_in_schema=False)
    async def public_map(game_id: str) -> Response:
        """The position as both sides may see it (each side's view applied in turn)."""
        png = await run_in_threadpool(public_map_png, service, known_game_id(game_id))
        return Response(png, media_type="image/png",
                        headers={"cache-control": "public, max-age=60"})

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)  # no icon, and no 404 in every browser's console

    @app.get("/help", response_class=HTMLResponse, include_in_schema=False)
    def help_page() -> HTMLResponse:
        from adjudicator.games import get_game

        return web.page("help", hidden_note="a game that hides information from its "
                        "players releases it when the game ends",
                        order_games=[get_game(g) for g in games_with_orders()])

    @app.get("/help/orders/{game}", response_class=HTMLResponse, include_in_schema=False)
    def orders_page(game: str) -> HTMLResponse:
        from adjudicator.games import get_game

        path = orders_doc(game) if game in games_with_orders() else None
        if path is None:
            raise HTTPException(404, f"there is no order documentation for {game!r} here")
        return web.page("orders", title=get_game(game).title, doc=page_html(path))

    @app.get("/games/{game_id}/journal", include_in_schema=False)
    def journal_download(game_id: str) -> Response:
        return journal_response(service, known_game_id(game_id))

    @app.post("/games/{game_id}/submit", response_class=HTMLResponse, include_in_schema=False)
    async def upload(game_id: str, request: Request) -> HTMLResponse:
        await run_in_threadpool(service.game_overview, known_game_id(game_id))
        raw, filename, token = await read_form(request, web.max_upload_bytes)
        verdict = await run_in_threadpool(submit_from, service, request, raw)
        shown = verdict_out(verdict, game_id)
        back = verdict.game_id if verdict.game_id and GAME_ID.fullmatch(verdict.game_id) \
            and shown["same_game"] else game_id
        # from a player's own page: link back to it and to the step's report there
        me_url = None
        if token and back == game_id and service.side_for_token(game_id, token):
            me_url = f"/games/{quote(game_id, safe='')}/me?token={quote(token, safe='')}"
        return web.page("verdict", verdict_status(verdict), PRIVATE if me_url else None,
                        verdict=shown, filename=(filename or "")[:200], back=back,
                        me_url=me_url)


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
        labels = web.service.report_labels(game_id, side)
        seqs = [n for n, _ in labels]
        if seq is not None and seq not in seqs:
            raise HTTPException(404, f"the report of step {seq} is not ready (yet)")
        shown = seq if seq is not None else (seqs[-1] if seqs else None)
        overview = web.service.game_overview(game_id)
        body = None
        if shown is not None:
            html, _ = web.rendered_report(game_id, shown, side)
            body = report_body(with_map_link(html, shown, str(token), inline=True))
        return web.page("me", 200, PRIVATE, game=detail_of(overview), side=side,
                        labels=labels, shown=shown, token=token, report_body=body,
                        shown_label=dict(labels).get(shown) if shown is not None else None,
                        orders_url=orders_url(overview["game"]),
                        journal_public=web.service.journal_is_public(game_id))

    @app.get("/games/{game_id}/me/template", include_in_schema=False)
    def my_template(game_id: str, token: str | None = None) -> Response:
        """The order-file template of the step the game waits for, as this side sees it
        (`pbem orders template`): fill it in, sign it with `pbem sign`, upload it."""
        from adjudicator.reports.template import order_template

        side = web.side(game_id, token)
        game = web.service.current(game_id)
        text = link_docs(order_template(game, side), web.service.config.base_url)
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


def with_map_link(html: str, seq: int, token: str, *, inline: bool = False) -> str:
    """The stored report links its map as `map.png` (beside it in a game directory);
    here the picture lives behind the same secret link, on this site only (`inline`:
    from the player's page, one folder up)."""
    where = "report/" if inline else ""
    return html.replace('href="map.png"',
                        f'href="{where}{seq}.png?token={quote(token, safe="")}"')


def report_body(html: str) -> Markup:
    """What is inside the stored report's <main>: the report itself, without the document
    around it, to be shown in the player's page (whose stylesheet holds report.css), so
    the whole map shows at the page's width instead of in a frame of fixed height. The
    report is the service's own rendering, every player-supplied string escaped."""
    start, end = html.find("<main>"), html.rfind("</main>")
    inner = html[start + len("<main>"):end] if 0 <= start < end else ""
    return Markup(inner)  # noqa: S704 - the service's own escaped rendering


_MAPS: dict[tuple[str, int], bytes] = {}  # the last public maps drawn, by game and line
_MAPS_LOCK = threading.Lock()  # the routes run in a thread pool


def public_map_png(service: Service, game_id: str) -> bytes:
    """The map of the game's current position as both sides may see it, drawn once per
    journal line (kept for the last few games asked for)."""
    from adjudicator.reports.render import public_map_png as draw

    game = service.current(game_id)
    key = (game_id, game.snapshot().lines)
    with _MAPS_LOCK:
        known = _MAPS.get(key)
    if known is not None:
        return known
    png = draw(game)  # outside the lock: a second request at worst draws it twice
    with _MAPS_LOCK:
        if len(_MAPS) >= 16:
            _MAPS.pop(next(iter(_MAPS)))
        _MAPS[key] = png
    return png
