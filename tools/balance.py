"""Play many Barbarossa Solitaire games with the example player and count the
victory levels, per Soviet strength column: a check of the reconstructed Soviet
Attack Chart rows (RULES-ISSUES.md #1), not a test.

    python tools/balance.py --games 50 easy medium hard
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from example_player import plan  # noqa: E402

from adjudicator.engine.dice import DiceStream  # noqa: E402
from adjudicator.engine.step import run_step  # noqa: E402
from adjudicator.games import get_game  # noqa: E402


def play(options: dict[str, str], seed: bytes) -> dict:
    package = get_game("solitaire")
    module = package.bundled_module
    state = package.rules.initial_state(module, "campaign", options)
    for seq in range(1, 200):
        if state["phase"] == "game-over":
            return state["result"]  # type: ignore[no-any-return]
        orders = plan(package.rules, module, state)
        state = run_step(package.rules, module, state, orders, "german",
                         DiceStream(seed, "balance", seq, bytes(16))).state
    raise RuntimeError("the game did not end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("columns", nargs="*", default=["easy", "medium", "hard"])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    for column in args.columns:
        levels: collections.Counter[str] = collections.Counter()
        for n in range(args.games):
            seed = hashlib.sha256(f"balance {column} {n}".encode()).digest()
            levels[play({"soviet": column}, seed)["level"]] += 1
        print(f"{column:>10}: " + ", ".join(f"{k} {v}" for k, v in levels.most_common()))


if __name__ == "__main__":
    main()
