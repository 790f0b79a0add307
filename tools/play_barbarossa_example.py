"""Play the first two game turns of 1941: Operation Barbarossa through the real `pbem`
CLI, both players by a small scripted planner, and keep the game as
examples/barbarossa/.

    python tools/play_barbarossa_example.py --out out/barbarossa
    python tools/play_barbarossa_example.py --out out/barbarossa --update-examples

Each file goes the way players and a referee take it: `pbem orders template`, the
orders, `pbem sign`, `pbem adjudicate`; at the end `pbem verify`. The planner writes
a file up to its first attack (the roll decides what follows), advances units toward
the enemy one hex at a time, attacks where its raw odds are good, and answers
decision requests. The Soviets leave standing instructions for their retreats but not
for their air points, so the German attacks of Turn 2 ask the Soviet player (a
decision request answered by the opponent). Test seed and fixed entropy: the game
comes out the same byte for byte every time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from adjudicator.engine.hexgrid import hex_distance
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import run_step
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.reinforcements import entry_hexes
from adjudicator.games.barbarossa.stacking import problem_with
from adjudicator.referee.gamedir import load_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from play_example import pbem  # noqa: E402  (the CLI runner the solitaire example uses)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "barbarossa"
TEST_SEED = hashlib.sha256(b"1941 Operation Barbarossa example game").hexdigest()
GAME_ID = "example-barbarossa"
LAST_TURN = 2  # the example stops when Turn 3 begins
MAX_STEPS = 120
MOVES_PER_PHASE = 8
KEYS = {"axis": "german", "soviet": "soviet"}


class Planner:
    """Orders for one file of `side`, tried against the rules as they are written."""

    def __init__(self, game: Any, side: str) -> None:
        self.position = game
        self.rules = game.package.rules
        self.module = game.module
        self.game = GameData.of(game.module)
        self.side = side
        self.state: State = game.state
        self.orders: list[tuple[str, dict[str, str]]] = []

    def legal(self, kind: str, attrs: dict[str, str]) -> bool:
        """Apply the order to the planned state if the rules allow it without dice."""
        result = run_step(self.rules, self.module, self.state, [Order(kind, attrs)],
                          self.side, None)
        if result.rejection is not None or result.dry_run_stopped_at is not None:
            return False
        self.state = result.state
        self.orders.append((kind, attrs))
        return True

    def mine(self) -> list[tuple[str, str]]:
        return [(u, x) for u, x in sorted(self.state["units"].items())
                if self.game.pieces[u].side == self.side]

    def enemy_hexes(self) -> list[str]:
        return sorted({x for u, x in self.state["units"].items()
                       if self.game.pieces[u].side != self.side})

    def plan(self, seq: int) -> list[tuple[str, dict[str, str]]]:
        pending = self.state.get("pending")
        if pending:  # answer what waits for this side
            choice = pending["options"][-1] if pending["kind"] == "defensive-air" \
                else pending["options"][0]
            return [("answer", {"decision": pending["id"], "choice": choice})]
        if self.side not in self.state.get("standing", {}):
            # how its retreats are chosen (7.8.1, 17.1.4); air points it decides each time
            self.legal("standing", {"retreat": "first"})
        while self.rules.acting_side(self.state) == self.side:
            phase = self.state["phase"]
            if phase == "game-over" or (self.state["turn"] > LAST_TURN):
                break
            if phase == "movement":
                self.enter_reinforcements()
                self.advance()
            elif phase == "combat" and self.attack():
                return self.orders  # the roll decides what follows: the file ends here
            if not self.legal("end-phase", {}):
                break
            if self.state["turn"] > LAST_TURN:
                break
        return self.orders

    def enter_reinforcements(self) -> None:
        if (self.state["segment"], self.state["phase"]) != ("first", "movement"):
            return
        for unit in list(self.state["arriving"].get(str(self.state["turn"]), [])):
            if self.game.pieces[unit].side != self.side:
                continue
            for h in entry_hexes(self.game, self.state, unit):
                if problem_with(self.game, self.state, unit, h):
                    continue  # legal while it moves on (3.3 A), but this planner stays put
                if self.legal("enter", {"unit": unit, "hex": self.game.board.label(h)}):
                    break

    def advance(self) -> None:
        """Up to MOVES_PER_PHASE units, each one hex closer to the nearest enemy, never
        onto a hex a friendly unit holds (so stacking stays legal)."""
        board = self.game.board
        enemies = [board.hex(x) for x in self.enemy_hexes()]
        moved = 0
        for unit, label in self.mine():
            if moved >= MOVES_PER_PHASE or not enemies:
                break
            here = board.hex(label)
            near = min(hex_distance(here, e) for e in enemies)
            if near <= 1:
                continue  # already in contact
            held = set(dict(self.mine()).values())
            for there in sorted(board.neighbours(here),
                                key=lambda n: (min(hex_distance(n, e) for e in enemies), n)):
                if min(hex_distance(there, e) for e in enemies) >= near:
                    break
                if board.label(there) in held:
                    continue
                if self.legal("move", {"unit": unit,
                                       "path": f"{label} {board.label(there)}"}):
                    moved += 1
                    break

    def attack(self) -> bool:
        """The first attack with good raw odds (2:1 German, 3:2 Soviet); True if ordered."""
        board = self.game.board
        done = set(self.state.get("attacked_by", []))
        for target in self.enemy_hexes():
            if target in self.state.get("attacked_hexes", []):
                continue
            t = board.hex(target)
            attackers = [u for u, x in self.mine() if u not in done
                         and board.grid.adjacent(board.hex(x), t)]
            if not attackers:
                continue
            attack = sum(self.game.pieces[u].attack for u in attackers)
            defence = sum(self.game.pieces[u].attack for u, x in self.state["units"].items()
                          if x == target)
            if attack * 2 < defence * (4 if self.side == "axis" else 3):
                continue
            air = "1" if self.state["air"][self.side] else "0"
            order = {"hex": target, "units": " ".join(attackers), "air": air,
                     "advance": attackers[0]}
            result = run_step(self.rules, self.module, self.state,
                              [Order("attack", order)], self.side, None)
            if result.rejection is None:
                self.orders.append(("attack", order))
                return True
        return False


def to_xml(orders: list[tuple[str, dict[str, str]]]) -> str:
    return "\n".join("  <" + kind + "".join(f' {k}="{v}"' for k, v in attrs.items()) + "/>"
                     for kind, attrs in orders)


def play(out: Path) -> Path:
    game_dir, turns = out / "game", out / "turns"
    if out.exists():
        shutil.rmtree(out)
    turns.mkdir(parents=True)
    pbem("new", "barbarossa", "--scenario", "campaign",
         "--side", f"axis={EXAMPLE / 'german.pub'}", "--side",
         f"soviet={EXAMPLE / 'soviet.pub'}", "--test-seed", TEST_SEED, "--game-id", GAME_ID,
         "-o", str(game_dir))
    for _ in range(MAX_STEPS):
        status = json.loads(pbem("status", str(game_dir), "--json"))
        game = load_game(game_dir)
        side = status["waiting_for"]
        if side is None or game.state["turn"] > LAST_TURN:
            break
        side = game.package.rules.acting_side(game.state)
        seq = status["seq"]
        orders = Planner(game, side).plan(seq)
        path = turns / f"step-{seq:02d}-{side}.xml"
        pbem("orders", "template", str(game_dir), "--side", side, "-o", str(path))
        text = path.read_text("utf-8")
        start = text.index("  <entropy></entropy>\n") + len("  <entropy></entropy>\n")
        path.write_text(text[:start] + to_xml(orders) + "\n</orders>\n", "utf-8")
        entropy = hashlib.sha256(f"1941 example entropy for step {seq}".encode()).hexdigest()
        pbem("sign", str(path), "--key", str(EXAMPLE / f"{KEYS[side]}.key"), "--entropy",
             entropy)
        print(pbem("adjudicate", str(game_dir), str(path), ok=(0, 2, 3)).rstrip())
    else:
        sys.exit(f"the example did not reach Turn {LAST_TURN + 1} within {MAX_STEPS} steps")
    print(pbem("verify", str(game_dir)).rstrip())
    return game_dir


def kept_reports(journal: Path) -> list[int]:
    """The steps whose reports the examples keep (a 1941 report carries its whole hex map
    inline, half a megabyte): the end of each player turn and every decision request
    with its answer. `pbem report` renders any other step from the journal."""
    lines = [json.loads(x) for x in journal.read_text("utf-8").splitlines()[1:]]
    keep = set()
    for i, entry in enumerate(lines):
        ends_turn = any(e["kind"] in ("player-turn-ended", "turn-began")
                        for e in entry["events"])
        if ends_turn or entry.get("decision"):
            keep.add(entry["seq"])
            if entry.get("decision") and i + 1 < len(lines):
                keep.add(lines[i + 1]["seq"])
    return sorted(keep)


def update_examples(out: Path) -> None:
    for name in ("turns", "journal.jsonl", "reports"):
        target = EXAMPLE / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    shutil.copytree(out / "turns", EXAMPLE / "turns")
    shutil.copy(out / "game" / "journal.jsonl", EXAMPLE / "journal.jsonl")
    for seq in kept_reports(out / "game" / "journal.jsonl"):
        shutil.copytree(out / "game" / "reports" / f"step-{seq}",
                        EXAMPLE / "reports" / f"step-{seq}",
                        ignore=shutil.ignore_patterns("map.svg", "map.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "barbarossa")
    parser.add_argument("--update-examples", action="store_true")
    args = parser.parse_args()
    play(args.out.resolve())
    if args.update_examples:
        update_examples(args.out.resolve())
        print(f"copied into {EXAMPLE}")


if __name__ == "__main__":
    main()
