"""The `pbem` commands of the service: `serve`, `worker` and `admin` (the referee's and
tournament director's commands on the service's database). Registered on the `pbem`
group of cli.py; like it, they import what they need only when they run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from adjudicator.cli import fail, main, parse_pairs, read_input
from adjudicator.games import GAME_IDS

DATABASE_HELP = "Database URL (sqlite:///var/pbem.db, postgresql://user@host/db)."


@main.command()
@click.option("--database", default="sqlite:///var/pbem.db", show_default=True,
              help=DATABASE_HELP)
@click.option("--host", default="127.0.0.1", show_default=True, help="Web address.")
@click.option("--port", default=8000, show_default=True, help="Web port.")
@click.option("--smtp-port", default=2525, show_default=True,
              help="SMTP intake port on the same address (0: no SMTP intake).")
@click.option("--outbox", type=click.Path(path_type=Path), default=Path("var/outbox"),
              show_default=True, help="Maildir for outgoing mail when no relay is set.")
@click.option("--relay", help="SMTP relay HOST:PORT for outgoing mail.")
@click.option("--relay-starttls", is_flag=True, help="Use STARTTLS with the relay.")
@click.option("--relay-user", envvar="PBEM_RELAY_USER", help="Relay user (or PBEM_RELAY_USER).")
@click.option("--relay-password", envvar="PBEM_RELAY_PASSWORD",
              help="Relay password (better: PBEM_RELAY_PASSWORD).")
@click.option("--sender", default="referee@pbem.localhost", show_default=True,
              help="From address of the service's mail.")
@click.option("--base-url", help="The public URL of the web front (default: from host/port).")
@click.option("--admin-token", envvar="PBEM_ADMIN_TOKEN",
              help="Bearer token of the web administration (or PBEM_ADMIN_TOKEN).")
@click.option("--examples", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Preload the example games from this folder (examples/).")
@click.option("--maildir-in", type=click.Path(file_okay=False, path_type=Path),
              help="Also take submissions from this Maildir.")
@click.option("--imap", help="Also poll this IMAP server, HOST:PORT (SSL).")
@click.option("--imap-user", envvar="PBEM_IMAP_USER")
@click.option("--imap-password", envvar="PBEM_IMAP_PASSWORD")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=0),
              help="Worker processes that render the reports and send the mail (0: a "
              "thread of this process does it). More can run elsewhere: pbem worker.")
@click.option("--referee-contact", envvar="PBEM_REFEREE_CONTACT", help="An address told of "
              "every mail that could not be delivered (else only pbem admin failures).")
@click.option("--log-level", default="INFO", show_default=True, help="Of the service's own log.")
@click.option("--verbose", is_flag=True, help="Also the libraries' logs: every SMTP command, "
              "migration and HTTP request.")
def serve(**kwargs: Any) -> None:
    """Run the adjudicator service: web upload and pages, SMTP intake, reports and mail,
    deadlines. Everything is kept in the database."""
    from adjudicator.service.runner import ServeOptions
    from adjudicator.service.runner import serve as run_service

    kwargs["smtp_port"] = kwargs["smtp_port"] or None
    run_service(ServeOptions(**kwargs))


@main.command()
@click.option("--database", default="sqlite:///var/pbem.db", show_default=True,
              help=DATABASE_HELP)
@click.option("--outbox", type=click.Path(path_type=Path), default=Path("var/outbox"),
              show_default=True, help="Maildir for outgoing mail when no relay is set.")
@click.option("--relay", help="SMTP relay HOST:PORT for outgoing mail.")
@click.option("--relay-starttls", is_flag=True, help="Use STARTTLS with the relay.")
@click.option("--relay-user", envvar="PBEM_RELAY_USER", help="Relay user (or PBEM_RELAY_USER).")
@click.option("--relay-password", envvar="PBEM_RELAY_PASSWORD",
              help="Relay password (better: PBEM_RELAY_PASSWORD).")
@click.option("--sender", default="referee@pbem.localhost", show_default=True,
              help="From address of the service's mail.")
@click.option("--base-url", help="The public URL of the web front, for links in mail.")
@click.option("--clock", is_flag=True, help="Also run the deadline clock and poll the mail "
              "inboxes (one worker of a service should).")
@click.option("--maildir-in", type=click.Path(file_okay=False, path_type=Path),
              help="With --clock: take submissions from this Maildir.")
@click.option("--imap", help="With --clock: poll this IMAP server, HOST:PORT (SSL).")
@click.option("--imap-user", envvar="PBEM_IMAP_USER")
@click.option("--imap-password", envvar="PBEM_IMAP_PASSWORD")
@click.option("--tick-seconds", default=1.0, show_default=True, type=float,
              help="How often it looks for work.")
@click.option("--log-level", default="INFO", show_default=True)
@click.option("--verbose", is_flag=True, help="Also the libraries' logs.")
@click.option("--referee-contact", envvar="PBEM_REFEREE_CONTACT",
              help="An address told of every mail that could not be delivered.")
def worker(clock: bool, **kwargs: Any) -> None:
    """Render pending reports and send pending mail for a service, on its database; run
    as many as you like, on this machine or others sharing the PostgreSQL database."""
    from adjudicator.service.runner import ServeOptions, run_worker

    run_worker(ServeOptions(**kwargs), clock=clock)


@main.group()
@click.option("--database", default="sqlite:///var/pbem.db", show_default=True,
              help=DATABASE_HELP)
@click.pass_context
def admin(ctx: click.Context, database: str) -> None:
    """Referee and tournament director commands on the service's database."""
    from adjudicator.service.runner import ServeOptions, build_service

    ctx.obj = build_service(ServeOptions(database=database))


