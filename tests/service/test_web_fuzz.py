"""Property tests of the HTTP entry points: whatever arrives (random bytes, XML-ish
order files, odd paths, ids, tokens, query strings, forms and JSON), the answer is a
deliberate one: never a 500, never an exception escaping the app."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import quoteattr

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from adjudicator.service.core import Service, ServiceConfig
from adjudicator.service.db import make_engine, migrate
from adjudicator.service.web import create_app
from tests.service.conftest import EXAMPLE_ID, create_example, example_turn

ADMIN = "fuzz-admin"
DELIBERATE = {200, 201, 400, 403, 404, 405, 409, 413, 415, 422, 429}
EXAMPLES = int(os.environ.get("PBEM_WEB_FUZZ_EXAMPLES", "80"))  # raise it for a long hunt
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    """One app over one database for the whole module (a game and its first report), and
    the player's real token, so the fuzz can also aim at the right door."""
    where: Path = tmp_path_factory.mktemp("fuzz")
    engine = make_engine(f"sqlite:///{where / 'service.db'}")
    migrate(engine)
    # the fuzz is about reading what arrives: no rate limit stops it after 20 files
    service = Service(engine, ServiceConfig(base_url="http://testserver", submit_limit=10**9))
    token = create_example(service)["german"].split("token=", 1)[1]
    service.render_pending_reports(limit=1)  # step 0's report, so the right door opens
    # raise_server_exceptions stays on: an exception escaping the app fails the test
    with TestClient(create_app(service, admin_token=ADMIN, max_upload_bytes=4096)) as client:
        yield client, token
    engine.dispose()


def deliberate(status: int) -> bool:
    event(f"status {status}")  # --hypothesis-show-statistics shows what the fuzz reached
    return status in DELIBERATE


segments = st.one_of(st.sampled_from([EXAMPLE_ID, "", ".", "..", "me", "0", "-1", "1.png",
                                      "%00", "x" * 300]),
                     st.text(max_size=40))
REAL = "<the real token>"  # replaced by the player's token: the fuzz also finds the door
games = st.one_of(st.just(EXAMPLE_ID), st.just(EXAMPLE_ID), segments)  # mostly the real one
tokens = st.one_of(st.none(), st.text(max_size=60), st.sampled_from(["", "x" * 500, REAL]))
xml_text = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=30)


