"""Fuzz the referee's untrusted-input entry points with many more examples than the
test suite uses (`make fuzz`; not part of `make test`).

    python tools/fuzz.py                         # every property, 20000 examples each
    python tools/fuzz.py --examples 500 position module
    python tools/fuzz.py --list

The properties are those of tests/test_untrusted_input.py (PROPERTIES): nothing
but a PbemError may escape, the game directory still verifies, every submitted
file is archived byte for byte, a refused file never advances the game. The run
prints its progress and every failure (with the Hypothesis reproduction blob), goes
on with the other properties, and exits with status 1 if any property failed. It
asserts nothing about time.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from tests.test_untrusted_input import PROPERTIES  # noqa: E402


def fuzz(name: str, examples: int, every: int, shrink: bool, seed: int | None) -> bool:
    strategy, prop, _ = PROPERTIES[name]
    count = 0
    started = time.monotonic()

    def counted(value: Any) -> None:
        nonlocal count
        count += 1
        if count % every == 0:
            rate = count / max(time.monotonic() - started, 1e-9)
            print(f"  {name}: {count} examples ({rate:.0f}/s)", flush=True)
        prop(value)

    phases = [Phase.explicit, Phase.reuse, Phase.generate]
    if shrink:
        phases.append(Phase.shrink)
    test = settings(max_examples=examples, deadline=None, print_blob=True, phases=phases,
                    database=None if seed is not None else settings.default.database,
                    suppress_health_check=list(HealthCheck))(given(strategy)(counted))
    if seed is not None:
        from hypothesis import seed as with_seed

        test = with_seed(seed)(test)
    print(f"{name}: up to {examples} examples", flush=True)
    try:
        test()
    except Exception:  # noqa: BLE001 - report every failure and go on
        print(f"FAILED {name} after {count} examples:", flush=True)
        traceback.print_exc(file=sys.stdout)
        return False
    print(f"ok {name}: {count} examples in {time.monotonic() - started:.1f}s", flush=True)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="properties to run (default: all)")
    parser.add_argument("--examples", type=int, default=20000, help="examples per property")
    parser.add_argument("--every", type=int, default=1000, help="print progress every N")
    parser.add_argument("--no-shrink", action="store_true", help="report failures unshrunk")
    parser.add_argument("--seed", type=int, help="a fixed Hypothesis seed (no database)")
    parser.add_argument("--list", action="store_true", help="list the properties and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name in sorted(PROPERTIES):
            print(name)
        return 0
    unknown = sorted(set(args.names) - set(PROPERTIES))
    if unknown:
        parser.error(f"unknown properties: {', '.join(unknown)} (see --list)")
    failed = [name for name in (args.names or sorted(PROPERTIES))
              if not fuzz(name, args.examples, args.every, not args.no_shrink, args.seed)]
    print(f"{'FAILED: ' + ', '.join(failed) if failed else 'all properties held'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
