"""1941 rule 8.0 Supply: supply lines (8.1) to the sources (8.2), traced by the kit's
search over the board (`HexBoard.trace`, engine/search.py): the rail part along connected
rail lines through friendly territory (8.1 C), then at most three hexes (8.1 A-B; one for
Axis units in mud and snow, 13.3 C, 13.5 E), with 8.2.1 B (Helsinki for the Finns), 9.2 A
(German armor through enemy zones), 11.0 F (fortifications) and 20.5 (air supply).

The phasing side traces at the start of each Ground Segment (8.0 B, `flow.end_phase`);
the same lines decide 14.1.2.2 B (a city's line to the east edge), 15.2.4 (Finnish rail)
and 18.1 E (encircled cities)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection
from dataclasses import dataclass

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.state import State
from adjudicator.games.barbarossa.control import control_of, territory
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.fortifications import fortified
from adjudicator.games.barbarossa.vocabulary import Feature, Nationality, Side, SupplySource
from adjudicator.games.barbarossa.weather import SUPPLY_LINE_HEXES, supply_line_hexes
from adjudicator.games.barbarossa.zoc import enemy_zones


@dataclass(frozen=True)
class SupplyMap:
    """What a supply line must know (8.1)."""

    sources: frozenset[Hex]  # 8.2: the side's supply sources
    rail: Callable[[Hex, Hex], bool]  # a railroad runs directly between the two hexes
    prohibited: Callable[[Hex, Hex], bool]  # a hexside or hex the line may not use
    enemy: frozenset[Hex]  # enemy-occupied hexes
    enemy_zoc: frozenset[Hex]
    friendly_units: frozenset[Hex]  # hexes friendly units occupy (they negate EZOCs)
    friendly_territory: frozenset[Hex]


def rail_supplied(board: HexBoard, supply: SupplyMap) -> set[Hex]:
    """8.1 C: the railroad hexes joined to a supply source entirely along connected rail
    lines through friendly territory, never into an enemy ZOC a friendly unit does not
    occupy."""
    def usable(h: Hex) -> bool:
        return (h in supply.friendly_territory and h not in supply.enemy
                and (h not in supply.enemy_zoc or h in supply.friendly_units))

    starts = [s for s in supply.sources if usable(s)]
    reached = board.trace(starts, lambda a, b: supply.rail(a, b) and usable(b))
    return set(reached)


def in_supply(board: HexBoard, unit_hex: Hex, supply: SupplyMap, railheads: Collection[Hex],
              *, length: int = SUPPLY_LINE_HEXES, through_zoc: bool = False) -> bool:
    """8.1 A-B: a line of at most `length` hexes from the unit to a supply source or to a
    railroad leading to one (`railheads`, from `rail_supplied`), not across a prohibited
    hexside, not into an enemy-occupied hex, and not into an enemy ZOC no friendly unit
    occupies, except for German armor-type units (9.2 A: `through_zoc`)."""
    goals = set(railheads) | set(supply.sources)
    if unit_hex in goals:
        return True
    reached = board.trace([unit_hex], _line_step(supply, through_zoc), max_length=length)
    return any(h in goals for h in reached)


def supply_network(board: HexBoard, supply: SupplyMap, railheads: Collection[Hex], *,
                   length: int = SUPPLY_LINE_HEXES, through_zoc: bool = False
                   ) -> frozenset[Hex]:
    """8.1 A-B for every hex at once: the hexes from which `in_supply` traces a line, by
    one search backwards from the railheads and sources instead of one per unit (the
    phase-end trace of a whole side, 8.0 B)."""
    goals = set(railheads) | set(supply.sources)
    reached = board.trace_to(goals, _line_step(supply, through_zoc), max_length=length)
    return frozenset(goals) | frozenset(reached)


def _line_step(supply: SupplyMap, through_zoc: bool) -> Callable[[Hex, Hex], bool]:
    """8.1 B, 9.2 A: whether a supply line may go on from one hex into the next."""
    def passable(a: Hex, b: Hex) -> bool:
        if supply.prohibited(a, b) or b in supply.enemy:
            return False
        return through_zoc or b not in supply.enemy_zoc or b in supply.friendly_units
    return passable


def supply_map(game: GameData, state: State, side: str, sources: frozenset[Hex]) -> SupplyMap:
    """The map as `side`'s supply lines see it now, to `sources`."""
    board = game.board
    zones = enemy_zones(game, state, side)
    friends = frozenset(board.hex(x) for u, x in state["units"].items()
                        if game.pieces[u].side == side)
    weather = state["weather"]

    return SupplyMap(
        sources=sources, rail=lambda a, b: Feature.RAIL in board.features(a, b),
        prohibited=lambda a, b: game.impassable(a, b, False, weather),  # 8.1 B
        enemy=zones.occupied, enemy_zoc=zones.any,
        friendly_units=friends,
        friendly_territory=territory(game, state, side))


