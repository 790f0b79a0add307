"""The `pbem` command: thin click commands that parse, call the library and print.

Every error the project knows is printed to stderr as one plain sentence with a
non-zero exit status; no traceback reaches a player.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from adjudicator.errors import PbemError
from adjudicator.games import GAME_IDS
from adjudicator.security.limits import MAX_ORDER_BYTES

if TYPE_CHECKING:
    from adjudicator.referee.referee import Adjudication

# `pbem adjudicate` and `pbem check` (docs/protocol.md, "exit codes"):
EXIT_REJECTED = 2  # the file was refused: nothing adjudicated (check: a problem found)
EXIT_ORDER_REFUSED = 3  # the step counts, but an order was refused and the rest not run
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug, not the user's fault


class PbemGroup(click.Group):
    """A click group that turns the project's errors into one line on stderr."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit,
                click.exceptions.Abort):
            raise  # help, usage errors, Ctrl-C: click answers them itself
        except PbemError as exc:
            fail(exc.message)
        except BrokenPipeError:  # `pbem journal rolls game | head`: the reader left
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except OSError as exc:
            fail(f"{exc.filename or 'file'}: {exc.strerror or exc}")
        except Exception as exc:  # a bug: say so plainly; PBEM_DEBUG=1 shows the traceback
            if os.environ.get("PBEM_DEBUG"):
                raise
            fail(f"internal error ({type(exc).__name__}: {exc}); this is a bug in pbem, "
                 "please report it with the command you ran (PBEM_DEBUG=1 shows details)",
                 EXIT_INTERNAL)


def fail(message: str, status: int = 1) -> NoReturn:
    click.echo(f"pbem: {message}", err=True)
    sys.exit(status)


def read_input(path: Path, limit: int = MAX_ORDER_BYTES * 4) -> bytes:
    """Read a file a player gave us, refusing absurd sizes before reading them."""
    if path.stat().st_size > limit:
        fail(f"{path} is {path.stat().st_size} bytes, more than any order file can be")
    return path.read_bytes()


def hex_bytes(value: str, what: str) -> bytes:
    try:
        return bytes.fromhex(value)
    except ValueError:
        fail(f"{what} must be hexadecimal, like 9f3a... ({value!r} is not)")


