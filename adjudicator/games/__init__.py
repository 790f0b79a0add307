"""The registry of game modules: rules plus bundled data and schemas, per game id."""

from __future__ import annotations

import gzip
import importlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from lxml import etree

from adjudicator.engine.module import ModuleData, load_module
from adjudicator.engine.rules import GameRules
from adjudicator.errors import JournalError, ModuleError, PbemError

GAME_IDS = ("solitaire", "barbarossa", "moscow")
ENGINE_SCHEMAS = Path(__file__).resolve().parent.parent / "engine" / "schemas"


@dataclass(frozen=True)
class GamePackage:
    """One game: its rules, its bundled module data and the schemas that check files."""

    id: str
    title: str
    rules: GameRules
    data_dir: Path

    @cached_property
    def module_schema(self) -> etree.RelaxNG:
        return etree.RelaxNG(file=str(self.data_dir / "module.rng"))

    @cached_property
    def orders_schema(self) -> etree.RelaxNG:
        return etree.RelaxNG(file=str(self.data_dir / "orders.rng"))

    @cached_property
    def bundled_module(self) -> ModuleData:
        return self.load_module((self.data_dir / "module.xml").read_bytes())

    def load_module(self, data: bytes) -> ModuleData:
        """A module from bytes (the bundled file or a user's `--module FILE`), checked
        by the schema and then by the rules for what a schema cannot say."""
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
        if package.__file__ is None:
            raise ModuleError(f"game package {game_id} has no files")
        _LOADED[game_id] = GamePackage(game_id, package.TITLE, package.RULES,
                                       Path(package.__file__).resolve().parent / "data")
    return _LOADED[game_id]


def position_schema() -> etree.RelaxNG:
    return etree.RelaxNG(file=str(ENGINE_SCHEMAS / "position.rng"))