@admin.command("create")
@click.argument("game", type=click.Choice(GAME_IDS))
@click.option("--scenario", required=True)
@click.option("--player", "players", multiple=True, required=True,
              metavar="SIDE=NAME,EMAIL,KEY.pub[,TIMEZONE]", help="One per side.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE")
@click.option("--game-id")
@click.option("--deadline-hours", default=72, show_default=True)
@click.option("--policy", type=click.Choice(["wait", "pass", "forfeit"]), default="wait",
              show_default=True, help="What a missed deadline does.")
@click.option("--tournament")
@click.pass_obj
def admin_create(service: Any, game: str, scenario: str, players: tuple[str, ...],
                 options: tuple[str, ...], game_id: str | None, deadline_hours: int,
                 policy: str, tournament: str | None) -> None:
    """Create a game with its roster; prints each player's secret report link (the
    service also mails it). Everything is checked as the web API checks it."""
    from pydantic import ValidationError

    from adjudicator.service.api_models import CreateGameIn, validation_words
    from adjudicator.service.core import PlayerSpec

    roster = []
    for side, spec in parse_pairs(players, "--player").items():
        parts = spec.split(",")
        if len(parts) not in (3, 4):
            fail(f"--player {side}=...: give NAME,EMAIL,KEY.pub[,TIMEZONE]")
        key = read_input(Path(parts[2])).decode("utf-8", "replace")
        roster.append({"side": side, "name": parts[0], "email": parts[1], "public_key": key,
                       "timezone": parts[3] if len(parts) == 4 else "UTC"})
    try:
        body = CreateGameIn(game=game, scenario=scenario, roster=roster, game_id=game_id,
                            options=parse_pairs(options, "--option") or None,
                            deadline_hours=deadline_hours, policy=policy,
                            tournament=tournament)
    except ValidationError as exc:
        fail(f"the game was not created: {validation_words(exc)}")
    created = service.create_game(
        body.game, body.scenario,
        [PlayerSpec(p.side, p.name, p.email, p.public_key.encode("utf-8"), p.timezone)
         for p in body.roster],
        game_id=body.game_id, options=body.options, deadline_hours=body.deadline_hours,
        policy=body.policy, tournament=body.tournament)
    click.echo(f"created {created.game_id}")
    for side, link in created.links.items():
        click.echo(f"  {side}: {link}")


