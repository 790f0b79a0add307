"""The order builder page in headless Chromium (issue 17, items 1 to 3): for every game
whose rules list their legal orders, a player's turn built by clicks on the map and in
the page's forms, a refused order shown in place with its rule, the file signed in the
browser with a passphrase-protected key, accepted by the service, the position and the
report what the clicks asked for; and no request ever carries the key."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import lxml.html
import pytest
from cryptography.hazmat.primitives.asymmetric import ed25519
from lxml import etree

from adjudicator.games import GAME_IDS, get_game
from adjudicator.security.keys import private_key_pem, public_key_pem
from adjudicator.security.signing import read_envelope, sign_orders, verify_orders
from adjudicator.security.xmlsafe import parse_untrusted
from adjudicator.service.core import PlayerSpec, Service
from adjudicator.service.web import create_app
from tests.service.conftest import EXAMPLE_ID
from tests.service.test_builder_signing import Recorder, browser, key_material, sync_api
from tests.service.test_web import serving, token_of

__all__ = ["browser"]  # the fixture, shared with the signing tests

PASSPHRASE = "kein Schritt zurück"
MOVERS = 2  # units moved by clicks in each phase
STEPS = 4  # submissions at most: a player turn (its phases in one draft), and answers
PHASES = 3  # phases built in one draft at most (1941: the Air Segment, moves, attacks)
FORM_ORDERS = 120  # orders added from the forms in one step at most (Moscow's set-up)


def lists_orders(game: str) -> str | None:
    """Why `game` cannot be built on the page yet (its rules do not list), or None."""
    package = get_game(game)
    rules, module = package.rules, package.bundled_module
    state = rules.initial_state(module, package.scenarios()[0][0], {})
    try:
        rules.legal_orders(module, state, rules.acting_side(state) or rules.sides[0])
    except (AttributeError, NotImplementedError) as exc:
        return f"the rules of {game} do not list their legal orders yet ({exc})"
    return None


@pytest.fixture
def players(service: Service, request: pytest.FixtureRequest) -> dict[str, Any]:
    """A fresh game of `request.param` in the service, each side's key protected by a
    passphrase."""
    game = request.param
    why = lists_orders(game)
    if why:
        pytest.skip(why)
    package = get_game(game)
    keys = {side: ed25519.Ed25519PrivateKey.generate() for side in package.rules.sides}
    roster = [PlayerSpec(side, side.title(), f"{side}@example.org",
                         public_key_pem(key.public_key())) for side, key in keys.items()]
    created = service.create_game(game, package.scenarios()[0][0], roster,
                                  game_id=f"built-{game}", test_seed=b"\x11" * 32)
    pems = {side: private_key_pem(key, PASSPHRASE.encode()) for side, key in keys.items()}
    return {"game_id": created.game_id, "keys": keys, "pems": pems,
            "tokens": {side: token_of(link) for side, link in created.links.items()}}


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    page.set_default_timeout(30_000)
    yield page
    page.close()


def open_builder(page: Any, url: str | None) -> dict[str, Any]:
    """The builder page (at `url`, or the one the page is at) once it has read the step,
    the listing and the first check; the step."""
    if url is not None:
        page.goto(url)
    page.wait_for_url(re.compile(r"/me/builder\?"))
    page.wait_for_function("""() => document.querySelector('#builder').dataset.ready === 'true'
        || !/^Reading/.test(document.querySelector('#step-line').textContent)""")
    page.wait_for_function("() => document.querySelector('#builder').dataset.ready === 'true'"
                           " || !pbemBuilder.state.step || !pbemBuilder.state.step.envelope"
                           " || !['orders', 'answer'].includes(pbemBuilder.state.step.awaited)")
    return page.evaluate("pbemBuilder.state.step")  # type: ignore[no-any-return]


def settled(page: Any) -> None:
    """The draft's last check has answered."""
    page.wait_for_function("() => !/^Checking/.test(document.querySelector('#check-note')"
                           ".textContent)")


def click_at(page: Any, place: str, counter: bool = False) -> None:
    point = page.evaluate("([p, c]) => { document.getElementById('map')"
                          ".scrollIntoView({block: 'nearest'});"
                          " return pbemBuilder.screenPoint(p, c); }", [place, counter])
    assert point, f"{place} is not on the map"
    page.mouse.click(point[0], point[1])


def draft_size(page: Any) -> int:
    return int(page.locator("#draft > li").count())


