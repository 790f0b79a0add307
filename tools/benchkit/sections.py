"""The measurements of `make bench`, one function per section of the table (issue 13's
goals): the floor of a submission, a whole player turn, verification of the examples and
of a long game, the cost of a submission early and late in it, the reports, the export
and the command line's start-up. The service is in `service.py`."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.engine.step import run_step
from adjudicator.games import GAME_IDS, get_game
from adjudicator.referee.gamedir import GameDir, current_game, load_game
from adjudicator.referee.referee import adjudicate, create_game
from adjudicator.referee.submission import open_submission
from adjudicator.referee.verify import verify
from adjudicator.security.keys import load_public_key
from benchkit.positions import (
    Example,
    build_step,
    can_list,
    cut_game,
    examples,
    floor_of,
    turn_starts,
)
from benchkit.timing import Budget, Row, Table, command, side_by_side


@dataclass
class Bench:
    """What the sections share: the budget, a scratch directory, the table, the games."""

    budget: Budget
    work: Path
    table: Table = field(default_factory=Table)
    games: list[Example] = field(default_factory=examples)
    long_games: dict[str, Path] = field(default_factory=dict)  # game -> its directory

    def fresh(self, name: str) -> Path:
        path = self.work / name
        if path.exists():
            shutil.rmtree(path)
        return path

    def one_per_game(self) -> list[Example]:
        seen: set[str] = set()
        return [e for e in self.games if not (e.game in seen or seen.add(e.game))]


Section = Callable[[Bench], None]


# -- a whole player turn -----------------------------------------------------------------

def whole_turns(bench: Bench) -> None:
    """Each side's whole player turn in each example game, from the example's last
    complete player turn of that side: the file played from the listing (the
    example's largest file of that side where the rules cannot list yet), adjudicated
    by `pbem adjudicate --no-report` and in-process, as multiples of its floor."""
    for example in bench.one_per_game():
        game = load_game(example.journal)
        starts = turn_starts(game)
        for side in game.package.rules.sides:
            mine = [n for n, s in starts if s == side and n < len(game.steps)]
            if not mine:
                continue
            base = bench.fresh(f"turn-{example.game}-{side}")
            if can_list(example.game):
                at = mine[-1]
                cut_game(example.journal, at, base, example.test_seed)
                built = build_step(current_game(GameDir(base)), example.test_seed,
                                   example.private[side], scope="turn",
                                   max_orders=12 if bench.budget.quick else 200)
                raw, note = built.raw, (f"after step {at}: {len(built.orders)} orders, "
                                        f"{built.attacks} attacks")
            else:
                files = [p for p in example.turn_files() if p.stem.endswith(side)]
                if not files:
                    continue
                largest = max(files, key=lambda p: p.stat().st_size)
                at = int(largest.stem.split("-")[1]) - 1
                cut_game(example.journal, at, base, example.test_seed)
                raw = largest.read_bytes()
                note = (f"the rules cannot list yet: the example's {largest.name} "
                        f"({len(open_submission(current_game(GameDir(base)), raw).orders)} "
                        "orders)")
            _measure_turn(bench, example, side, base, raw, note)


def _measure_turn(bench: Bench, example: Example, side: str, base: Path, raw: bytes,
                  note: str) -> None:
    file = base.parent / f"{base.name}.xml"
    file.write_bytes(raw)
    run = base.parent / f"{base.name}-run"
    key = load_public_key(example.public[side])

    def setup(label: str) -> None:
        if run.exists():
            shutil.rmtree(run)
        shutil.copytree(base, run)

    result: dict[str, Any] = {}
    cold: list[float] = []

    def in_process() -> None:
        result["last"] = adjudicate(run, raw)

    def in_fresh_process() -> None:
        done = subprocess.run([sys.executable, "-c", ADJUDICATE_CHILD, str(run), str(file)],
                              capture_output=True, text=True, check=True)
        cold.append(float(done.stdout))

    jobs = {"floor": lambda: floor_of(raw, key), "in-process": in_process,
            "fresh": in_fresh_process,
            "cli": command("pbem", "adjudicate", run, file, "--no-report")}
    times = side_by_side(jobs, bench.budget.runs, setup=setup)
    verdict = result["last"]
    outcome_note = f"{verdict.kind} {verdict.result.outcome if verdict.result else ''}"
    what = f"{example.game} {side} whole turn"
    bench.table.add(Row("floor", f"{what}: parse+C14N+verify", times["floor"],
                        note=f"{len(raw)} bytes"))
    bench.table.add(Row("turn", f"{what}: pbem adjudicate --no-report", times["cli"],
                        reference=times["floor"], goal="<= 20x", note=note))
    bench.table.add(Row("turn", f"{what}: in a fresh process", statistics.median(cold),
                        reference=times["floor"], goal="<= 20x",
                        note="the adjudication alone, imports and module read before"))
    bench.table.add(Row("turn", f"{what}: in-process, again", times["in-process"],
                        reference=times["floor"], goal="<= 20x",
                        note=f"{outcome_note.strip()}; what it computed before kept"))


ADJUDICATE_CHILD = """
import sys, time
from pathlib import Path
from adjudicator.referee.gamedir import GameDir, current_game
from adjudicator.referee.referee import adjudicate
where, raw = Path(sys.argv[1]), Path(sys.argv[2]).read_bytes()
current_game(GameDir(where))  # the rules imported, the module read
start = time.perf_counter()
adjudicate(where, raw)
print(time.perf_counter() - start)
"""


# -- verification ------------------------------------------------------------------------

def journal_floors(journal: Path) -> Callable[[], None]:
    """The floors of every submitted file of a journal, one after the other."""
    lines = [json.loads(raw) for raw in journal.read_bytes().splitlines()]
    keys = {r["fingerprint"]: load_public_key(r["public_key"].encode())
            for r in lines[0]["roster"]}
    files = [(base64.b64decode(e["submission"]), keys.get(e.get("key")))
             for e in lines[1:] if e.get("submission") and e.get("key") in keys]

    def floors() -> None:
        for raw, key in files:
            floor_of(raw, key)
    return floors


def verification(bench: Bench) -> None:
    """`pbem verify` of each example game, and in-process, as multiples of the sum of
    its files' floors."""
    for example in bench.games:
        journal = example.journal
        steps = len(load_game(journal).steps)
        jobs = {"floors": journal_floors(journal), "in-process": lambda j=journal: verify(j),
                "cli": command("pbem", "verify", journal)}
        times = side_by_side(jobs, bench.budget.runs)
        what = f"{example.folder.name} ({steps} steps)"
        bench.table.add(Row("verify", f"{what}: pbem verify", times["cli"],
                            reference=times["floors"], goal="<= 5x"))
        bench.table.add(Row("verify", f"{what}: in-process", times["in-process"],
                            reference=times["floors"], goal="<= 5x"))


# -- a long game -------------------------------------------------------------------------

def long_game(bench: Bench, example: Example) -> tuple[Path, list[bytes]] | None:
    """A game of `budget.long_steps` steps played from the listing, a step at most two
    orders and never beyond the end of a phase: its directory and its files."""
    if example.game in bench.long_games:
        return bench.long_games[example.game], _long_files(bench.long_games[example.game])
    header = example.header
    test_seed = hashlib.sha256(f"bench long game {example.game}".encode()).digest()
    target = bench.fresh(f"long-{example.game}")
    create_game(target, example.game, header["scenario"], example.public,
                options=header["options"], game_id=f"bench-long-{example.game}",
                test_seed=test_seed)
    files: list[bytes] = []
    for _ in range(bench.budget.long_steps):
        game = current_game(GameDir(target))
        side = game.acting_side
        if side is None:
            break
        built = build_step(game, test_seed, example.private[side], scope="phase",
                           max_orders=2)
        files.append(built.raw)
        done = adjudicate(target, built.raw)
        if done.kind != "step":
            raise RuntimeError(f"a built file was refused: {done.error}")
    (target / "bench-seed").write_text(test_seed.hex())
    bench.long_games[example.game] = target
    return target, files


def _long_files(target: Path) -> list[bytes]:
    return [base64.b64decode(line.entry["submission"]) for line in load_game(target).steps]


def long_games(bench: Bench) -> None:
    """A long game per game that can list its orders: built, verified (`pbem verify`
    and in-process) against its floors and the goal of under a second; then one
    submission early in it and one late, each on its position with the snapshot there,
    and the part of each that is not the rules' own work."""
    for example in bench.one_per_game():
        if not can_list(example.game):
            bench.table.add(Row("long", f"{example.game}: a long game", None,
                                note="skipped: its rules cannot list their legal orders yet"))
            continue
        target, files = long_game(bench, example)
        journal = GameDir(target).journal
        steps = len(files)
        jobs = {"floors": journal_floors(journal), "in-process": lambda j=journal: verify(j),
                "cli": command("pbem", "verify", journal)}
        times = side_by_side(jobs, bench.budget.runs)
        what = f"{example.game} long game ({steps} steps)"
        game = load_game(target)
        summary = game.package.rules.summary(game.state)
        note = f"at turn {summary.get('turn')}" + ("" if game.acting_side else ", game over")
        bench.table.add(Row("long", f"{what}: pbem verify", times["cli"],
                            reference=times["floors"], goal="<= 5x", note=note))
        bench.table.add(Row("long", f"{what}: pbem verify", times["cli"], goal="< 1 s"))
        bench.table.add(Row("long", f"{what}: in-process", times["in-process"],
                            reference=times["floors"], goal="<= 5x"))
        early_late(bench, example, target, files)


def early_late(bench: Bench, example: Example, target: Path, files: list[bytes]) -> None:
    test_seed = bytes.fromhex((target / "bench-seed").read_text())
    early, late = bench.budget.early_step, len(files) - 1
    if late <= early:
        return
    points = {}
    for name, at in (("early", early), ("late", late)):
        base = bench.fresh(f"long-{example.game}-{name}")
        cut_game(GameDir(target).journal, at, base, test_seed)
        points[name] = (base, files[at])
    runs = {name: bench.work / f"long-{example.game}-{name}-run" for name in points}

    def setup(label: str) -> None:
        name = label.split()[0]
        if runs[name].exists():
            shutil.rmtree(runs[name])
        shutil.copytree(points[name][0], runs[name])

    def rules_only(name: str) -> Callable[[], object]:
        game = current_game(GameDir(points[name][0]))
        submission = open_submission(game, points[name][1])
        return lambda: run_step(game.package.rules, game.module, game.state,
                                submission.orders, submission.envelope.side, None)

    jobs: dict[str, Callable[[], object]] = {}
    for name in points:
        jobs[f"{name} submission"] = lambda n=name: adjudicate(runs[n], points[n][1])
        jobs[f"{name} rules"] = rules_only(name)
    times = side_by_side(jobs, max(bench.budget.runs, 3), setup=setup)
    over = {n: max(times[f"{n} submission"] - times[f"{n} rules"], 1e-6) for n in points}
    what = f"{example.game} submission at step {late + 1} vs {early + 1}"
    bench.table.add(Row("flat", f"{what}: whole", times["late submission"],
                        reference=times["early submission"], goal="<= 1.2x",
                        note=f"early {times['early submission'] * 1000:.1f} ms"))
    bench.table.add(Row("flat", f"{what}: beyond the rules", over["late"],
                        reference=over["early"], goal="<= 1.2x",
                        note=f"early {over['early'] * 1000:.1f} ms (total less a dry run)"))


# -- reports, export, the command line ---------------------------------------------------

REPORT_CHILD = """
import json, sys, time
from pathlib import Path
from adjudicator.referee.gamedir import load_game
from adjudicator.reports import write_report
from adjudicator.reports.from_journal import step_report
journal, side, out, warm = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
game = load_game(journal)
seq = len(game.steps)
times = []
for n in range(1 + warm):
    start = time.perf_counter()
    write_report(step_report(game, seq, side), out / str(n))
    times.append(time.perf_counter() - start)
print(json.dumps(times))
"""


def reports(bench: Bench) -> None:
    """Each side's report (HTML + SVG + PNG) of the last step of each example game:
    cold (the first in a fresh process, the game already loaded) and warm (the next
    ones in that process)."""

    for example in bench.one_per_game():
        for side in get_game(example.game).rules.sides:
            out = bench.fresh(f"report-{example.game}-{side}")
            cold, warm = [], []
            for _ in range(bench.budget.slow_runs):
                done = subprocess.run(
                    [sys.executable, "-c", REPORT_CHILD, str(example.journal), side, str(out),
                     str(bench.budget.runs)], capture_output=True, text=True, check=True)
                times = json.loads(done.stdout)
                cold.append(times[0])
                warm += times[1:]
            what = f"{example.game} {side} report"
            bench.table.add(Row("report", f"{what}: cold", statistics.median(cold),
                                goal="<= 300 ms"))
            if warm:
                bench.table.add(Row("report", f"{what}: warm", statistics.median(warm),
                                    goal="<= 300 ms"))


def export(bench: Bench) -> None:
    """`pbem export vassal` of each game."""
    jobs = {game: command("pbem", "export", "vassal", game, "-o",
                          bench.work / f"{game}.vmod") for game in GAME_IDS}
    times = side_by_side(jobs, bench.budget.slow_runs)
    for game, seconds in times.items():
        bench.table.add(Row("export", f"pbem export vassal {game}", seconds, unit="s",
                            goal="<= 5 s"))


def startup(bench: Bench) -> None:
    """`pbem --help` and `pbem games` as multiples of `python -c pass`."""
    jobs = {"python -c pass": command(Path(sys.executable).name, "-c", "pass"),
            "pbem --help": command("pbem", "--help"), "pbem games": command("pbem", "games")}
    times = side_by_side(jobs, max(bench.budget.runs, 3) * 2)
    for label in ("pbem --help", "pbem games"):
        bench.table.add(Row("cli", label, times[label], reference=times["python -c pass"],
                            goal="<= 5x"))

