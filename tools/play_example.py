"""Play the example Barbarossa Solitaire game through the real `pbem` CLI.

    python tools/play_example.py --out out            # what `make run` does
    python tools/play_example.py --out out --update-examples

Every step goes the way a player and a referee would take it: `pbem orders
template`, the German player's orders (written by the package's example player,
adjudicator/games/solitaire/tools/example_player.py),
`pbem sign`, `pbem adjudicate`; at the end `pbem verify`. The game uses a test
seed and fixed entropy, so it comes out the same byte for byte every time;
`--update-examples` copies the result into examples/solitaire/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from adjudicator.games.solitaire.tools.example_player import plan, to_xml
from adjudicator.referee.gamedir import load_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "solitaire"
TEST_SEED = hashlib.sha256(b"Barbarossa Solitaire example game").hexdigest()
GAME_ID = "example-solitaire"
MAX_STEPS = 80


def pbem(*args: str, ok: tuple[int, ...] = (0,)) -> str:
    """Run the real CLI (the one next to this Python), echoing what it prints."""
    exe = Path(sys.executable).with_name("pbem")
    command = [str(exe) if exe.exists() else "pbem", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in ok:
        sys.exit(f"pbem {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout + done.stderr


def entropy_for(seq: int) -> str:
    return hashlib.sha256(f"example entropy for step {seq}".encode()).hexdigest()


def play(out: Path, scenario: str = "campaign") -> Path:
    game = out / "game"
    turns = out / "turns"
    if out.exists():
        shutil.rmtree(out)
    turns.mkdir(parents=True)
    pbem("new", "solitaire", "--scenario", scenario, "--side",
         f"german={EXAMPLE / 'german.pub'}", "--test-seed", TEST_SEED, "--game-id", GAME_ID,
         "-o", str(game))
    for _ in range(MAX_STEPS):
        status = json.loads(pbem("status", str(game), "--json"))
        if status["waiting_for"] is None:
            break
        seq = status["seq"]
        path = turns / f"step-{seq:02d}.xml"
        pbem("orders", "template", str(game), "--side", "german", "-o", str(path))
        position = load_game(game)
        # Standing retreat orders come only from step 6, so the early Soviet attacks
        # ask the player; step 2 ends with a mistake, to show a rejected order.
        orders = to_xml(plan(position.package.rules, position.module, position.state,
                             retreat_orders=seq >= 6, mistake=seq == 2))
        text = path.read_text("utf-8")
        start = text.index("  <entropy></entropy>\n") + len("  <entropy></entropy>\n")
        path.write_text(text[:start] + orders + "\n</orders>\n", "utf-8")
        pbem("sign", str(path), "--key", str(EXAMPLE / "german.key"), "--entropy",
             entropy_for(seq))
        print(pbem("adjudicate", str(game), str(path), ok=(0, 2, 3)).rstrip())
    else:
        sys.exit(f"the example game did not end within {MAX_STEPS} steps")
    print(pbem("verify", str(game)).rstrip())
    return game


def update_examples(out: Path) -> None:
    for name in ("turns", "journal.jsonl", "reports"):
        target = EXAMPLE / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    shutil.copytree(out / "turns", EXAMPLE / "turns")
    shutil.copy(out / "game" / "journal.jsonl", EXAMPLE / "journal.jsonl")
    # The report pages and their PNG maps; map.svg is inline in each page already.
    shutil.copytree(out / "game" / "reports", EXAMPLE / "reports",
                    ignore=shutil.ignore_patterns("map.svg"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "out")
    parser.add_argument("--update-examples", action="store_true")
    args = parser.parse_args()
    game = play(args.out.resolve())
    reports = sorted((game / "reports").glob("step-*/german/report.html"),
                     key=lambda p: int(p.parent.parent.name.split("-")[1]))
    print(f"\nThe example game is in {game}")
    print(f"Turn reports: {game / 'reports'}/step-N/german/report.html "
          f"({len(reports)} steps); the last one: {reports[-1] if reports else '-'}")
    if args.update_examples:
        update_examples(args.out.resolve())
        print(f"copied into {EXAMPLE}")


if __name__ == "__main__":
    main()
