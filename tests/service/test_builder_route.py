"""The builder page's route and files (no browser): behind the secret link only, linked
from the player's page while the game waits for that side, its script and stylesheet
served by the service itself, and nothing in them fetched from elsewhere."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from adjudicator.service.web_builder_page import STATIC
from tests.service.conftest import EXAMPLE_ID
from tests.service.test_web import client, token_of

__all__ = ["client"]  # the fixture


def test_the_page_opens_with_the_link_only(client: TestClient, example: dict[str, str]) -> None:
    token = token_of(example["german"])
    page = client.get(f"/games/{EXAMPLE_ID}/me/builder?token={token}")
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-store"
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert f'data-api="/games/{EXAMPLE_ID}/me/api"' in page.text
    for wrong in ("", "?token=", f"?token={token[:-1]}x"):
        refused = client.get(f"/games/{EXAMPLE_ID}/me/builder{wrong}")
        assert refused.status_code == 403
        assert "this link does not open any report of this game" in refused.text
    me = client.get(f"/games/{EXAMPLE_ID}/me?token={token}")
    assert f'href="/games/{EXAMPLE_ID}/me/builder?token={token}"' in me.text


def test_its_files_are_the_services_own(client: TestClient) -> None:
    for name, kind in STATIC.items():
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith(kind)
        # no address of another site, no script text run from strings
        assert not re.search(r"https?://(?!www\.w3\.org/)", answer.text), name
        assert "eval(" not in answer.text and "new Function" not in answer.text, name
        assert "console." not in answer.text, name  # it prints nothing, secret or not