def build_step(page: Any, moved: dict[str, str], refused: list[str]) -> int:
    """One step's orders, by clicks, phase after phase in one draft (the page lists the
    position the draft leaves): units moved on the map, one of them a unit the listing's
    sample left out; an order edited into one the rules refuse (shown in place, then put
    back); an attack on the map; the order that ends the phase; where the map offers
    nothing, the forms' orders (a set-up). Stops where a die roll leaves what follows
    unknown. The orders added from the forms."""
    formed = 0
    for _ in range(PHASES):
        formed += build_phase(page, moved, refused)
        position = page.evaluate("pbemBuilder.state.position")
        if not page.evaluate("pbemBuilder.state.draft.length") or not position or \
                position["stopped"] or position["acting"] != page.evaluate(
                    "pbemBuilder.state.step.side") or last_kind(page) not in ENDERS:
            break  # a die, the other side's part, or nothing more to build
    return formed


ENDERS = ("end-phase", "end-turn", "answer")


def last_kind(page: Any) -> str | None:
    return page.evaluate(  # type: ignore[no-any-return]
        "(pbemBuilder.state.draft.at(-1) || {}).kind || null")


def move_by_clicks(page: Any, unit: dict[str, Any]) -> str | None:
    """Click the unit's counter (again, for the next unit of a stack), wait for its whole
    reach, click its first destination: the place, or None if it may not move."""
    expect = sync_api.expect
    click_at(page, unit["at"], counter=True)
    for _ in range(8):
        if page.evaluate("pbemBuilder.state.selected && pbemBuilder.state.selected.unit") \
                == unit["unit"]:
            break
        click_at(page, unit["at"], counter=True)
    assert page.evaluate("pbemBuilder.state.selected.unit") == unit["unit"]
    page.wait_for_function("() => pbemBuilder.state.selected && pbemBuilder.state.selected.full")
    moves = page.evaluate("pbemBuilder.state.selected.moves.map(d => [d.place, d.cost])")
    if not moves:
        return None
    expect(page.locator(".pbem-reach")).to_have_count(len(moves))
    place, cost = moves[0]
    target = page.locator(f'.pbem-reach[data-reach="{place}"]')
    expect(target.locator("text")).to_have_text(cost)
    before = draft_size(page)
    click_at(page, place)
    expect(page.locator("#draft > li")).to_have_count(before + 1)
    settled(page)
    expect(page.locator("#draft > li").last).to_have_class(re.compile(r"\bok\b"))
    return str(place)


def refused_in_place(page: Any, refused: list[str]) -> None:
    """The last order edited by hand to name a unit that does not exist: refused in place
    with its rule and words; then put back, and taken again."""
    expect = sync_api.expect
    last = page.locator("#draft > li").last
    last.get_by_role("button", name=re.compile(r"edit order")).click()
    field = last.locator("form.edit input").first
    was = field.input_value()
    field.fill("NO-SUCH-UNIT")
    page.keyboard.press("Enter")
    settled(page)
    last = page.locator("#draft > li").last
    expect(last).to_have_class(re.compile(r"\brefused\b"))
    refusal = last.locator(".refusal")
    expect(refusal).to_contain_text("rule")
    refused.append(str(refusal.text_content()))
    last.get_by_role("button", name=re.compile(r"edit order")).click()
    last.locator("form.edit input").first.fill(was)
    page.keyboard.press("Enter")
    settled(page)
    expect(page.locator("#draft > li.refused")).to_have_count(0)


def add_from_forms(page: Any) -> bool:
    """Add the first order a form offers that the draft does not hold yet (as the forms
    and the draft describe it): choose it in its form and press the form's button."""
    found = page.evaluate("""() => {
        const drafted = new Set([...document.querySelectorAll('#draft > li .what')]
                                .map(w => w.textContent));
        const forms = [...document.querySelectorAll('form.other')];
        for (const [i, form] of forms.entries()) {
            const option = [...form.querySelectorAll('option')]
                .find(o => !drafted.has(o.textContent));
            if (option) return [i, option.value];
        }
        return null;
    }""")
    if found is None:
        return False
    form = page.locator("form.other").nth(found[0])
    form.locator("select").select_option(found[1])
    before = draft_size(page)
    form.locator("button").click()
    sync_api.expect(page.locator("#draft > li")).to_have_count(before + 1)
    return True


