"""Every registered game's conformance cases (tests/conformance/<game>/*.xml, docs/architecture.md,
Testing):
one small position, orders, scripted dice and what must come out, per rule, every worked
example of a rulebook among them. `tests/conformance/<game>/SECTIONS` lists the rulebook
sections that must each have a case."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.games import GAME_IDS
from tests.conformance.harness import Case, check_expectations, load_cases, run_case

HERE = Path(__file__).resolve().parent
CASES = {game: load_cases(game) for game in GAME_IDS}
ALL = [(game, case) for game, cases in CASES.items() for case in cases]


def sections(game: str) -> list[str]:
    listed = HERE / game / "SECTIONS"
    return [line.strip() for line in listed.read_text("utf-8").splitlines()
            if line.strip() and not line.startswith("#")] if listed.is_file() else []


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_has_cases_for_every_section_of_its_rulebook(game: str) -> None:
    assert CASES[game], f"{game} has no conformance cases"
    wanted = sections(game)
    assert wanted, f"tests/conformance/{game}/SECTIONS lists no sections"
    rules = [case.rule for case in CASES[game]]
    for section in wanted:
        assert any(rule.startswith(section) for rule in rules), f"{game}: no case for {section}"


@pytest.mark.parametrize("game", GAME_IDS)
def test_case_ids_are_unique_and_numbered_ones_start_with_their_rule(game: str) -> None:
    ids = [case.id for case in CASES[game]]
    assert len(ids) == len(set(ids))
    for case in CASES[game]:
        if case.rule[:1].isdigit():
            assert case.id.startswith(case.rule.split()[0]), case.id


@pytest.mark.parametrize(("game", "case"), ALL, ids=[f"{g}:{c.id}" for g, c in ALL])
def test_case(game: str, case: Case) -> None:
    result, dice = run_case(game, case)
    assert check_expectations(case, result, dice) == []
