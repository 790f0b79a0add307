"""The order builder's JSON API (docs/order-builder.md) over HTTP, for every game of the
registry: the step and its envelope, the listing (whole and per unit), the dry run of a
draft with a refused order's rule and words in place and the side's own map of what the
draft leaves, the unsigned file and its signed bytes, and a file signed with the
player's key accepted through the upload's intake; and every refusal as JSON: bad
tokens, oversized, malformed or mis-shaped bodies, the other side's step."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from lxml import etree

from adjudicator.engine.orders import Order
from adjudicator.games import GAME_IDS, describe_game, get_game
from adjudicator.security.keys import fingerprint, generate_private_key, public_key_pem
from adjudicator.security.signing import sign_orders, signed_bytes
from adjudicator.security.xmlsafe import parse_untrusted
from adjudicator.service.core import PlayerSpec, Service
from adjudicator.service.web import create_app
from adjudicator.service.web_builder import MAX_JSON_BYTES

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ENTROPY = "5a" * 32


@dataclass
class Played:
    game: str
    game_id: str
    tokens: dict[str, str]
    keys: dict[str, Ed25519PrivateKey]

    def url(self, route: str, side: str, **query: str) -> str:
        extra = "".join(f"&{k}={v}" for k, v in query.items())
        return f"/games/{self.game_id}/me/api/{route}?token={self.tokens[side]}{extra}"


def create(service: Service, game: str) -> Played:
    about = describe_game(game)
    keys = {side: generate_private_key() for side in about.sides}
    roster = [PlayerSpec(side, side.title(), f"{side}@example.org",
                         public_key_pem(key.public_key())) for side, key in keys.items()]
    created = service.create_game(game, about.scenarios[0][0], roster, game_id=f"b-{game}",
                                  test_seed=bytes(32))
    tokens = {side: link.split("token=", 1)[1] for side, link in created.links.items()}
    return Played(game, created.game_id, tokens, keys)


@pytest.fixture
def client(service: Service) -> Iterator[TestClient]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def acting(service: Service, played: Played) -> str:
    side = service.current(played.game_id).acting_side
    assert side is not None
    return side


def lists(game: str) -> None:
    if not hasattr(get_game(game).rules, "legal_orders"):
        pytest.skip(f"the rules of {game} do not list their legal orders yet")


def signed_by_page(composed: dict[str, Any], key: Ed25519PrivateKey) -> bytes:
    """What the page does: sign the canonical bytes, put the signature last."""
    signature = base64.b64encode(key.sign(base64.b64decode(composed["c14n"]))).decode()
    element = (f'<signature alg="ed25519" key="{fingerprint(key.public_key())}">'
               f"{signature}</signature>\n</orders>")
    head, _, tail = composed["xml"].rpartition("</orders>")
    return (head + element + tail).encode("utf-8")


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_step_names_the_envelope_of_the_file_the_game_waits_for(
        service: Service, client: TestClient, game: str) -> None:
    played = create(service, game)
    side = acting(service, played)
    answer = client.get(played.url("step", side))
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    step = answer.json()
    current = service.current(played.game_id)
    assert step["game"] == game and step["game_id"] == played.game_id
    assert step["side"] == side and step["step"] == 1 and step["awaited"] == "orders"
    assert step["fingerprint"] == fingerprint(played.keys[side].public_key())
    assert step["game_version"] == current.module.version
    assert step["orders_doc"].endswith(f"/help/orders/{game}") or step["orders_doc"] is None
    envelope = step["envelope"]
    assert envelope == {"xmlns": "urn:pbem:orders:1", "game": played.game_id,
                        "module": game, "side": side, "seq": "1",
                        "prev": current.state_hash, "commit": current.current_commit}
    others = [s for s in played.tokens if s != side]
    for other in others:  # the other side sees whose step it is, and no envelope of its own
        theirs = client.get(played.url("step", other)).json()
        assert theirs["awaited"] == "other" and theirs["acting_side"] == side


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_listing_and_the_listing_of_one_unit(service: Service, client: TestClient,
                                                 game: str) -> None:
    lists(game)
    played = create(service, game)
    side = acting(service, played)
    whole = client.get(played.url("listing", side)).json()
    assert whole["side"] == side and whole["orders"]
    for order in whole["orders"]:
        assert set(order) == {"kind", "attrs", "text"}
    assert client.get(played.url("listing", side)).json() == whole  # kept, the same
    for unit in whole["units"]:
        one = client.get(played.url("listing", side, unit=unit["unit"])).json()
        assert one["units"] == [unit] and one["orders"] == unit["orders"]
        for move in unit["moves"]:
            assert move["path"][0] == unit["at"] and move["path"][-1] == move["place"]
    nobody = client.get(played.url("listing", side, unit="NO-SUCH-UNIT")).json()
    assert nobody["units"] == [] and nobody["orders"] == []


def test_a_listing_of_1941s_movement_phase_lists_moves_with_paths_and_costs(
        service: Service, client: TestClient) -> None:
    if "barbarossa" not in GAME_IDS:
        pytest.skip("1941 is not installed")
    played = create(service, "barbarossa")
    ended = client.post(played.url("compose", "axis"), json={
        "orders": [{"kind": "end-phase", "attrs": {}, "text": ""}], "entropy": ENTROPY})
    raw = signed_by_page(ended.json(), played.keys["axis"])
    assert client.post(played.url("submit", "axis"), content=raw,
                       headers={"content-type": "application/xml"}).status_code == 200
    units = client.get(played.url("listing", "axis")).json()["units"]
    moving = [u for u in units if u["moves"]]
    assert moving
    more = 0
    for unit in moving:
        for move in unit["moves"]:
            assert move["cost"] and len(move["path"]) >= 2
        assert "move" in {o["kind"] for o in unit["orders"]}
        # a click on the unit: every hex it may reach, not the whole listing's sample
        one = client.get(played.url("listing", "axis", unit=unit["unit"])).json()["units"][0]
        assert {m["place"] for m in unit["moves"]} <= {m["place"] for m in one["moves"]}
        assert {"kind": "move", "attrs": {"unit": unit["unit"], "path": " ".join(
            one["moves"][0]["path"])}, "text": ""} in one["orders"]
        more += len(one["moves"]) > len(unit["moves"])
    assert more
    # a unit the sample left out is listed when clicked
    listed = {u["unit"] for u in units}
    current = service.current(played.game_id)
    other = next(u for u, at in sorted(current.state["units"].items())
                 if u.startswith("GER-") and u not in listed)
    assert client.get(played.url("listing", "axis", unit=other)).json()["units"][0]["moves"]
    # and the page's unit list names it: every Axis unit that may move, where it stands
    actors = client.get(played.url("listing", "axis")).json()["actors"]
    assert {"unit": other, "at": current.state["units"][other]} in actors
    assert listed <= {a["unit"] for a in actors}


def first_listed(client: TestClient, played: Played, side: str) -> dict[str, Any]:
    """The first listed order the dry run judges without a die. A listed order may need
    one (Moscow's cup draw, 1.3.1 C): alone, it is not refused but left unchecked, with
    the die as the reason."""
    for order in client.get(played.url("listing", side)).json()["orders"]:
        body = client.post(played.url("check", side), json={"orders": [order]}).json()
        verdict = body["verdicts"][0]
        assert verdict["ok"] is not False, (order, verdict)
        if verdict["ok"]:
            return order  # type: ignore[no-any-return]
        assert "needs a die roll" in body["why_unchecked"], (order, body["why_unchecked"])
    raise AssertionError("no listed order is judged without a die")


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_draft_with_a_refused_order_shows_its_rule_and_words_in_place(
        service: Service, client: TestClient, game: str) -> None:
    played = create(service, game)
    side = acting(service, played)
    good: list[dict[str, Any]] = []
    if hasattr(get_game(game).rules, "legal_orders"):
        good = [first_listed(client, played, side)]
    unknown = {"kind": "move", "attrs": {"unit": "NO-SUCH-UNIT", "to": "nowhere",
                                         "path": "0101 0102"}, "text": ""}
    draft = [*good, unknown, *good]
    answer = client.post(played.url("check", side), json={"orders": draft})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    verdicts = body["verdicts"]
    assert [v["index"] for v in verdicts] == list(range(len(draft)))
    assert all(v["ok"] is True for v in verdicts[:len(good)])
    refused = verdicts[len(good)]
    assert refused["ok"] is False and refused["rule"] and refused["code"]
    assert refused["message"] and "NO-SUCH-UNIT" in refused["message"] \
        or refused["code"] == "schema"
    assert all(v["ok"] is not True for v in verdicts[len(good) + 1:])
    assert body["checked"] == len(good) and "refused" in body["why_unchecked"] \
        or refused["code"] == "schema"
    assert body["view_svg"].startswith("<svg") or "<svg" in body["view_svg"][:200]
    assert body["problems"] == []
    # an unknown unit after the refusal is still named, as its own problem, not the file's
    twice = client.post(played.url("check", side), json={"orders": [unknown, unknown]}).json()
    assert twice["problems"] == []
    second = twice["verdicts"][1]  # Moscow's move names `units`: no id of it to check
    assert second["ok"] is not True and (second["ok"] is None
                                         or "NO-SUCH-UNIT" in second["message"])


def test_the_dry_run_is_pbem_checks(service: Service, client: TestClient) -> None:
    """The same draft through `check_draft` (pbem check) and through the API: the same
    rule, the same words, the same count of orders checked."""
    from adjudicator.referee.check import check_orders

    played = create(service, "solitaire")
    draft = [{"kind": "end-turn", "attrs": {}, "text": ""},
             {"kind": "end-turn", "attrs": {}, "text": ""}]
    body = client.post(played.url("check", "german"), json={"orders": draft}).json()
    composed = client.post(played.url("compose", "german"),
                           json={"orders": draft, "entropy": ENTROPY}).json()
    from adjudicator.referee.check import CheckReport

    report = CheckReport()
    check_orders(service.current(played.game_id), parse_untrusted(composed["xml"].encode()),
                 report)
    assert report.checked == body["checked"]
    refused = [v for v in body["verdicts"] if v["ok"] is False]
    if report.problems:
        assert refused and refused[0]["message"] in report.problems[0]
    else:
        assert not refused


def test_the_map_of_a_draft_is_the_sides_own_view(service: Service, client: TestClient) -> None:
    """Moscow '41 hides the Soviet strengths behind untried tokens (12.0): the map of a
    Soviet set-up draft shows the tokens, never a Soviet counter, its name or a salt."""
    if "moscow" not in GAME_IDS:
        pytest.skip("Moscow '41 is not installed")
    from adjudicator.games.moscow.data import Game as MoscowGame
    from tests.test_moscow_rules import soviet_placements

    played = create(service, "moscow")
    drawn = client.post(played.url("compose", "soviet"), json={
        "orders": [{"kind": "draw", "attrs": {}, "text": ""}], "entropy": ENTROPY})
    raw = signed_by_page(drawn.json(), played.keys["soviet"])
    assert client.post(played.url("submit", "soviet"), content=raw, headers={
        "content-type": "application/xml"}).json()["outcome"] == "accepted"
    current = service.current(played.game_id)
    moscow = MoscowGame.of(current.module)
    placements = [{"kind": kind, "attrs": attrs, "text": ""}
                  for kind, attrs in soviet_placements(moscow, current.state)]
    body = client.post(played.url("check", "soviet"), json={"orders": placements}).json()
    assert body["checked"] == len(placements) and all(v["ok"] for v in body["verdicts"])
    svg = body["view_svg"]
    assert "<svg" in svg and "U01" in svg
    soviet_names = [p.name for p in moscow.pieces.values() if p.side == "soviet"]
    assert "SOV-XX" not in svg and not any(name in svg for name in soviet_names)
    assert not any(salt in svg for salt in current.state["salts"].values())


@pytest.mark.parametrize("game", GAME_IDS)
def test_compose_gives_the_file_pbem_sign_signs_and_submit_accepts_it(
        service: Service, client: TestClient, game: str) -> None:
    played = create(service, game)
    side = acting(service, played)
    if hasattr(get_game(game).rules, "legal_orders"):
        orders = [first_listed(client, played, side)]
    else:
        orders = []
    composed = client.post(played.url("compose", side),
                           json={"orders": orders, "entropy": ENTROPY}).json()
    root = parse_untrusted(composed["xml"].encode())
    assert root.findtext("{urn:pbem:orders:1}entropy") == ENTROPY
    assert base64.b64decode(composed["c14n"]) == etree.tostring(root, method="c14n2")
    key = played.keys[side]
    raw = signed_by_page(composed, key)
    assert raw == sign_orders(root, key, entropy=bytes.fromhex(ENTROPY))  # pbem sign's form
    assert signed_bytes(parse_untrusted(raw)) == base64.b64decode(composed["c14n"])
    answer = client.post(played.url("submit", side), content=raw,
                         headers={"content-type": "application/xml"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["outcome"] in ("accepted", "decision")
    assert service.current(played.game_id).next_seq == 2


def test_every_route_refuses_a_bad_token_in_the_same_words(
        service: Service, client: TestClient) -> None:
    played = create(service, "solitaire")
    routes = [("get", "step"), ("get", "listing"), ("post", "check"), ("post", "compose"),
              ("post", "submit")]
    seen = set()
    for method, route in routes:
        for token in ("", "wrong", "x" * 500, played.tokens["german"][:-1] + "0"):
            url = f"/games/{played.game_id}/me/api/{route}?token={token}"
            answer = getattr(client, method)(url)
            assert answer.status_code == 403, (route, token)
            seen.add(answer.json()["error"])
        answer = getattr(client, method)(f"/games/{played.game_id}/me/api/{route}")
        assert answer.status_code == 403
        other = getattr(client, method)(
            f"/games/no-such-game/me/api/{route}?token={played.tokens['german']}")
        assert other.status_code in (403, 404) and "error" in other.json()
    assert len(seen) == 1


def test_oversized_malformed_and_misshapen_drafts_are_refused_as_json(
        service: Service, client: TestClient) -> None:
    played = create(service, "solitaire")
    url = played.url("check", "german")
    end = {"kind": "end-turn", "attrs": {}, "text": ""}
    cases: list[tuple[int, Any]] = [
        (413, client.post(url, content=b"{" + b" " * MAX_JSON_BYTES + b"}",
                          headers={"content-type": "application/json"})),
        (422, client.post(url, content=b'{"orders": [', headers={
            "content-type": "application/json"})),
        (415, client.post(url, content=b'{"orders": []}', headers={
            "content-type": "text/plain"})),
        (422, client.post(url, json={"orders": [end] * 501})),
        (422, client.post(url, json={"orders": [{"kind": "<script>", "attrs": {}}]})),
        (422, client.post(url, json={"orders": [{"kind": "move", "attrs": {"a b": "x"}}]})),
        (422, client.post(url, json={"orders": [{"kind": "move",
                                                 "attrs": {"unit": ["GER-6"]}}]})),
        (422, client.post(url, json={"orders": [end], "extra": 1})),
        (422, client.post(url, json={"orders": "end-turn"})),
        (422, client.post(url, json=[end])),
        (422, client.post(played.url("compose", "german"),
                          json={"orders": [end], "entropy": "00"})),
        (422, client.post(played.url("compose", "german"),
                          json={"orders": [end], "entropy": "zz" * 32})),
        (422, client.post(url, json={"orders": [{"kind": "move",
                                                 "attrs": {"unit": "\u0001"}}]})),
    ]
    for status, answer in cases:
        assert answer.status_code == status, (status, answer.text)
        body = answer.json()
        assert set(body) == {"error", "code"} and body["error"], body
    submitted = client.post(played.url("submit", "german"), content=b"not xml",
                            headers={"content-type": "application/xml"})
    assert submitted.status_code == 422 and submitted.json()["outcome"] == "invalid"
    assert client.post(played.url("submit", "german"), content=b"{}", headers={
        "content-type": "application/json"}).json()["code"] == "upload"


def test_a_draft_for_the_other_sides_step_is_refused(service: Service,
                                                     client: TestClient) -> None:
    if "barbarossa" not in GAME_IDS:
        pytest.skip("1941 is not installed")
    played = create(service, "barbarossa")
    for route in ("check", "compose"):
        body: dict[str, Any] = {"orders": []}
        if route == "compose":
            body["entropy"] = ENTROPY
        answer = client.post(played.url(route, "soviet"), json=body)
        assert answer.status_code == 409 and "waits for axis" in answer.json()["error"]


def test_the_api_keeps_the_token_out_of_every_answer(service: Service,
                                                     client: TestClient) -> None:
    played = create(service, "solitaire")
    token = played.tokens["german"]
    for route in ("step", "listing"):
        assert token not in client.get(played.url(route, "german")).text
    body = client.post(played.url("check", "german"), json={"orders": []}).text
    assert token not in body and re.search(r"token", json.loads(body)["view_svg"]) is None


def test_a_browser_gone_mid_check_is_no_error(service: Service,
                                              caplog: pytest.LogCaptureFixture) -> None:
    """A page left while its draft streams in (the body cut short by `http.disconnect`):
    the service answers nobody, quietly; no 500 is sent and no "unexpected error" logged."""
    import asyncio
    import logging

    played = create(service, "solitaire")
    side = acting(service, played)
    app = create_app(service)
    path, _, query = played.url("check", side).partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": query.encode(), "root_path": "", "client": ("127.0.0.1", 1),
             "server": ("testserver", 80),
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")]}
    incoming = [{"type": "http.request", "body": b'{"orders": [', "more_body": True},
                {"type": "http.disconnect"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:  # the lifespan is not needed by the route
        await app(scope, receive, send)

    with caplog.at_level(logging.INFO):
        asyncio.run(run())
    assert not any(m.get("status") == 500 for m in sent), sent
    assert "unexpected error" not in caplog.text


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_listing_of_the_position_a_draft_leaves(service: Service, client: TestClient,
                                                    game: str) -> None:
    """`POST .../api/listing` with a draft lists what may follow it in the same step:
    after a listed order the dry run takes, the listing is the one of the position it
    leaves (the order itself gone from it, or the next phase's orders); after an order
    that needs a die, the one before that order, saying so."""
    from adjudicator.referee.draft import check_draft_orders
    from adjudicator.service.web_builder import listing_json

    lists(game)
    played = create(service, game)
    side = acting(service, played)
    empty = client.post(played.url("listing", side), json={"orders": []}).json()
    whole = client.get(played.url("listing", side)).json()
    assert {k: v for k, v in empty.items() if k != "position"} == whole
    assert empty["position"] == {"after": 0, "of": 0, "stopped": None, "acting": side}
    current = service.current(played.game_id)
    rules = current.package.rules
    seen_die = seen_run = False
    for order in whole["orders"]:
        draft = [order]
        after = client.post(played.url("listing", side), json={"orders": draft}).json()
        check = check_draft_orders(current, side, [Order(order["kind"], order["attrs"])])
        if check.checked == 1:  # run through: the listing of the position it leaves
            seen_run = True
            assert after["position"] == {"after": 1, "of": 1, "stopped": None,
                                         "acting": rules.acting_side(check.state)}
            expected = listing_json(rules.legal_orders(current.module, check.state, side))
            assert {k: v for k, v in after.items() if k not in ("position", "units")} == \
                {k: v for k, v in expected.items() if k != "units"}
            assert [{k: v for k, v in u.items() if k != "odds"} for u in after["units"]] == \
                [{k: v for k, v in u.items() if k != "odds"} for u in expected["units"]]
        else:
            seen_die = True
            assert "die" in after["position"]["stopped"] and after["position"]["after"] == 0
            assert after["orders"] == whole["orders"]
        one = after["units"][0]["unit"] if after["units"] else None
        if one is not None:  # and one unit of it, as a click asks
            clicked = client.post(played.url("listing", side),
                                  json={"orders": draft, "unit": one}).json()
            assert [u["unit"] for u in clicked["units"]] == [one]
        if seen_die and seen_run:
            break
    assert seen_run
    refused = client.post(played.url("listing", side), json={"orders": [
        {"kind": "move", "attrs": {"unit": "NO-SUCH-UNIT"}, "text": ""}]})
    assert refused.status_code == 200 and refused.json()["position"]["after"] == 0
    assert client.post(played.url("listing", side), json={"orders": [], "unit": "x" * 65}
                       ).status_code == 422
