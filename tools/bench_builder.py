"""The order builder page's click latency (issue 17): in headless Chromium, the time from
a click on a unit's counter to its destinations highlighted on the map and painted,
on every game whose rules list their orders, 1941's 1,147-hex map the largest. It
measures; it asserts nothing (the goal is under 100 ms).

Each game is a fresh one in a throw-away service, played on (its listed order that ends
the step, signed here) until a step where its units may move. A click is a real input
event (Playwright's mouse); the time runs from the event's own time stamp to the first
frame after the page has drawn the unit's whole reach: at a unit's first click in a
position that includes asking the API for it (`POST .../api/listing` with `unit`), after
it the page's own copy (the first click, which warms the page up, is not counted). A
second figure highlights every place of the map at once for one unit, which is what a
listing that gave every reachable place would cost.

    .venv/bin/python tools/bench_builder.py [--clicks N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ed25519
from lxml import etree

from adjudicator.games import GAME_IDS, get_game
from adjudicator.security.keys import public_key_pem
from adjudicator.security.signing import ORDERS_NS, sign_orders
from adjudicator.service.core import PlayerSpec, Service, ServiceConfig
from adjudicator.service.db import make_engine, migrate
from adjudicator.service.runner import preload_example
from adjudicator.service.web import create_app

STEPS_TO_MOVEMENT = 6  # steps played on, at most, to reach one where units move
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Armed before each click (the promise kept in the page): the click's time stamp, then
# the first frame after the page has drawn the unit's whole reach (the listing of the
# unit asked of the API at its first click, kept in the page after it).
ARM = """() => { window.__latency = new Promise((resolve) => {
    const map = document.getElementById('map');
    map.addEventListener('click', (event) => {
        const clicked = event.timeStamp;
        const drawn = () => {
            const unit = pbemBuilder.state.selected;
            if (!unit || !unit.full) { requestAnimationFrame(drawn); return; }
            requestAnimationFrame(() => setTimeout(() => resolve({
                ms: performance.now() - clicked,
                lit: document.querySelectorAll('.pbem-reach').length}), 0));
        };
        drawn();
    }, {once: true});
}); }"""


@contextmanager
def serving(service: Service) -> Iterator[str]:
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(service), host="127.0.0.1", port=port,
                                           log_config=None, access_log=False,
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def to_movement(service: Service, game_id: str,
                keys: dict[str, ed25519.Ed25519PrivateKey]) -> str | None:
    """Play on (each step the listed order that ends it) until the acting side's units
    may move; that side, or None."""
    for _ in range(STEPS_TO_MOVEMENT):
        game = service.current(game_id)
        side = game.acting_side
        if side is None:
            return None
        listing = game.package.rules.legal_orders(game.module, game.state, side)
        if any(unit.moves for unit in listing.units):
            return side
        enders = [o for o in listing.orders if o.KIND.startswith("end")] or list(listing.orders)
        if not enders:
            return None
        root = etree.fromstring(
            f'<orders xmlns="{ORDERS_NS}" game="{game_id}" module="{game.package.id}" '
            f'side="{side}" seq="{game.next_seq}" prev="{game.state_hash}" '
            f'commit="{game.current_commit}"><entropy/>{enders[0].to_xml()}</orders>')
        service.submit(sign_orders(root, keys[side]), "web")
    return None


def click_latency(page: Any, base: str, game_id: str, token: str, clicks: int
                  ) -> tuple[list[float], list[int], float | None]:
    page.goto(f"{base}/games/{game_id}/me/builder?token={token}")
    page.wait_for_function("() => document.getElementById('builder').dataset.ready === 'true'",
                           timeout=120_000)
    units = page.evaluate("pbemBuilder.state.listing.units.filter(u => u.moves.length)"
                          ".map(u => [u.unit, u.at])")
    times, lit = [], []
    for i in range(clicks + 1):  # the first click warms the page up: not counted
        unit, at = units[i % len(units)]
        page.evaluate("pbemBuilder.selectUnit(null)")
        point = page.evaluate("([at]) => { document.getElementById('map')"
                              ".scrollIntoView({block: 'nearest'});"
                              " return pbemBuilder.screenPoint(at, true); }", [at])
        page.evaluate(ARM)
        page.mouse.click(point[0], point[1])
        result = page.evaluate("() => window.__latency")
        times.append(result["ms"])
        lit.append(result["lit"])
    times, lit = times[1:], lit[1:]
    # every place lit at once, for one unit: what a full listing would draw
    everything = page.evaluate("""() => {
        const unit = pbemBuilder.state.listing.units.find(u => u.moves.length);
        const all = [...pbemBuilder.state.places.places.keys()];
        const wide = {...unit, unit: unit.unit + '*',
                      moves: all.map(p => ({place: p, path: [unit.at, p], cost: '1'}))};
        pbemBuilder.state.units.set(wide.unit, wide);
        pbemBuilder.state.full.set(wide.unit, wide);
        const started = performance.now();
        pbemBuilder.selectUnit(wide.unit);
        return new Promise((resolve) => requestAnimationFrame(() => setTimeout(() =>
            resolve([performance.now() - started,
                     document.querySelectorAll('.pbem-reach').length]), 0)));
    }""")
    return times, lit, (everything[0] if everything[1] else None)


def from_example(service: Service, game: str) -> tuple[str, str] | None:
    """A game's example, preloaded as `make run` does, if its last position is one where
    the acting side's units may move: the game's id and that side's link token."""
    for manifest in sorted(EXAMPLES.glob("*/example.json")):
        journal = manifest.parent / "journal.jsonl"
        header = json.loads(journal.read_text("utf-8").splitlines()[0])
        if header["module"]["id"] != game:
            continue
        links = preload_example(service, manifest.parent, set())
        current = service.current(header["game_id"])
        side = current.acting_side
        if side is None:
            continue
        listing = current.package.rules.legal_orders(current.module, current.state, side)
        if not any(unit.moves for unit in listing.units):
            continue
        label = header["game_id"] if len(current.package.rules.sides) == 1 \
            else f"{header['game_id']} ({side})"
        return header["game_id"], links[label].split("token=", 1)[1]
    return None


