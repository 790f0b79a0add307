"""The registry of game modules: rules plus bundled data and schemas, per game id."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from lxml import etree

from adjudicator.engine.module import ModuleData, load_module
from adjudicator.engine.rules import GameRules
from adjudicator.errors import ModuleError, PbemError

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

    def scenarios(self) -> list[tuple[str, str]]:
        return [(s.get("id"), s.get("name"))
                for s in self.bundled_module.findall("m:scenarios/m:scenario")]


_LOADED: dict[str, GamePackage] = {}


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
