"""1941: Operation Barbarossa conformance cases (tests/conformance/barbarossa/*.xml),
one per rule, every worked example of the rulebook among them."""

from __future__ import annotations

import pytest

from tests.conformance.harness import Case, check_expectations, load_cases, run_case

CASES = load_cases("barbarossa")
# every section of the rulebook with procedures, 2.0-20.6
SECTIONS = ("2.0", "3.", "4.0", "5.", "6.", "7.", "8.", "9.", "10.", "11.0", "12.0", "13.",
            "14.", "15.", "16.0", "17.", "18.", "19.0", "20.1", "20.2", "20.3", "20.4", "20.5",
            "20.6")


def test_there_are_cases_for_every_rule_section() -> None:
    rules = [case.rule for case in CASES]
    for section in SECTIONS:
        assert any(rule.startswith(section) for rule in rules), f"no case for {section}"


def test_case_ids_are_unique_and_start_with_their_rule() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert case.id.startswith(case.rule.split()[0].replace(" ", "-")), case.id


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    result, dice = run_case("barbarossa", case)
    assert check_expectations(case, result, dice) == []
