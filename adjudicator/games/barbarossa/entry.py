"""Why a reinforcement may not enter at a hex (14.1.1-14.1.2, 17.1.5), in words: from
module 0.3.0 a refused `enter` names the condition that fails (the hex is not on the
west edge, not clear or rough, enemy controlled or occupied, not a supply source or a
major city, a city without a supply line to the east edge), not only the hex."""

from __future__ import annotations

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.state import State
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa.game import Game, control_of
from adjudicator.games.barbarossa.ground import in_supply, rail_supplied
from adjudicator.games.barbarossa.supply import supply_map

SIDE_WORDS = {"axis": "Axis", "soviet": "Soviet"}


def place(game: Game, h: Hex) -> str:
    """A hex as a player reads it: its number, and its city if it has one."""
    label = game.board.label(h)
    return f"{game.city_names[h]} ({label})" if h in game.city_names else label


def enemy_in(game: Game, state: State, side: str, h: Hex) -> bool:
    label = game.board.label(h)
    return any(x == label and game.pieces[u].side != side for u, x in state["units"].items())


def east_sources(game: Game) -> list[Hex]:
    return sorted(h for h, kind in game.supply.items() if kind == "soviet")


def why_not(game: Game, state: State, unit: str, where: Hex) -> IllegalOrder:
    """The refusal of `<enter unit= hex=>` at a hex that is not one of the unit's entry
    hexes (`arrivals.entry_hexes`): the rule and the condition that fails."""
    piece = game.pieces[unit]
    name, at = piece.name, place(game, where)
    held = control_of(game, state, where)
    if enemy_in(game, state, piece.side, where):
        return IllegalOrder("5.0 E", f"{name} may not enter at {at}: enemy units occupy it",
                            code="bad-entry")
    if piece.deploy == "1:Od":
        odessa = game.city("Odessa")
        if where != odessa:
            return IllegalOrder("17.1.5 A", f"{name} (deployment code 1:Od) is placed at "
                                f"{place(game, odessa)}, not at {at}", code="bad-entry")
        return IllegalOrder("17.1.5 A", f"Odessa is Axis controlled, so {name} may not be "
                            "placed there: it is eliminated instead when the phase ends",
                            code="bad-entry")
    if piece.side == "axis":
        return _why_not_west(game, state, name, where, held)
    sources = east_sources(game)
    listed = ", ".join(game.board.label(h) for h in sources)
    if piece.deploy == "1:E" and where not in sources:
        return IllegalOrder("17.1.5 B", f"{name} (deployment code 1:E) enters the map at a "
                            f"Soviet supply source on the east edge ({listed}); {at} is not "
                            "one", code="bad-entry")
    if where in sources:
        return IllegalOrder("17.1.5 B" if piece.deploy == "1:E" else "14.1.2.1 A",
                            f"{name} may not enter at {at}: it is {SIDE_WORDS[held]} "
                            "controlled, and Soviet reinforcements enter at a friendly "
                            "controlled supply source on the east edge", code="bad-entry")
    if game.cities.get(where) != "major" or game.country.get(where) != "soviet":
        what = "a major city outside the Soviet Union" if game.cities.get(where) == "major" \
            else "not a major city"
        return IllegalOrder("14.1.2", f"{name} may not enter at {at}: Soviet reinforcements "
                            f"enter at a friendly controlled supply source on the east edge "
                            f"({listed}) or at a friendly controlled major city in the Soviet "
                            f"Union, and {at} is {what}", code="bad-entry")
    if held != "soviet":
        return IllegalOrder("14.1.2.2 A", f"{name} may not enter at {at}: the city is Axis "
                            "controlled, and a reinforcement enters only at a friendly "
                            "controlled major city", code="bad-entry")
    if state["moved"]:
        return IllegalOrder("14.1.2.2 D", f"{name} may not enter at {at}: reinforcements "
                            "appearing at major cities must be placed before any units move "
                            "in the phase, and units have moved", code="city-entry-late")
    if not city_traces_east(game, state, where):
        return IllegalOrder("14.1.2.2 B", f"{name} may not enter at {at}: no supply line can "
                            "be traced from the city to a supply source on the east edge (it "
                            "is encircled), so it is not eligible", code="bad-entry")
    return IllegalOrder("14.1.2", f"{name} may not enter at {at}", code="bad-entry")


def city_traces_east(game: Game, state: State, city: Hex) -> bool:
    """14.1.2.2 B: a supply line (8.1) from the city to a friendly supply source on the
    east edge that no enemy unit occupies."""
    sources = frozenset(h for h in east_sources(game) if control_of(game, state, h) == "soviet"
                        and not enemy_in(game, state, "soviet", h))
    terrain = supply_map(game, state, "soviet", sources)
    return in_supply(game.board, city, terrain, rail_supplied(game.board, terrain))


def _why_not_west(game: Game, state: State, name: str, where: Hex, held: str) -> IllegalOrder:
    """14.1.1 A: "Axis reinforcements enter at any friendly clear or rough hex on the west
    map edge"."""
    at = place(game, where)
    west_edge = max(game.board.grid.to_offset(h)[1] for h in game.board)
    if game.board.grid.to_offset(where)[1] != west_edge:
        why = "it is not on the west map edge"
    elif game.board.terrain[where] not in ("clear", "rough"):
        why = f"it is a {game.board.terrain[where]} hex"
    elif held != "axis":
        why = f"it is {SIDE_WORDS[held]} controlled"
    else:
        return IllegalOrder("14.1.1 A", f"{name} may not enter at {at}", code="bad-entry")
    return IllegalOrder("14.1.1 A", f"{name} may not enter at {at}: {why}, and Axis "
                        "reinforcements enter at a friendly clear or rough hex on the west "
                        "map edge", code="bad-entry")
