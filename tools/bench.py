"""`make bench`: how long the main jobs take. It measures; it asserts nothing.

- adjudicating one solitaire turn (a full turn file of the example game),
- verifying the whole example game,
- rendering one turn report (HTML, SVG and PNG).
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import play_example  # noqa: E402

from adjudicator.referee.gamedir import load_game
from adjudicator.referee.referee import adjudicate, create_game
from adjudicator.referee.verify import verify
from adjudicator.reports import render_report
from adjudicator.reports.from_journal import step_report

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "solitaire"
TEST_SEED = bytes.fromhex(play_example.TEST_SEED)


def timed(label: str, job: Callable[[], object], repeat: int) -> None:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    print(f"{label:<44} median {statistics.median(times) * 1000:8.1f} ms   "
          f"min {min(times) * 1000:8.1f} ms   ({repeat} runs)")


def main() -> None:
    journal = EXAMPLE / "journal.jsonl"
    game = load_game(journal)
    first_turn = (EXAMPLE / "turns" / "step-01.xml").read_bytes()
    header = game.header
    work = Path(tempfile.mkdtemp())

    def adjudicate_one_turn() -> None:
        target = work / f"g{time.perf_counter_ns()}"
        create_game(target, "solitaire", header["scenario"],
                    {"german": (EXAMPLE / "german.pub").read_bytes()},
                    options=header["options"], game_id=header["game_id"],
                    test_seed=TEST_SEED)
        adjudicate(target, first_turn)

    try:
        timed("adjudicate one turn (incl. game creation)", adjudicate_one_turn, 5)
        timed(f"verify the example game ({len(game.steps)} steps)", lambda: verify(journal), 5)
        last = len(game.steps)
        timed("render one report (HTML + SVG + PNG)",
              lambda: render_report(step_report(game, last, "german")), 5)
    finally:
        shutil.rmtree(work)



if __name__ == "__main__":
    main()
