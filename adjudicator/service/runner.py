"""`pbem serve`: the web front, the SMTP listener and the background worker in one
process, on one database (docs/service.md).

The worker renders the reports a commit left pending, sends the queued mail, runs
the deadline clock and polls a Maildir or IMAP inbox if configured. Everything it
does is recorded in the database only when done, so after a crash or a restart it
simply carries on with what is still pending.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.errors import PbemError
from adjudicator.service.core import PlayerSpec, Service, ServiceConfig
from adjudicator.service.db import make_engine, migrate

log = logging.getLogger("pbem.service")


@dataclass
class ServeOptions:
    database: str = "sqlite:///var/pbem.db"
    host: str = "127.0.0.1"
    port: int = 8000
    smtp_host: str = "127.0.0.1"
    smtp_port: int | None = 2525
    outbox: Path = Path("var/outbox")  # a Maildir, used unless a relay is configured
    relay: str | None = None  # host:port of an SMTP relay
    relay_starttls: bool = False
    relay_user: str | None = None
    relay_password: str | None = None
    sender: str = "referee@pbem.localhost"
    base_url: str | None = None
    admin_token: str | None = None
    examples: Path | None = None  # preload the example games from this folder
    maildir_in: Path | None = None
    imap: str | None = None  # host:port, with imap_user/imap_password
    imap_user: str | None = None
    imap_password: str | None = None
    tick_seconds: float = 1.0
    workers: int = 2  # worker processes; 0: the work runs in a thread of `pbem serve`
    reminder_hours: int = 24
    log_level: str = "INFO"
    verbose: bool = False  # the libraries' own logs too: SMTP dialogues, migrations, access
    referee_contact: str | None = None  # who hears of mail that could not be delivered


def demo_link_token(game_id: str, side: str) -> str:
    """The player link of a preloaded demonstration game: derived from public data on
    purpose, so `make run` can show it every time (never for a real game)."""
    return hashlib.sha256(f"pbem/demo-link/v1\x00{game_id}\x00{side}".encode()).hexdigest()


def preload_examples(service: Service, examples: Path) -> dict[str, str]:
    """Every example game of `examples/*/example.json`, replayed from its signed turn
    files (so its journal equals the committed one), and the fresh demonstration games
    some of them name, for a newcomer to play; each game's player page links.

    `example.json`: the test seed's text, the tournament, and per side the public key
    file, the player's name, address and time zone; `demo` optionally names a fresh game
    with the same keys. The game, scenario and options come from the journal header."""
    have = {g["id"] for g in service.list_games()}
    links: dict[str, str] = {}
    for manifest in sorted(examples.glob("*/example.json"), key=_example_order):
        links.update(preload_example(service, manifest.parent, have))
    return links


def _example_order(manifest: Path) -> tuple[int, str]:
    from adjudicator.games import GAME_IDS

    game = _header(manifest.parent)["module"]["id"]
    return (GAME_IDS.index(game) if game in GAME_IDS else len(GAME_IDS), manifest.parent.name)


def _header(folder: Path) -> dict[str, Any]:
    with (folder / "journal.jsonl").open("rb") as handle:
        header: dict[str, Any] = json.loads(handle.readline())
    return header


def preload_example(service: Service, folder: Path, have: set[str]) -> dict[str, str]:
    """One example game (and its demonstration game, if it names one)."""
    spec = json.loads((folder / "example.json").read_text("utf-8"))
    header = _header(folder)
    game, game_id = header["module"]["id"], header["game_id"]
    players = spec["players"]
    keys = {side: (folder / p["key"]).read_bytes() for side, p in players.items()}
    runs = [(game_id, players, hashlib.sha256(spec["seed"].encode()).digest())]
    if spec.get("demo"):
        demo = spec["demo"]
        runs.append((demo["game_id"], {side: {**players[side], **p}
                                       for side, p in demo["players"].items()}, None))
    links = {}
    for run_id, people, test_seed in runs:
        if run_id not in have:
            service.create_game(
                game, header["scenario"],
                [PlayerSpec(side, p["name"], p["email"], keys[side], p["zone"])
                 for side, p in people.items()],
                options=header["options"], game_id=run_id, test_seed=test_seed,
                tournament=spec.get("tournament"),
                link_tokens={side: demo_link_token(run_id, side) for side in people},
                bulk=True)
            if test_seed is not None:
                for turn in sorted((folder / "turns").glob("step-*.xml")):
                    service.submit(turn.read_bytes(), "cli", None, bulk=True)
        for side in people:
            label = run_id if len(people) == 1 else f"{run_id} ({side})"
            secret = folder / Path(players[side]["key"]).with_suffix(".key").name
            if test_seed is None and secret.exists():  # a demonstration game: say its key
                label += f", key {secret}"
            links[label] = service.link(run_id, demo_link_token(run_id, side))
    return links


def build_service(options: ServeOptions) -> Service:
    if options.database.startswith("sqlite:///") and not options.database.startswith(
            "sqlite:////"):
        Path(options.database[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    engine = make_engine(options.database)
    migrate(engine)
    base_url = options.base_url or f"http://{options.host}:{options.port}"
    return Service(engine, ServiceConfig(base_url=base_url,
                                         reminder_hours=options.reminder_hours,
                                         referee_address=options.sender,
                                         referee_contact=options.referee_contact))


LIBRARY_LOGGERS = ("alembic", "mail.log", "uvicorn", "uvicorn.error", "uvicorn.access",
                   "sqlalchemy")


def set_up_logging(options: ServeOptions, tag: str = "") -> None:
    """The service's own log at `log_level`; the libraries' (every SMTP command,
    every migration, every request) only with `verbose`, else their warnings."""
    logging.basicConfig(level=options.log_level,
                        format=f"%(asctime)s %(levelname)s %(name)s{tag}: %(message)s")
    if not options.verbose:
        for name in LIBRARY_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)


class WorkLoop:
    """What a worker does, again and again: renders pending reports, sends pending mail;
    with `clock`, also runs the deadline clock and polls the mail inboxes (one worker of
    a service does that, the others only render and send)."""

    def __init__(self, service: Service, options: ServeOptions, *, clock: bool = True) -> None:
        self.service = service
        self.options = options
        self.clock = clock
        self.stopping = threading.Event()
        self.transport = self._transport()

    def _transport(self) -> object:
        from adjudicator.service.outgoing import MaildirOutbox, SmtpRelay

        o = self.options
        if o.relay:
            host, _, port = o.relay.rpartition(":")
            return SmtpRelay(host, int(port), o.relay_starttls, o.relay_user, o.relay_password)
        return MaildirOutbox(o.outbox)

    def run(self, still_wanted: Callable[[], bool] = lambda: True) -> None:
        from adjudicator.service.mail import finish_interrupted

        if self.clock:
            try:
                finish_interrupted(self.service)  # e-mails a crash left half handled
            except Exception:
                log.exception("could not finish the interrupted e-mails; retried next start")
        while not self.stopping.is_set() and still_wanted():
            try:
                self.once()
            except Exception:  # keep serving; the work stays pending in the database
                log.exception("background work failed; it will be retried")
            self.stopping.wait(self.options.tick_seconds)

    def once(self) -> None:
        from adjudicator.service.mail import poll_imap, poll_maildir
        from adjudicator.service.outgoing import deliver_pending

        o = self.options
        if self.clock:
            if o.maildir_in is not None:
                poll_maildir(self.service, o.maildir_in)
            if o.imap and o.imap_user and o.imap_password:
                host, _, port = o.imap.rpartition(":")
                poll_imap(self.service, host, int(port), o.imap_user, o.imap_password)
            for what in self.service.tick():
                log.info("%s", what)
        while self.service.render_pending_reports(limit=1):
            deliver_pending(self.service, self.transport,  # type: ignore[arg-type]
                            sender=o.sender)  # what a report held back goes at once
            if self.stopping.is_set():
                return
        deliver_pending(self.service, self.transport, sender=o.sender)  # type: ignore[arg-type]


class Worker(threading.Thread):
    """The work loop in a thread of the serving process (`pbem serve --workers 0`)."""

    def __init__(self, service: Service, options: ServeOptions) -> None:
        super().__init__(name="pbem-worker", daemon=True)
        self.loop = WorkLoop(service, options)
        self.stopping = self.loop.stopping

    def run(self) -> None:
        self.loop.run()


def run_worker(options: ServeOptions, *, clock: bool) -> None:
    """`pbem worker`: the work loop in a process of its own, until SIGTERM, or until the
    `pbem serve` that started it (PBEM_SERVE_PID) is gone."""
    set_up_logging(options, "[worker]")
    service = build_service(options)
    loop = WorkLoop(service, options, clock=clock)
    signal.signal(signal.SIGTERM, lambda *_: loop.stopping.set())
    parent = os.environ.get("PBEM_SERVE_PID")
    loop.run(lambda: parent is None or str(os.getppid()) == parent)


def start_workers(options: ServeOptions, count: int) -> list[subprocess.Popen[bytes]]:
    """`count` worker processes on the service's database, the first with the clock."""
    env = {**os.environ, "PBEM_SERVE_PID": str(os.getpid())}
    o = options
    common = ["--database", o.database, "--outbox", str(o.outbox), "--sender", o.sender,
              "--tick-seconds", str(o.tick_seconds), "--log-level", o.log_level]
    common += ["--verbose"] if o.verbose else []
    common += ["--referee-contact", o.referee_contact] if o.referee_contact else []
    if o.relay:
        common += ["--relay", o.relay] + (["--relay-starttls"] if o.relay_starttls else [])
    if o.relay_user:
        env["PBEM_RELAY_USER"] = o.relay_user
    if o.relay_password:
        env["PBEM_RELAY_PASSWORD"] = o.relay_password
    if o.base_url:
        common += ["--base-url", o.base_url]
    clock = ["--clock"]
    if o.maildir_in is not None:
        clock += ["--maildir-in", str(o.maildir_in)]
    if o.imap:
        clock += ["--imap", o.imap]
        env.update(PBEM_IMAP_USER=o.imap_user or "", PBEM_IMAP_PASSWORD=o.imap_password or "")
    return [subprocess.Popen([sys.executable, "-m", "adjudicator.cli", "worker", *common,
                              *(clock if i == 0 else [])], env=env)
            for i in range(count)]