@click.group(cls=PbemGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pbem-adjudicator")
def main() -> None:
    """Play-by-email adjudicator for 1941 Eastern-Front board wargames.

    A player writes a turn-order file, signs it with their key and sends it to
    the referee, who adjudicates it with dice nobody can bias and returns a
    report. Anyone holding the game's journal can verify every roll.
    """


@main.command()
@click.argument("name", type=click.Path(path_type=Path))
@click.option("--encrypt", is_flag=True, help="Protect the private key with a passphrase "
              "(you are asked for it).")
def keygen(name: Path, encrypt: bool) -> None:
    """Create your signing key pair: NAME.key (keep it secret) and NAME.pub (send
    it to the referee)."""
    from adjudicator.security.keys import write_keypair

    passphrase = None
    if encrypt:
        passphrase = click.prompt("Passphrase", hide_input=True,
                                  confirmation_prompt=True).encode("utf-8")
    key_path, pub_path = write_keypair(name, passphrase=passphrase)
    click.echo(f"wrote {key_path} (private: keep it to yourself)")
    click.echo(f"wrote {pub_path} (public: give it to the referee)")


@main.command()
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: id, title, version, sides, scenarios and options of each.")
def games(as_json: bool) -> None:
    """List the games this adjudicator knows: sides, scenarios and options."""
    from dataclasses import asdict

    from adjudicator.games import describe_game

    about = [describe_game(game_id) for game_id in GAME_IDS]
    if as_json:
        click.echo(json.dumps([{**asdict(a), "scenarios": [{"id": i, "name": n}
                                                           for i, n in a.scenarios]}
                               for a in about], indent=2))
        return
    for game in about:
        click.echo(f"{game.id}: {game.title} (module version {game.version})")
        click.echo(f"  sides: {', '.join(game.sides)}  (pbem new {game.id} "
                   + " ".join(f"--side {side}=KEY.pub" for side in game.sides) + ")")
        for scenario, name in game.scenarios:
            click.echo(f"  scenario {scenario}: {name}")
        for option in game.options:
            values = option.values
            shown = "|".join(values) if len(values) <= 4 else f"{values[0]}..{values[-1]}"
            click.echo(f"  option {option.id}={shown} (default {option.default})"
                       f": {option.help}")


def parse_pairs(pairs: tuple[str, ...], what: str) -> dict[str, str]:
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            fail(f"{what} must look like NAME=VALUE, not {pair!r}")
        result[key] = value
    return result


@main.command()
@click.argument("game")
@click.option("--scenario", "-s", default="campaign", show_default=True,
              help="Scenario id (see `pbem games`).")
@click.option("--side", "sides", multiple=True, required=True, metavar="SIDE=PUBKEY",
              help="A side and the public key file of its player; repeat for each side.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A game option (see `pbem games`); repeat as needed.")
@click.option("-o", "--out", "out", type=click.Path(path_type=Path), required=True,
              help="Directory to create the game in.")
@click.option("--module", "module_file", type=click.Path(exists=True, path_type=Path),
              help="Use this module data file instead of the bundled one.")
@click.option("--position", "position_file", type=click.Path(exists=True, path_type=Path),
              help="Start from this position file (docs/position-files.md).")
@click.option("--test-seed", help="Derive every step's seed from this hex value, for "
              "reproducible examples; marks the game as a test game.")
@click.option("--game-id", help="The game's id (default: GAME-<random>).")
def new(game: str, scenario: str, sides: tuple[str, ...], options: tuple[str, ...], out: Path,
        module_file: Path | None, position_file: Path | None, test_seed: str | None,
        game_id: str | None) -> None:
    """Create a new game: its public journal and the referee's secrets."""
    from adjudicator.games import get_game
    from adjudicator.referee.gamedir import GameDir
    from adjudicator.referee.referee import create_game

    get_game(game)
    roster = {side: read_input(Path(path)) for side, path in parse_pairs(sides, "--side").items()}
    created = create_game(
        out, game, scenario, roster, options=parse_pairs(options, "--option"),
        module_data=read_input(module_file, 1 << 24) if module_file else None,
        position=read_input(position_file) if position_file else None,
        test_seed=hex_bytes(test_seed, "--test-seed") if test_seed else None, game_id=game_id)
    click.echo(f"created game {created.game_id} ({created.package.title}) in {out}")
    if not created.package.hides_information:
        click.echo(f"journal: {GameDir(out).journal}  (public)")
    else:  # it holds what the rules hide (docs/architecture.md, "Hidden information")
        click.echo(f"journal: {GameDir(out).journal}  (holds hidden information: give it "
                   "to the players only when the game is over)")
    click.echo(f"referee secrets: {GameDir(out).referee_dir}  (never share)")
    if created.header["test_game"]:
        click.echo("this is a TEST game: its seeds derive from --test-seed")
    click.echo(f"step 1 waits for {created.acting_side}; commit {created.current_commit}")


@main.command()
@click.argument("directory", type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def status(directory: Path, as_json: bool) -> None:
    """Where a game stands: turn and phase, whose step (with the seq, prev and commit its
    file needs), any open decision, and the position in brief. DIRECTORY may be a game
    directory or a journal file."""
    from adjudicator.referee.gamedir import load_game

    game = load_game(directory)
    info = {
        "game_id": game.game_id,
        "game": game.package.id,
        "waiting_for": game.acting_side,
        "seq": game.next_seq,
        "prev": game.state_hash,
        "commit": game.current_commit,
        "decision": game.state.get("pending"),
        "test_game": game.header["test_game"],
        **game.package.rules.summary(game.state),
    }
    if as_json:
        click.echo(json.dumps(info, indent=2, sort_keys=True))
        return
    for line in status_lines(game, info):
        click.echo(line)


def status_lines(game: Any, info: dict[str, Any]) -> list[str]:
    """`pbem status` in words: the game, where it stands, whose step, what is open."""
    from adjudicator.reports.template import position_brief

    where = ", ".join(f"{k} {info[k]}" for k in ("turn", "player", "segment", "phase",
                                                 "weather") if info.get(k) is not None)
    lines = [f"game {game.game_id}: {game.package.title}"
             + (" (a TEST game)" if info["test_game"] else ""),
             f"position after step {game.next_seq - 1}: {where}" if where else
             f"position after step {game.next_seq - 1}"]
    result = info.get("result")
    if result:
        level = result.get("level") if isinstance(result, dict) else result
        lines.append(f"the game is over: {level or result}")
    else:
        lines.append(f"step {game.next_seq} waits for {game.acting_side}: an order file with "
                     f'seq="{game.next_seq}" prev="{game.state_hash}" '
                     f'commit="{game.current_commit}" (pbem orders template writes them)')
    pending = info["decision"]
    if pending:
        lines.append(f"open decision {pending['id']} for {pending['side']} ({pending['kind']}, "
                     f"rule {pending['rule']}): choose one of {', '.join(pending['options'])}")
    lines.append("deadline: none kept here (a game of the service has its deadline on its "
                 "page and in pbem admin games)")
    if game.acting_side:
        brief = position_brief(game, game.acting_side)
        lines += ["", f"the position as {game.acting_side} sees it:"]
        lines += [f"  {h}" for h in brief[:STATUS_LINES]]
        if len(brief) > STATUS_LINES:
            lines.append(f"  ... and {len(brief) - STATUS_LINES} more lines (the order "
                         "template's comment has them all)")
    return lines


STATUS_LINES = 12  # of the position in brief: enough to see where the game stands


@main.group()
def orders() -> None:
    """Order files: templates, and the shorthand (list, compose)."""


@orders.command("template")
@click.argument("directory", type=click.Path(exists=True, path_type=Path))
@click.option("--side", required=True, help="Your side.")
@click.option("-o", "--out", type=click.Path(path_type=Path), help="Write here, not stdout.")
def orders_template(directory: Path, side: str, out: Path | None) -> None:
    """Write a skeleton order file for the game's current step, envelope filled in."""
    from adjudicator.referee.gamedir import load_game
    from adjudicator.reports.template import order_template

    game = load_game(directory)
    text = order_template(game, side)  # refuses a finished game
    if game.acting_side != side:
        click.echo(f"note: the game waits for {game.acting_side or 'nobody'}, not {side}",
                   err=True)
    if out:
        out.write_text(text, "utf-8")
        click.echo(f"wrote {out}", err=True)
    else:
        click.echo(text, nl=False)


@main.command()
@click.argument("orders_file", metavar="ORDERS", type=click.Path(exists=True, path_type=Path))
@click.option("--key", "key_file", required=True, type=click.Path(exists=True, path_type=Path),
              help="Your private key file (NAME.key).")
@click.option("-o", "--out", type=click.Path(path_type=Path),
              help="Write the signed file here (default: replace ORDERS).")
@click.option("--entropy", help="Use this hex entropy instead of fresh random bytes "
              "(only to reproduce an example).")
def sign(orders_file: Path, key_file: Path, out: Path | None, entropy: str | None) -> None:
    """Sign an order file: add fresh entropy and your signature. The file is checked
    against its game's order schema first; one the game would refuse (a decision still
    to answer, an unknown order) is not signed."""
    from adjudicator.referee.submission import draft_problem
    from adjudicator.security.keys import load_private_key
    from adjudicator.security.signing import sign_orders
    from adjudicator.security.xmlsafe import parse_untrusted

    key_bytes = read_input(key_file)
    passphrase = None
    if b"ENCRYPTED" in key_bytes:
        passphrase = click.prompt("Passphrase", hide_input=True).encode("utf-8")
    key = load_private_key(key_bytes, passphrase)
    root = parse_untrusted(read_input(orders_file))
    problem = draft_problem(root)
    if problem is not None:  # a file the game would refuse: not signed
        fail(f"{orders_file} was not signed: {problem}")
    signed = sign_orders(root, key, entropy=hex_bytes(entropy, "--entropy") if entropy else None)
    target = out or orders_file
    target.write_bytes(signed)
    click.echo(f"signed {target}")


@main.command()
@click.argument("directory", type=click.Path(exists=True, path_type=Path))
@click.argument("orders_file", metavar="ORDERS", type=click.Path(exists=True, path_type=Path))
def check(directory: Path, orders_file: Path) -> None:
    """Dry-run a draft order file against the current position, without dice.

    DIRECTORY may be a game directory or a journal file, such as the one a game's page
    offers for download: a player needs no more to check a draft. Exit status 2 when a
    problem was found."""
    from adjudicator.referee.check import check_draft

    report = check_draft(directory, read_input(orders_file))
    for note in report.notes:
        click.echo(f"note: {note}")
    for problem in report.problems:
        click.echo(f"problem: {problem}")
    unchecked = report.orders - report.checked
    if report.ok and unchecked == 0:
        click.echo(f"OK: all {report.orders} order(s) checked against the position, no "
                   "problem found")
    elif report.ok:
        click.echo(f"no problem found, but only {report.checked} of {report.orders} order(s) "
                   f"could be checked against the position: the {unchecked} from order "
                   f"{report.checked + 1} on depend on a die roll, so they were checked only "
                   "for unknown units and places; the adjudication will tell")
    else:
        sys.exit(EXIT_REJECTED)


@main.command("adjudicate")
@click.argument("directory", type=click.Path(exists=True, path_type=Path))
@click.argument("orders_file", metavar="ORDERS", type=click.Path(exists=True, path_type=Path))
@click.option("--no-report", is_flag=True, help="Do not render the turn reports.")
def adjudicate_command(directory: Path, orders_file: Path, no_report: bool) -> None:
    """Referee: adjudicate a signed order file and write the turn reports.

    Exit status: 0 the step was adjudicated (all its orders carried out, or up to a
    decision); 3 the step was adjudicated and counts, but an order was refused (the
    orders before it stand, it and the rest were not carried out); 2 the file was
    refused and nothing was adjudicated (unsigned, misaddressed, stale, unreadable)."""
    from adjudicator.referee.referee import adjudicate

    result = adjudicate(directory, read_input(orders_file))
    print_adjudication(result)
    if result.kind == "step" and not no_report:
        for side, paths in write_step_reports(directory, result.seq).items():
            click.echo(f"report for {side}: {paths['html']}  (map: {paths['png']})")
    if result.kind == "refused":
        sys.exit(EXIT_REJECTED)
    if result.result and result.result.rejection:
        sys.exit(EXIT_ORDER_REFUSED)


def print_adjudication(result: Adjudication) -> None:
    if result.kind == "refused":
        assert result.error is not None
        click.echo(f"pbem: refused, nothing adjudicated: {result.error.message}", err=True)
        click.echo(f"pbem: the file is kept as {result.archived}", err=True)
        return
    step = result.result
    assert step is not None
    entry = result.entry
    click.echo(f"step {result.seq} adjudicated: {step.applied} order(s) applied, "
               f"{sum(1 for e in step.events if e.kind == 'roll')} die roll(s)")
    if step.rejection:
        r = step.rejection
        click.echo(f"order {r.index + 1} (line {r.line}) rejected, rule {r.rule}: {r.message}; "
                   "it and the orders after it were not carried out")
    if step.decision:
        d = step.decision
        click.echo(f"stopped for decision {d.id} ({d.kind}, rule {d.rule}): "
                   f"{d.side} chooses one of {', '.join(d.options)}")
        if step.not_reached:
            click.echo(f"the {step.not_reached} order(s) after it were not carried out: send "
                       "them again after your <answer>")
    click.echo(f"seed revealed: {entry['server_seed']}")
    click.echo(f"state hash: {entry['state_hash']}")
    click.echo(f"next commit: {entry['next_commit']}")


def write_step_reports(directory: Path, seq: int, sides: tuple[str, ...] | None = None,
                       outdir: Path | None = None) -> dict[str, dict[str, Path]]:
    from adjudicator.referee.gamedir import GameDir, load_game
    from adjudicator.reports import write_report
    from adjudicator.reports.from_journal import step_report

    game = load_game(directory)
    written = {}
    for side in sides or game.package.rules.sides:
        target = (outdir / side) if outdir else GameDir(directory).reports_for(seq, side)
        written[side] = write_report(step_report(game, seq, side), target)
    return written


@main.command()
@click.argument("path", metavar="DIR-OR-JOURNAL", type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def verify_command(path: Path, as_json: bool) -> None:
    """Recompute a whole game from its journal and report the first divergence."""
    from adjudicator.referee.verify import verify

    report = verify(path)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, sort_keys=True))
    elif report.ok:
        click.echo(f"OK: game {report.game_id}: {report.steps} step(s), {report.rolls} die "
                   f"roll(s), {report.refused} refused file(s) recomputed and verified; "
                   f"final state {report.final_state_hash}")
        if report.rollbacks:
            click.echo(f"  {report.rollbacks} rollback(s) by the referee voided "
                       f"{report.voided} step(s); the voided steps verified too")
        if report.summary:
            click.echo("  " + ", ".join(f"{k}: {v}" for k, v in report.summary.items()))
        if report.test_game:
            click.echo("  note: a TEST game: its seeds derive from a test seed, so its rolls "
                       "prove nothing about fairness")
    else:
        d = report.divergence
        assert d is not None
        click.echo(f"DIVERGENCE ({d.kind}) at journal line {d.line}"
                   f"{f', step {d.seq}' if d.seq is not None else ''}: {d.message}")
    if not report.ok:
        sys.exit(1)


main.add_command(verify_command, "verify")


@main.command()
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--to", "to_seq", type=click.IntRange(min=0), required=True,
              help="The step whose position the game resumes from (0: the start).")
