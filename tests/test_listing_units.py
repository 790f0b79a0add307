"""The kit's listing for the order builder's clicks (engine/listing.py): every unit that
may act is named (`actors`, without a dry run), and a click on any of them gives every
place it may reach (`unit_listing`), each destination a move the rules take."""

from __future__ import annotations

from adjudicator.engine.listing import unit_listing
from adjudicator.engine.step import refusal
from adjudicator.games import get_game
from adjudicator.games.moscow.data import Game
from tests.test_moscow_rules import alone, moscow_module, turn_one_state


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


def played_to_1941s_combat() -> tuple[object, object, dict[str, object]]:
    """1941's Turn 1 played to the Axis Combat Phase: the Air Segment ended, each
    reinforcement entered (14.1), the Movement Phase ended."""
    from adjudicator.engine.dice import DiceStream
    from adjudicator.engine.step import run_step

    package = get_game("barbarossa")
    rules, module = package.rules, package.bundled_module
    state = rules.initial_state(module, package.scenarios()[0][0], {})
    for seq in range(1, 20):
        if state["phase"] == "combat":
            return rules, module, state
        listed = rules.legal_orders(module, state, "axis").orders
        order = next((o for o in listed if o.KIND == "end-phase"), None) \
            or next(o for o in listed if o.KIND == "enter")
        state = run_step(rules, module, state, [order.to_order()], "axis",
                         DiceStream(b"\x01" * 32, "g", seq, b"\x02" * 32)).state
    raise AssertionError("no Combat Phase")


def test_1941s_odds_before_an_attack_are_the_ones_it_is_rolled_on() -> None:
    """7.4-7.6, 9.1: the odds the builder shows before an attack (`attack_odds`) are the
    strengths, shifts and CRT column the adjudication then records."""
    from adjudicator.engine.dice import DiceStream
    from adjudicator.engine.listing import attack_odds
    from adjudicator.engine.step import run_step

    rules, module, state = played_to_1941s_combat()
    attacks = [o for o in rules.legal_orders(module, state, "axis").orders  # type: ignore[attr-defined]
               if o.KIND == "attack"]
    assert attacks
    for order in attacks[:4]:
        shown = attack_odds(rules, module, state, "axis", order.units, order.hex)  # type: ignore[arg-type]
        assert shown is not None and "10.2" in shown.unknown
        done = run_step(rules, module, state, [order.to_order()], "axis",  # type: ignore[arg-type]
                        DiceStream(b"\x03" * 32, "g", 50, b"\x04" * 32))
        rolled = next(e.data for e in done.events if e.kind == "attack-resolved")
        assert shown.odds == f"{rolled['attack']}-{rolled['defence']}: column {rolled['odds']}"
        words = dict(shown.shifts)
        assert ("terrain" in " ".join(words)) == bool(rolled["shifts"]["terrain"])
        assert ("armor +1" in words) == bool(rolled["shifts"]["armor"])


def test_solitaires_odds_are_the_attack_charts_row_and_modifier() -> None:
    """Combat: the number of attacking units and the year's die modifier the attack then
    rolls with (the Attack Chart)."""
    from adjudicator.engine.dice import DiceStream
    from adjudicator.engine.listing import attack_odds
    from adjudicator.engine.step import run_step

    package = get_game("solitaire")
    rules, module = package.rules, package.bundled_module
    state = rules.initial_state(module, package.scenarios()[0][0], {})
    attacks = [o for o in rules.legal_orders(module, state, "german").orders
               if o.KIND == "attack"]
    assert attacks
    for order in attacks[:3]:
        shown = attack_odds(rules, module, state, "german", order.units, order.target)  # type: ignore[attr-defined]
        assert shown is not None
        done = run_step(rules, module, state, [order.to_order()], "german",
                        DiceStream(b"\x03" * 32, "g", 1, b"\x04" * 32))
        rolled = next(e.data for e in done.events if e.kind == "attacked")
        assert shown.odds.startswith(f"{len(rolled['units'])} unit")
        assert f"die modifier {rolled['modifier']:+d}" in shown.shifts[0][0]


def test_moscows_odds_do_not_show_an_untried_units_strengths() -> None:
    """8.6 D, 12.2: before the untried Soviet tokens are revealed, the odds of an overrun
    on them are hidden: the words name the token, never its counter."""
    from adjudicator.engine.listing import attack_odds

    rules, module, state = get_game("moscow").rules, moscow_module(), turn_one_state()
    game = Game.of(module)
    token, at = next((u, x) for u, x in sorted(state["units"].items())
                     if u in state["identity"])
    beside = game.board.label(next(iter(game.board.neighbours(game.board.hex(at)))))
    attacker = "GER-XX-12"
    state = alone(state, {token: at, attacker: beside})
    shown = attack_odds(rules, module, state, "german", (attacker,), at)
    assert shown is not None and shown.odds == "hidden" and token in shown.unknown
    piece = state["identity"][token]
    assert str(piece) not in f"{shown}"
