"""Every game's rejections are a closed catalogue (engine/catalogue.py), checked the same
way for each registered game: every refusal of its package goes through
`CATALOGUE.refuse` with a code the catalogue lists under that rule, every listed code is
raised somewhere (or by the kit for the game: the game over, the wrong side's step), and
docs/<id>-rejections.md, the rulebook index, is what the catalogue says."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from types import ModuleType

import pytest

from adjudicator.engine.catalogue import PROTOCOL, Catalogue
from adjudicator.games import GAME_IDS, get_game

ROOT = Path(__file__).resolve().parent.parent


def catalogue_of(game: str) -> Catalogue:
    catalogue = importlib.import_module(f"adjudicator.games.{game}.rejections").CATALOGUE
    assert isinstance(catalogue, Catalogue)
    return catalogue


def vocabulary_of(game: str) -> ModuleType:
    return importlib.import_module(f"adjudicator.games.{game}.vocabulary")


def refusals(game: str) -> list[tuple[str, ast.Call]]:
    """Every call of a `refuse` method in the game's package, and every IllegalOrder built
    by hand, with where it is."""
    found = []
    for path in sorted((ROOT / "adjudicator" / "games" / game).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else \
                    func.id if isinstance(func, ast.Name) else ""
                if name in ("refuse", "IllegalOrder"):
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return found


def literal_rules(node: ast.expr, vocabulary: ModuleType) -> list[str]:
    """The rule numbers an argument can be: a string, a constant of the game's vocabulary
    (`Rule.ATTACK`), or either of an `x if c else y` (a rule built from a variable is
    judged where it is built)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return literal_rules(node.body, vocabulary) + literal_rules(node.orelse, vocabulary)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and hasattr(vocabulary, node.value.id):
        return [str(getattr(getattr(vocabulary, node.value.id), node.attr))]
    return []


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_refusal_goes_through_the_catalogue_with_a_listed_code(game: str) -> None:
    catalogue, vocabulary = catalogue_of(game), vocabulary_of(game)
    problems = []
    for where, call in refusals(game):
        if isinstance(call.func, ast.Name):  # IllegalOrder(...) built by hand
            problems.append(f"{where}: an IllegalOrder raised around the catalogue")
            continue
        assert isinstance(call.func, ast.Attribute)
        owner = call.func.value
        if not (isinstance(owner, ast.Name) and owner.id == "CATALOGUE"):
            problems.append(f"{where}: refuse() of something else than CATALOGUE")
            continue
        code = call.args[0]
        if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
            problems.append(f"{where}: a code that is not written out")
            continue
        if code.value not in catalogue:
            problems.append(f"{where}: {code.value} is not in the catalogue")
            continue
        listed = catalogue.entries[code.value].rules
        for rule in literal_rules(call.args[1], vocabulary):
            if listed and rule not in listed and rule != "PROTOCOL_RULE":
                problems.append(f"{where}: {code.value} is not listed under {rule}")
    assert problems == []


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_listed_code_is_raised(game: str) -> None:
    catalogue, rules = catalogue_of(game), get_game(game).rules
    raised = {call.args[0].value for _, call in refusals(game)
              if isinstance(call.func, ast.Attribute) and call.args
              and isinstance(call.args[0], ast.Constant)}
    kit = {"game-over": getattr(rules, "game_over_rule", None),
           "not-your-step": getattr(rules, "turn_rule", None)}
    kit = {code: rule for code, rule in kit.items() if code in catalogue and rule}
    for code, rule in kit.items():
        assert rule in catalogue.entries[code].rules, (code, rule)
    protocol = {entry.code for entry in PROTOCOL}
    unraised = {e.code for e in catalogue} - raised - protocol - set(kit)
    assert unraised == set(), f"listed but never raised: {sorted(unraised)}"


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_rulebook_index_is_the_catalogue(game: str) -> None:
    doc = ROOT / "docs" / f"{game}-rejections.md"
    assert doc.read_text("utf-8") == catalogue_of(game).markdown(vocabulary_of(game).TITLE)
