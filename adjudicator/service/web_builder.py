"""The order builder's JSON API behind the player's secret link (docs/order-builder.md):
the step the game waits for, the side's legal orders, the dry run of a draft with the
side's map of the position it leaves, the unsigned file and the bytes a signature
covers, and the submission of the signed file (the upload's own intake).

Every route resolves the side from the token as the player page does (`Web.side`: 403,
the same words always); every refusal is JSON `{"error", "code"}` (web.py
`add_error_handlers`); JSON bodies are read capped and validated by pydantic models
before anything looks at them.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool

from adjudicator.engine.listing import AttackOdds, Listing, UnitOptions
from adjudicator.engine.orders import Order, OrderSpec
from adjudicator.engine.state import State, state_hash
from adjudicator.errors import PbemError
from adjudicator.referee.gamedir import Game
from adjudicator.security.limits import MAX_ORDER_BYTES
from adjudicator.service.api_models import CheckIn, ComposeIn, ListingIn, validation_words
from adjudicator.service.docpages import orders_url
from adjudicator.service.web import (
    PRIVATE,
    UploadProblem,
    Web,
    known_game_id,
    read_capped,
    read_upload,
    verdict_out,
    verdict_status,
)
from adjudicator.service.web_pages import submit_from

LISTINGS_KEPT = 256  # listings remembered, by game, position, side and unit
MAX_JSON_BYTES = 4 * MAX_ORDER_BYTES  # a draft's JSON is wordier than its XML


class BuilderProblem(PbemError):
    """A refusal of the builder's API with its HTTP status (web.py answers it as JSON)."""

    def __init__(self, status: int, message: str, code: str) -> None:
        super().__init__(message, code=code)
        self.status = status


def order_json(order: OrderSpec | Order) -> dict[str, Any]:
    """An order as the API gives it: the engine's `Order` as JSON."""
    plain = order.to_order() if isinstance(order, OrderSpec) else order
    return {"kind": plain.kind, "attrs": dict(plain.attrs), "text": plain.text}


Odds = Callable[[tuple[str, ...], str], AttackOdds | None]


def unit_json(options: UnitOptions, odds: Odds | None = None,
              positions: dict[str, str] | None = None) -> dict[str, Any]:
    """A unit's options; with `odds` (the rules' `attack_odds` on the position), the odds
    of each of its attacks: the order's units on the map, not in the attacked place, are
    its attackers."""
    shown: dict[str, Any] = {
        "unit": options.unit, "at": options.at,
        "moves": [{"place": d.place, "path": list(d.path), "cost": d.cost}
                  for d in options.moves],
        "attacks": list(dict.fromkeys(options.attacks)),  # each place once
        "orders": [order_json(o) for o in options.orders], "odds": []}
    if odds is None or positions is None:
        return shown
    for index, order in enumerate(options.orders):
        words = [w for v in order.attributes().values() for w in v.split()]
        for place in dict.fromkeys(options.attacks):
            if place not in words:
                continue
            attackers = tuple(w for w in words if positions.get(w) not in (None, place))
            found = odds(attackers, place) if options.unit in attackers else None
            if found is not None:
                shown["odds"].append({
                    "index": index, "place": place, "odds": found.odds,
                    "shifts": [{"words": w, "rule": r} for w, r in found.shifts],
                    "unknown": found.unknown})
    return shown


def listing_json(listing: Listing, odds: Odds | None = None,
                 positions: dict[str, str] | None = None) -> dict[str, Any]:
    return {"side": listing.side,
            "units": [unit_json(u, odds, positions) for u in listing.units],
            "orders": [order_json(o) for o in listing.orders],
            "actors": [{"unit": u, "at": at} for u, at in listing.acting_units()]}


_LISTINGS: dict[tuple[str, str, str, str], dict[str, Any]] = {}
_LISTINGS_LOCK = threading.Lock()  # the routes run in a thread pool


