"""Moscow '41's rejections are a closed catalogue (engine/catalogue.py): every refusal of the
package goes through `CATALOGUE.refuse` with a code the catalogue lists under that rule,
every listed code is raised somewhere (or by the kit for the game), and
docs/moscow-rejections.md is what the catalogue says."""

from __future__ import annotations

import ast
from pathlib import Path

from adjudicator.engine.catalogue import PROTOCOL
from adjudicator.games.moscow import TITLE
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.rules import MoscowRules

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicator" / "games" / "moscow"
DOC = ROOT / "docs" / "moscow-rejections.md"
# raised for the game by the kit's RulesBase, with the rules the game gives it
KIT_CODES = {"game-over": MoscowRules.game_over_rule,
             "not-your-step": MoscowRules.turn_rule}


def refusals() -> list[tuple[str, ast.Call]]:
    """Every call of a `refuse` method, and every IllegalOrder built by hand."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else \
                    func.id if isinstance(func, ast.Name) else ""
                if name in ("refuse", "IllegalOrder"):
                    found.append((f"{path.name}:{node.lineno}", node))
    return found


def literal_rules(node: ast.expr) -> list[str]:
    """The rule numbers an argument can be: a string, or either string of an `x if c
    else y` (a slice of a variable, `rule[:-2] + " B"`, is judged where it is built)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return literal_rules(node.body) + literal_rules(node.orelse)
    return []


def test_every_refusal_goes_through_the_catalogue_with_a_listed_code() -> None:
    problems = []
    for where, call in refusals():
        if isinstance(call.func, ast.Name):  # IllegalOrder(...) built by hand
            problems.append(f"{where}: an IllegalOrder raised around the catalogue")
            continue
        owner = call.func.value
        if not (isinstance(owner, ast.Name) and owner.id == "CATALOGUE"):
            problems.append(f"{where}: refuse() of something else than CATALOGUE")
            continue
        code = call.args[0]
        if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
            problems.append(f"{where}: a code that is not written out")
            continue
        if code.value not in CATALOGUE:
            problems.append(f"{where}: {code.value} is not in the catalogue")
            continue
        listed = CATALOGUE.entries[code.value].rules
        for rule in literal_rules(call.args[1]):
            if listed and rule not in listed and rule != "PROTOCOL_RULE":
                problems.append(f"{where}: {code.value} is not listed under {rule}")
    assert problems == []


def test_every_listed_code_is_raised() -> None:
    raised = {call.args[0].value for _, call in refusals()
              if isinstance(call.func, ast.Attribute) and isinstance(call.args[0], ast.Constant)}
    protocol = {entry.code for entry in PROTOCOL}
    for code, rule in KIT_CODES.items():
        assert rule in CATALOGUE.entries[code].rules
    unraised = {e.code for e in CATALOGUE} - raised - protocol - set(KIT_CODES)
    assert unraised == set()


def test_the_rulebook_index_is_the_catalogue() -> None:
    assert DOC.read_text("utf-8") == CATALOGUE.markdown(TITLE)