@click.option("--reason", required=True, help="Why: the journal and the players are told.")
def rollback(directory: Path, to_seq: int, reason: str) -> None:
    """Referee: void the steps after step --to and go on from the position after it.
    The journal stays append-only and verifiable: the voided steps stay in it, and one
    referee-signed line says which steps are void and why (docs/journal.md)."""
    from adjudicator.referee.rollback import roll_back

    done = roll_back(directory, to_seq, reason)
    voided = ", ".join(str(s) for s in done.voided)
    click.echo(f"rolled back to step {to_seq}: step(s) {voided} voided")
    click.echo(f"the game waits for {done.acting_side or 'nobody'} (step "
               f"{done.game.next_seq}); tell the players (the service does it by mail)")


@main.command()
@click.argument("directory", type=click.Path(exists=True, path_type=Path))
@click.option("--step", "seq", type=int, help="Step number (default: the latest; 0 = the "
              "initial position).")
@click.option("--side", help="Only this side's report (default: every side).")
@click.option("-o", "--out", "outdir", type=click.Path(path_type=Path), required=True,
              help="Directory for the reports (one folder per side).")
def report(directory: Path, seq: int | None, side: str | None, outdir: Path) -> None:
    """Render the turn report of a step: HTML with the map, and a PNG of the map."""
    from adjudicator.referee.gamedir import load_game

    game = load_game(directory)
    seq = len(game.steps) if seq is None else seq
    for who, paths in write_step_reports(directory, seq, (side,) if side else None,
                                         outdir).items():
        click.echo(f"report for {who}, step {seq}: {paths['html']}  (map: {paths['png']})")


