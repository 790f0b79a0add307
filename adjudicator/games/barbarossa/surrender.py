"""1941 rule 16.0 Surrender of Soviet Units: at the end of each turn an unsupplied Soviet
unit with no supplied Soviet unit within five hexes surrenders (A), and may come back as
a replacement (B: it is eliminated, 14.2.2 C)."""

from __future__ import annotations

from collections.abc import Collection

from adjudicator.engine.hexgrid import AXIAL_DIRECTIONS, Hex
from adjudicator.engine.search import least_costs
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.supply import unsupplied
from adjudicator.games.barbarossa.vocabulary import EventKind, Side

SURRENDER_RADIUS = 5  # 16.0 A


def surrenders(unit_hex: Hex, supplied: bool, supplied_soviet_hexes: Collection[Hex]) -> bool:
    """16.0 A: at the end of a turn an unsupplied Soviet unit surrenders if no supplied
    Soviet unit is within five hexes."""
    if supplied:
        return False
    friends = set(supplied_soviet_hexes)
    # the nearest supplied Soviet unit, counted in hexes whatever lies between (the kit's
    # search over the whole grid: steps of one hex, so the count is the hex distance)
    nearest = least_costs([unit_hex], lambda h: [h + d for d in AXIAL_DIRECTIONS],
                          lambda a, b: 1, budget=SURRENDER_RADIUS, goals=friends.__contains__)
    return nearest.found is None


def surrendering(game: GameData, state: State) -> list[str]:
    """16.0 A: the unsupplied Soviet units with no supplied Soviet unit within five hexes."""
    cut_off = set(unsupplied(game, state, Side.SOVIET))
    supplied = [game.board.hex(x) for u, x in state["units"].items()
                if game.pieces[u].side == Side.SOVIET and u not in cut_off]
    return sorted(u for u in cut_off
                  if surrenders(game.board.hex(state["units"][u]), False, supplied))


def surrender(ctx: StepContext) -> None:
    """16.0 A at the end of a turn."""
    for unit in surrendering(GameData.of(ctx.module), ctx.state):
        ctx.emit(EventKind.UNIT_ELIMINATED, unit=unit, rule="16.0 A")
