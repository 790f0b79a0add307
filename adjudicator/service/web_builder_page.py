"""The order builder page (docs/order-builder-page.md): behind the player's secret link, the
side's map with its units, the orders the listing offers, the draft checked by the
builder API after every change, and signing in the browser. The page is plain HTML and
JavaScript served from here (no build step, nothing fetched from elsewhere); what it
knows of the game it asks the builder API under `/games/{game_id}/me/api/`."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from adjudicator.service.docpages import orders_url
from adjudicator.service.web import PRIVATE, TEMPLATES, Web, detail_of

# the builder's own files, each served at /static/NAME (public: nothing secret in them)
STATIC = {"pbem-sign.js": "text/javascript", "builder-map.js": "text/javascript",
          "builder.js": "text/javascript",
          "builder.css": "text/css"}


def add_builder_pages(app: FastAPI, web: Web) -> None:
    """The builder page of a player's secret link, and its script and stylesheet."""
    files = {name: (TEMPLATES / "service" / name).read_text("utf-8") for name in STATIC}

    def static(name: str) -> Response:
        return Response(files[name], media_type=STATIC[name],
                        headers={"cache-control": "public, max-age=3600"})

    for name in STATIC:
        app.add_api_route(f"/static/{name}", lambda name=name: static(name), methods=["GET"],
                          include_in_schema=False)

    @app.get("/games/{game_id}/me/builder", response_class=HTMLResponse,
             include_in_schema=False)
    def builder(game_id: str, token: str | None = None) -> HTMLResponse:
        side = web.side(game_id, token)  # 403, the same words, for any wrong link
        overview = web.service.game_overview(game_id)
        return web.page("builder", 200, PRIVATE, game=detail_of(overview), side=side,
                        token=token, orders_url=orders_url(overview["game"]))