@main.group()
def dice() -> None:
    """Audit dice by hand (docs/protocol.md)."""


@dice.command("derive")
@click.option("--server-seed", required=True, help="The revealed server seed (hex).")
@click.option("--game", "game_id", required=True, help="The game id.")
@click.option("--seq", type=click.IntRange(min=0), required=True, help="The step number.")
@click.option("--entropy", required=True, help="The player's entropy (hex).")
@click.option("--sides", default="6", show_default=True,
              help="Sides of each draw; a comma list like 6,6,3 gives each draw its own.")
@click.option("--count", type=click.IntRange(min=1, max=100000), default=10, show_default=True,
              help="How many values (with a single --sides).")
def dice_derive(server_seed: str, game_id: str, seq: int, entropy: str, sides: str,
                count: int) -> None:
    """Print the values of a step's dice stream, one a line: the same numbers the
    referee rolled, in order (a d6 is uniform(6)+1; a D3 is read from a d6)."""
    from adjudicator.engine import dice as dice_scheme

    try:
        each = [int(s) for s in sides.split(",")]
    except ValueError:
        fail(f"--sides must be numbers, like 6 or 6,6,3 (not {sides!r})")
    if any(not 1 <= s <= 2**32 for s in each):
        fail("--sides must be between 1 and 2^32")
    plan = each if len(each) > 1 else each * count
    seed = hex_bytes(server_seed, "--server-seed")
    if len(seed) != dice_scheme.SEED_BYTES:
        fail(f"--server-seed must be {dice_scheme.SEED_BYTES} bytes (64 hex digits), as the "
             f"journal reveals it; this one is {len(seed)} bytes")
    stream = dice_scheme.DiceStream(seed, game_id, seq, hex_bytes(entropy, "--entropy"))
    for sides_of_draw in plan:
        click.echo(stream.uniform(sides_of_draw) + 1)


