"""Barbarossa Solitaire's rejection catalogue is closed (engine/catalogue.py): every
refusal in the package goes through `CATALOGUE.refuse` with a code it lists, under a
rule it lists for that code; every code it lists is raised somewhere; and
docs/solitaire-rejections.md is what the catalogue generates."""

from __future__ import annotations

import ast
from pathlib import Path

from adjudicator.engine.catalogue import PROTOCOL
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.vocabulary import TITLE, Rule

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicator" / "games" / "solitaire"
DOC = ROOT / "docs" / "solitaire-rejections.md"


def refusals(path: Path) -> list[tuple[ast.Call, str]]:
    """Every `X.refuse(...)` call of a source file, with where it is."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "refuse":
            found.append((node, f"{path.relative_to(ROOT)}:{node.lineno}"))
    return found


def test_every_refusal_goes_through_the_catalogue_with_a_listed_code() -> None:
    raised: set[str] = set()
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "IllegalOrder":
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno} raises IllegalOrder "
                                "around the catalogue")
        for call, where in refusals(path):
            if not (isinstance(call.func.value, ast.Name) and call.func.value.id == "CATALOGUE"):
                problems.append(f"{where}: a refusal through another catalogue")
                continue
            code, rule = call.args[0], call.args[1]
            if not isinstance(code, ast.Constant) or code.value not in CATALOGUE:
                problems.append(f"{where}: code {ast.unparse(code)} is not in the catalogue")
                continue
            raised.add(code.value)
            listed = CATALOGUE.entries[code.value].rules
            if isinstance(rule, ast.Attribute) and ast.unparse(rule.value) == "Rule" \
                    and listed and Rule[rule.attr] not in listed:
                problems.append(f"{where}: {code.value} is not listed under {Rule[rule.attr]}")
    assert problems == []
    # what the kit raises for every game (RulesBase: the game over, the wrong step)
    kit = {call.args[0].value for call, _ in refusals(ROOT / "adjudicator" / "engine" / "rules.py")
           if isinstance(call.args[0], ast.Constant)}
    protocol = {entry.code for entry in PROTOCOL}
    unraised = {entry.code for entry in CATALOGUE} - raised - protocol - kit
    assert unraised == set(), f"listed but never raised: {sorted(unraised)}"


def test_the_rejections_page_is_the_catalogue() -> None:
    assert DOC.read_text("utf-8") == CATALOGUE.markdown(TITLE)
