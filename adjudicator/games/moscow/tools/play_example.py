"""Play the set-up and the first two game turns of Moscow '41 through the real `pbem`
CLI, both players by a small scripted planner, and keep the game as examples/moscow/.

    python -m adjudicator.games.moscow.tools.play_example --out out/moscow
    python -m adjudicator.games.moscow.tools.play_example --out out/moscow --update-examples

Each file goes the way players and a referee take it: `pbem orders template`, the
orders, `pbem sign`, `pbem adjudicate`; at the end `pbem verify`. The Soviet player
draws his units from the cup (1.3.1 C) and sets them up untried; the German sets up
next to the front line, armor a hex behind. Then the planner tries each order against
the rules (`run_step` without dice, so only legal orders go into a file): the German
overruns with a panzer stack in his Movement Phase (7.0), moves stacks up, attacks where
his odds look good with one air unit on the first attack, interdicts with another
(11.3) and keeps the third for defence; the Soviet enters his reinforcement (14.0),
moves up and attacks. A file runs up to its first overrun or attack (the roll decides
what follows). The Soviet leaves no standing instruction for his losses and the German
none for his air on defence, so each asks the other side's player (decision requests
answered by the opponent). The Soviet planner knows what the Soviet player knows: the
untried faces (type and MA), never the counters behind them. Test seed and fixed
entropy: the game comes out the same byte for byte every time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.engine.events import Event
from adjudicator.engine.hexgrid import Hex, hex_distance
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import run_step
from adjudicator.games import get_game
from adjudicator.games.moscow.data import Game

ROOT = Path(__file__).resolve().parents[4]  # the repository (examples/, out/)
EXAMPLE = ROOT / "examples" / "moscow"
TEST_SEED = hashlib.sha256(b"Moscow '41 example game").hexdigest()
GAME_ID = "example-moscow"
LAST_TURN = 2  # the example stops when Turn 3 begins
MAX_STEPS = 120
OVERRUNS_PER_PHASE = 1
MOVES_PER_PHASE = 6
MAX_PATH = 9  # hexes of a planned leg, the start included
ATTACKS = {"german": 4, "soviet": 2}  # attacks a side makes in one Combat Phase at most
ATTACK_AIR, INTERDICTION_AIR = "GER-AIR-II", "GER-AIR-VIII"  # GER-AIR-LF2 stays back
FRONT_INFANTRY_STACKS = 8  # German infantry stacks in the front row at the start
UNTRIED_GUESS = 2  # what the German reckons an untried Soviet unit defends with


@dataclass(frozen=True)
class Position:
    """A game directory's position, rebuilt from its journal: the rules change a state
    only by events, so the events recorded after the header rebuild it (`pbem verify`
    checks the same events against the state hashes)."""

    package: Any
    module: ModuleData
    state: State


def load_position(game_dir: Path) -> Position:
    header, *lines = [json.loads(x) for x in
                      (game_dir / "journal.jsonl").read_text("utf-8").splitlines()]
    package = get_game(header["module"]["id"])
    module = package.module_for(header["module"]["version"], header["module"]["sha256"])
    state = package.rules.initial_state(module, header["scenario"], header["options"])
    for line in lines:
        if line.get("type") == "step":
            for event in line["events"]:
                package.rules.apply(state, Event.from_json(event))
    return Position(package, module, state)


class Planner:
    """Orders for one file of `side`, tried against the rules as they are written."""

    def __init__(self, game: Any, side: str) -> None:
        self.rules = game.package.rules
        self.module = game.module
        self.game = Game.of(game.module)
        self.side = side
        self.state: State = game.state
        self.orders: list[tuple[str, dict[str, str]]] = []

    # -- what the planner may look at: positions, untried faces, revealed counters ------

    def side_of(self, unit: str) -> str:
        return "soviet" if unit in self.state["tokens"] else self.game.pieces[unit].side

    def label(self, h: Hex) -> str:
        return self.game.board.label(h)

    def hex(self, label: str) -> Hex:
        return self.game.board.hex(label)

    def units(self, side: str) -> list[tuple[str, str]]:
        return [(u, x) for u, x in sorted(self.state["units"].items())
                if self.side_of(u) == side]

    def enemy(self) -> str:
        return "soviet" if self.side == "german" else "german"

    def strength(self, unit: str, attacking: bool) -> int:
        """A German unit's printed strength (halved when reduced); a Soviet token's
        revealed strength, or a guess while it is untried (12.1 A)."""
        if unit in self.state["tokens"]:
            if unit not in self.state["revealed"]:
                return UNTRIED_GUESS
            piece = self.game.pieces[self.state["identity"][unit]]
            return piece.attack if attacking else piece.defense
        piece = self.game.pieces[unit]
        return piece.reduced if self.state["steps"].get(unit) == 1 else piece.attack

    # -- trying orders ----------------------------------------------------------------

    def legal(self, kind: str, attrs: dict[str, str]) -> bool:
        """Apply the order to the planned state if the rules allow it without dice."""
        result = run_step(self.rules, self.module, self.state, [Order(kind, attrs)],
                          self.side, None)
        if result.rejection is not None or result.dry_run_stopped_at is not None:
            return False
        self.state = result.state
        self.orders.append((kind, attrs))
        return True

    def rolls(self, kind: str, attrs: dict[str, str]) -> bool:
        """Order a combat if it is legal up to its roll or to the other side's choice
        before it (11.0 B): the file ends with it."""
        result = run_step(self.rules, self.module, self.state, [Order(kind, attrs)],
                          self.side, None)
        if result.rejection is None and (result.dry_run_stopped_at is not None
                                         or result.decision is not None):
            self.orders.append((kind, attrs))
            return True
        return False

    # -- one file ---------------------------------------------------------------------

    def plan(self) -> list[tuple[str, dict[str, str]]]:
        pending = self.state.get("pending")
        if pending:
            return [("answer", {"decision": pending["id"], "choice": self.choose(pending)})]
        if self.state["phase"] == "draw":
            return [("draw", {})]
        if self.state["phase"] == "setup":
            self.set_up()
            self.end_phase()
            return self.orders
        if self.side not in self.state.get("standing", {}):
            # retreats by the first safe path (8.11); losses and air asked each time
            self.legal("standing", {"retreat": "first"})
        while self.rules.acting_side(self.state) == self.side:
            if self.state["phase"] == "game-over" or self.state["turn"] > LAST_TURN:
                break
            phase = self.state["phase"]
            if phase == "movement":
                if self.side == "german" and self.overrun():
                    return self.orders
                self.enter_reinforcements()
                self.advance()
            elif phase == "combat" and self.attack():
                return self.orders
            elif phase == "interdiction":
                self.interdict()
            if not self.end_phase():
                break
        return self.orders

    def end_phase(self) -> bool:
        """End the phase; False when the file must end here: the rules refuse it, it
        rolls a die (the weather of the next turn, 15.0; the reinforcement drawn from
        the cup, 14.0 C) or it asks a player to choose (4.6 C)."""
        if self.rolls("end-phase", {}):
            return False
        return self.legal("end-phase", {}) and not self.state.get("pending")

    def choose(self, pending: dict[str, Any]) -> str:
        """A decision request. A loss: the option that loses the fewest units here and
        now (tried without dice; a retreat that finds no safe path eliminates, 8.11 A),
        then the Soviet retreats and the German loses a step. The German puts one air
        unit on defence. A retreat path, an overstacked unit: the first."""
        options = list(pending["options"])
        if pending["kind"] == "air-on-defence":
            return "1" if "1" in options else options[0]
        if pending["kind"] != "loss":
            return options[0]

        def lost(option: str) -> int:
            result = run_step(self.rules, self.module, self.state,
                              [Order("answer", {"decision": pending["id"], "choice": option})],
                              self.side, None)
            if result.rejection is not None:
                return len(self.state["units"])
            return sum(1 for u in self.state["units"]
                       if u not in result.state["units"] and self.side_of(u) == self.side)

        wanted = "retreat" if self.side == "soviet" else "step:"
        return min(options, key=lambda o: (lost(o), not o.startswith(wanted), options.index(o)))

    # -- the set-up (1.3) ---------------------------------------------------------------

    def near_front(self, hexes: list[Hex]) -> list[str]:
        front = sorted(self.game.front_line)
        return [self.label(h) for h in sorted(
            hexes, key=lambda h: (min(hex_distance(h, f) for f in front), self.label(h)))]

    def set_up(self) -> None:
        game, board = self.game, self.game.board
        if self.side == "soviet":
            faces = self.state["tokens"]
            infantry = sorted(t for t, f in faces.items()
                              if f["type"] == "infantry" and not f["siberian"])
            others = sorted(t for t, f in faces.items()
                            if f["type"] != "infantry" and not f["siberian"])
            front = sorted(self.label(h) for h in game.front_line)
            behind = self.near_front([h for h in board if game.side_of[h] == "soviet"
                                      and h not in game.front_line
                                      and int(self.label(h)[:2]) <= 20])
            east = self.near_front([h for h in board if game.side_of[h] == "soviet"
                                    and h not in game.front_line
                                    and int(self.label(h)[:2]) > 20])
            hexes = [x for x in front for _ in range(2)] + behind  # 1.3.1 F: two a hex
            for token, where in zip(infantry, hexes, strict=False):
                self.legal("place", {"unit": token, "hex": where})
            for token, where in zip(others, east, strict=False):
                self.legal("place", {"unit": token, "hex": where})
            return
        # German: stacks of four next to the front line, panzers spread along it, the
        # infantry between them, the last infantry stacks a hex behind (1.3.2 C-D)
        west = [h for h in board if game.side_of[h] == "german"]
        first = self.near_front([h for h in west if min(
            hex_distance(h, f) for f in game.front_line) == 1])
        second = self.near_front([h for h in west if min(
            hex_distance(h, f) for f in game.front_line) == 2])
        fast = [u for u in self.state["unplaced"] if game.pieces[u].moves_as_armor]
        slow = [u for u in self.state["unplaced"] if u not in fast]
        panzer_hexes = first[::5]
        rest = [x for x in first if x not in panzer_hexes][::2][:FRONT_INFANTRY_STACKS]
        infantry_hexes = rest + [x for x in second if x not in rest]
        for units, hexes in ((fast, panzer_hexes), (slow, infantry_hexes)):
            for i, unit in enumerate(units):
                self.legal("place", {"unit": unit, "hex": hexes[i // 4]})

    # -- the Movement Phase -------------------------------------------------------------

    def stacks(self, side: str) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for unit, where in self.units(side):
            out.setdefault(where, []).append(unit)
        return out

    def overrun(self) -> bool:
        """7.0: a German stack of armor that has not moved overruns the weakest adjacent
        Soviet hex, if the odds look like 4:1 or better (2L makes that 2:1)."""
        overrunning = sum(1 for u in self.state["movers"] if u not in self.state["done"])
        if len(self.state["movers"]) >= OVERRUNS_PER_PHASE * 4 or overrunning:
            return False
        defended = self.stacks("soviet")
        for where, stack in sorted(self.stacks("german").items()):
            movers = [u for u in stack if u not in self.state["movers"]
                      and self.game.pieces[u].moves_as_armor][:4]
            if len(movers) < 2:
                continue
            attack = sum(self.strength(u, True) for u in movers)
            for target in sorted(defended, key=lambda x: sum(
                    self.strength(u, False) for u in defended[x])):
                if not self.game.board.grid.adjacent(self.hex(where), self.hex(target)):
                    continue
                if attack < 4 * sum(self.strength(u, False) for u in defended[target]):
                    continue
                if self.rolls("overrun", {"units": " ".join(movers), "hex": target}):
                    return True
        return False

    def enter_reinforcements(self) -> None:
        for unit in list(self.state["arriving"].get(str(self.state["turn"]), [])):
            if self.side != "soviet":
                continue
            for h in sorted(self.game.entries):
                if self.legal("enter", {"unit": unit, "hex": self.label(h)}):
                    break

    def advance(self) -> None:
        """Up to MOVES_PER_PHASE stacks (German) or units (Soviet) out of contact, each
        toward the nearest free hex next to the enemy as far as the rules let it go in
        one leg, never ending on a hex a friendly unit holds (so stacking stays legal)."""
        moved = 0
        for where, stack in sorted(self.stacks(self.side).items()):
            if moved >= MOVES_PER_PHASE:
                break
            movers = [u for u in stack if u not in self.state["movers"]]
            if not movers:
                continue
            if self.side == "soviet":
                movers = movers[:1]
            held = set(self.stacks(self.side))
            path = self.route(self.hex(where), held)
            for end in range(len(path), 1, -1):
                if self.label(path[end - 1]) in held:
                    continue
                if self.legal("move", {"units": " ".join(movers),
                                       "path": " ".join(self.label(h) for h in path[:end])}):
                    moved += 1
                    break

    def route(self, start: Hex, held: set[str]) -> list[Hex]:
        """The shortest way, by hexes, to the nearest hex next to an enemy unit and held
        by no friendly one; [] for a unit in contact already. A path stops on entering
        an enemy ZOC (4.7), so it is never continued from a hex next to the enemy."""
        board = self.game.board
        enemies = {self.hex(x) for x in self.stacks(self.enemy())}

        def contact(h: Hex) -> bool:
            return any(n in enemies for n in board.neighbours(h))

        if contact(start):
            return []
        came: dict[Hex, Hex | None] = {start: None}
        frontier = [start]
        while frontier:
            following = []
            for h in frontier:
                for n in sorted(board.neighbours(h), key=self.label):
                    if n in came or n in enemies:
                        continue
                    came[n] = h
                    if contact(n) and self.label(n) not in held:
                        path = [n]
                        while came[path[-1]] is not None:
                            path.append(came[path[-1]])  # type: ignore[arg-type]
                        return path[::-1][:MAX_PATH]
                    if not contact(n):
                        following.append(n)
            frontier = following
        return []

    # -- the Combat and Air Interdiction Phases -----------------------------------------

    def attack(self) -> bool:
        """The next attack: enemy hexes by the attackers next to them; the German wants
        a raw 2:1 by his reckoning, the Soviet attacks the weakest German hex his units
        can reach with two units or more."""
        board = self.game.board
        if len(set(self.state.get("defended", []))) >= ATTACKS[self.side] * 2:
            return False
        done = set(self.state.get("attacked", []))
        defended = set(self.state.get("defended", []))
        mine = [(u, x) for u, x in self.units(self.side) if u not in done]
        choices = []
        for target, stack in self.stacks(self.enemy()).items():
            if defended & set(stack):
                continue
            t = self.hex(target)
            attackers = [u for u, x in mine if board.grid.adjacent(self.hex(x), t)][:6]
            attack = sum(self.strength(u, True) for u in attackers)
            defence = sum(self.strength(u, False) for u in stack)
            if not attackers or (self.side == "german" and attack < 2 * defence):
                continue
            if self.side == "soviet" and len(attackers) < 2:
                continue
            choices.append((-attack / defence, target, attackers))
        for _, target, attackers in sorted(choices):
            order = {"units": " ".join(attackers), "hexes": target}
            if self.side == "german":
                if ATTACK_AIR not in self.state["air_used"]:
                    order["air"] = ATTACK_AIR
                order["loss"] = "step:" + attackers[-1]
                order["advance"] = attackers[0]
            if self.rolls("attack", order):
                return True
        return False

    def interdict(self) -> None:
        """11.3: the Soviet stack furthest from the front that the Germans can see,
        behind the lines, is made to pay double."""
        if INTERDICTION_AIR in self.state["air_used"]:
            return
        german = [self.hex(x) for x in self.stacks("german")]
        targets = sorted(self.stacks("soviet"), key=lambda x: (
            -min(hex_distance(self.hex(x), g) for g in german), x))
        for target in targets[len(targets) // 2:]:  # a road hex half-way back
            if self.legal("interdict", {"air": INTERDICTION_AIR, "hex": target}):
                return


def pbem(*args: str, ok: tuple[int, ...] = (0,)) -> str:
    """Run the real CLI (the one next to this Python), returning what it prints."""
    exe = Path(sys.executable).with_name("pbem")
    done = subprocess.run([str(exe) if exe.exists() else "pbem", *args], capture_output=True,
                          text=True, check=False)
    if done.returncode not in ok:
        sys.exit(f"pbem {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout + done.stderr


def to_xml(orders: list[tuple[str, dict[str, str]]]) -> str:
    return "\n".join("  <" + kind + "".join(f' {k}="{v}"' for k, v in attrs.items()) + "/>"
                     for kind, attrs in orders)


def play(out: Path) -> Path:
    game_dir, turns = out / "game", out / "turns"
    if out.exists():
        shutil.rmtree(out)
    turns.mkdir(parents=True)
    pbem("new", "moscow", "--side", f"german={EXAMPLE / 'german.pub'}", "--side",
         f"soviet={EXAMPLE / 'soviet.pub'}", "--test-seed", TEST_SEED, "--game-id", GAME_ID,
         "-o", str(game_dir))
    for _ in range(MAX_STEPS):
        status = json.loads(pbem("status", str(game_dir), "--json"))
        game = load_position(game_dir)
        if status["waiting_for"] is None or game.state["turn"] > LAST_TURN:
            break
        side = game.package.rules.acting_side(game.state)
        seq = status["seq"]
        orders = Planner(game, side).plan()
        path = turns / f"step-{seq:02d}-{side}.xml"
        pbem("orders", "template", str(game_dir), "--side", side, "-o", str(path))
        text = path.read_text("utf-8")
        start = text.index("  <entropy></entropy>\n") + len("  <entropy></entropy>\n")
        path.write_text(text[:start] + to_xml(orders) + "\n</orders>\n", "utf-8")
        entropy = hashlib.sha256(f"Moscow '41 example entropy for step {seq}".encode()
                                 ).hexdigest()
        pbem("sign", str(path), "--key", str(EXAMPLE / f"{side}.key"), "--entropy", entropy)
        print(pbem("adjudicate", "--no-report", str(game_dir), str(path), ok=(0, 2, 3)).rstrip())
    else:
        sys.exit(f"the example did not reach Turn {LAST_TURN + 1} within {MAX_STEPS} steps")
    print(pbem("verify", str(game_dir)).rstrip())
    for seq in kept_reports(game_dir / "journal.jsonl"):
        pbem("report", str(game_dir), "--step", str(seq), "-o",
             str(out / "reports" / f"step-{seq}"))
    return game_dir


def kept_reports(journal: Path) -> list[int]:
    """The steps whose reports the example keeps (a report is some 180 kB a side): the
    draw, the end of each set-up and player turn (the file after which the other side
    acts) and the first decision request of each kind, to each side, with its answer.
    `pbem report` renders any other step from the journal."""
    lines = [json.loads(x) for x in journal.read_text("utf-8").splitlines()[1:]]
    keep = {lines[0]["seq"]}
    seen = set()
    for i, entry in enumerate(lines):
        if any(e["kind"] == "turn-began" or (e["kind"] == "phase-ended"
                                             and e["player"] != entry["side"])
               for e in entry["events"]):
            keep.add(entry["seq"])
        decision = entry.get("decision")
        if decision:
            kind = (decision["kind"], decision["side"], decision["side"] == entry["side"])
            if kind not in seen and i + 1 < len(lines):
                keep.update((entry["seq"], lines[i + 1]["seq"]))
            seen.add(kind)
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
        shutil.copytree(out / "reports" / f"step-{seq}",
                        EXAMPLE / "reports" / f"step-{seq}",
                        ignore=shutil.ignore_patterns("map.svg", "map.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "moscow")
    parser.add_argument("--update-examples", action="store_true")
    args = parser.parse_args()
    play(args.out.resolve())
    if args.update_examples:
        update_examples(args.out.resolve())
        print(f"copied into {EXAMPLE}")


if __name__ == "__main__":
    main()