@main.group()
def journal() -> None:
    """Read a game's journal."""


@journal.command("rolls")
@click.argument("directory", metavar="DIR-OR-JOURNAL",
                type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def journal_rolls(directory: Path, as_json: bool) -> None:
    """Every die roll of every step: seq, purpose, sides, value, and the revealed
    seed and entropy it came from."""
    from adjudicator.referee.gamedir import load_game

    game = load_game(directory)
    rolls = []
    for line in game.steps:
        entry = line.entry
        for n, event in enumerate(e for e in entry["events"] if e["kind"] == "roll"):
            rolls.append({"seq": entry["seq"], "n": n + 1, "purpose": event["purpose"],
                          "die": event["die"], "sides": event["sides"],
                          "raw": event.get("d6", event["value"]), "value": event["value"],
                          "server_seed": entry["server_seed"], "entropy": entry["entropy"]})
    if as_json:
        click.echo(json.dumps({"game_id": game.game_id, "rolls": rolls}, indent=2))
        return
    seeds_shown: set[int] = set()
    for roll in rolls:
        if roll["seq"] not in seeds_shown:
            seeds_shown.add(roll["seq"])
            click.echo(f"step {roll['seq']}: server seed {roll['server_seed']}, "
                       f"entropy {roll['entropy']}")
        click.echo(f"  {roll['seq']}.{roll['n']}  {roll['die']:<12} raw {roll['raw']:>2} -> "
                   f"{roll['value']:>2}  {roll['purpose']}")



@main.group()
def export() -> None:
    """Write the game data for other tools (VASSAL)."""


@export.command("vassal")
@click.argument("game", type=click.Choice(GAME_IDS))
@click.option("--scenario", "scenarios", multiple=True,
              help="A scenario to include as a predefined setup (repeatable; default: all).")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The .vmod file to write.")
def export_vassal(game: str, scenarios: tuple[str, ...], out: Path) -> None:
    """A VASSAL 3.7 module of GAME: the map, every counter, a die roller, a turn tracker
    and one predefined setup per scenario."""
    from exporters.vassal import export_module

    data = export_module(game, list(scenarios) or None)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    click.echo(f"wrote {out}")


@export.command("vassal-save")
@click.argument("directory", type=click.Path(exists=True, path_type=Path))
@click.option("--step", "seq", type=int, help="Step number (default: the latest; 0 = the "
              "initial position).")
@click.option("--side", required=True, help="The side whose view the file shows.")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The .vsav file to write.")
def export_vassal_save(directory: Path, seq: int | None, side: str, out: Path) -> None:
    """The position of an adjudicated game after a step, as SIDE may see it, as a saved
    game for the module `pbem export vassal` writes."""
    from exporters.vassal import export_save

    data = export_save(directory, side, seq)
    out.parent.mkdir(parents=True, exist_ok=True)  # e.g. -o saves/step-7.vsav
    out.write_bytes(data)
    click.echo(f"wrote {out}")


# The service's commands (serve, worker, admin) live in cli_service.py; importing it
# registers them on `main` (it imports nothing heavy either).
from adjudicator import cli_orders, cli_service  # noqa: E402, F401

if __name__ == "__main__":
    # `python -m adjudicator.cli` (how `pbem serve` starts its workers): the commands of
    # cli_service registered themselves on the imported module's group, not on this one
    from adjudicator.cli import main as registered

    registered()
