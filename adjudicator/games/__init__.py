"""The registry of games (docs/architecture.md, "The package shape").

A game is one package `adjudicator/games/<id>/` holding its bundled module data
(`data/module.xml`) and exporting one `DEFINITION`: a `GameDefinition` with its id,
title, rules, per-side view and report writer. The registry finds the packages by
looking, so nothing outside a game's package names that game; a package is imported
only when its game is first asked for.
"""

from __future__ import annotations

import gzip
import importlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.errors import JournalError, ModuleError, PbemError

if TYPE_CHECKING:  # the registry is read by every command: it imports nothing heavy
    from lxml import etree

    from adjudicator.engine.hidden import View
    from adjudicator.engine.module import ModuleData
    from adjudicator.engine.rules import GameRules

GAMES_DIR = Path(__file__).resolve().parent
ENGINE_SCHEMAS = GAMES_DIR.parent / "engine" / "schemas"


def _game_ids() -> tuple[str, ...]:
    """The games this installation has: every package here with bundled module data, in
    the order of their `data/ORDER` number (the order games are listed in), then by id."""
    found = [p for p in GAMES_DIR.iterdir()
             if (p / "__init__.py").is_file() and (p / "data" / "module.xml").is_file()]
    def order(p: Path) -> tuple[int, str]:
        rank = p / "data" / "ORDER"
        return (int(rank.read_text().strip()) if rank.is_file() else 99, p.name)
    return tuple(p.name for p in sorted(found, key=order))


GAME_IDS = _game_ids()


@dataclass(frozen=True)
class GameDefinition:
    """What a game package exports, and all the rest of the project knows of it.

    `reporter`: "module:attribute" of its report writer (a `GameReporter`), imported only
    when a report is drawn; `view`: what each side may see (engine/hidden.py)."""

    id: str
    title: str
    rules: GameRules
    view: View
    reporter: str

    @property
    def hides_information(self) -> bool:
        return bool(self.view.hides_information)


@dataclass(frozen=True)
class GamePackage:
    """One game: its definition, its bundled module data and the schemas that check
    files."""

    definition: GameDefinition
    data_dir: Path

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def title(self) -> str:
        return self.definition.title

    @property
    def rules(self) -> GameRules:
        return self.definition.rules

    @property
    def view(self) -> View:
        return self.definition.view

    @property
    def hides_information(self) -> bool:
        return self.definition.hides_information

    def reporter(self) -> Any:
        """The game's report writer (reports/games.py `GameReporter`)."""
        module_name, _, attribute = self.definition.reporter.partition(":")
        return getattr(importlib.import_module(module_name), attribute)

    @cached_property
    def module_schema(self) -> etree.RelaxNG:
        from lxml import etree

        return etree.RelaxNG(file=str(self.data_dir / "module.rng"))

    @cached_property
    def orders_schema(self) -> etree.RelaxNG:
        from lxml import etree

        return etree.RelaxNG(file=str(self.data_dir / "orders.rng"))

    @cached_property
    def bundled_module(self) -> ModuleData:
        return self.load_module((self.data_dir / "module.xml").read_bytes())

    def load_module(self, data: bytes) -> ModuleData:
        """A module from bytes (the bundled file or a user's `--module FILE`), checked
        by the schema and then by the rules for what a schema cannot say."""
        from adjudicator.engine.module import load_module

        module = load_module(data, self.module_schema, expected_game=self.id)
        self.rules.check_module(module)
        return module

    def module_for(self, version: str, sha256: str) -> ModuleData:
        """The bundled module a journal names by version and checksum: the current one,
        or an earlier version kept byte for byte in `data/history/VERSION.xml.gz`, so a
        game created before an upgrade still verifies and plays by the rules of its own
        version (docs/architecture.md, "Compatibility").

        Raises:
            JournalError: this installation has no module with that checksum.
        """
        current = self.bundled_module
        if current.sha256 == sha256:
            return current
        key = (self.id, sha256)
        if key not in _HISTORY:
            kept = self.data_dir / "history" / f"{version}.xml.gz"
            module = self.load_module(gzip.decompress(kept.read_bytes())) \
                if kept.is_file() else None
            if module is None or module.sha256 != sha256:
                raise JournalError(
                    f"the game was created with {self.id} module version {version} "
                    f"(sha256 {sha256[:16]}...), which this installation does not have; it "
                    f"has version {current.version} (sha256 {current.sha256[:16]}...)"
                    + (f" and earlier versions {', '.join(self.history())}"
                       if self.history() else ""), code="module-mismatch")
            _HISTORY[key] = module
        return _HISTORY[key]

    def history(self) -> list[str]:
        """The earlier module versions this installation keeps, oldest first."""
        kept = (self.data_dir / "history").glob("*.xml.gz")
        return sorted((p.name.removesuffix(".xml.gz") for p in kept),
                      key=lambda v: tuple(int(x) for x in v.split(".")))

    def scenarios(self) -> list[tuple[str, str]]:
        return [(s.get("id"), s.get("name"))
                for s in self.bundled_module.findall("m:scenarios/m:scenario")]


