"""Every entry of Moscow '41's rules-issues register names the case or test that pins its
reading (docs/architecture.md, Testing), and each of those exists."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conformance.harness import load_cases

CASES = load_cases("moscow")


def test_every_case_and_test_the_rules_issues_register_cites_exists() -> None:
    """Each entry of adjudicator/games/moscow/RULES-ISSUES.md names the case or test that
    pins its reading (docs/architecture.md, Testing), and each of those exists."""
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
