"""Play many Barbarossa Solitaire games with the example player and count the
victory levels, per Soviet strength column: a check of the reconstructed Soviet
Attack Chart rows (RULES-ISSUES.md #1), not a test.

    python -m adjudicator.games.solitaire.tools.balance --games 50 easy medium hard
"""

from __future__ import annotations

import argparse
import collections
import hashlib
from typing import Any

from adjudicator.engine.dice import DiceStream
from adjudicator.engine.step import run_step
from adjudicator.games import get_game
from adjudicator.games.solitaire.tools.example_player import plan
from adjudicator.games.solitaire.vocabulary import GAME, Option, Phase, Side, SovietColumn


def play(options: dict[str, str], seed: bytes) -> dict[str, Any]:
    package = get_game(GAME)
    module = package.bundled_module
    state = package.rules.initial_state(module, "campaign", options)
    for seq in range(1, 200):
        if state["phase"] == Phase.GAME_OVER:
            return state["result"]  # type: ignore[no-any-return]
        orders = plan(package.rules, module, state)
        state = run_step(package.rules, module, state, orders, Side.GERMAN,
                         DiceStream(seed, "balance", seq, bytes(16))).state
    raise RuntimeError("the game did not end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("columns", nargs="*", default=[SovietColumn.EASY, SovietColumn.MEDIUM,
                                                       SovietColumn.HARD])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    for column in args.columns:
        levels: collections.Counter[str] = collections.Counter()
        for n in range(args.games):
            seed = hashlib.sha256(f"balance {column} {n}".encode()).digest()
            levels[play({Option.SOVIET: column}, seed)["level"]] += 1
        print(f"{column:>10}: " + ", ".join(f"{k} {v}" for k, v in levels.most_common()))


if __name__ == "__main__":
    main()
