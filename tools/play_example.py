"""Play a game's example through the real `pbem` CLI and keep it in examples/FOLDER/.

    python tools/play_example.py solitaire --out out            # what `make example` does
    python tools/play_example.py barbarossa --out out/barbarossa --update-examples

Every step goes the way a player and a referee would take it: `pbem orders template`,
the orders of the game's scripted player (`adjudicator/games/<id>/tools/example_player.py`:
`orders_for`, `finished`, `kept_reports` and the names of its files), `pbem sign`,
`pbem adjudicate`; at the end `pbem verify`. The game, scenario, options and game id are
the committed example journal's header, the test seed and the players' key files its
`example.json`; with fixed entropy the game comes out the same byte for byte every time,
and `--update-examples` copies the result into the example's folder.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from adjudicator.referee.gamedir import load_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def pbem(*args: str, ok: tuple[int, ...] = (0,)) -> str:
    """Run the real CLI (the one next to this Python), echoing what it prints."""
    exe = Path(sys.executable).with_name("pbem")
    command = [str(exe) if exe.exists() else "pbem", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in ok:
        sys.exit(f"pbem {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout + done.stderr


def example_of(folder: str) -> tuple[Path, dict[str, Any], dict[str, Any], ModuleType]:
    """The example's folder, its manifest, its journal's header and the game's player."""
    example = EXAMPLES / folder
    manifest = json.loads((example / "example.json").read_text("utf-8"))
    header = json.loads((example / "journal.jsonl").read_text("utf-8").splitlines()[0])
    player = importlib.import_module(
        f"adjudicator.games.{header['module']['id']}.tools.example_player")
    return example, manifest, header, player


def play(folder: str, out: Path) -> Path:
    example, manifest, header, player = example_of(folder)
    game, turns = out / "game", out / "turns"
    if out.exists():
        shutil.rmtree(out)
    turns.mkdir(parents=True)
    sides = [a for side, p in manifest["players"].items()
             for a in ("--side", f"{side}={example / p['key']}")]
    options = [a for name, value in header["options"].items()
               for a in ("--option", f"{name}={value}")]
    pbem("new", header["module"]["id"], "--scenario", header["scenario"], *sides, *options,
         "--test-seed", hashlib.sha256(manifest["seed"].encode()).hexdigest(),
         "--game-id", header["game_id"], "-o", str(game))
    for _ in range(player.MAX_STEPS):
        status = json.loads(pbem("status", str(game), "--json"))
        position = load_game(game)
        if status["waiting_for"] is None or player.finished(position):
            break
        side = position.package.rules.acting_side(position.state)
        seq = status["seq"]
        orders = player.orders_for(position, side, seq)
        path = turns / player.TURN_FILE.format(seq=seq, side=side)
        pbem("orders", "template", str(game), "--side", side, "-o", str(path))
        text = path.read_text("utf-8")
        start = text.index("  <entropy></entropy>\n") + len("  <entropy></entropy>\n")
        path.write_text(text[:start] + orders + "\n</orders>\n", "utf-8")
        key = Path(manifest["players"][side]["key"]).with_suffix(".key")
        entropy = hashlib.sha256(player.ENTROPY.format(seq=seq).encode()).hexdigest()
        pbem("sign", str(path), "--key", str(example / key), "--entropy", entropy)
        print(pbem("adjudicate", str(game), str(path), ok=(0, 2, 3)).rstrip())
    else:
        sys.exit(f"the example game did not end within {player.MAX_STEPS} steps")
    print(pbem("verify", str(game)).rstrip())
    return game


def update_examples(folder: str, out: Path) -> None:
    example, _, _, player = example_of(folder)
    for name in ("turns", "journal.jsonl", "reports"):
        target = example / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    shutil.copytree(out / "turns", example / "turns")
    shutil.copy(out / "game" / "journal.jsonl", example / "journal.jsonl")
    # the report pages (map.svg is inline in each page already) and, if kept, their PNGs
    ignore = shutil.ignore_patterns("map.svg") if player.KEEP_PNG else \
        shutil.ignore_patterns("map.svg", "map.png")
    kept = player.kept_reports((out / "game" / "journal.jsonl").read_text("utf-8").splitlines())
    if kept is None:
        shutil.copytree(out / "game" / "reports", example / "reports", ignore=ignore)
        return
    for seq in kept:
        shutil.copytree(out / "game" / "reports" / f"step-{seq}",
                        example / "reports" / f"step-{seq}", ignore=ignore)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="solitaire",
                        help="the example's folder under examples/ (default: solitaire)")
    parser.add_argument("--out", type=Path, default=ROOT / "out")
    parser.add_argument("--update-examples", action="store_true")
    args = parser.parse_args()
    game = play(args.folder, args.out.resolve())
    reports = sorted(game.glob("reports/step-*/*/report.html"),
                     key=lambda p: int(p.parent.parent.name.split("-")[1]))
    print(f"\nThe example game is in {game}")
    print(f"Turn reports: {game / 'reports'}/step-N/SIDE/report.html "
          f"({len(reports)} pages); the last one: {reports[-1] if reports else '-'}")
    if args.update_examples:
        update_examples(args.folder, args.out.resolve())
        print(f"copied into {EXAMPLES / args.folder}")


if __name__ == "__main__":
    main()
