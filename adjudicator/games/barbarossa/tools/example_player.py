"""A scripted player for both sides of 1941: Operation Barbarossa, used to write the
example game (tools/play_example.py barbarossa). It is a tool, not part of the
adjudicator: it writes a file up to its first attack (the roll decides what follows),
advances units toward the enemy one hex at a time, attacks where its raw odds are good,
and answers decision requests, keeping only orders the dry run accepts. The Soviets
leave standing instructions for their retreats but not for their air points, so the
German attacks of Turn 2 ask the Soviet player (a decision request answered by the
opponent).

What the generic driver asks of it: `orders_for`, `finished`, `kept_reports` and the
names of its files (`TURN_FILE`, `ENTROPY`, `MAX_STEPS`).
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.engine.hexgrid import hex_distance
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import run_step
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.reinforcements import entry_hexes
from adjudicator.games.barbarossa.stacking import problem_with

LAST_TURN = 2  # the example stops when Turn 3 begins
MAX_STEPS = 120
MOVES_PER_PHASE = 8
TURN_FILE = "step-{seq:02d}-{side}.xml"
ENTROPY = "1941 example entropy for step {seq}"
KEEP_PNG = False  # a 1941 report carries its whole hex map inline: the PNG is left out


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


def orders_for(position: Any, side: str, seq: int) -> str:
    """The orders of `side`'s file for step `seq`, as order-file lines."""
    return to_xml(Planner(position, side).plan(seq))


def finished(position: Any) -> bool:
    """The example stops when Turn 3 begins."""
    return bool(position.state["turn"] > LAST_TURN)


def kept_reports(journal_lines: list[str]) -> list[int] | None:
    """The steps whose reports the examples keep (a 1941 report carries its whole hex map
    inline, half a megabyte): the end of each player turn and every decision request
    with its answer. `pbem report` renders any other step from the journal."""
    lines = [json.loads(x) for x in journal_lines[1:]]
    keep = set()
    for i, entry in enumerate(lines):
        ends_turn = any(e["kind"] in ("player-turn-ended", "turn-began")
                        for e in entry["events"])
        if ends_turn or entry.get("decision"):
            keep.add(entry["seq"])
            if entry.get("decision") and i + 1 < len(lines):
                keep.add(lines[i + 1]["seq"])
    return sorted(keep)