def sources_of(game: GameData, state: State, kind: str, held_by: str) -> frozenset[Hex]:
    """8.2: the supply sources of `kind` that `held_by` controls."""
    return frozenset(h for h, k in game.supply.items()
                     if k == kind and control_of(game, state, h) == held_by)


def unsupplied(game: GameData, state: State, side: str) -> list[str]:
    """The side's units on the map that cannot trace a supply line now."""
    sources = sources_of(game, state, side, side)
    terrain = supply_map(game, state, side, sources)
    railheads = rail_supplied(game.board, terrain)
    finnish_sources = sources_of(game, state, SupplySource.FINNISH, side)
    # 8.2.1 B: the same map traced to the Finnish sources
    finnish = dataclasses.replace(terrain, sources=finnish_sources)
    finnish_railheads: set[Hex] | None = None
    length = supply_line_hexes(state, side)
    networks: dict[tuple[str, bool], frozenset[Hex]] = {}  # traced once, for every unit

    def supplied(h: Hex, through_zoc: bool) -> bool:
        if ("own", through_zoc) not in networks:
            networks["own", through_zoc] = supply_network(
                game.board, terrain, railheads, length=length, through_zoc=through_zoc)
        return h in networks["own", through_zoc]

    out = []
    for unit, label in sorted(state["units"].items()):
        piece = game.pieces[unit]
        if piece.side != side:
            continue
        h = game.board.hex(label)
        if side == Side.SOVIET and fortified(game, state, h):
            continue  # 8.2.2 B, 11.0 F
        if unit in state.get("air_supplied", []):
            continue  # 20.5 B: supplied by air for the whole player turn
        if supplied(h, piece.german_armor):  # 9.2 A
            continue
        if piece.nationality == Nationality.FINNISH and finnish_sources:  # 8.2.1 B, 15.2.5
            if finnish_railheads is None:
                finnish_railheads = rail_supplied(game.board, finnish)
                networks["finnish", False] = supply_network(
                    game.board, finnish, finnish_railheads, length=length)
            if h in networks["finnish", False]:
                continue
        out.append(unit)
    return out


def traces_supply(game: GameData, state: State, h: Hex, kind: str, *,
                  by_rail_only: bool = False) -> bool:
    """15.2.4: whether an Axis unit in `h` traces a supply line to the friendly supply
    sources of `kind` (axis: the west edge; finnish: Helsinki), or entirely by rail."""
    terrain = supply_map(game, state, Side.AXIS, sources_of(game, state, kind, Side.AXIS))
    railheads = rail_supplied(game.board, terrain)
    return h in railheads if by_rail_only else in_supply(game.board, h, terrain, railheads)


def east_edge_lines(game: GameData, state: State,
                    sources: frozenset[Hex]) -> Callable[[Hex], bool]:
    """14.1.2.2 B, 18.1 E: whether a Soviet supply line (8.1) runs from a hex to one of
    the east edge's `sources` (the map traced once, each hex asked after)."""
    terrain = supply_map(game, state, Side.SOVIET, sources)
    railheads = rail_supplied(game.board, terrain)
    return lambda h: in_supply(game.board, h, terrain, railheads)