@st.composite
def xmlish(draw: st.DrawFn) -> bytes:
    """Order-file-shaped documents: right and wrong roots, namespaces, attributes, bodies,
    entities and DOCTYPEs, pieces of a real signed file."""
    root = draw(st.sampled_from(["orders", "o:orders", "Orders", "x"]))
    namespace = draw(st.sampled_from(['xmlns="urn:pbem:orders:1"', "", 'xmlns:o="urn:x"']))
    attributes = " ".join(f"{name}={quoteattr(value)}" for name, value in draw(st.dictionaries(
        st.sampled_from(["game", "module", "side", "seq", "prev", "commit", "junk"]),
        st.one_of(st.sampled_from([EXAMPLE_ID, "solitaire", "german", "1", "<b>", ""]),
                  xml_text), max_size=7)).items())
    body = draw(st.lists(st.one_of(
        st.sampled_from(["<entropy>00</entropy>", "<end-turn/>", "<move unit='GER-2' to='x'/>",
                         "<signature alg='ed25519' key='00'>AAAA</signature>", "&amp;", "&xx;",
                         "<![CDATA[<script>]]>", "<!-- c -->", "<a><b></a>"]),
        xml_text.map(lambda t: t.replace("<", "&lt;").replace("&", "&amp;"))), max_size=6))
    prolog = draw(st.sampled_from([
        "", '<?xml version="1.0" encoding="UTF-8"?>\n',
        '<!DOCTYPE orders [<!ENTITY e "lol">]>',
        '<!DOCTYPE orders SYSTEM "file:///etc/passwd">']))
    text = f"{prolog}<{root} {namespace} {attributes}>{''.join(body)}</{root}>"
    encoded = text.encode(draw(st.sampled_from(["utf-8", "utf-16"])), "surrogatepass")
    return draw(st.sampled_from([encoded, encoded[: len(encoded) // 2], example_turn(1)[:-30]
                                 + encoded]))


uploads = st.one_of(st.binary(max_size=6000), xmlish())
content_types = st.sampled_from(["application/xml", "text/xml", "application/octet-stream",
                                 "text/plain", "application/json", "", "multipart/form-data",
                                 "multipart/form-data; boundary=zz", "application/xml; charset=x"])


@FUZZ
@given(raw=uploads, filename=st.text(max_size=80), field=st.sampled_from(["orders", "other"]))
def test_form_uploads_get_a_deliberate_answer(fuzzed: tuple[TestClient, str], raw: bytes,
                                              filename: str, field: str) -> None:
    client, _ = fuzzed
    answer = client.post(f"/games/{EXAMPLE_ID}/submit",
                         files={field: (filename, raw, "application/xml")})
    assert deliberate(answer.status_code), answer.text
    assert answer.headers["content-type"].startswith("text/html")


@FUZZ
@given(raw=uploads, content_type=content_types, game=games)
def test_raw_uploads_get_a_deliberate_answer(fuzzed: tuple[TestClient, str], raw: bytes,
                                             content_type: str, game: str) -> None:
    client, _ = fuzzed
    answer = client.post(f"/api/games/{quote(game, safe='')}/submissions", content=raw,
                         headers={"content-type": content_type})
    assert deliberate(answer.status_code), answer.text
    if answer.status_code in (200, 422) and "outcome" in answer.json():
        assert answer.json()["outcome"] in ("accepted", "rejected", "decision", "refused",
                                            "invalid")


@FUZZ
@given(kind=st.sampled_from(["/games/{}", "/games/{}/journal", "/games/{}/me",
                             "/games/{}/me/report/{}", "/games/{}/me/report/{}.png",
                             "/api/games/{}", "/api/games/{}/journal", "/api/games/{}/reports",
                             "/api/games/{}/reports/{}", "/tournaments/{}",
                             "/api/tournaments/{}", "/{}", "/static/{}", "/api/{}/{}"]),
       first=games, second=st.one_of(st.just("0"), segments), token=tokens,
       extra=st.dictionaries(st.text(max_size=10), st.text(max_size=20), max_size=3),
       raw_path=st.booleans())
def test_odd_paths_ids_tokens_and_queries_get_a_deliberate_answer(
        fuzzed: tuple[TestClient, str], kind: str, first: str, second: str,
        token: str | None, extra: dict[str, str], raw_path: bool) -> None:
    client, real_token = fuzzed
    encode = (lambda s: quote(s, safe="/")) if raw_path else (lambda s: quote(s, safe=""))
    path = kind.format(encode(first), encode(second))
    if token == REAL:
        token = real_token
    params = {**extra, **({"token": token} if token is not None else {})}
    answer = client.get(path, params=params)
    assert deliberate(answer.status_code), (path, answer.text)
    asked = answer.request.url.path  # after the client's own normalization of "." and ".."
    secret = re.match(r"/games/[^/]+/me|/api/games/[^/]+/reports", asked)
    if secret and answer.status_code == 200:
        assert params.get("token") == real_token, asked


@FUZZ
@given(body=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                         lambda inner: st.lists(inner, max_size=3)
                         | st.dictionaries(st.sampled_from(["game", "scenario", "roster",
                                                            "side", "name", "email",
                                                            "public_key", "timezone",
                                                            "hours", "game_id", "policy",
                                                            "deadline_hours", "options"]),
                                           inner, max_size=6), max_leaves=12),
       action=st.sampled_from(["games", f"games/{EXAMPLE_ID}/extend", "games/nope/extend",
                               f"games/{EXAMPLE_ID}/pause", f"games/{EXAMPLE_ID}/resume",
                               f"games/{EXAMPLE_ID}/missed"]),
       authorized=st.booleans())
def test_admin_routes_get_a_deliberate_answer(fuzzed: tuple[TestClient, str], body: object,
                                              action: str, authorized: bool) -> None:
    client, _ = fuzzed
    headers = {"authorization": f"Bearer {ADMIN}" if authorized else "Bearer guess"}
    answer = client.post(f"/api/admin/{action}", json=body, headers=headers)
    assert deliberate(answer.status_code), answer.text
    if not authorized:
        assert answer.status_code == 403
