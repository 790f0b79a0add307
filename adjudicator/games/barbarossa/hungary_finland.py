"""1941 rule 15.0 Axis Nations: 15.1 Hungary (no unit enters it on Turn 1) and 15.2
Finland (15.2.2 the Turn 1 border and the attacks on Leningrad and beyond the Svir and
the canal; 15.2.4 the Finnish rail move; 15.2.3 and 15.2.5 are the TEC's exception,
`data.Piece.special`, and Helsinki's supply, `supply.unsupplied`)."""

from __future__ import annotations

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.state import State
from adjudicator.games.barbarossa.data import GameData, Piece
from adjudicator.games.barbarossa.first_turn import FIRST_TURN, is_first_turn
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.supply import traces_supply
from adjudicator.games.barbarossa.vocabulary import (
    LENINGRAD_HEX,
    Country,
    FinnishLimit,
    Nationality,
    Side,
    SupplySource,
)


def check_hungary(turn: int, entering_country: str) -> None:
    """15.1: no unit of either side enters Hungary on Turn 1."""
    if turn == FIRST_TURN and entering_country == Country.HUNGARY:
        raise CATALOGUE.refuse("hungary", "15.1 A", "no unit may enter any hex of Hungary on "
                               "Turn 1")


def check_finnish_border(game: GameData, state: State, piece: Piece, a: Hex, b: Hex) -> None:
    """15.2.2 A: on Turn 1 no Finnish unit moves across the Finnish-Soviet border."""
    if piece.nationality == Nationality.FINNISH and is_first_turn(state) \
            and {game.country.get(a), game.country.get(b)} == {Country.FINLAND,
                                                               Country.SOVIET_UNION}:
        raise CATALOGUE.refuse("finnish-turn-1", "15.2.2 A", "on Turn 1 no Finnish unit may "
                               "move across the Finnish-Soviet border")


def check_finnish_attack(*, turn: int, across_border: bool, target: str, target_limit: str,
                         german_attacking: bool, leningrad_axis: bool) -> None:
    """15.2.2: on Turn 1 Finnish units neither move nor attack across the Finnish-Soviet
    border; later they attack Leningrad only beside German units, and Soviet units
    south of the Svir or east of the White Sea Canal only once Leningrad is Axis held."""
    if turn == FIRST_TURN and across_border:
        raise CATALOGUE.refuse("finnish-turn-1", "15.2.2 A", "on Turn 1 no Finnish unit may "
                               "move or attack across the Finnish-Soviet border")
    if target == LENINGRAD_HEX and not german_attacking:
        raise CATALOGUE.refuse("finnish-leningrad", "15.2.2 B", "Finnish units may attack "
                               "Leningrad (0712) only in conjunction with German units "
                               "attacking the hex")
    if target_limit and not leningrad_axis:
        where = "south of the Svir" if target_limit == FinnishLimit.SOUTH_OF_SVIR else \
            "east of the White Sea Canal"
        raise CATALOGUE.refuse("finnish-limit", "15.2.2 B", f"Finnish units may not attack "
                               f"Soviet units {where} ({target}) while Leningrad is not Axis "
                               "controlled")


def finnish_rail_move(game: GameData, state: State, piece: Piece, start: Hex) -> bool:
    """15.2.4: whether a Finnish unit's rail move is the one special move a turn besides
    the Axis capacity (a supply line entirely by rail to Helsinki, A); refused when it
    has neither that nor a supply line to the west edge for the regular capacity (B).
    On Turn 1 17.1.2 A comes first: no Axis rail move at all."""
    if piece.nationality != Nationality.FINNISH or is_first_turn(state):
        return False
    special = state["rail_used"][SupplySource.FINNISH] == 0 and traces_supply(
        game, state, start, SupplySource.FINNISH, by_rail_only=True)  # 15.2.4 A
    if not special and not traces_supply(game, state, start, Side.AXIS):
        raise CATALOGUE.refuse("finnish-rail", "15.2.4 B", f"{piece.name} may use the regular "
                               "Axis rail capacity only with a supply line to an Axis supply "
                               "source on the west edge (and the one special Finnish move a "
                               "turn needs a line entirely by rail to Helsinki)")
    return special