def measure(page: Any, base: str, game: str, game_id: str, token: str, clicks: int) -> None:
    """Print the click latency of one game's builder page."""
    times, lit, everything = click_latency(page, base, game_id, token, clicks)
    quantiles = statistics.quantiles(times, n=20)
    hexes, places = page.evaluate("[pbemBuilder.state.places.hexes.length,"
                                  " pbemBuilder.state.places.places.size]")
    size = f"{hexes} hexes" if hexes else f"{places} places"
    print(f"{game} ({size}, game {game_id}): click to highlighted destinations over "
          f"{len(times)} clicks: median {statistics.median(times):.1f} ms, p95 "
          f"{quantiles[18]:.1f} ms, max {max(times):.1f} ms "
          f"({min(lit)}-{max(lit)} places lit; goal < 100 ms)")
    if everything is not None:
        print(f"{game}: every place of the map lit at once for one unit: "
              f"{everything:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=40)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("builder click latency: skipped (playwright is not installed)")
        return 0
    if not Path(chromium).exists():
        print("builder click latency: skipped (no chromium)")
        return 0
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'bench.db'}")
        migrate(engine)
        service = Service(engine, ServiceConfig())
        browser = playwright.chromium.launch(executable_path=chromium, headless=True)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        with serving(service) as base:
            for game in GAME_IDS:
                package = get_game(game)
                if not callable(getattr(package.rules, "legal_orders", None)):
                    print(f"{game}: skipped (its rules do not list their orders yet)")
                    continue
                found = from_example(service, game)  # a position from the middle of a game
                if found is not None:
                    measure(page, base, game, *found, args.clicks)
                    continue
                keys = {s: ed25519.Ed25519PrivateKey.generate() for s in package.rules.sides}
                created = service.create_game(
                    game, package.scenarios()[0][0],
                    [PlayerSpec(s, s, f"{s}@example.org", public_key_pem(k.public_key()))
                     for s, k in keys.items()], game_id=f"bench-{game}",
                    test_seed=b"\x05" * 32)
                try:
                    side = to_movement(service, created.game_id, keys)
                except (AttributeError, NotImplementedError) as exc:
                    print(f"{game}: skipped (its rules do not list their orders yet: {exc})")
                    continue
                if side is None:
                    print(f"{game}: skipped (no step where units move within "
                          f"{STEPS_TO_MOVEMENT} steps)")
                    continue
                token = created.links[side].split("token=", 1)[1]
                measure(page, base, game, created.game_id, token, args.clicks)
        browser.close()
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