def build_phase(page: Any, moved: dict[str, str], refused: list[str]) -> int:
    units = page.evaluate("[...pbemBuilder.state.units.values()].map(u => ({unit: u.unit,"
                          " at: u.at, moves: u.moves.length, attacks: u.attacks}))")
    sampled = [u for u in units if u["moves"]]
    unsampled = [u for u in units if not u["moves"] and not u["attacks"]]
    for unit in (sampled[:1] + unsampled[:1] + sampled[1:])[:MOVERS]:
        place = move_by_clicks(page, unit)
        if place is not None:
            moved[unit["unit"]] = place
    if not refused and page.evaluate("Object.keys((pbemBuilder.state.draft.at(-1) || "
                                     "{attrs: {}}).attrs).length"):
        refused_in_place(page, refused)
    units = page.evaluate("pbemBuilder.state.listing.units.map(u => ({unit: u.unit,"
                          " attacks: u.attacks}))")
    attackers = [u for u in units if u["attacks"] and u["unit"] not in moved]
    if attackers:
        unit = attackers[0]
        page.select_option("#unit-select", unit["unit"])
        page.wait_for_function("() => (pbemBuilder.state.selected || {}).full")
        if page.evaluate("pbemBuilder.state.selected.odds.length"):  # odds before it is added
            sync_api.expect(page.locator("#unit-options button.attack").first).to_contain_text(
                re.compile(r"odds .+\(rule |odds hidden"))
        before = draft_size(page)
        click_at(page, unit["attacks"][0])
        sync_api.expect(page.locator("#draft > li")).to_have_count(before + 1)
        settled(page)
        if page.locator("#draft > li").last.get_attribute("class") == "order refused":
            page.locator("#draft > li").last.get_by_role(
                "button", name=re.compile("remove order")).click()
            settled(page)
    formed = 0
    ender = page.locator("form.other").filter(
        has=page.locator("button", has_text=re.compile(r"^Add (end|answer)")))
    while not ender.count() and formed < FORM_ORDERS:  # what the phase needs first: a
        if not add_from_forms(page):  # set-up, the draw, entries (14.1)
            break
        formed += 1
        settled(page)
        if page.evaluate("pbemBuilder.state.position && pbemBuilder.state.position.stopped"):
            break  # a die (the draw): what follows is known once it is adjudicated
    if not refused and formed and page.evaluate(
            "Object.keys((pbemBuilder.state.draft.at(-1) || {attrs: {}}).attrs).length"):
        refused_in_place(page, refused)
    if ender.count():
        ender.first.locator("button").click()
        settled(page)
    sync_api.expect(page.locator("#draft > li.refused")).to_have_count(0)
    return formed


def same_as_compose(page: Any) -> None:
    """The page writes the file and the signed bytes as the service's compose does (the
    file `pbem sign` signs, and the C14N 2.0 bytes its signature covers)."""
    entropy = "ab" * 32
    ours, theirs = page.evaluate("""async ([entropy]) => {
        const {step, draft} = pbemBuilder.state;
        const answer = await fetch(`${document.getElementById('builder').dataset.api}/compose`
            + location.search, {method: 'POST', headers: {'content-type': 'application/json'},
                                body: JSON.stringify({orders: draft, entropy})});
        return [[pbemSign.unsignedFile(step.envelope, draft, entropy),
                 pbemSign.signedText(step.envelope, draft, entropy)], await answer.json()];
    }""", [entropy])
    assert ours[0] == theirs["xml"]
    assert ours[1].encode() == base64.b64decode(theirs["c14n"])


def sign_and_submit(page: Any, pem: bytes, key: ed25519.Ed25519PrivateKey) -> str:
    expect = sync_api.expect
    page.set_input_files("#key-file", files=[{"name": "me.key", "mimeType":
                                              "application/x-pem-file", "buffer": pem}])
    page.fill("#passphrase", PASSPHRASE)
    page.click("#load-key")
    expect(page.locator("#key-note")).to_contain_text("Your key is ready")
    assert page.input_value("#passphrase") == ""  # not kept in the page
    # the files a player may download instead: signed (to mail it), unsigned (pbem sign)
    with page.expect_download() as signed:
        page.click("#sign-download")
    raw = Path(signed.value.path()).read_bytes()
    verify_orders(parse_untrusted(raw), key.public_key())
    with page.expect_download() as unsigned:
        page.click("#unsigned-download")
    again = sign_orders(parse_untrusted(Path(unsigned.value.path()).read_bytes()), key,
                        entropy=read_envelope(parse_untrusted(raw)).entropy)
    assert again == raw
    page.click("#sign-submit")
    outcome = page.locator("#outcome")
    expect(outcome).to_be_visible()
    return str(outcome.text_content())


def reported_orders(html: str) -> list[tuple[str, dict[str, str], str]]:
    """The orders a report's table lists: each one's kind, attributes and result."""
    rows = lxml.html.fromstring(html).xpath('//table[@class="orders"]/tbody/tr')
    found = []
    for row in rows:
        element = etree.fromstring(row.xpath(".//code")[0].text_content())
        mark = row.xpath('.//span[contains(@class, "mark")]')[0].get("class").split()[-1]
        found.append((element.tag, dict(element.attrib), mark))
    return found


