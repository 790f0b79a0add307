"""Moscow '41 through the engine's step runner: the set-up with the cup draw (1.3), the
untried tokens as hidden information with verifiable commitments (12.0, docs/architecture.md,
Hidden information),
and the sequence of play (3.0) with the weather roll (15.0)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.dice import DiceStream
from adjudicator.engine.module import ModuleData, load_module
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State, copy_state
from adjudicator.engine.step import StepResult, run_step
from adjudicator.games.moscow.data import Game
from adjudicator.games.moscow.rules import MoscowRules
from adjudicator.games.moscow.untried import commitment
from adjudicator.games.moscow.view import project_events, project_state

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "moscow" / "data"
RULES = MoscowRules()


@functools.cache
def moscow_module() -> ModuleData:
    schema = etree.RelaxNG(file=str(DATA / "module.rng"))
    return load_module((DATA / "module.xml").read_bytes(), schema, expected_game="moscow")


@pytest.fixture(scope="module")
def module() -> ModuleData:
    return moscow_module()


def step(module: ModuleData, state: State, *orders: tuple[str, dict[str, str]],
         side: str = "soviet", seq: int = 1) -> StepResult:
    return run_step(RULES, module, state,
                    [Order(kind, attrs, index=i) for i, (kind, attrs) in enumerate(orders)],
                    side, DiceStream(b"\x01" * 32, "test", seq, b"\x02" * 32))


@functools.cache
def drawn_step() -> StepResult:
    module = moscow_module()
    return step(module, RULES.initial_state(module, "campaign", {}), ("draw", {}))


@pytest.fixture(scope="module")
def drawn(module: ModuleData) -> StepResult:
    return drawn_step()


def soviet_placements(game: Game, state: State) -> list[tuple[str, dict[str, str]]]:
    """A legal Soviet set-up (1.3.1 E-H): two infantry tokens in every front-line hex,
    the other infantry west of row 20xx, the rest east of it, two per hex."""
    label = game.board.label
    infantry = sorted(t for t, f in state["tokens"].items()
                      if f["type"] == "infantry" and not f["siberian"])
    others = sorted(t for t, f in state["tokens"].items()
                    if f["type"] != "infantry" and not f["siberian"])
    front = sorted(label(h) for h in game.front_line)
    rear_west = sorted(label(h) for h in game.board if game.side_of[h] == "soviet"
                       and h not in game.front_line and int(label(h)[:2]) <= 20)
    east = sorted(label(h) for h in game.board if game.side_of[h] == "soviet"
                  and h not in game.front_line and int(label(h)[:2]) > 20)
    hexes = [x for x in front for _ in range(2)]
    hexes += [x for x in rear_west for _ in range(2)][: len(infantry) - len(hexes)]
    orders = [("place", {"unit": t, "hex": x}) for t, x in zip(infantry, hexes, strict=True)]
    orders += [("place", {"unit": t, "hex": x})
               for t, x in zip(others, [x for x in east for _ in range(2)], strict=False)]
    return orders


def german_placements(game: Game, state: State) -> list[tuple[str, dict[str, str]]]:
    west = sorted(game.board.label(h) for h in game.board if game.side_of[h] == "german")
    return [("place", {"unit": u, "hex": west[i // 4]}) for i, u in enumerate(state["unplaced"])]


def test_1_3_1_c_the_draw_makes_an_untried_token_of_every_unit_in_the_cup(
        module: ModuleData, drawn: StepResult) -> None:
    state = drawn.state
    assert drawn.outcome == "accepted" and state["phase"] == "setup"
    assert len([t for t in state["tokens"] if t.startswith("U")]) == 96
    assert sorted(state["identity"].values()) == sorted(
        u for u, p in Game.of(module).pieces.items() if p.side == "soviet" and p.untried)
    # 1.3.1 I: one Siberian division in each turn box 3-6, which one unknown
    assert state["arriving"] == {str(t): [f"SIB{t}"] for t in (3, 4, 5, 6)}
    assert {Game.of(module).pieces[state["identity"][f"SIB{t}"]].siberian
            for t in (3, 4, 5, 6)} == {True}


def test_12_1_a_every_commitment_binds_the_token_to_its_counter(module: ModuleData,
                                                               drawn: StepResult) -> None:
    game, state = Game.of(module), drawn.state
    for token, face in state["tokens"].items():
        piece = game.pieces[state["identity"][token]]
        assert face["commitment"] == commitment(token, piece.id, piece.attack, piece.defense,
                                                state["salts"][token])
        assert face["type"] == piece.type and face["movement"] == piece.movement


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_12_1_a_neither_side_sees_which_counter_a_token_is(drawn: StepResult,
                                                          side: str) -> None:
    view = project_state(drawn.state, side)
    assert view["identity"] == {} and view["salts"] == {}
    events = project_events([e.to_json() for e in drawn.events], side)
    text = repr(events)
    assert "SOV-XX" not in text  # no counter id in any draw, roll or commitment
    assert all("secret" not in e for e in events)
    assert all("choice" not in e for e in events if e["kind"] == "roll")


def test_1_3_1_g_h_and_1_3_2_c_set_up_zones(module: ModuleData, drawn: StepResult) -> None:
    game, state = Game.of(module), drawn.state
    infantry = next(t for t, f in state["tokens"].items() if f["type"] == "infantry")
    armor = next(t for t, f in state["tokens"].items() if f["type"] == "armor")
    front = game.board.label(min(game.front_line))
    east = next(game.board.label(h) for h in game.board if game.side_of[h] == "soviet"
                and int(game.board.label(h)[:2]) > 20 and h not in game.front_line)
    west = next(game.board.label(h) for h in game.board if game.side_of[h] == "german")
    cases = [(infantry, east, "1.3.1 G"), (armor, front, "1.3.1 H"),
             (infantry, west, "1.3.1 G")]
    for unit, where, rule in cases:
        result = step(module, state, ("place", {"unit": unit, "hex": where}))
        assert result.rejection is not None and result.rejection.rule == rule, (unit, where)
    two = [t for t, f in state["tokens"].items() if f["type"] == "infantry"][:3]
    result = step(module, state, *[("place", {"unit": t, "hex": front}) for t in two])
    assert result.rejection is not None and result.rejection.rule == "1.3.1 E"


def test_1_3_the_whole_set_up_then_3_1_turn_1_begins_with_the_german_movement_phase(
        module: ModuleData, drawn: StepResult) -> None:
    game = Game.of(module)
    early = step(module, drawn.state, ("end-phase", {}))
    assert early.rejection is not None and early.rejection.rule == "1.3.1 C"
    soviet = step(module, drawn.state, *soviet_placements(game, drawn.state), ("end-phase", {}))
    assert soviet.outcome == "accepted", soviet.rejection
    assert (soviet.state["player"], soviet.state["phase"]) == ("german", "setup")
    german = step(module, soviet.state, *german_placements(game, soviet.state),
                  ("end-phase", {}), side="german")
    assert german.outcome == "accepted", german.rejection
    state = german.state
    assert (state["turn"], state["player"], state["phase"]) == (1, "german", "movement")
    assert len(state["units"]) == 96 + 71
    # 3.1: five phases, then the Game Turn Indication Phase rolls Turn 2's weather (15.0)
    state = step(module, state, *[("end-phase", {})] * 3, side="german").state
    result = step(module, state, *[("end-phase", {})] * 2, side="soviet")
    assert result.outcome == "accepted", result.rejection
    assert result.state["turn"] == 2 and result.state["phase"] == "movement"
    rolls = [e for e in result.events if e.kind == "roll"]
    assert len(rolls) == 1 and "weather" in rolls[0]["purpose"]


@functools.cache
def turn_one_state() -> State:
    """Turn 1, the German Movement Phase, after a legal set-up of both sides (read only:
    copy it before changing it, as `alone` does)."""
    module, drawn = moscow_module(), drawn_step()
    game = Game.of(module)
    soviet = step(module, drawn.state, *soviet_placements(game, drawn.state), ("end-phase", {}))
    german = step(module, soviet.state, *german_placements(game, soviet.state),
                  ("end-phase", {}), side="german")
    return german.state


@pytest.fixture(scope="module")
def turn_one(module: ModuleData, drawn: StepResult) -> State:
    return turn_one_state()


def alone(state: State, units: dict[str, str]) -> State:
    """The Turn 1 German Movement Phase with only `units` on the map."""
    position = copy_state(state)
    position["units"] = dict(units)
    return position


def test_4_5_example_the_12th_and_251st_split_off_from_their_stack(
        module: ModuleData, turn_one: State) -> None:
    """"They move as a stack to hex 1611, expending 2 MPs ... the 12th Division to hex
    1710 and then 1810, expending an additional 4 MPs ... the 251st Division to hex 1711
    and then on to hex 1812."""
    state = alone(turn_one, {"GER-XX-12": "1510", "GER-XX-251": "1510"})
    result = step(module, state,
                  ("move", {"units": "GER-XX-12 GER-XX-251", "path": "1510 1611"}),
                  ("move", {"units": "GER-XX-12", "path": "1611 1710 1810"}),
                  ("move", {"units": "GER-XX-251", "path": "1611 1711 1812"}), side="german")
    assert result.outcome == "accepted", result.rejection
    moves = [e for e in result.events if e.kind == "units-moved"]
    assert moves[0]["mps"] == {"GER-XX-12": ["2"], "GER-XX-251": ["2"]}
    assert [sum(int(x) for x in e["mps"][u]) for e, u in
            ((moves[1], "GER-XX-12"), (moves[2], "GER-XX-251"))] == [4, 4]
    assert result.state["movers"]["GER-XX-12"]["spent"] == "6"
    assert result.state["units"] == {"GER-XX-12": "1810", "GER-XX-251": "1812"}


def test_3_1_1_a_a_unit_finishes_before_another_moves(module: ModuleData,
                                                     turn_one: State) -> None:
    state = alone(turn_one, {"GER-XX-12": "1510", "GER-XX-251": "1610"})
    result = step(module, state, ("move", {"units": "GER-XX-12", "path": "1510 1611"}),
                  ("move", {"units": "GER-XX-251", "path": "1610 1710"}),
                  ("move", {"units": "GER-XX-12", "path": "1611 1711"}), side="german")
    assert result.rejection is not None and result.rejection.rule == "3.1.1 A"
    assert result.applied == 2


def test_4_6_c_the_enemy_destroys_the_fifth_unit_of_a_stack(module: ModuleData,
                                                           turn_one: State) -> None:
    five = ["GER-XX-12", "GER-XX-251", "GER-XX-1Pz", "GER-XX-2Pz", "GER-XX-3Pz"]
    state = alone(turn_one, {u: "1510" for u in five[:4]} | {five[4]: "1610"})
    moved = step(module, state, ("move", {"units": five[4], "path": "1610 1510"}),
                 ("end-phase", {}), side="german")
    assert moved.decision is not None and moved.decision.side == "soviet"
    assert moved.decision.kind == "overstack-elimination" and moved.decision.rule == "4.6 C"
    answered = step(module, moved.state, ("answer", {"decision": moved.decision.id,
                                                     "choice": "GER-XX-1Pz"}))
    assert answered.outcome == "accepted", answered.rejection
    assert "GER-XX-1Pz" not in answered.state["units"]
    assert answered.state["phase"] == "combat"


def test_4_5_d_e_a_unit_that_split_off_has_finished_once_the_rest_moves_on(
        module: ModuleData, turn_one: State) -> None:
    """4.5 D-E: the 12th splits off and moves; once the 251st (the rest of the stack)
    moves on, the 12th may not move again."""
    state = alone(turn_one, {"GER-XX-12": "1510", "GER-XX-251": "1510"})
    result = step(module, state,
                  ("move", {"units": "GER-XX-12 GER-XX-251", "path": "1510 1611"}),
                  ("move", {"units": "GER-XX-12", "path": "1611 1710"}),
                  ("move", {"units": "GER-XX-251", "path": "1611 1711"}),
                  ("move", {"units": "GER-XX-12", "path": "1710 1810"}), side="german")
    assert result.rejection is not None and result.rejection.rule == "3.1.1 A"
    assert result.applied == 3


def test_every_choice_a_decision_offers_passes_the_order_schema() -> None:
    """The answers a Moscow '41 decision offers (losses, retreats, advances) are valid
    `choice` values of the order schema."""
    from adjudicator.games import get_game

    schema = get_game("moscow").orders_schema
    for choice in ("none", "retreat-1", "step:GER-XX-12+GER-XX-12", "step:U01;retreat-1",
                   "2517-2618", "later", "GER-XX-14Mot@3319", "U07@2416"):
        doc = etree.fromstring(
            '<orders xmlns="urn:pbem:orders:1" game="g" module="moscow" side="soviet" '
            f'seq="1" prev="{"0" * 64}" commit="{"0" * 64}"><entropy>{"ab" * 16}</entropy>'
            f'<answer decision="D1" choice="{choice}"/></orders>')
        assert schema.validate(doc), (choice, schema.error_log)
