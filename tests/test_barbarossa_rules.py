"""1941 through the engine's step runner: the sequence of play (2.0, 17.1.1) and
movement orders (5.0, 6.0, 13.x, 3.0, 4.0) on the historical set-up."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.dice import DiceStream
from adjudicator.engine.module import ModuleData, load_module
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State, copy_state
from adjudicator.engine.step import StepResult, run_step
from adjudicator.games.barbarossa.rules import BarbarossaRules, Game, movement_allowance

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "barbarossa" / "data"
RULES = BarbarossaRules()


@pytest.fixture(scope="module")
def module() -> ModuleData:
    schema = etree.RelaxNG(file=str(DATA / "module.rng"))
    module = load_module((DATA / "module.xml").read_bytes(), schema, expected_game="barbarossa")
    RULES.check_module(module)
    return module


@pytest.fixture
def start(module: ModuleData) -> State:
    return RULES.initial_state(module, "campaign", {})


def step(module: ModuleData, state: State, *orders: tuple[str, dict[str, str]],
         side: str = "axis") -> StepResult:
    return run_step(RULES, module, state,
                    [Order(kind, attrs, index=i) for i, (kind, attrs) in enumerate(orders)],
                    side, DiceStream(b"\x01" * 32, "test", 1, b"\x02" * 32))


def end() -> tuple[str, dict[str, str]]:
    return ("end-phase", {})


def test_2_0_sequence_and_17_1_1_no_second_combat_phase_on_turn_1(module: ModuleData,
                                                                 start: State) -> None:
    phases = []
    state = copy_state(start)
    for _ in range(4):
        state = step(module, state, end()).state
        phases.append((state["player"], state["segment"], state["phase"]))
    assert phases == [("axis", "first", "movement"), ("axis", "first", "combat"),
                      ("axis", "second", "movement"), ("soviet", "air", "air")]
    assert RULES.acting_side(state) == "soviet"
    for _ in range(4):
        state = step(module, state, end(), side="soviet").state
    assert (state["turn"], state["player"], state["segment"]) == (2, "axis", "air")
    assert RULES.pass_orders(state, "axis") == ["<end-phase/>"] * 5  # Turn 2 has both


def first_movement(module: ModuleData, start: State) -> State:
    return step(module, start, end()).state


def test_5_0_a_a_unit_moves_once_per_phase_and_only_in_movement(module: ModuleData,
                                                               start: State) -> None:
    game = Game.of(module)
    unit = "SOV-XXXX-11"
    too_early = step(module, start, ("move", {"unit": unit, "path": "1222 1221"}))
    assert too_early.rejection is not None and too_early.rejection.rule == "2.0 E"
    state = first_movement(module, start)
    wrong_side = step(module, state, ("move", {"unit": unit, "path": "1222 1221"}))
    assert wrong_side.rejection is not None and "phasing side" in wrong_side.rejection.message
    occupied = set(state["units"].values())
    axis, here, behind = next(
        (u, game.board.hex(x), h) for u, x in sorted(state["units"].items())
        if game.pieces[u].side == "axis" and game.pieces[u].type == "infantry"
        for h in game.board.neighbours(game.board.hex(x))
        if game.board.label(h) not in occupied and game.country[h] not in ("soviet", "")
        and game.board.terrain[h] == "clear")
    path = f"{game.board.label(here)} {game.board.label(behind)}"
    moved = step(module, state, ("move", {"unit": axis, "path": path}))
    assert moved.rejection is None, moved.rejection
    assert moved.state["units"][axis] == game.board.label(behind)
    back = f"{game.board.label(behind)} {game.board.label(here)}"
    again = step(module, moved.state, ("move", {"unit": axis, "path": back}))
    assert again.rejection is not None and again.rejection.code == "already-moved"


def test_6_2_example_on_the_set_up_map(module: ModuleData, start: State) -> None:
    """The rulebook's 6.2 example with the historical units placed as it says."""
    game = Game.of(module)
    state = first_movement(module, start)
    panzer = next(u for u in game.pieces if game.pieces[u].size == "group"
                  and game.pieces[u].side == "axis")
    soviets = [u for u in game.pieces if game.pieces[u].side == "soviet"
               and game.pieces[u].type == "infantry" and game.pieces[u].size == "army"][:2]
    state["units"] = {panzer: "2621", soviets[0]: "2522", soviets[1]: "2720"}
    result = step(module, state, ("move", {"unit": panzer, "path": "2621 2620"}))
    assert result.rejection is None, result.rejection
    moved = next(e for e in result.events if e.kind == "unit-moved")
    assert moved["mps"] == [3]
    assert result.state["control"]["2620"] == "axis"  # 4.0 B: occupied


def test_13_3_a_mud_halves_every_ma(module: ModuleData, start: State) -> None:
    game = Game.of(module)
    panzer = next(p for p in game.pieces.values() if p.size == "group" and p.side == "axis")
    assert movement_allowance(panzer, start) == panzer.movement
    muddy = {**start, "weather": "mud"}
    assert movement_allowance(panzer, muddy) == -(-panzer.movement // 2)


def test_3_0_b_stacking_is_checked_when_the_movement_phase_ends(module: ModuleData,
                                                              start: State) -> None:
    game = Game.of(module)
    state = first_movement(module, start)
    corps = [u for u in sorted(state["units"]) if game.pieces[u].side == "axis"
             and game.pieces[u].size == "corps"][:3]
    state["units"] = {**state["units"], **dict.fromkeys(corps, state["units"][corps[0]])}
    result = step(module, state, end())
    assert result.rejection is not None and result.rejection.rule == "3.0"