def serve(options: ServeOptions) -> None:
    """Run until interrupted: HTTP in the foreground, SMTP and the worker beside it. What
    it prints is short: problems as they come, and once it is up a summary that ends
    with the addresses to open."""
    import uvicorn

    from adjudicator.service.smtp import start_smtp
    from adjudicator.service.web import create_app

    set_up_logging(options)
    service = build_service(options)
    links: dict[str, str] = {}
    if options.examples is not None:
        try:
            links = preload_examples(service, options.examples)
        except (OSError, PbemError) as exc:
            log.warning("could not preload the examples: %s", exc)
    smtp = None
    if options.smtp_port:
        smtp = start_smtp(service, options.smtp_host, options.smtp_port)
    thread, processes = None, []
    if options.workers:
        processes = start_workers(options, options.workers)
    else:
        thread = Worker(service, options)
        thread.start()
    summary = startup_summary(options, service, links)

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if not self.should_exit:
                print(summary, flush=True)  # noqa: T201 - the console's one message

    config = uvicorn.Config(create_app(service, admin_token=options.admin_token),
                            host=options.host, port=options.port,
                            log_level="info" if options.verbose else "warning",
                            access_log=options.verbose)
    try:
        Server(config).run()
    finally:
        if thread is not None:
            thread.stopping.set()
            thread.join(timeout=10)
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        if smtp is not None:
            smtp.stop()


