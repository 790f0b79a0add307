"""`pbem orders list` and `pbem orders compose`: orders without writing XML, in the
shorthand of docs/order-builder.md (one order per line, one grammar for every game,
engine/shorthand.py). Registered on the `orders` group of cli.py; like it, they import
what they need only when they run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from adjudicator.cli import EXIT_REJECTED, fail, orders, read_input
from adjudicator.security.limits import MAX_ORDER_BYTES

if TYPE_CHECKING:
    from adjudicator.engine.listing import Listing
    from adjudicator.engine.shorthand import Shorthand
    from adjudicator.referee.gamedir import Game


def game_listing(game: Game, side: str) -> Listing:
    """The side's legal orders now; a clear refusal for a side the game does not have,
    or a game whose rules do not list their orders yet."""
    from adjudicator.errors import PbemError

    if side not in game.package.rules.sides:
        raise PbemError(f"this game has no side {side!r}; its sides are "
                        f"{', '.join(game.package.rules.sides)}", code="unknown-side")
    lister = getattr(game.package.rules, "legal_orders", None)
    if lister is None:
        raise PbemError(f"the rules of {game.package.title} do not list their legal orders "
                        "yet, so there is nothing to show; write the order file as "
                        f"docs/{game.package.id}-orders.md says", code="no-listing")
    listing: Listing = lister(game.module, game.state, side)
    return listing


def game_shorthand(game: Game) -> Shorthand:
    from adjudicator.engine.shorthand import shorthand_of

    return shorthand_of(game.package.rules)


def step_words(game: Game, side: str) -> str:
    summary = game.package.rules.summary(game.state)
    where = ", ".join(f"{k} {summary[k]}" for k in ("turn", "phase") if k in summary)
    waits = game.acting_side
    whose = ("the game is over" if waits is None else
             "your step" if waits == side else f"the game waits for {waits}")
    return f"{side}, step {game.next_seq}{f' ({where})' if where else ''}: {whose}"


@orders.command("list")
@click.argument("directory", metavar="GAME-DIR", type=click.Path(exists=True, path_type=Path))
@click.option("--side", required=True, help="Your side.")
@click.option("--unit", help="Only what this unit may do.")
def orders_list(directory: Path, side: str, unit: str | None) -> None:
    """Print what SIDE may order now, one shorthand line per order (docs/order-builder.md):
    per unit where it may move (the cost, the path) and what it may attack, then every
    other order of the position. GAME-DIR may be a journal file."""
    from adjudicator.engine.listing import unit_listing
    from adjudicator.referee.gamedir import load_game

    game = load_game(directory)
    listing, grammar = game_listing(game, side), game_shorthand(game)
    click.echo(f"# {step_words(game, side)}")
    units = listing.units
    if unit is not None:  # every destination of the unit, not the listing's sample
        found = unit_listing(game.package.rules, game.module, game.state, side, unit)
        units = (found,) if found is not None else ()
        if not units:
            click.echo(f"# {unit} has no order it may be given now")
    own: set[str] = set()
    for options in units:
        click.echo(f"# {options.unit} at {options.at}")
        for move in options.moves:
            click.echo(f"#   may reach {move.place} (cost {move.cost}) by "
                       f"{' '.join(move.path)}")
        if options.attacks:
            click.echo(f"#   may attack {', '.join(dict.fromkeys(options.attacks))}")
        for order in options.orders:
            own.add(order.to_xml())
            click.echo(grammar.line_of(order))
    if unit is None:
        others = [o for o in listing.orders if o.to_xml() not in own]
        if others:
            click.echo("# other orders")
        for order in others:
            click.echo(grammar.line_of(order))


@orders.command("compose")
@click.argument("directory", metavar="GAME-DIR", type=click.Path(exists=True, path_type=Path))
@click.argument("source", metavar="[FILE|-]", required=False, default="-")
@click.option("--side", required=True, help="Your side.")
@click.option("-o", "--out", type=click.Path(path_type=Path), help="Write here, not stdout.")
@click.option("--key", "key_file", type=click.Path(exists=True, path_type=Path),
              help="Sign with this private key (else sign it later with pbem sign).")
def orders_compose(directory: Path, source: str, side: str, out: Path | None,
                   key_file: Path | None) -> None:
    """Turn shorthand orders, one per line (FILE, or standard input), into the order file
    of the step the game waits for, checked by the dry run of `pbem check`. Every problem
    names its line; exit status 2 when the dry run refuses an order (nothing is written),
    1 when a line cannot be read."""
    from adjudicator.engine.shorthand import ShorthandError
    from adjudicator.referee.draft import check_draft_orders, draft_root, draft_text
    from adjudicator.referee.gamedir import load_game

    game = load_game(directory)
    grammar = game_shorthand(game)
    if game.acting_side != side:
        fail(f"the game waits for {game.acting_side or 'nobody (it is over)'}, not {side}: "
             "an order file is for the side whose step it is")
    text = read_shorthand(source)
    try:
        parsed = grammar.parse(text)
    except ShorthandError as exc:
        fail(str(exc))
    lines = [number for number, _ in parsed]
    drafted = [spec.to_order(index) for index, (_, spec) in enumerate(parsed)]
    check = check_draft_orders(game, side, drafted)
    refused = False
    for problem in check.problems:
        click.echo(f"problem: {problem}", err=True)
        refused = True
    for verdict in check.verdicts:
        if verdict.ok is False:
            rule = f" breaks rule {verdict.rule}" if verdict.rule else ""
            click.echo(f"line {lines[verdict.index]}: {drafted[verdict.index].kind}{rule}: "
                       f"{verdict.message}", err=True)
            refused = True
    if refused:
        sys.exit(EXIT_REJECTED)
    if check.unchecked:
        first = next(v.index for v in check.verdicts if v.ok is None)
        click.echo(f"note: from line {lines[first]} on: {check.why_unchecked}", err=True)
    root = draft_root(game, side, drafted)
    data = sign_with(root, key_file) if key_file else draft_text(root).encode("utf-8")
    if out:
        out.write_bytes(data)
        click.echo(f"wrote {out} ({len(drafted)} order(s), "
                   f"{'signed' if key_file else 'not signed yet: pbem sign'})", err=True)
    else:
        click.echo(data.decode("utf-8"), nl=False)


def read_shorthand(source: str) -> str:
    """The shorthand text of FILE or standard input, refused if far larger than any
    order file, or not UTF-8."""
    limit = MAX_ORDER_BYTES * 4
    raw = sys.stdin.buffer.read(limit + 1) if source == "-" else read_input(Path(source), limit)
    if len(raw) > limit:
        fail("the shorthand is larger than any order file can be")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        fail("the shorthand is not UTF-8 text")


def sign_with(root: Any, key_file: Path) -> bytes:  # root: an lxml element
    """The draft signed as `pbem sign` signs it (a passphrase asked for if the key has
    one)."""
    from adjudicator.security.keys import load_private_key
    from adjudicator.security.signing import sign_orders

    key_bytes = read_input(key_file)
    passphrase = None
    if b"ENCRYPTED" in key_bytes:
        passphrase = click.prompt("Passphrase", hide_input=True, err=True).encode("utf-8")
    return sign_orders(root, load_private_key(key_bytes, passphrase))
