"""1941 rule 13.0 Weather: what each condition of the Turn Record Chart does beyond the
Terrain Effects Chart's rows by weather (5.1, 7.6: 13.3 B, 13.4, 13.5 B-C are the chart's),
and 20.4.1, the thaw of the winter game."""

from __future__ import annotations

from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa.data import GameData, Piece
from adjudicator.games.barbarossa.vocabulary import EventKind, Segment, Side, Weather

SUPPLY_LINE_HEXES = 3  # 8.1 A
SHORT_SUPPLY_LINE_HEXES = 1  # 13.3 C, 13.5 E: Axis units in mud and snow


def ma_halvings(piece: Piece, state: State) -> int:
    """13.2, 13.3 A, 13.5 A: how many times the weather halves a unit's MA (5.3)."""
    weather, times = state["weather"], 0
    if weather == Weather.MUD or (weather == Weather.SNOW and piece.armor):
        times += 1
    if weather == Weather.RAIN and piece.armor and state["segment"] == Segment.SECOND:
        times += 1
    return times


def supply_line_hexes(state: State, side: str) -> int:
    """8.1 A with 13.3 C, 13.5 E: the non-rail part of an Axis supply line is one hex in
    mud and snow, three otherwise."""
    short = side == Side.AXIS and state["weather"] in (Weather.MUD, Weather.SNOW)
    return SHORT_SUPPLY_LINE_HEXES if short else SUPPLY_LINE_HEXES


def halves_axis_attack(piece: Piece, state: State) -> bool:
    """13.5 D: in snow each Axis unit has its attack strength halved."""
    return piece.side == Side.AXIS and state["weather"] == Weather.SNOW


def allows_armor_bonus(weather: str) -> bool:
    """9.1 F, 13.3 D, 13.5 F: no armor bonus in mud or snow."""
    return weather not in (Weather.MUD, Weather.SNOW)


def thaw(ctx: StepContext, coming: str) -> None:
    """20.4.1: any unit on an all-sea or all-lake hex when the weather changes from snow
    to mud is eliminated."""
    state, game = ctx.state, GameData.of(ctx.module)
    if state["weather"] == Weather.SNOW and coming == Weather.MUD:
        for unit, label in sorted(state["units"].items()):
            if game.is_water(game.board.hex(label)):
                ctx.emit(EventKind.UNIT_ELIMINATED, unit=unit, rule="20.4.1")