def cached_listing(game: Game, side: str, unit: str | None = None,
                   state: State | None = None) -> dict[str, Any]:
    """The side's listing of a position (the game's current one, or `state`: the one a
    draft leaves) as JSON (with `unit`: that unit's, engine/listing.py `unit_listing`),
    computed once per position (its state hash) and kept: the page asks for it at every
    click and after every change of its draft."""
    from adjudicator.engine.listing import attack_odds, unit_listing

    position = game.state if state is None else state
    key = (game.game_id, game.state_hash if state is None else state_hash(state), side,
           unit or "")
    with _LISTINGS_LOCK:
        known = _LISTINGS.get(key)
    if known is not None:
        return known
    rules = game.package.rules
    if getattr(rules, "legal_orders", None) is None:
        raise BuilderProblem(409, f"the rules of {game.package.title} do not list their "
                                  "legal orders yet: write the order file from the template "
                                  "and the game's order documentation", "no-listing")
    def odds(attackers: tuple[str, ...], target: str) -> AttackOdds | None:
        return attack_odds(rules, game.module, position, side, attackers, target)

    places = rules.positions(position)
    if unit is None:
        shown = listing_json(rules.legal_orders(game.module, position, side), odds, places)
    else:
        options = unit_listing(rules, game.module, position, side, unit)
        shown = {"side": side, "units": [unit_json(options, odds, places)] if options else [],
                 "orders": [order_json(o) for o in options.orders] if options else [],
                 "actors": [{"unit": options.unit, "at": options.at}] if options else []}
    with _LISTINGS_LOCK:  # outside the lock: a second request at worst lists it twice
        if len(_LISTINGS) >= LISTINGS_KEPT:
            _LISTINGS.pop(next(iter(_LISTINGS)))
        _LISTINGS[key] = shown
    return shown


def draft_listing(game: Game, side: str, orders: list[Order],
                  unit: str | None = None) -> dict[str, Any]:
    """The listing of the position a draft leaves, for the orders that follow it (a
    later phase of the same step: moves, then the end of the phase, then attacks). The
    draft is dry-run as `check` runs it; where a refused order, a die roll or a decision
    stops it, the listing is of the position before that order, and `position` says so:
    what comes after a die is known only once the step is adjudicated. `acting` is the
    side that position waits for (another side's, once the draft ends this side's part)."""
    from adjudicator.referee.draft import check_draft_orders

    check = check_draft_orders(game, side, orders)
    shown = dict(cached_listing(game, side, unit, check.state if orders else None))
    stopped = check.checked < len(orders)
    shown["position"] = {"after": check.checked, "of": len(orders),
                         "stopped": (check.why_unchecked or "an order is refused")
                         if stopped else None,
                         "acting": game.package.rules.acting_side(check.state)}
    return shown


def step_json(web: Web, game: Game, side: str) -> dict[str, Any]:
    from adjudicator.referee.draft import envelope_of

    rules = game.package.rules
    acting = game.acting_side
    pending = game.state.get("pending")
    awaited = ("over" if acting is None else "other" if acting != side
               else "answer" if pending else "orders")
    summary = rules.summary(game.state)
    fingerprint = next(p["fingerprint"] for p in game.header["roster"] if p["side"] == side)
    return {
        "game": game.package.id, "game_id": game.game_id, "side": side,
        "step": game.next_seq, "awaited": awaited, "acting_side": acting,
        "turn": summary.get("turn"), "phase": summary.get("phase", game.state.get("phase")),
        "orders_doc": orders_url(game.package.id), "fingerprint": fingerprint,
        "game_version": game.module.version, "envelope": envelope_of(game, side),
        "decision": ({"id": pending["id"], "kind": pending["kind"],
                      "options": list(pending["options"])}
                     if awaited == "answer" else None),
    }


def drafted(orders: list[Any]) -> list[Order]:
    return [Order(o.kind, dict(o.attrs), o.text, index=i) for i, o in enumerate(orders)]


def waits_for(game: Game, side: str) -> None:
    """A draft is for the step the game waits for from this side (409 otherwise)."""
    if game.acting_side != side:
        waiting = game.acting_side or "nobody: the game is over"
        raise BuilderProblem(409, f"the game waits for {waiting}, not for {side}: there "
                                  "is no order file of yours to build now", "not-your-step")


def check_json(game: Game, side: str, orders: list[Order]) -> dict[str, Any]:
    """The dry run of `pbem check` on a draft, and the side's map of what it leaves."""
    from adjudicator.referee.draft import check_draft_orders
    from adjudicator.reports.games import reporter_for
    from adjudicator.reports.projection import project_state
    from adjudicator.reports.render import draw_map

    check = check_draft_orders(game, side, orders)
    seen = project_state(game.package.id, check.state, side)  # only what the side may see
    view = reporter_for(game.package.id).map_view(
        game.module, seen, side, f"{game.package.title} · your draft of step "
        f"{game.next_seq}: the position as its first {check.checked} order(s) leave it, "
        "before any die")
    return {"verdicts": [v.to_json() for v in check.verdicts], "problems": check.problems,
            "checked": check.checked, "unchecked": check.unchecked,
            "why_unchecked": check.why_unchecked, "view_svg": draw_map(game.module, view)}