@admin.command("games")
@click.option("--tournament")
@click.pass_obj
def admin_games(service: Any, tournament: str | None) -> None:
    """Every game (or a tournament's) at a glance."""
    for g in service.list_games(tournament):
        deadline = f"{g['deadline_at']:%Y-%m-%d %H:%M} UTC" if g["deadline_at"] else "-"
        click.echo(f"{g['id']:<24} {g['status']:<10} step {g['next_seq']:<4} "
                   f"waits for {g['acting_side'] or '-':<8} deadline {deadline}  "
                   f"{g['tournament'] or ''}")


@admin.command("extend")
@click.argument("game_id")
@click.argument("hours", type=int)
@click.pass_obj
def admin_extend(service: Any, game_id: str, hours: int) -> None:
    """Extend the deadline of a game's current step."""
    click.echo(f"new deadline {service.extend_deadline(game_id, hours):%Y-%m-%d %H:%M} UTC")


@admin.command("pause")
@click.argument("game_id")
@click.pass_obj
def admin_pause(service: Any, game_id: str) -> None:
    """Pause a game (a vacation): the deadline clock stops."""
    service.pause(game_id)
    click.echo(f"{game_id} paused")


@admin.command("resume")
@click.argument("game_id")
@click.pass_obj
def admin_resume(service: Any, game_id: str) -> None:
    """Resume a paused game with the time that was left."""
    service.resume(game_id)
    click.echo(f"{game_id} resumed")


@admin.command("missed")
@click.argument("game_id")
@click.pass_obj
def admin_missed(service: Any, game_id: str) -> None:
    """Record a missed deadline now and apply the game's policy."""
    click.echo(service.record_missed(game_id))


@admin.command("rollback")
@click.argument("game_id")
@click.option("--to", "to_seq", type=click.IntRange(min=0), required=True,
              help="The step whose position the game resumes from (0: the start).")
@click.option("--reason", required=True, help="Why: the journal and the players are told.")
@click.pass_obj
def admin_rollback(service: Any, game_id: str, to_seq: int, reason: str) -> None:
    """Void the steps after step --to (a referee-signed journal line; the voided steps
    stay readable) and tell both players; the game goes on from that position."""
    click.echo(service.rollback(game_id, to_seq, reason))


@admin.command("tournament")
@click.argument("name")
@click.option("--scheme", help="Set the points scheme first: win=3,draw=1,loss=0 (also "
              "major=,minor= for decisive and marginal wins), or series (series play: the series "
              "points the rules record on each result, added up).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def admin_tournament(service: Any, name: str, scheme: str | None, as_json: bool) -> None:
    """A tournament's standings: results per game, points per player."""
    if scheme is not None:
        service.set_tournament_scheme(name, scheme)
    elif not service.list_games(tournament=name):
        fail(f"there is no tournament {name!r} here")
    table = service.tournament_standings(name)
    if as_json:
        click.echo(json.dumps(table.to_json(), indent=2))
        return
    click.echo(f"{name}: {table.scheme_words}")
    for row in table.rows:
        series = f"  Axis total {row.series_total}" if row.series_total is not None else ""
        click.echo(f"{row.rank:>3}. {row.player:<24} {row.points_text:>6} points  "
                   f"{row.won} won, {row.drawn} drawn, {row.lost} lost of {row.played}{series}")
    for result in table.results:
        click.echo(f"  {result['game_id']}: {result['words']}")
    for note in table.notes:
        click.echo(note)


@admin.command("failures")
@click.option("--game", "game_id", help="Only this game's.")
@click.pass_obj
def admin_failures(service: Any, game_id: str | None) -> None:
    """Mail that could not be delivered and was given up (a bad address, say)."""
    for entry in service.referee_log(game_id, "could not be delivered"):
        click.echo(f"{entry['at']:%Y-%m-%d %H:%M} UTC  {entry['game_id'] or '-'}  "
                   f"{entry['what']}")


@admin.command("journal")
@click.argument("game_id")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.pass_obj
def admin_journal(service: Any, game_id: str, out: Path) -> None:
    """Export a game's journal (check it with `pbem verify`)."""
    out.write_bytes(service.journal(game_id))
    click.echo(f"wrote {out}")
