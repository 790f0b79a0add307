"""Moscow '41 conformance cases (tests/conformance/moscow/*.xml), one or more per rule,
every worked example of the rulebook among them. Cases on which the engine and this
reading of the rulebook disagree wait in tests/conformance/moscow/_disputed.xml.txt (not
loaded)."""

from __future__ import annotations

import pytest

from tests.conformance.harness import Case, check_expectations, load_cases, run_case

CASES = load_cases("moscow")
# every section of the rulebook with procedures
SECTIONS = ("1.3", "3.", "4.", "5.0", "6.", "7.", "8.", "9.", "10.", "11.", "12.", "13.0",
            "14.", "15.", "16.")


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
    result, dice = run_case("moscow", case)
    assert check_expectations(case, result, dice) == []
