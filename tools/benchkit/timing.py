"""Timings side by side and the table they are printed in.

Jobs measured together run interleaved (one run of each in turn, N rounds) and each is
reported by its median, so a noisy shared machine slows them alike and a ratio between
them stays meaningful. Benchmarks print; they assert nothing.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

BIN = Path(sys.executable).parent


@dataclass(frozen=True)
class Budget:
    """How much a run may do: rounds of each measurement, and the sizes of what it
    builds (the long game's steps, the service's games and uploads)."""

    runs: int = 5
    slow_runs: int = 3  # subprocess jobs of a second or more
    long_steps: int = 110
    early_step: int = 10
    service_games: int = 6  # per game that can list its orders
    service_steps: int = 4  # uploads per such game
    quick: bool = False


FULL = Budget()
QUICK = Budget(runs=1, slow_runs=1, long_steps=24, early_step=4, service_games=2,
               service_steps=2, quick=True)


def side_by_side(jobs: dict[str, Callable[[], object]], runs: int, *,
                 setup: Callable[[str], None] | None = None) -> dict[str, float]:
    """The median seconds of each job, its runs interleaved with the others';
    `setup(label)` runs untimed before each run (a fresh copy of a game directory)."""
    times: dict[str, list[float]] = {label: [] for label in jobs}
    for _ in range(runs):
        for label, job in jobs.items():
            if setup is not None:
                setup(label)
            start = time.perf_counter()
            job()
            times[label].append(time.perf_counter() - start)
    return {label: statistics.median(values) for label, values in times.items()}


def command(*args: str | Path, cwd: Path | None = None) -> Callable[[], object]:
    """A job that runs a command of the virtualenv (`pbem ...`, `python ...`) and fails
    loudly if it fails: a benchmark of an error is no benchmark."""
    argv = [str(BIN / str(args[0])), *map(str, args[1:])]

    def run() -> object:
        done = subprocess.run(argv, cwd=cwd, capture_output=True)
        if done.returncode not in (0, 3):  # 3: a step that counts with an order refused
            raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}): "
                               f"{done.stderr.decode(errors='replace')[-800:]}")
        return done
    return run


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


@dataclass
class Row:
    """One line of the table: a measured figure, and what it is compared with: a floor
    (`ratio` is value / reference, goal a ratio) or an absolute goal."""

    section: str
    what: str
    value: float | None  # seconds, or a rate (`unit`)
    unit: str = "ms"  # ms, /s, x
    reference: float | None = None  # the floor it is a multiple of (seconds)
    goal: str = ""  # "<= 20x", "<= 300 ms", ">= 100/s"
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.value is None or not self.reference:
            return None
        return self.value / self.reference

    def meets(self) -> bool | None:
        """Whether the figure meets its goal (None: no goal, or nothing measured)."""
        if self.value is None or not self.goal:
            return None
        op, number, unit = _goal(self.goal)
        figure = self.ratio if unit == "x" else \
            self.value * 1000 if unit == "ms" else self.value
        if figure is None:
            return None
        return figure <= number if op.startswith("<") else figure >= number


def _goal(goal: str) -> tuple[str, float, str]:
    """'<= 20x' -> ('<=', 20.0, 'x'); '>= 100 /s' -> ('>=', 100.0, '/s')."""
    op, number, *unit = goal.split()
    if number.endswith("x"):
        return op, float(number[:-1]), "x"
    return op, float(number), unit[0] if unit else ""


@dataclass
class Table:
    rows: list[Row] = field(default_factory=list)

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        print(format_row(row), flush=True)
        return row


def format_value(row: Row) -> str:
    if row.value is None:
        return "-"
    if row.unit == "ms":
        return f"{row.value * 1000:10.1f} ms"
    if row.unit == "/s":
        return f"{row.value:10.1f} /s"
    return f"{row.value:10.2f} {row.unit}"


def format_row(row: Row) -> str:
    ratio = f"{row.ratio:7.1f}x" if row.ratio is not None else " " * 8
    floor = f"of {row.reference * 1000:6.2f} ms" if row.reference else " " * 12
    verdict = {True: "ok", False: "MISSES", None: ""}[row.meets()]
    return (f"{row.section:<9} {row.what:<54} {format_value(row):>14} {ratio} {floor}  "
            f"goal {row.goal or '-':<10} {verdict:<10} {row.note}").rstrip()


HEADER = (f"{'section':<9} {'measure':<54} {'median':>14} {'ratio':>8} {'floor':<12}  "
          f"{'goal':<15} {'':<10} note")
