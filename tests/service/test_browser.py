"""The upload page and a report page in headless Chromium (Debian's `chromium`, driven by
Playwright) against the real uvicorn server: what a player actually sees."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.service.core import Service
from adjudicator.service.web import create_app
from tests.service.conftest import EXAMPLE_ID, example_turn
from tests.service.test_web import serving, token_of

CHROMIUM = Path("/usr/bin/chromium")

if not CHROMIUM.exists() and shutil.which("chromium") is None:
    pytest.skip("the browser tests need Debian's chromium (apt-get install chromium)",
                allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")


@pytest.fixture
def browser_page() -> Iterator[sync_api.Page]:
    executable = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True)
        try:
            page = browser.new_page()
            page.set_default_timeout(15_000)
            yield page
        finally:
            browser.close()


def test_a_player_uploads_through_the_form_and_reads_the_report(
        service: Service, example: dict[str, str], browser_page: sync_api.Page) -> None:
    page, expect = browser_page, sync_api.expect
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    with serving(create_app(service)) as base:
        page.goto(f"{base}/games/{EXAMPLE_ID}")
        expect(page.locator("h1")).to_have_text(f"Game {EXAMPLE_ID}")
        page.set_input_files("#orders", files=[{"name": "step-01.xml", "mimeType": "text/xml",
                                                "buffer": example_turn(1)}])
        page.get_by_role("button", name="Submit the orders").click()
        expect(page.locator("#outcome")).to_have_text("accepted")
        expect(page.locator("#verdict")).to_contain_text("all 9 orders were carried out")
        expect(page.locator(".kicker")).to_contain_text("step-01.xml")

        assert service.render_pending_reports(limit=1) == 1  # step 0, about a second
        page.goto(f"{base}/games/{EXAMPLE_ID}/me?token={token_of(example['german'])}")
        expect(page.locator("h1")).to_contain_text("german")
        report = page.frame_locator("#report-frame")
        expect(report.locator("h1")).to_contain_text(f"Game {EXAMPLE_ID}")
        expect(report.locator("#map svg").first).to_be_visible()
        box = report.locator("#map svg").first.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 100
    assert not [e for e in errors if "Content Security Policy" in e], errors
