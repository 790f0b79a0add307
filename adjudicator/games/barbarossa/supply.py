"""1941 rule 8.0 Supply on the game's own position: which units of a side are out of
supply when it traces (8.0 B: the phasing side, at the start of each Ground Segment;
16.0: the Soviets, at the end of each turn), with 8.2 (sources), 9.2 A (German armor
through enemy zones), 11.0 F (fortifications), 13.3 C and 13.5 E (mud and snow)."""

from __future__ import annotations

import dataclasses

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.state import State
from adjudicator.games.barbarossa.game import Game, control_of, enemy_zones
from adjudicator.games.barbarossa.ground import (
    SHORT_SUPPLY_LINE_HEXES,
    SUPPLY_LINE_HEXES,
    SupplyMap,
    in_supply,
    rail_supplied,
    surrenders,
)


def supply_map(game: Game, state: State, side: str, sources: frozenset[Hex]) -> SupplyMap:
    board = game.board
    zones = enemy_zones(game, state, side)
    friends = frozenset(board.hex(x) for u, x in state["units"].items()
                        if game.pieces[u].side == side)
    weather = state["weather"]

    return SupplyMap(
        sources=sources, rail=lambda a, b: "rail" in board.features(a, b),
        prohibited=lambda a, b: game.impassable(a, b, False, weather),  # 8.1 B
        enemy=zones.occupied, enemy_zoc=zones.any,
        friendly_units=friends,
        friendly_territory=frozenset(h for h in board if control_of(game, state, h) == side))


def unsupplied(game: Game, state: State, side: str) -> list[str]:
    """The side's units on the map that cannot trace a supply line now."""
    sources = frozenset(h for h, kind in game.supply.items()
                        if kind == side and control_of(game, state, h) == side)
    terrain = supply_map(game, state, side, sources)
    railheads = rail_supplied(game.board, terrain)
    finnish_sources = frozenset(h for h, kind in game.supply.items()
                                if kind == "finnish" and control_of(game, state, h) == side)
    # 8.2.1 B: the same map traced to the Finnish sources
    finnish = dataclasses.replace(terrain, sources=finnish_sources)
    finnish_railheads: set[Hex] | None = None
    short = side == "axis" and state["weather"] in ("mud", "snow")
    length = SHORT_SUPPLY_LINE_HEXES if short else SUPPLY_LINE_HEXES
    out = []
    for unit, label in sorted(state["units"].items()):
        piece = game.pieces[unit]
        if piece.side != side:
            continue
        h = game.board.hex(label)
        if side == "soviet" and game.fortified(state, h):
            continue  # 8.2.2 B, 11.0 F
        if unit in state.get("air_supplied", []):
            continue  # 20.5 B: supplied by air for the whole player turn
        through = piece.armor and piece.nationality == "german"  # 9.2 A
        if in_supply(game.board, h, terrain, railheads, length=length, through_zoc=through):
            continue
        if piece.nationality == "finnish" and finnish_sources:  # 8.2.1 B, 15.2.5
            if finnish_railheads is None:
                finnish_railheads = rail_supplied(game.board, finnish)
            if in_supply(game.board, h, finnish, finnish_railheads, length=length):
                continue
        out.append(unit)
    return out


def surrendering(game: Game, state: State) -> list[str]:
    """16.0 A: the unsupplied Soviet units with no supplied Soviet unit within five hexes."""
    cut_off = set(unsupplied(game, state, "soviet"))
    supplied = [game.board.hex(x) for u, x in state["units"].items()
                if game.pieces[u].side == "soviet" and u not in cut_off]
    return sorted(u for u in cut_off
                  if surrenders(game.board.hex(state["units"][u]), False, supplied))