def startup_summary(options: ServeOptions, service: Service, links: dict[str, str]) -> str:
    """What `pbem serve` prints once it is up: where things are, the URLs last."""
    o, base = options, service.config.base_url
    mail_out = f"relay {o.relay}" if o.relay else f"Maildir {o.outbox}/ (mutt -f {o.outbox})"
    lines = ["", "pbem serve is up.",
             f"  database      {o.database}",
             "  mail in       " + (f"SMTP {o.smtp_host}:{o.smtp_port}, order files to "
                                    f"{o.sender}" if o.smtp_port else "no SMTP intake"),
             f"  mail out      {mail_out}",
             f"  workers       {o.workers or 'a thread of this process'}",
             f"  admin API     {'on (--admin-token)' if o.admin_token else 'off'}"]
    if links:
        lines.append("")
        lines.append("  Example games, each player's page:")
        lines += [f"    {game:<28} {link}" for game, link in links.items()
                  if not game.startswith("demo")]
        demo = {g: u for g, u in links.items() if g.startswith("demo")}
        if demo:
            lines.append("  Play at once (a demonstration game and its player's key file):")
            lines += [f"    {game:<28} {link}" for game, link in demo.items()]
    lines += ["",
              f"  API docs      {base}/docs",
              f"  how to play   {base}/help",
              f"  web           {base}/",
              "Press Ctrl-C to stop."]
    return "\n".join(lines)
