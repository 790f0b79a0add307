"""Moscow '41's package has the shape every game's has (docs/architecture.md, "The package
shape"): only data.py reads the module XML, the rulebook's numbers and the sides are
defined once (vocabulary.py), the chapters stay small, every event kind has its
applier, nothing outside the package names the game, the legal orders of the start are
the draw and then the set-up, and the tools run as modules."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from adjudicator.engine.dice import DiceStream
from adjudicator.engine.step import run_step
from adjudicator.games import get_game
from adjudicator.games.moscow.events import APPLIERS
from adjudicator.games.moscow.orders import Draw, Place

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicator" / "games" / "moscow"
MODULE_READS = {"find", "findall", "area_board", "hex_board", "xpath"}
ONCE = {"GERMAN", "SOVIET", "SIDES", "STACKING_LIMIT", "STACK", "STACK_LIMIT",
        "SOVIET_SETUP_STACK", "INTERDICTION_FACTOR", "INTERDICTION_MULTIPLIER",
        "MAX_INTERDICTING", "MAX_AIR", "WEATHERS", "ARMOR_TYPES", "RULES_0_2_0"}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "tools" not in p.parts)


def test_only_data_reads_the_module() -> None:
    readers = []
    for path in _modules():
        if path.name == "data.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in MODULE_READS:
                receiver = ast.unparse(node.func.value)
                if receiver == "module" or receiver.endswith(".module"):
                    readers.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {receiver}")
    assert readers == []


def test_the_rulebooks_numbers_and_the_sides_are_defined_once() -> None:
    defined = []
    for path in _modules():
        for node in ast.parse(path.read_text("utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) else []
            names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            defined += [f"{path.name}: {name}" for name in sorted(names & ONCE)]
    assert all(entry.startswith("vocabulary.py") for entry in defined), defined


def test_modules_are_small_enough_to_read_in_one_sitting() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text("utf-8").splitlines())) > 600}
    assert long == {}


def test_every_event_the_rules_emit_has_its_applier() -> None:
    emitted = set()
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "emit" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                emitted.add(node.args[0].value)
    engine_kinds = {"roll", "decision-requested", "decision-answered"}
    assert emitted - engine_kinds <= set(APPLIERS), emitted - set(APPLIERS)


def test_every_event_kind_is_in_the_vocabulary_with_its_rule() -> None:
    """Each event kind is named once (vocabulary.EventKind) and maps to the rule it applies
    (EVENT_RULES, "" where the event carries its own), which the report prints."""
    from adjudicator.games.moscow.vocabulary import EVENT_RULES, EventKind

    assert set(APPLIERS) == {k.value for k in EventKind} == {k.value for k in EVENT_RULES}
    report = (PACKAGE / "report.py").read_text("utf-8")
    assert not re.search(r'say\([^)]*, "\d+\.\d[^"]*"(, \[rolls\])?\)', report), \
        "the report retypes a rule number the vocabulary has"


def test_nothing_outside_the_package_names_the_game() -> None:
    """Outside adjudicator/games/moscow/ (its tests and docs aside) the game is found by
    the registry, never imported or named (the city of Moscow in the other games' data
    is another matter)."""
    found = []
    for path in [*(ROOT / "adjudicator").rglob("*.py"), *(ROOT / "exporters").rglob("*.py")]:
        if PACKAGE in path.parents:
            continue
        text = path.read_text("utf-8")
        if "games.moscow" in text or "games/moscow" in text or "Moscow '41" in text:
            found.append(str(path.relative_to(ROOT)))
    assert found == []


def test_the_legal_orders_of_the_start_are_the_draw_and_then_the_set_up() -> None:
    package = get_game("moscow")
    rules, module = package.rules, package.bundled_module
    state = rules.initial_state(module, "campaign", {})
    listing = rules.legal_orders(module, state, "soviet")
    assert [o for o in listing.orders if o.KIND not in ("standing",)] == [Draw()]
    assert rules.legal_orders(module, state, "german").orders  # its standing instructions
    dice = DiceStream(b"\x01" * 32, "package", 1, b"entropy")
    state = run_step(rules, module, state, [Draw().to_order()], "soviet", dice).state
    placements = [o for o in rules.legal_orders(module, state, "soviet").orders
                  if isinstance(o, Place)]
    on_the_map = rules.positions(state)
    assert placements and not any(o.unit in on_the_map for o in placements)


def test_the_tools_run_as_modules() -> None:
    for name in ("gen_map", "play_example"):
        done = subprocess.run([sys.executable, "-m", f"adjudicator.games.moscow.tools.{name}",
                               "--help"], cwd=ROOT, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
