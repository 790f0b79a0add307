"""`make bench`: every measurement of issue 13 side by side in one run, each printed as a
ratio to its floor or against its goal, for every game the registry lists. It measures;
it asserts nothing.

    python tools/bench.py            # the whole table (a few minutes)
    python tools/bench.py --quick    # the same sections on a tiny budget
    python tools/bench.py --only turn,verify

Sections are functions of a `benchkit.sections.Bench`; the built-in ones are listed in
`SECTIONS`. An optional section lives in a file of its own beside this one,
`tools/bench_<name>.py`, exporting `SECTIONS: dict[str, Callable[[Bench], None]]`; it is
run after the built-in ones, and a file whose imports fail (a browser not installed) is
named in the output and skipped.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchkit.sections import (  # noqa: E402
    Bench,
    export,
    long_games,
    reports,
    startup,
    verification,
    whole_turns,
)
from benchkit.service import service  # noqa: E402
from benchkit.timing import FULL, HEADER, QUICK  # noqa: E402

SECTIONS: dict[str, Callable[[Bench], None]] = {
    "turn": whole_turns,
    "verify": verification,
    "long": long_games,
    "report": reports,
    "export": export,
    "service": service,
    "cli": startup,
}


def optional_sections() -> dict[str, Callable[[Bench], None]]:
    """The sections of the `tools/bench_*.py` files (see the module's docstring)."""
    found: dict[str, Callable[[Bench], None]] = {}
    for path in sorted(Path(__file__).resolve().parent.glob("bench_*.py")):
        try:
            module = importlib.import_module(path.stem)
        except Exception as exc:  # noqa: BLE001 - an optional section may lack its tools
            print(f"(skipped {path.name}: {type(exc).__name__}: {exc})")
            continue
        found.update(getattr(module, "SECTIONS", {}))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tiny budget: one run each")
    parser.add_argument("--only", help="comma-separated section names")
    args = parser.parse_args(argv)
    sections = {**SECTIONS, **optional_sections()}
    wanted = args.only.split(",") if args.only else list(sections)
    unknown = [name for name in wanted if name not in sections]
    if unknown:
        parser.error(f"no section {', '.join(unknown)}; the sections: {', '.join(sections)}")
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    bench = Bench(QUICK if args.quick else FULL, work)
    started = time.perf_counter()
    print(f"median of {bench.budget.runs} interleaved runs ({bench.budget.slow_runs} for "
          "subprocess jobs of seconds); a ratio is the figure over its floor")
    print(HEADER)
    failed = 0
    try:
        for name in wanted:
            try:
                sections[name](bench)
            except Exception:  # noqa: BLE001 - one broken section must not hide the rest
                failed += 1
                print(f"section {name} failed:\n{traceback.format_exc()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    above = [row for row in bench.table.rows if row.meets() is False]
    print(f"\n{len(bench.table.rows)} figures in {time.perf_counter() - started:.0f} s; "
          f"{len(above)} above their goal" + (f"; {failed} section(s) failed" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