def compose_json(game: Game, side: str, orders: list[Order], entropy: str) -> dict[str, Any]:
    """The file as `pbem sign` has it just before it signs, and the signed bytes."""
    from lxml import etree

    from adjudicator.referee.draft import draft_root
    from adjudicator.security.signing import prepared_for_signing, unsigned_file

    doc = prepared_for_signing(draft_root(game, side, orders), bytes.fromhex(entropy))
    return {"xml": unsigned_file(doc).decode("utf-8"),
            "c14n": base64.b64encode(etree.tostring(doc, method="c14n2")).decode("ascii")}


async def json_body(request: Request, model: type[BaseModel]) -> Any:
    """The request's JSON body, capped in size and validated by `model`."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise BuilderProblem(415, "send the draft as application/json", "not-json")
    try:
        raw = await read_capped(request, MAX_JSON_BYTES)
    except UploadProblem as exc:
        words = (f"the draft is too large: at most {MAX_JSON_BYTES // 1024} KiB of JSON"
                 if exc.status == 413 else exc.message)
        raise BuilderProblem(exc.status, words, "too-large" if exc.status == 413
                             else "upload") from None
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        raise BuilderProblem(422, f"the draft is not valid: {validation_words(exc)}",
                             "invalid-draft") from None


def add_builder_api(app: FastAPI, web: Web) -> None:
    """The routes of docs/order-builder.md, under the player's page."""
    service = web.service
    base = "/games/{game_id}/me/api"

    def game_and_side(game_id: str, token: str | None) -> tuple[Game, str]:
        side = web.side(known_game_id(game_id), token)
        return service.current(game_id), side

    def answer(body: dict[str, Any], status: int = 200) -> JSONResponse:
        return JSONResponse(body, status, headers=PRIVATE)

    @app.get(f"{base}/step", include_in_schema=False)
    def api_step(game_id: str, token: str | None = None) -> JSONResponse:
        game, side = game_and_side(game_id, token)
        return answer(step_json(web, game, side))

    @app.get(f"{base}/listing", include_in_schema=False)
    def api_listing(game_id: str, token: str | None = None,
                    unit: str | None = None) -> JSONResponse:
        game, side = game_and_side(game_id, token)
        if unit is not None and len(unit) > 64:
            raise BuilderProblem(422, "unit: no unit has so long an id", "invalid-request")
        return answer(cached_listing(game, side, unit))

    @app.post(f"{base}/listing", include_in_schema=False)
    async def api_draft_listing(game_id: str, request: Request,
                                token: str | None = None) -> JSONResponse:
        game, side = await run_in_threadpool(game_and_side, game_id, token)
        body = await json_body(request, ListingIn)
        return answer(await run_in_threadpool(draft_listing, game, side, drafted(body.orders),
                                              body.unit))

    @app.post(f"{base}/check", include_in_schema=False)
    async def api_check(game_id: str, request: Request,
                        token: str | None = None) -> JSONResponse:
        game, side = await run_in_threadpool(game_and_side, game_id, token)
        body = await json_body(request, CheckIn)
        waits_for(game, side)
        return answer(await run_in_threadpool(check_json, game, side, drafted(body.orders)))

    @app.post(f"{base}/compose", include_in_schema=False)
    async def api_compose(game_id: str, request: Request,
                          token: str | None = None) -> JSONResponse:
        game, side = await run_in_threadpool(game_and_side, game_id, token)
        body = await json_body(request, ComposeIn)
        waits_for(game, side)
        return answer(compose_json(game, side, drafted(body.orders), body.entropy))

    @app.post(f"{base}/submit", include_in_schema=False)
    async def api_submit(game_id: str, request: Request,
                         token: str | None = None) -> JSONResponse:
        await run_in_threadpool(game_and_side, game_id, token)
        raw, _ = await read_upload(request, web.max_upload_bytes)
        verdict = await run_in_threadpool(submit_from, service, request, raw)
        return JSONResponse(verdict_out(verdict, game_id), verdict_status(verdict),
                            headers=PRIVATE)
