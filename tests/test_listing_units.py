"""The kit's listing for the order builder's clicks (engine/listing.py): every unit that
may act is named (`actors`, without a dry run), and a click on any of them gives every
place it may reach (`unit_listing`), each destination a move the rules take."""

from __future__ import annotations

from adjudicator.engine.listing import unit_listing
from adjudicator.engine.step import refusal
from adjudicator.games import get_game
from adjudicator.games.moscow.data import Game
from tests.test_moscow_rules import moscow_module, turn_one_state


def test_every_german_unit_that_may_move_is_named_and_each_reaches_every_hex() -> None:
    """Moscow '41, Turn 1, the German Movement Phase (4.0): the listing samples moves of
    a few units; its actors are every German ground unit, and a click on one gives every
    hex it may reach, more than the sample, each move legal alone (4.0-4.8)."""
    rules, module, state = get_game("moscow").rules, moscow_module(), turn_one_state()
    listing = rules.legal_orders(module, state, "german")
    game = Game.of(module)
    german = {u for u, p in game.pieces.items() if p.side == "german" and u in state["units"]}
    actors = dict(listing.acting_units())
    sampled = {u.unit for u in listing.units if u.moves}
    assert sampled < set(actors) and set(actors) <= german
    assert all(state["units"][u] == at for u, at in actors.items())
    unit = next(u for u in sorted(actors) if u not in sampled)
    options = unit_listing(rules, module, state, "german", unit)
    assert options is not None and len(options.moves) > 2
    for dest in options.moves[:5]:
        assert dest.path[0] == actors[unit] and dest.path[-1] == dest.place
    for order in options.orders[:5]:
        assert refusal(rules, module, state, order.to_order(), "german") is None
    assert unit_listing(rules, module, state, "soviet", unit) is None  # not the Soviet's


def test_a_listing_that_offers_every_unit_names_them_as_its_actors() -> None:
    """Barbarossa Solitaire lists every unit's moves: its units are its actors."""
    package = get_game("solitaire")
    rules, module = package.rules, package.bundled_module
    state = rules.initial_state(module, package.scenarios()[0][0], {})
    side = rules.acting_side(state)
    assert side is not None
    listing = rules.legal_orders(module, state, side)
    assert listing.acting_units() == tuple(sorted((u.unit, u.at) for u in listing.units))