@pytest.mark.parametrize("players", GAME_IDS, indirect=True)
def test_a_turn_built_by_clicks_signed_in_the_browser_is_adjudicated(
        service: Service, players: dict[str, Any], page: Any) -> None:
    game_id = players["game_id"]
    recorder = Recorder(page)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    moved: dict[str, str] = {}
    refused: list[str] = []
    built: dict[int, list[dict[str, Any]]] = {}
    submitted = formed = 0
    with serving(create_app(service)) as base:
        first = service.current(game_id)
        side, turn = first.acting_side, first.state.get("turn")
        page.goto(f"{base}/games/{quote(game_id)}/me?token={players['tokens'][side]}")
        page.click("#builder-link")  # the builder is reached from the player's page
        for _ in range(STEPS):
            game = service.current(game_id)
            if game.acting_side != side or game.state.get("turn") != turn:
                break  # the turn is over: the other side, or the next turn
            step = open_builder(page, None if not built else
                                f"{base}/games/{quote(game_id)}/me/builder?token="
                                f"{players['tokens'][side]}")
            assert step["awaited"] in ("orders", "answer"), step
            formed += build_step(page, moved, refused)
            orders = page.evaluate("pbemBuilder.state.draft")
            assert orders, "no order was built"
            built[step["step"]] = orders
            same_as_compose(page)
            outcome = sign_and_submit(page, players["pems"][side], players["keys"][side])
            assert outcome in ("accepted", "decision"), page.locator("#verdict").inner_text()
            submitted += 1
            after = service.current(game_id)
            assert after.next_seq == step["step"] + 1
            positions = after.package.rules.positions(after.state)
            for unit, place in moved.items():  # where the clicks sent them
                assert positions.get(unit) == place, (unit, place, positions.get(unit))
        assert submitted and (moved or formed), "no step was played by clicks"
        assert refused, "no refused order was shown"
        assert service.render_pending_reports(limit=20) >= submitted
        # each step's report lists the orders the clicks built, in their order, carried out
        for seq, orders in built.items():
            html, _ = service.report(game_id, seq, side) or ("", b"")
            reported = reported_orders(html)
            assert [(kind, attrs) for kind, attrs, _ in reported] == \
                [(o["kind"], o["attrs"]) for o in orders]
            marks = [mark for _, _, mark in reported]  # carried out, up to a decision the
            opened = marks.index("decision") if "decision" in marks else len(marks)  # dice
            assert marks == ["applied"] * opened + ["decision"] * (opened < len(marks)) + \
                ["not-reached"] * (len(marks) - opened - 1), marks  # brought up
            page.goto(f"{base}/games/{quote(game_id)}/me?token={players['tokens'][side]}"
                      f"&seq={seq}")
            sync_api.expect(page.locator("#report-body")).to_be_visible()
    key = players["keys"][side]
    recorder.assert_never(*key_material(key), players["pems"][side].strip(),
                          PASSPHRASE.encode(), quote(PASSPHRASE).encode())
    assert not errors, errors


def test_the_draft_is_built_and_edited_from_the_keyboard(
        service: Service, example: dict[str, str], page: Any) -> None:
    """Without the mouse: a unit from the list, its order by its button, another order from
    a form; reordered with the buttons (the focus stays on the moved order), an order
    edited by hand to a value the rules refuse, which the list says in place."""
    expect = sync_api.expect
    with serving(create_app(service)) as base:
        open_builder(page, f"{base}/games/{EXAMPLE_ID}/me/builder?token="
                           f"{token_of(example['german'])}")
        unit = page.evaluate("pbemBuilder.state.listing.units.find(u => u.moves.length).unit")
        page.focus("#unit-select")
        page.select_option("#unit-select", unit)
        first = page.locator("#unit-options button.move").first
        first.focus()
        page.keyboard.press("Enter")
        settled(page)
        page.locator("form.other button").last.focus()
        page.keyboard.press("Enter")
        settled(page)
        expect(page.locator("#draft > li")).to_have_count(2)
        kinds = page.evaluate("pbemBuilder.state.draft.map(o => o.kind)")
        page.get_by_role("button", name="order 2 earlier").focus()
        page.keyboard.press("Enter")
        settled(page)
        assert page.evaluate("pbemBuilder.state.draft.map(o => o.kind)") == kinds[::-1]
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == \
            "order 1 earlier"
        # the move, now second, edited by hand: its unit made one that does not exist
        page.get_by_role("button", name="edit order 2").focus()
        page.keyboard.press("Enter")
        field = page.locator("#draft > li").nth(1).locator("form.edit input").first
        expect(field).to_be_focused()
        field.fill("NO-SUCH-UNIT")
        page.keyboard.press("Enter")
        settled(page)
        refused = page.locator("#draft > li.refused")
        expect(refused).to_have_count(1)
        expect(refused.locator(".refusal")).to_contain_text("NO-SUCH-UNIT")
