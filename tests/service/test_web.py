"""The web front end to end over HTTP: pages, uploads and their verdicts, the journal
download, the per-player secret link, escaping, the API's description, the referee's
routes, and one run of the real uvicorn server over a real socket."""

from __future__ import annotations

import logging
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from adjudicator.engine.hidden import OpenView
from adjudicator.referee.verify import verify
from adjudicator.service.core import Service
from adjudicator.service.web import create_app
from tests.service.conftest import EXAMPLE, EXAMPLE_ID, create_example, example_turn

ADMIN = "referee-secret-token"
XSS = "<script>alert(1)</script>"
XSS_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
XSS_ID = "<img src=x onerror=alert(1)>"  # no slash: it stays one path segment
XSS_ID_ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(service: Service) -> Iterator[TestClient]:
    with TestClient(create_app(service, admin_token=ADMIN)) as test_client:
        yield test_client


def token_of(link: str) -> str:
    return link.split("token=", 1)[1]


def upload(client: TestClient, raw: bytes, game_id: str = EXAMPLE_ID,
           filename: str = "orders.xml") -> httpx.Response:
    return client.post(f"/games/{quote(game_id, safe='')}/submit",
                       files={"orders": (filename, raw, "application/xml")})


def unsigned(raw: bytes) -> bytes:
    return re.sub(rb"\s*<signature.*</signature>", b"", raw, flags=re.S)


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """The real uvicorn server on a free loopback port, in a thread; its base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None,
                                           access_log=True, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


# -- pages and the public API -----------------------------------------------------------


def test_the_game_list_and_the_game_page_show_status_step_and_deadline(
        client: TestClient, example: dict[str, str]) -> None:
    listing = client.get("/")
    assert listing.status_code == 200
    assert f'href="/games/{EXAMPLE_ID}"' in listing.text and "Barbarossa Solitaire" in listing.text
    page = client.get(f"/games/{EXAMPLE_ID}")
    assert page.status_code == 200
    assert "Waiting for <strong>german</strong>, step 1" in page.text
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", page.text)
    assert "Europe/Berlin" in page.text and re.search(r"\d\d:\d\d CES?T", page.text)
    assert "game created" in page.text and f"/games/{EXAMPLE_ID}/journal" in page.text
    assert 'name="orders"' in page.text
    games = client.get("/api/games").json()
    assert [g["id"] for g in games] == [EXAMPLE_ID]
    detail = client.get(f"/api/games/{EXAMPLE_ID}").json()
    assert detail["acting_side"] == "german" and detail["next_seq"] == 1
    assert detail["players"][0]["deadline_local"] and detail["log"]


def test_an_unknown_game_is_a_404_in_both_languages(client: TestClient) -> None:
    assert client.get("/games/no-such-game").status_code == 404
    answer = client.get("/api/games/no-such-game")
    assert answer.status_code == 404 and "no game" in answer.json()["detail"]


def test_upload_of_a_good_file_is_accepted_and_the_same_bytes_get_the_same_answer(
        client: TestClient, service: Service, example: dict[str, str]) -> None:
    first = upload(client, example_turn(1))
    assert first.status_code == 200
    assert "accepted" in first.text and "all 9 orders were carried out" in first.text
    journal = service.journal(EXAMPLE_ID)
    again = upload(client, example_turn(1))
    assert again.status_code == 200 and "This same file came before" in again.text
    assert service.journal(EXAMPLE_ID) == journal
    via_api = client.post(f"/api/games/{EXAMPLE_ID}/submissions", content=example_turn(1),
                          headers={"content-type": "application/xml"})
    assert via_api.status_code == 200
    body = via_api.json()
    assert body["outcome"] == "accepted" and body["duplicate"] and body["seq"] == 1
    assert service.journal(EXAMPLE_ID) == journal
    page = client.get(f"/games/{EXAMPLE_ID}").text
    assert "Waiting for <strong>german</strong>, step 2" in page and "outcome-accepted" in page


def test_garbage_and_unsigned_files_are_422_with_a_readable_reason(
        client: TestClient, example: dict[str, str]) -> None:
    garbage = upload(client, b"\x00\xffthis is no XML at all")
    assert garbage.status_code == 422
    assert "not UTF-8 text" in garbage.text
    refused = upload(client, unsigned(example_turn(1)))
    assert refused.status_code == 422
    assert "refused" in refused.text and "the file is not signed" in refused.text
    api = client.post(f"/api/games/{EXAMPLE_ID}/submissions", content=b"<nope/>",
                      headers={"content-type": "application/xml"})
    assert api.status_code == 422 and api.json()["outcome"] == "invalid"


def test_an_oversized_upload_is_413_even_when_streamed(service: Service,
                                                        example: dict[str, str]) -> None:
    small = TestClient(create_app(service, max_upload_bytes=1000))
    big = example_turn(1) + b" " * 2000
    assert upload(small, big).status_code == 413
    assert small.post(f"/api/games/{EXAMPLE_ID}/submissions", content=big,
                      headers={"content-type": "application/xml"}).status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it streams
        for _ in range(100):
            yield b"x" * 100

    streamed = small.post(f"/api/games/{EXAMPLE_ID}/submissions", content=chunks(),
                          headers={"content-type": "application/xml"})
    assert streamed.status_code == 413 and "at most 1,000 bytes" in streamed.json()["detail"]
    assert service.game_overview(EXAMPLE_ID)["submissions"] == []


def test_a_missing_file_is_400(client: TestClient, example: dict[str, str]) -> None:
    no_file = client.post(f"/games/{EXAMPLE_ID}/submit", data={"other": "x"},
                          files={"unrelated": ("a.txt", b"a", "text/plain")})
    assert no_file.status_code == 400 and "no file" in no_file.text
    empty = client.post(f"/api/games/{EXAMPLE_ID}/submissions", content=b"",
                        headers={"content-type": "application/xml"})
    assert empty.status_code == 400
    wrong_type = client.post(f"/api/games/{EXAMPLE_ID}/submissions", json={"a": 1})
    assert wrong_type.status_code == 415


def test_a_file_for_another_game_says_so(client: TestClient, service: Service,
                                         example: dict[str, str]) -> None:
    create_example(service, "second-game")
    answer = upload(client, example_turn(1), game_id="second-game")
    assert answer.status_code == 200
    assert "names game example-solitaire, not game second-game" in answer.text
    api = client.post("/api/games/second-game/submissions", content=example_turn(1),
                      headers={"content-type": "application/xml"}).json()
    assert api["same_game"] is False and "second-game" in api["note"]


def test_the_downloaded_journal_verifies(client: TestClient, example: dict[str, str],
                                         tmp_path: Path) -> None:
    for seq in (1, 2):
        assert upload(client, example_turn(seq)).status_code == 200
    download = client.get(f"/games/{EXAMPLE_ID}/journal")
    assert download.status_code == 200
    assert download.headers["content-type"].startswith("application/x-ndjson")
    assert download.headers["content-disposition"].startswith("attachment")
    assert client.get(f"/api/games/{EXAMPLE_ID}/journal").content == download.content
    journal = tmp_path / "journal.jsonl"
    journal.write_bytes(download.content)
    result = verify(journal)
    assert result.ok, result.divergence
    assert result.steps == 2
    head = (EXAMPLE / "journal.jsonl").read_bytes().splitlines()[:3]
    assert download.content.splitlines()[:3] == head


# -- the per-player secret link ---------------------------------------------------------


def test_the_player_link_shows_its_sides_report_with_the_map(
        client: TestClient, service: Service, example: dict[str, str]) -> None:
    token = token_of(example["german"])
    waiting = client.get(f"/games/{EXAMPLE_ID}/me", params={"token": token})
    assert waiting.status_code == 200 and "being prepared" in waiting.text
    assert service.render_pending_reports(limit=1) == 1  # step 0, about a second
    page = client.get(f"/games/{EXAMPLE_ID}/me", params={"token": token})
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    # the report itself, in the page (no frame of fixed height cutting off the map)
    assert 'id="report-body"' in page.text and "<svg" in page.text
    assert "turn report for the <strong>German</strong> player" in page.text
    assert f'href="report/0.png?token={token}"' in page.text
    assert "step 0 · turn 1941-summer, movement · the starting position" in page.text
    assert "referee@pbem.localhost" in page.text and 'href="/help/orders/solitaire"' in page.text
    assert f'href="/games/{EXAMPLE_ID}/me/report/0?token={token}"' in page.text
    report = client.get(f"/games/{EXAMPLE_ID}/me/report/0", params={"token": token})
    assert report.status_code == 200 and "<svg" in report.text
    assert "turn report for the <strong>German</strong> player" in report.text
    assert f'href="0.png?token={token}"' in report.text  # the map link keeps the key
    assert "'unsafe-inline'" in report.headers["content-security-policy"]
    png = client.get(f"/games/{EXAMPLE_ID}/me/report/0.png", params={"token": token})
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    assert png.headers["content-type"] == "image/png"
    listed = client.get(f"/api/games/{EXAMPLE_ID}/reports", params={"token": token}).json()
    assert listed == {"game_id": EXAMPLE_ID, "side": "german", "seqs": [0]}
    one = client.get(f"/api/games/{EXAMPLE_ID}/reports/0", params={"token": token}).json()
    assert one["side"] == "german" and one["html"].startswith("<!DOCTYPE html>")
    not_yet = client.get(f"/api/games/{EXAMPLE_ID}/reports/5", params={"token": token})
    assert not_yet.status_code == 404


def test_a_wrong_or_missing_token_is_403_and_shows_nothing(
        client: TestClient, service: Service, example: dict[str, str]) -> None:
    other = create_example(service, "second-game")
    someone_elses = token_of(other["german"])
    mine = token_of(example["german"])
    for params in ({}, {"token": ""}, {"token": "wrong"}, {"token": someone_elses},
                   {"token": mine + "x"}, {"token": "x" * 5000}):
        for path in (f"/games/{EXAMPLE_ID}/me", f"/games/{EXAMPLE_ID}/me/report/0",
                     f"/games/{EXAMPLE_ID}/me/report/0.png", f"/api/games/{EXAMPLE_ID}/reports",
                     f"/api/games/{EXAMPLE_ID}/reports/0"):
            answer = client.get(path, params=params)
            assert answer.status_code == 403, (path, params)
            assert "does not open any report" in answer.text
            assert "<svg" not in answer.text and "german" not in answer.text.lower()
    assert client.get("/games/second-game/me", params={"token": someone_elses}).status_code \
        == 200


# -- escaping and headers ---------------------------------------------------------------


def test_markup_in_every_free_text_field_is_escaped(client: TestClient,
                                                    service: Service) -> None:
    public_key = (EXAMPLE / "german.pub").read_text()
    created = client.post("/api/admin/games", headers={"authorization": f"Bearer {ADMIN}"},
                          json={"game": "solitaire", "scenario": "campaign",
                                "game_id": "xss-game", "tournament": XSS,
                                "roster": [{"side": "german", "name": XSS,
                                            "email": "a@example.org",
                                            "public_key": public_key,
                                            "timezone": "Europe/Berlin"}]})
    assert created.status_code == 201, created.text
    token = token_of(created.json()["links"]["german"])
    service.render_pending_reports(limit=1)
    pages = [client.get("/"), client.get("/games/xss-game"),
             client.get(f"/tournaments/{quote(XSS, safe='')}"),
             client.get("/games/xss-game/me", params={"token": token}),
             client.get(f"/games/{quote(XSS_ID, safe='')}"),
             upload(client, b"<orders game='&lt;img src=x onerror=alert(1)&gt;'/>",
                    game_id="xss-game", filename=XSS + ".xml")]
    for page in pages:
        assert XSS not in page.text and XSS_ID not in page.text, page.url
        assert page.headers["content-type"].startswith("text/html")
    home, game, cup, mine, no_game, verdict = pages
    for page in (home, game, cup):  # the tournament's name, the player's name
        assert XSS_ESCAPED in page.text, page.url
    assert 'href="/tournaments/%3Cscript%3Ealert%281%29%3C%2Fscript%3E"' in home.text
    assert cup.status_code == 200 and mine.status_code == 200 and "xss-game" in mine.text
    assert no_game.status_code == 404 and XSS_ID_ESCAPED in no_game.text
    assert verdict.status_code == 422
    assert XSS_ESCAPED in verdict.text and XSS_ID_ESCAPED in verdict.text  # file name, game
    assert client.get("/api/games/xss-game").json()["tournament"] == XSS


def test_every_answer_carries_the_security_headers(client: TestClient,
                                                   example: dict[str, str]) -> None:
    for path in ("/", f"/games/{EXAMPLE_ID}", "/api/games", "/nowhere", "/static/service.css"):
        headers = client.get(path).headers
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "SAMEORIGIN"
        assert headers["content-security-policy"].startswith("default-src 'self'")
        assert "unsafe-inline" not in headers["content-security-policy"]
    css = client.get("/static/service.css")
    assert css.headers["content-type"].startswith("text/css") and "--ink" in css.text


def test_an_unexpected_error_is_a_plain_500_and_logged(
        service: Service, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_args: object, **_kwargs: object) -> list[object]:
        raise RuntimeError("database on fire: secret detail")

    monkeypatch.setattr(service, "list_games", broken)
    with TestClient(create_app(service)) as test_client, caplog.at_level(logging.ERROR):
        for path in ("/", "/api/games"):
            answer = test_client.get(path)
            assert answer.status_code == 500
            assert "secret detail" not in answer.text and "Traceback" not in answer.text
            assert answer.headers["content-type"].startswith("text/plain")
    assert "database on fire" in caplog.text


# -- the API's description and the referee's routes -------------------------------------


def test_the_openapi_document_lists_the_api(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    paths = document["paths"]
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/submissions",
                 "/api/games/{game_id}/journal", "/api/games/{game_id}/reports/{seq}",
                 "/api/admin/games", "/api/admin/games/{game_id}/extend",
                 "/api/admin/games/{game_id}/pause", "/api/admin/games/{game_id}/resume",
                 "/api/admin/games/{game_id}/missed"):
        assert path in paths, path
    for path, operations in paths.items():
        for method, operation in operations.items():
            assert operation.get("summary"), (method, path)
    assert not [p for p in paths if not p.startswith("/api/")]
    assert "VerdictOut" in document["components"]["schemas"]


def test_admin_routes_need_the_token(service: Service, example: dict[str, str]) -> None:
    with TestClient(create_app(service, admin_token=ADMIN)) as guarded:
        for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": ADMIN},
                        {"authorization": f"Bearer {ADMIN}x"}):
            for action in ("pause", "resume", "missed"):
                answer = guarded.post(f"/api/admin/games/{EXAMPLE_ID}/{action}", headers=headers)
                assert answer.status_code == 403
            assert guarded.post("/api/admin/games", headers=headers,
                                json={}).status_code == 403
    with TestClient(create_app(service)) as unguarded:  # no admin token: no admin routes
        assert unguarded.post(f"/api/admin/games/{EXAMPLE_ID}/pause",
                              headers={"authorization": f"Bearer {ADMIN}"}).status_code == 404
        assert "/api/admin/games" not in unguarded.get("/openapi.json").json()["paths"]
    assert service.game_overview(EXAMPLE_ID)["status"] == "active"


def test_the_referee_creates_a_game_and_runs_its_clock(client: TestClient,
                                                       service: Service) -> None:
    auth = {"authorization": f"Bearer {ADMIN}"}
    body = {"game": "solitaire", "scenario": "campaign", "game_id": "cup-1",
            "tournament": "Winter Cup", "deadline_hours": 48, "policy": "forfeit",
            "roster": [{"side": "german", "name": "Bob", "email": "bob@example.org",
                        "public_key": (EXAMPLE / "german.pub").read_text(),
                        "timezone": "America/New_York"}]}
    created = client.post("/api/admin/games", headers=auth, json=body)
    assert created.status_code == 201, created.text
    link = created.json()["links"]["german"]
    assert link.startswith("http://testserver/games/cup-1/me?token=")
    assert client.get(link).status_code == 200
    assert client.post("/api/admin/games", headers=auth, json=body).status_code == 409
    bad_zone = {**body, "game_id": "cup-2",
                "roster": [{**body["roster"][0], "timezone": "Mars/Olympus"}]}
    assert client.post("/api/admin/games", headers=auth, json=bad_zone).status_code == 422
    assert client.post("/api/admin/games", headers=auth,
                       json={**body, "game_id": "cup-3", "game": "chess"}).status_code == 422
    at_a_glance = client.get("/tournaments/Winter Cup")
    assert at_a_glance.status_code == 200 and "cup-1" in at_a_glance.text
    assert "Bob (german)" in at_a_glance.text

    before = client.get("/api/games/cup-1").json()["deadline_utc"]
    extended = client.post("/api/admin/games/cup-1/extend", headers=auth, json={"hours": 24})
    assert extended.status_code == 200 and extended.json()["deadline_utc"] > before
    assert client.post("/api/admin/games/cup-1/extend", headers=auth,
                       json={"hours": 0}).status_code == 422
    paused = client.post("/api/admin/games/cup-1/pause", headers=auth).json()
    assert paused["status"] == "paused" and paused["deadline_utc"] is None
    assert "stopped while the game is paused" in client.get("/games/cup-1").text
    assert client.post("/api/admin/games/cup-1/pause", headers=auth).status_code == 422
    resumed = client.post("/api/admin/games/cup-1/resume", headers=auth).json()
    assert resumed["status"] == "active" and resumed["deadline_utc"]
    missed = client.post("/api/admin/games/cup-1/missed", headers=auth).json()
    assert missed["status"] == "forfeited" and "forfeits" in missed["log"][-1]["what"]
    assert client.post("/api/admin/games/nope/pause", headers=auth).status_code == 404


# -- the real server over a real socket -------------------------------------------------


def test_the_real_server_takes_an_upload_over_a_socket(
        service: Service, example: dict[str, str], caplog: pytest.LogCaptureFixture) -> None:
    token = token_of(example["german"])
    caplog.set_level(logging.INFO, logger="uvicorn.access")
    with serving(create_app(service, max_upload_bytes=65536)) as base, \
            httpx.Client(base_url=base, timeout=10) as http:
        answer = http.post(f"/games/{EXAMPLE_ID}/submit",
                           files={"orders": ("step-01.xml", example_turn(1), "text/xml")})
        assert answer.status_code == 200 and "all 9 orders were carried out" in answer.text
        raw = http.post(f"/api/games/{EXAMPLE_ID}/submissions", content=example_turn(2),
                        headers={"content-type": "application/xml"})
        assert raw.status_code == 200 and raw.json()["outcome"] == "rejected"
        too_big = http.post(f"/api/games/{EXAMPLE_ID}/submissions", content=b"x" * 200_000,
                            headers={"content-type": "application/xml"})
        assert too_big.status_code == 413
        assert http.get(f"/games/{EXAMPLE_ID}/me", params={"token": token}).status_code == 200
    assert service.game_overview(EXAMPLE_ID)["next_seq"] == 3
    assert f"/games/{EXAMPLE_ID}/me" in caplog.text  # the access log ran ...
    assert token not in caplog.text  # ... and kept the secret out


def test_a_hidden_information_games_journal_waits_for_the_end(
        service: Service, example: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/architecture.md, Hidden information: the journal holds every side's secrets, so a game
    that hides
    information releases it only when the game is over."""
    import dataclasses

    from adjudicator import games

    package = games.get_game("solitaire")
    monkeypatch.setitem(games._LOADED, "solitaire", dataclasses.replace(
        package, definition=dataclasses.replace(package.definition,
                                       view=OpenView(hides_information=True))))
    client = TestClient(create_app(service))
    answer = client.get(f"/api/games/{EXAMPLE_ID}/journal")
    assert answer.status_code == 403 and "released when the game ends" in answer.text
    for seq in range(1, 17):
        service.submit(example_turn(seq), "web")
    assert client.get(f"/api/games/{EXAMPLE_ID}/journal").status_code == 200


def test_the_player_page_offers_the_template_of_the_awaited_step(
        service: Service, example: dict[str, str]) -> None:
    """Play from the browser: the template names the game's step, prev and commit, and
    a filled-in, signed copy of it is accepted."""
    from lxml import etree

    from adjudicator.security.signing import sign_orders
    from tests.service.conftest import demo_key

    client = TestClient(create_app(service))
    link = example["german"].replace("http://testserver", "")
    token = link.split("token=")[1]
    assert "Download the order template" in client.get(link).text
    answer = client.get(f"/games/{EXAMPLE_ID}/me/template", params={"token": token})
    assert answer.status_code == 200 and 'seq="1"' in answer.text
    assert client.get(f"/games/{EXAMPLE_ID}/me/template",
                      params={"token": "wrong"}).status_code == 403
    root = etree.fromstring(answer.content.replace(b"<!--", b"<end-turn/><!--"))
    signed = sign_orders(root, demo_key())
    upload = client.post(f"/games/{EXAMPLE_ID}/submit",
                         files={"orders": ("turn.xml", signed, "application/xml")})
    assert upload.status_code == 200 and "accepted" in upload.text
