"""Barbarossa Solitaire conformance cases (tests/conformance/solitaire/*.xml)."""

from __future__ import annotations

import pytest

from tests.conformance.harness import Case, check_expectations, load_cases, run_case

CASES = load_cases("solitaire")


def test_there_are_cases_for_every_rule_section() -> None:
    sections = {case.rule.split(":")[0] for case in CASES}
    for section in ("Movement", "Combat", "Reinforcements", "Soviet Combat", "Restrictions",
                    "Sea Areas", "Victory Conditions", "Optional Rules", "Game Sequence"):
        assert section in sections, f"no conformance case for {section}"


def test_case_ids_are_unique() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    result, dice = run_case("solitaire", case)
    assert check_expectations(case, result, dice) == []