_LOADED: dict[str, GamePackage] = {}
_HISTORY: dict[tuple[str, str], ModuleData] = {}


def get_game(game_id: str) -> GamePackage:
    """The game package for `game_id`; PbemError naming the known games otherwise."""
    if game_id not in GAME_IDS:
        raise PbemError(f"unknown game {game_id!r}; the games are: {', '.join(GAME_IDS)}",
                        code="unknown-game")
    if game_id not in _LOADED:
        package = importlib.import_module(f"adjudicator.games.{game_id}")
        definition = getattr(package, "DEFINITION", None)
        if not isinstance(definition, GameDefinition) or definition.id != game_id:
            raise ModuleError(f"game package {game_id} exports no GameDefinition of its own")
        _LOADED[game_id] = GamePackage(definition, GAMES_DIR / game_id / "data")
    return _LOADED[game_id]


@dataclass(frozen=True)
class GameOption:
    id: str
    values: tuple[str, ...]
    default: str
    help: str


@dataclass(frozen=True)
class GameAbout:
    """What `pbem games` and the service's game list say of a game, read from its bundled
    module without loading its rules."""

    id: str
    title: str
    version: str
    sides: tuple[str, ...]  # the sides players play (a roster needs a key for each)
    scenarios: tuple[tuple[str, str], ...]
    options: tuple[GameOption, ...]


def describe_game(game_id: str) -> GameAbout:
    """A game's title, version, sides, scenarios and options (PbemError: no such game)."""
    if game_id not in GAME_IDS:
        raise PbemError(f"unknown game {game_id!r}; the games are: {', '.join(GAME_IDS)}",
                        code="unknown-game")
    if game_id not in _ABOUT:
        from adjudicator.engine.module import NS
        from adjudicator.security.xmlsafe import parse_trusted_file

        root = parse_trusted_file(GAMES_DIR / game_id / "data" / "module.xml")
        _ABOUT[game_id] = GameAbout(
            game_id, root.get("title", game_id), root.get("version", ""),
            tuple(s.get("id") for s in root.xpath("m:sides/m:side", namespaces=NS)
                  if s.get("player", "human") == "human"),
            tuple((s.get("id"), s.get("name"))
                  for s in root.xpath("m:scenarios/m:scenario", namespaces=NS)),
            tuple(GameOption(o.get("id"), tuple(o.get("values").split()), o.get("default"),
                             " ".join((o.text or "").split()))
                  for o in root.xpath("m:options/m:option", namespaces=NS)))
    return _ABOUT[game_id]


_ABOUT: dict[str, GameAbout] = {}


def position_schema() -> etree.RelaxNG:
    from lxml import etree

    return etree.RelaxNG(file=str(ENGINE_SCHEMAS / "position.rng"))
