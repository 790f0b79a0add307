"""What the Moscow '41 rules read from the module, once per module: the board, the
counters, and per hex its side of the starting front line, city or town, supply
source and entry marking; and a unit of a position as its counter shows it (a Soviet
token by its untried face, 12.1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.memo import Memo
from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.games.moscow.zoc import Unit


@dataclass(frozen=True)
class Piece:
    """A counter (2.4). German units have a combat strength for both attack and defense
    (2.5) and two steps; Soviet units attack and defense strengths and one step (8.9 H)."""

    id: str
    name: str
    side: str
    type: str  # armor, mechanized, infantry, cavalry, air
    steps: int
    attack: int  # German: full strength (2.5)
    defense: int
    reduced: int  # German: the strength of the reduced side
    movement: int
    setup: str  # west-of-front, infantry-zone, east-of-20, turn-record, off-map
    siberian: bool  # 1.3.1 B
    untried: bool  # 12.1

    @property
    def armor(self) -> bool:
        """10.1 A: armor, not mechanized, gives the armor shift."""
        return self.type == "armor"

    @property
    def moves_as_armor(self) -> bool:
        """2.7 B: infantry and cavalry move as infantry; armor and mechanized as armor."""
        return self.type in ("armor", "mechanized")


@dataclass(frozen=True)
class Game:
    board: HexBoard
    pieces: dict[str, Piece]
    side_of: dict[Hex, str]  # the side of the starting front line (1.3.2 C, 9.4)
    front_line: frozenset[Hex]  # the Soviet front-line hexes (1.3.1 F)
    places: dict[Hex, tuple[str, str]]  # hex -> (name, city or town)
    entries: frozenset[Hex]  # 14.1 B: the east-edge road hexes Soviet reinforcements use
    moscow: Hex
    # what the rules ask again and again of the same position (the supply network of a
    # side where the units stand), kept under the facts it depends on
    memo: Memo[Any, Any] = field(default_factory=lambda: Memo(512), compare=False)

    @classmethod
    def of(cls, module: ModuleData) -> Game:
        return _game(module)


@lru_cache(maxsize=8)
def _game(module: ModuleData) -> Game:
    board = module.hex_board()
    pieces = {}
    for el in module.findall("m:pieces/m:piece"):
        german = el.get("side") == "german"
        strength = int(el.get("strength") or el.get("attack") or 0)
        pieces[el.get("id")] = Piece(
            el.get("id"), el.get("name"), el.get("side"), el.get("type"),
            int(el.get("steps") or 0), strength,
            strength if german else int(el.get("defense") or 0),
            int(el.get("reduced") or 0), int(el.get("movement") or 0), el.get("setup"),
            el.get("marking") == "siberian", el.get("untried") == "yes")
    side_of, front, places, entries = {}, set(), {}, set()
    moscow = None
    for el in module.findall("m:map/m:hex"):
        h = board.hex(el.get("id"))
        side_of[h] = el.get("side")
        if el.get("front-line") == "yes":
            front.add(h)
        if el.get("city"):
            places[h] = (el.get("city"), el.get("city-class"))
            if el.get("city") == "Moscow":
                moscow = h
        if el.get("entry") == "soviet":
            entries.add(h)
    if moscow is None:
        raise ValueError("the Moscow '41 map has no hex named Moscow")
    return Game(board, pieces, side_of, frozenset(front), places, frozenset(entries), moscow)


def unit_facts(game: Game, state: State, unit: str) -> tuple[str, str, int, bool]:
    """Side, type, printed MA and Siberian marking of a unit or an untried token (its
    untried face shows type and MA, 12.1)."""
    face = state["tokens"].get(unit)
    if face is not None:
        return "soviet", face["type"], face["movement"], face["siberian"]
    piece = game.pieces[unit]
    return piece.side, piece.type, piece.movement, piece.siberian


def units_of(game: Game, state: State, side: str) -> list[Unit]:
    return [Unit(u, s, t, game.board.hex(x)) for u, x in sorted(state["units"].items())
            for s, t, _, _ in [unit_facts(game, state, u)] if s == side]
