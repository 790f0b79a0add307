"""Moscow '41 through orders: the Air Interdiction Phase (11.0 C-D, 11.3-11.4), Soviet
reinforcements from the cup and the Siberian divisions (14.0-14.4, 1.3.1 I), and the
end of the game (16.0 A, 16.3)."""

from __future__ import annotations

from adjudicator.engine.state import State, copy_state
from adjudicator.games.moscow.data import Game
from tests.test_moscow_rules import alone, moscow_module, step, turn_one_state

FAR_GERMAN = {"GER-XX-12": "0110"}


def at_phase(state: State, player: str, phase: str, turn: int = 2, **extra: object) -> State:
    position = copy_state(state)
    position.update(player=player, phase=phase, turn=turn, **extra)
    return position


def test_11_0_d_at_most_two_air_units_interdict_a_hex() -> None:
    module, turn_one = moscow_module(), turn_one_state()
    state = at_phase(alone(turn_one, FAR_GERMAN), "german", "interdiction")
    result = step(module, state, ("interdict", {"air": "GER-AIR-II", "hex": "2808"}),
                  ("interdict", {"air": "GER-AIR-VIII", "hex": "2808"}),
                  ("interdict", {"air": "GER-AIR-LF2", "hex": "2808"}), side="german")
    assert result.rejection is not None and result.rejection.rule == "11.0 D"
    assert result.state["interdicted"] == {"2808": 2}
    again = step(module, result.state, ("interdict", {"air": "GER-AIR-II", "hex": "2708"}),
                 side="german")
    assert again.rejection is not None and again.rejection.rule == "11.4"


def test_3_1_1_c_no_interdiction_phase_once_every_air_unit_is_used() -> None:
    module, turn_one = moscow_module(), turn_one_state()
    state = at_phase(alone(turn_one, FAR_GERMAN), "german", "combat",
                     air_used=["GER-AIR-II", "GER-AIR-LF2", "GER-AIR-VIII"])
    result = step(module, state, ("end-phase", {}), side="german")
    assert (result.state["player"], result.state["phase"]) == ("soviet", "movement")


def test_14_0_c_a_reinforcement_is_drawn_from_the_cup_and_must_enter() -> None:
    module, turn_one = moscow_module(), turn_one_state()
    game = Game.of(module)
    eliminated = next(u for u, p in game.pieces.items()
                      if p.side == "soviet" and p.type == "infantry" and not p.siberian)
    state = at_phase(alone(turn_one, FAR_GERMAN), "german", "interdiction", cup=[eliminated])
    result = step(module, state, ("end-phase", {}), side="german")
    drawn_events = [e for e in result.events if e.kind == "untried-drawn"]
    assert len(drawn_events) == 1
    token = drawn_events[0]["token"]
    assert result.state["arriving"]["2"] == [token] and result.state["cup"] == []
    held = step(module, result.state, ("end-phase", {}))
    assert held.rejection is not None and held.rejection.rule == "14.3 A"
    entry = game.board.label(min(game.entries))
    wrong = step(module, result.state, ("enter", {"unit": token, "hex": "2808"}))
    assert wrong.rejection is not None and wrong.rejection.rule == "14.1 B"
    entered = step(module, result.state, ("enter", {"unit": token, "hex": entry}),
                   ("end-phase", {}))
    assert entered.outcome == "accepted", entered.rejection
    assert entered.state["units"][token] == entry


def test_14_4_no_reinforcement_while_germans_hold_moscow() -> None:
    module, turn_one = moscow_module(), turn_one_state()
    game = Game.of(module)
    eliminated = next(u for u, p in game.pieces.items()
                      if p.side == "soviet" and p.type == "infantry" and not p.siberian)
    state = at_phase(alone(turn_one, {"GER-XX-12": game.board.label(game.moscow)}),
                     "german", "interdiction", cup=[eliminated])
    result = step(module, state, ("end-phase", {}), side="german")
    assert not [e for e in result.events if e.kind == "untried-drawn"]
    assert result.state["cup"] == [eliminated]


def test_1_3_1_i_the_siberian_division_of_turn_3_enters() -> None:
    module, turn_one = moscow_module(), turn_one_state()
    game = Game.of(module)
    state = at_phase(alone(turn_one, FAR_GERMAN), "soviet", "movement", turn=3)
    entry = game.board.label(min(game.entries))
    result = step(module, state, ("enter", {"unit": "SIB3", "hex": entry}), ("end-phase", {}))
    assert result.outcome == "accepted", result.rejection
    assert result.state["units"]["SIB3"] == entry


def test_16_0_a_a_german_unit_in_moscow_wins_at_the_end_of_the_turn() -> None:
    module, turn_one = moscow_module(), turn_one_state()
    game = Game.of(module)
    state = at_phase(alone(turn_one, {"GER-XX-12": game.board.label(game.moscow)}),
                     "soviet", "combat")
    result = step(module, state, ("end-phase", {}))
    assert result.state["phase"] == "game-over"
    assert result.state["result"] == {"level": "German Strategic", "rule": "16.0 A"}


def test_16_3_the_level_after_turn_13() -> None:
    module, turn_one = moscow_module(), turn_one_state()
    """No German unit next to Moscow, the 12th Division reduced (1 VP) and the 1st Panzer
    eliminated (15 VP): 0 - 16 = -16, a Soviet tactical victory."""
    state = at_phase(alone(turn_one, FAR_GERMAN), "soviet", "combat", turn=13,
                     steps={"GER-XX-12": 1}, eliminated=["GER-XX-1Pz"])
    result = step(module, state, ("end-phase", {}))
    assert result.state["result"] == {"level": "Soviet Tactical", "german": 0, "soviet": 16,
                                      "rule": "16.3"}


def test_16_4_the_winning_bid_goes_to_the_soviet_total() -> None:
    """16.4: the German player bid 20 VPs for his side: -16 becomes -36, strategic."""
    module, turn_one = moscow_module(), turn_one_state()
    state = at_phase(alone(turn_one, FAR_GERMAN), "soviet", "combat", turn=13,
                     steps={"GER-XX-12": 1}, eliminated=["GER-XX-1Pz"])
    state["options"] = {"bid": "20"}
    result = step(module, state, ("end-phase", {}))
    assert result.state["result"]["level"] == "Soviet Strategic"
