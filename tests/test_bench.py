"""`make bench`'s building blocks on a tiny budget, so the benchmark cannot rot: the
examples it reads, a game cut from a journal, a whole player turn played from the
listing and accepted, the interleaved timer, the goals' arithmetic and the sections'
registry. The timings themselves are never asserted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import bench  # noqa: E402
from benchkit.positions import (  # noqa: E402
    build_step,
    can_list,
    cut_game,
    examples,
    floor_of,
    turn_starts,
)
from benchkit.sections import Bench, journal_floors, startup  # noqa: E402
from benchkit.timing import QUICK, Row, side_by_side  # noqa: E402

from adjudicator.games import GAME_IDS  # noqa: E402
from adjudicator.referee.gamedir import GameDir, current_game, load_game  # noqa: E402
from adjudicator.referee.referee import adjudicate  # noqa: E402
from adjudicator.security.keys import load_public_key  # noqa: E402

EXAMPLES = examples()


def test_every_example_with_a_manifest_is_found_with_its_keys() -> None:
    assert EXAMPLES and {e.game for e in EXAMPLES} <= set(GAME_IDS)
    for example in EXAMPLES:
        assert set(example.public) == set(example.private) == {
            r["side"] for r in example.header["roster"]}
        assert example.turn_files()


@pytest.mark.parametrize("example", [e for e in EXAMPLES if can_list(e.game)][:2],
                         ids=lambda e: e.folder.name)
def test_a_turn_played_from_the_listing_is_adjudicated_as_built(example, tmp_path) -> None:
    game = load_game(example.journal)
    at, side = turn_starts(game)[-1]
    base = tmp_path / "game"
    cut_game(example.journal, at, base, example.test_seed)
    cut = current_game(GameDir(base))
    assert cut.next_seq == at + 1 and cut.acting_side == side
    built = build_step(cut, example.test_seed, example.private[side], max_orders=4)
    assert built.orders and built.outcome in ("accepted", "decision")
    floor_of(built.raw, load_public_key(example.public[side]))
    verdict = adjudicate(base, built.raw)
    assert verdict.kind == "step" and verdict.result is not None
    assert verdict.result.outcome == built.outcome
    assert verdict.result.applied == len(built.orders)


def test_the_floors_of_a_journal_cover_its_files() -> None:
    journal_floors(EXAMPLES[0].journal)()


def test_side_by_side_runs_each_job_interleaved(tmp_path) -> None:
    calls: list[str] = []
    times = side_by_side({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")},
                         2, setup=lambda label: calls.append(f"setup {label}"))
    assert set(times) == {"a", "b"}
    assert calls == ["setup a", "a", "setup b", "b"] * 2


def test_goals_read_as_the_issue_writes_them() -> None:
    assert Row("t", "x", 0.010, reference=0.001, goal="<= 20x").meets() is True
    assert Row("t", "x", 0.030, reference=0.001, goal="<= 20x").meets() is False
    assert Row("t", "x", 0.250, goal="<= 300 ms").meets() is True
    assert Row("t", "x", 6.0, unit="s", goal="<= 5 s").meets() is False
    assert Row("t", "x", 120.0, unit="/s", goal=">= 100 /s").meets() is True
    assert Row("t", "x", None, goal="<= 5x").meets() is None


def test_the_sections_and_a_quick_one(tmp_path, capsys) -> None:
    assert {"turn", "verify", "long", "report", "export", "service", "cli"} <= set(
        bench.SECTIONS)
    quick = Bench(QUICK, tmp_path)
    startup(quick)
    assert [row.what for row in quick.table.rows] == ["pbem --help", "pbem games"]
    assert all(row.value and row.value > 0 for row in quick.table.rows)
    assert "pbem games" in capsys.readouterr().out
