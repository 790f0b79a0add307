"""Barbarossa Solitaire's package has the shape every game's has (docs/architecture.md,
"The package shape"): the vocabulary names every event kind once with its rule, the
appliers and the narrative cover them all, only data.py reads the module XML, the
chapters stay small, the legal orders name real routes, and the tools run."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from adjudicator.engine.listing import Listing
from adjudicator.games import get_game
from adjudicator.games.solitaire.data import charts_of
from adjudicator.games.solitaire.events import APPLIERS
from adjudicator.games.solitaire.orders import Attack, EndTurn, Move
from adjudicator.games.solitaire.report_map import SEA_COLOURS
from adjudicator.games.solitaire.report_narrative import HANDLERS
from adjudicator.games.solitaire.tools.check_map import check
from adjudicator.games.solitaire.vocabulary import EVENT_RULES, EventKind
from adjudicator.reports import areamap

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicator" / "games" / "solitaire"
MODULE_READS = {"find", "findall", "area_board", "hex_board", "xpath"}


def test_every_event_kind_has_its_rule_its_applier_and_its_words() -> None:
    assert set(EVENT_RULES) == set(EventKind)
    assert set(APPLIERS) == set(EventKind)
    assert set(EventKind) <= set(HANDLERS)


def test_only_data_reads_the_module() -> None:
    readers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "data.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in MODULE_READS:
                receiver = ast.unparse(node.func.value)
                if receiver == "module" or receiver.endswith(".module"):
                    readers.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {receiver}")
    assert readers == []


def test_modules_are_small_enough_to_read_in_one_sitting() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text("utf-8").splitlines())) > 600}
    assert long == {}


def test_the_attack_chart_is_the_printed_one() -> None:
    """Combat: the Attack Chart of the English sheet, by number of units and roll."""
    printed = {1: "-1 -1 X-1 X", 2: "-1 X-1 X X", 3: "X-1 X X X", 4: "X X X X"}
    charts = charts_of(get_game("solitaire").bundled_module)
    assert charts.attack_cells() == [(units, roll, result) for units, row in printed.items()
                                     for roll, result in enumerate(row.split(), start=1)]


def test_the_report_draws_the_seas_in_the_renderers_colours() -> None:
    assert SEA_COLOURS == areamap.SEA_COLOURS


def test_the_legal_orders_of_the_campaign_start() -> None:
    package = get_game("solitaire")
    rules, module = package.rules, package.bundled_module
    state = rules.initial_state(module, "campaign", {})
    listing: Listing = rules.legal_orders(module, state, "german")
    assert listing.orders and listing.orders[-1] == EndTurn()
    for options in listing.units:
        assert options.at == state["units"][options.unit]
        for move in options.moves:
            assert move.path[0] == options.at and move.path[-1] == move.place
            assert Move(options.unit, move.place) in options.orders
        for target in options.attacks:
            assert any(isinstance(o, Attack) and o.target == target for o in options.orders)
    assert any(o.moves for o in listing.units) and any(o.attacks for o in listing.units)
    assert rules.legal_orders(module, state, "soviet") == Listing("soviet")


def test_the_map_checks_pass_and_the_tools_run_as_modules() -> None:
    assert check(PACKAGE / "data" / "map.xml", verbose=False) == []
    for tool in ("check_map", "gen_map --help", "balance --help"):
        name, *args = tool.split()
        done = subprocess.run([sys.executable, "-m", f"adjudicator.games.solitaire.tools.{name}",
                               *args], cwd=ROOT, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
