"""Moscow '41 conformance cases (tests/conformance/moscow/*.xml), one or more per rule,
every worked example of the rulebook among them. Cases on which the engine and this
reading of the rulebook disagree wait in tests/conformance/moscow/_disputed.xml.txt (not
loaded)."""

from __future__ import annotations

import re
from pathlib import Path

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


def test_every_case_and_test_the_rules_issues_register_cites_exists() -> None:
    """Each entry of adjudicator/games/moscow/RULES-ISSUES.md names the case or test that
    pins its reading (DESIGN §12), and each of those exists."""
    root = Path(__file__).resolve().parents[2]
    register = (root / "adjudicator" / "games" / "moscow" / "RULES-ISSUES.md").read_text()
    readings = register.split("## What module")[0]
    entries = re.split(r"\n(?=\d+\. \*\*)", readings)[1:]
    assert len(entries) >= 37
    ids = {case.id for case in CASES}
    tests = "\n".join(p.read_text("utf-8") for p in (root / "tests").rglob("*.py"))
    for entry in entries:
        cited = re.findall(r"`((?:\d[\w.-]*-[\w.-]+)|(?:test_\w+))(?:\.\.\.)?`", entry)
        assert cited, entry[:60]
        for name in cited:
            if name.startswith("test_"):
                assert f"def {name}" in tests, name
            else:
                assert name in ids, name
