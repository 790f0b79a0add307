"""Moscow '41 rule 1.3, the set-up zones, as checks over plain facts: where each Soviet
unit may be placed (1.3.1 B, E-I) and each German unit (1.3.2 B-E), and whether a
whole side's set-up is complete. setup.py runs them on the game's position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.vocabulary import (
    GERMAN,
    SOVIET,
    SOVIET_SETUP_STACK,
    STACKING_LIMIT,
)

FRONT_LINE_UNITS = 2  # 1.3.1 F
SETUP_COLUMN = 20  # 1.3.1 G-H: "hex row 20xx"


# -- 1.3 set-up zones ------------------------------------------------------------------------

class SetUpMap(Protocol):
    """What the set-up zones are read from (map.xml): the board, each hex's side of the
    starting front line, the Soviet front-line hexes."""

    @property
    def board(self) -> HexBoard: ...

    @property
    def side_of(self) -> Mapping[Hex, str]: ...

    @property
    def front_line(self) -> frozenset[Hex]: ...


class SetUpPiece(Protocol):
    """What a counter's set-up depends on (pieces.xml `type`, `marking`)."""

    @property
    def type(self) -> str: ...

    @property
    def siberian(self) -> bool: ...


def _on_map(zones: SetUpMap, where: Hex, rule: str) -> str:
    if where not in zones.side_of:
        raise CATALOGUE.refuse("bad-setup-hex", rule, f"{where} is not a hex of the map")
    return zones.board.label(where)


def check_soviet_placement(zones: SetUpMap, unit_type: str, where: Hex, already: int, *,
                           siberian: bool = False) -> None:
    """1.3.1 B, E-I: one Soviet unit set up at `where`, which `already` Soviet units hold.

    Infantry: a front-line hex (F), or east of the front line and west of hex row 20xx,
    column 20 included (G). Armor, mechanized and cavalry: east of hex row 20xx and never
    in the front line (H). Two units a hex (E). The Siberian divisions go on the Turn
    Record Track (B, I)."""
    label = _on_map(zones, where, "1.3.1")
    if siberian:
        raise CATALOGUE.refuse("siberian-setup", "1.3.1 I",
            "the Siberian divisions are placed on the Turn Record "
            "Track, not on the map")
    if zones.side_of[where] != SOVIET:
        raise CATALOGUE.refuse("bad-setup-hex", "1.3.1 G" if unit_type == "infantry" else "1.3.1 H",
            f"Soviet units set up east of the front line; {label} is on the "
            "German side")
    column = zones.board.grid.to_offset(where)[0]
    if unit_type == "infantry":
        if where not in zones.front_line and column > SETUP_COLUMN:
            raise CATALOGUE.refuse("bad-setup-hex", "1.3.1 G",
                f"Soviet infantry sets up in the front line or west "
                f"of hex row 20xx (inclusive); {label} is east of it")
    elif where in zones.front_line:
        raise CATALOGUE.refuse("bad-setup-hex", "1.3.1 H",
            f"Soviet {unit_type} units may not set up in the front "
            f"line, as {label} is")
    elif column <= SETUP_COLUMN:
        raise CATALOGUE.refuse("bad-setup-hex", "1.3.1 H",
            f"Soviet {unit_type} units set up east of hex row 20xx; "
            f"{label} is not")
    if already >= SOVIET_SETUP_STACK:
        raise CATALOGUE.refuse("overstacked", "1.3.1 E",
            f"{label} already holds two Soviet units, the set-up "
            "limit")


def check_soviet_setup(zones: SetUpMap, pieces: Mapping[str, SetUpPiece],
                       placed: Mapping[str, Hex]) -> None:
    """1.3.1 C, E-I: the whole Soviet set-up. Every Soviet unit but the Siberians is on the
    map (C), each in its zone, two a hex at most, and every front-line hex holds exactly
    two (F). `pieces`: the Soviet units (or untried tokens) by id."""
    waiting = sorted(u for u, p in pieces.items() if not p.siberian and u not in placed)
    if waiting:
        raise CATALOGUE.refuse("unplaced", "1.3.1 C",
            f"every Soviet unit is placed on the map; still to "
            f"place: {', '.join(waiting)}")
    count: dict[Hex, int] = {}
    for unit, where in sorted(placed.items()):
        if unit not in pieces:
            raise CATALOGUE.refuse("not-placeable", "1.3.1 C",
                f"{unit} is not a Soviet unit to set up")
        piece = pieces[unit]
        check_soviet_placement(zones, piece.type, where, count.get(where, 0),
                               siberian=piece.siberian)
        count[where] = count.get(where, 0) + 1
    thin = sorted(zones.board.label(h) for h in zones.front_line
                  if count.get(h, 0) != FRONT_LINE_UNITS)
    if thin:
        raise CATALOGUE.refuse("front-line", "1.3.1 F",
            f"each front-line hex holds two Soviet units and none is "
            f"left vacant; not {', '.join(thin)}")


def check_german_placement(zones: SetUpMap, unit_type: str, where: Hex, already: int) -> None:
    """1.3.2 C-E: a German land unit sets up west of the front line, four units a hex at
    most (4.6 A); the air units stay off the map."""
    label = _on_map(zones, where, "1.3.2")
    if unit_type == "air":
        raise CATALOGUE.refuse("air-setup", "1.3.2 E",
            "the German air units are set off to the side of the "
            "map")
    if zones.side_of[where] != GERMAN:
        raise CATALOGUE.refuse("bad-setup-hex", "1.3.2 C",
            f"German units set up west of the front line; {label} "
            "is on the Soviet side")
    if already >= STACKING_LIMIT:
        raise CATALOGUE.refuse("overstacked", "1.3.2 D",
            f"{label} already holds four units (4.6 A)")


def check_german_setup(zones: SetUpMap, pieces: Mapping[str, SetUpPiece],
                       placed: Mapping[str, Hex]) -> None:
    """1.3.2 B-E: every German land unit begins on the map west of the front line, within
    the stacking limit. `pieces`: the German units by id, air units included."""
    waiting = sorted(u for u, p in pieces.items() if p.type != "air" and u not in placed)
    if waiting:
        raise CATALOGUE.refuse("unplaced", "1.3.2 B",
            f"all German land units begin on the map; still to set "
            f"up: {', '.join(waiting)}")
    count: dict[Hex, int] = {}
    for unit, where in sorted(placed.items()):
        if unit not in pieces:
            raise CATALOGUE.refuse("not-placeable", "1.3.2 B",
                f"{unit} is not a German unit to set up")
        check_german_placement(zones, pieces[unit].type, where, count.get(where, 0))
        count[where] = count.get(where, 0) + 1
