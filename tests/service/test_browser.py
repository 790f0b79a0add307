"""The upload page and a report page in headless Chromium (Debian's `chromium`, driven by
Playwright) against the real uvicorn server: what a player actually sees."""

from __future__ import annotations

import re
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
        page.set_input_files("#orders-file", files=[{"name": "step-01.xml", "mimeType": "text/xml",
                                                "buffer": example_turn(1)}])
        page.get_by_role("button", name="Submit the orders").click()
        expect(page.locator("#outcome")).to_have_text("accepted")
        expect(page.locator("#verdict")).to_contain_text("all 9 orders were carried out")
        expect(page.locator(".kicker")).to_contain_text("step-01.xml")
        expect(page.locator("#game-link")).to_be_visible()

        assert service.render_pending_reports(limit=2) == 2  # steps 0 and 1
        token = token_of(example["german"])
        page.goto(f"{base}/games/{EXAMPLE_ID}/me?token={token}")
        expect(page.locator("h1").first).to_contain_text("german")
        # the report is in the page, its whole map visible at the page's width
        report = page.locator("#report-body")
        expect(report.locator("h1")).to_contain_text(f"Game {EXAMPLE_ID}")
        svg = report.locator("#map svg").first
        expect(svg).to_be_visible()
        box = svg.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 100
        assert page.evaluate("document.documentElement.scrollHeight") > box["y"] + \
            box["height"] - 1  # nothing cut off
        expect(page.locator("#steps")).to_contain_text("step 1 · turn")
        expect(page.locator("#referee-address")).to_have_text("referee@pbem.localhost")
        page.locator("#orders-help").click()
        expect(page.locator("#doc h1")).to_contain_text("Barbarossa Solitaire")

        # from the player's own page, the verdict links back to it and to the report
        page.goto(f"{base}/games/{EXAMPLE_ID}/me?token={token}")
        page.set_input_files("#orders-file", files=[{"name": "step-02.xml", "mimeType": "text/xml",
                                                "buffer": example_turn(2)}])
        page.get_by_role("button", name="Submit the orders").click()
        expect(page.locator("#report-link")).to_be_visible()
        expect(page.locator("#me-link")).to_be_visible()

        # the public page shows the position as both sides may see it
        page.goto(f"{base}/games/{EXAMPLE_ID}")
        image = page.locator("#public-map")
        expect(image).to_be_visible()
        assert page.evaluate("document.getElementById('public-map').naturalWidth") > 200
    assert not [e for e in errors if "Content Security Policy" in e], errors


def test_the_api_docs_are_interactive(service: Service, example: dict[str, str],
                                      browser_page: sync_api.Page) -> None:
    page, expect = browser_page, sync_api.expect
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    with serving(create_app(service)) as base:
        page.goto(f"{base}/docs")
        operation = page.locator("section.operation", has_text="/api/games/{game_id}").first
        expect(operation).to_be_visible()
        operation.locator("input[name=game_id]").fill(EXAMPLE_ID)
        operation.get_by_role("button", name="Try it").click()
        expect(operation.locator("pre.answer")).to_contain_text('"acting_side": "german"')
    assert not errors, errors


def test_a_printed_report_is_a4_with_the_map_legible_on_its_own_landscape_page(
        tmp_path: Path, browser_page: sync_api.Page) -> None:
    """Issue 16, item 19: A4 pages (not Letter), the map alone on a landscape page, no
    text of the map under 7 pt once it is scaled to that page."""
    from adjudicator.referee.gamedir import load_game
    from adjudicator.reports import write_report
    from adjudicator.reports.from_journal import step_report
    from tests.service.conftest import EXAMPLE

    game = load_game(EXAMPLE / "journal.jsonl")
    paths = write_report(step_report(game, 1, "german"), tmp_path / "report")
    page = browser_page
    page.set_viewport_size({"width": 1062, "height": 800})  # the map page's width (281 mm)
    page.goto(paths["html"].as_uri())
    page.emulate_media(media="print")
    smallest = page.evaluate("""() => {
        const svg = document.querySelector('#map svg');
        const box = svg.getBoundingClientRect(), view = svg.viewBox.baseVal;
        const scale = Math.min(box.width / view.width, box.height / view.height);
        let least = 1e9;
        for (const t of svg.querySelectorAll('text')) {
            if (!t.textContent.trim()) continue;
            least = Math.min(least, parseFloat(getComputedStyle(t).fontSize) * scale * 0.75);
        }
        return least;
    }""")
    assert smallest >= 6.9, smallest
    pdf = page.pdf(prefer_css_page_size=True)
    boxes = re.findall(rb"/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]", pdf)
    sizes = {(round(float(w)), round(float(h))) for w, h in boxes}  # in points
    assert sizes & {(595, 842), (596, 843)}, sizes  # A4 portrait (Letter is 612 x 792)
    assert sizes & {(842, 595), (843, 596)}, sizes  # the map's own landscape page
