"""Moscow '41 combat and overrun through orders (games/moscow/combat.py): `<attack>`
in a Combat Phase (8.0-8.12, 11.0-11.4, 12.2) and `<overrun>` in a Movement Phase
(7.0-7.8, 3.2 C-E), with the choices the rules give each side made in the order, by
standing instruction or by decision request. The untried tokens are the real draw of
the set-up: a test picks the token whose counter it needs, so every reveal verifies
against its commitment. The die is loaded to the roll each test needs."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepResult, run_step
from adjudicator.games.moscow.data import Game
from adjudicator.games.moscow.untried import commitment
from tests.test_moscow_rules import RULES, alone, moscow_module, turn_one_state

GERMAN_STACK = "GER-XX-18Pz GER-XX-9Pz GER-XX-20Pz"


class Loaded:
    """Dice that roll the given d6 results in order."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def uniform(self, n: int) -> int:
        assert n == 6 and self.rolls, "the test did not expect this roll"
        return self.rolls.pop(0) - 1


def run(module: ModuleData, state: State, *orders: tuple[str, dict[str, str]],
        side: str = "german", rolls: tuple[int, ...] = ()) -> StepResult:
    return run_step(RULES, module, state,
                    [Order(kind, attrs, index=i) for i, (kind, attrs) in enumerate(orders)],
                    side, Loaded(*rolls))  # type: ignore[arg-type]


def tokens(state: State, *, attack: int | None = None, defense: int | None = None,
           count: int = 1) -> list[str]:
    """Untried infantry tokens whose drawn counters have these strengths."""
    game = Game.of(moscow_module())
    found = [t for t, f in sorted(state["tokens"].items())
             if f["type"] == "infantry" and not f["siberian"]
             and (attack is None or game.pieces[state["identity"][t]].attack == attack)
             and (defense is None or game.pieces[state["identity"][t]].defense == defense)]
    assert len(found) >= count
    return found[:count]


def position(units: dict[str, str], *, player: str = "german", phase: str = "combat",
             turn: int = 2, **extra: Any) -> State:
    state = alone(turn_one_state(), units)
    state.update(player=player, phase=phase, turn=turn, weather="clear", **extra)
    return state


def kinds(result: StepResult) -> list[str]:
    return [e.kind for e in result.events]


def resolved(result: StepResult) -> dict[str, Any]:
    return dict(next(e.data for e in result.events if e.kind == "combat-resolved"))


def answer(module: ModuleData, result: StepResult, choice: str,
           *orders: tuple[str, dict[str, str]], rolls: tuple[int, ...] = ()) -> StepResult:
    assert result.decision is not None
    return run(module, result.state, ("answer", {"decision": result.decision.id,
                                                 "choice": choice}), *orders,
               side=result.decision.side, rolls=rolls)


# -- 8.3, 8.6 D, 12.2: the coordinated attack of the rulebook, untried units revealed -----

def test_8_3_example_18th_9th_and_20th_panzer_attack_2416_and_2316() -> None:
    module = moscow_module()
    start = turn_one_state()
    a, b = tokens(start, count=2)
    state = position({"GER-XX-18Pz": "2315", "GER-XX-9Pz": "2315", "GER-XX-20Pz": "2417",
                      "GER-XX-3Pz": "2415", a: "2416", b: "2316"})
    # 8.3 B: the 3rd Panzer, next to 2416 only, cannot join; nothing is revealed
    refused = run(module, state, ("attack", {"units": GERMAN_STACK + " GER-XX-3Pz",
                                             "hexes": "2416 2316"}))
    assert refused.rejection is not None
    assert (refused.rejection.rule, refused.rejection.code) == ("8.3 B", "not-adjacent")
    assert refused.events == [] and refused.state["revealed"] == start["revealed"]
    result = run(module, state, ("attack", {"units": GERMAN_STACK, "hexes": "2416 2316"}),
                 rolls=(4,))
    assert result.outcome == "accepted", result.rejection
    assert kinds(result)[:4] == ["attack-declared", "untried-revealed", "untried-revealed",
                                 "roll"]
    for event in result.events[1:3]:  # 12.2: each reveal verifies against its commitment
        token = event["token"]
        assert event["rule"] == "8.6 D"
        assert commitment(token, event["piece"], event["attack"], event["defense"],
                          event["salt"]) == state["tokens"][token]["commitment"]
    fight = resolved(result)
    defense = sum(e["defense"] for e in result.events[1:3])
    assert (fight["attack"], fight["defense"]) == (6 + 7 + 6, defense)
    # 8.3 A: the woods of 2316 count; they deny the attacker's armor shift (10.1 C)
    assert [(s["name"], s["columns"]) for s in fight["shifts"]] == [("terrain", -1)]
    assert sorted(result.state["revealed"]) == sorted({*start["revealed"], a, b})
    assert set(result.state["attacked"]) == set(GERMAN_STACK.split())
    assert set(result.state["defended"]) == {a, b}


def test_8_6_d_the_declaration_checks_show_no_hidden_strength() -> None:
    module = moscow_module()
    a = tokens(turn_one_state())[0]
    state = position({"GER-XX-20Pz": "2417", a: "2416"})
    result = run(module, state, ("attack", {"units": "GER-XX-20Pz", "hexes": "2416"}),
                 rolls=(3,))
    text = repr([e.to_json() for e in result.events[:1]])
    assert "SOV-XX" not in text  # the declaration names the token only


# -- 8.1 ----------------------------------------------------------------------------------

def test_8_1_a_a_unit_not_in_the_defenders_zoc_cannot_attack() -> None:
    module = moscow_module()
    a = tokens(turn_one_state())[0]
    state = position({"GER-XX-20Pz": "2417", "GER-XX-12": "2314", a: "2416"})
    result = run(module, state, ("attack", {"units": "GER-XX-20Pz GER-XX-12",
                                            "hexes": "2416"}))
    assert result.rejection is not None and result.rejection.rule == "8.1 A"
    # 8.0 F: across a lake hexside no road crosses (no ZOC either, 5.0 C)
    lake = position({"GER-XX-12": "2704", a: "2605"})
    result = run(module, lake, ("attack", {"units": "GER-XX-12", "hexes": "2605"}))
    assert result.rejection is not None and result.rejection.rule == "8.0 F"


def test_8_1_b_no_unit_attacks_twice_in_a_combat_phase() -> None:
    module = moscow_module()
    a, b = tokens(turn_one_state(), defense=3, count=2)
    state = position({"GER-XX-20Pz": "2417", a: "2416", b: "2316"})
    # 6 against 3 in the woods: 2-1, 1L: 1-1; a 3 is no effect
    result = run(module, state, ("attack", {"units": "GER-XX-20Pz", "hexes": "2316"}),
                 ("attack", {"units": "GER-XX-20Pz", "hexes": "2416"}), rolls=(3, 3))
    assert result.rejection is not None
    assert (result.rejection.rule, result.rejection.code) == ("8.1 B", "attacked-twice")
    assert result.applied == 1
    # a new phase forgets who attacked (the Soviet Combat Phase comes later)
    ended = run(module, result.state, ("end-phase", {}))
    assert "attacked" not in ended.state


# -- 11.0-11.4: air -----------------------------------------------------------------------

def test_11_2_german_air_is_placed_before_the_reveal_and_committed_11_4() -> None:
    module = moscow_module()
    a, b = tokens(turn_one_state(), defense=3, count=2)
    state = position({"GER-XX-20Pz": "2417", "GER-XX-19Pz": "2417", a: "2416", b: "2316"})
    # 6 against 3: 2-1, armor and two air units: 5-1; a 1 is -/E
    result = run(module, state, ("attack", {"units": "GER-XX-20Pz", "hexes": "2416",
                                            "air": "GER-AIR-II GER-AIR-VIII"}), rolls=(1,))
    assert result.outcome == "accepted", result.rejection
    assert kinds(result)[:3] == ["attack-declared", "air-committed", "untried-revealed"]
    assert ("air", 2) in [(s["name"], s["columns"]) for s in resolved(result)["shifts"]]
    assert result.state["air_used"] == ["GER-AIR-II", "GER-AIR-VIII"]
    again = run(module, result.state, ("attack", {"units": "GER-XX-19Pz", "hexes": "2316",
                                                  "air": "GER-AIR-II"}))
    assert again.rejection is not None and again.rejection.rule == "11.4"


def test_11_0_b_on_a_soviet_attack_the_german_places_air_on_defence_before_the_reveal(
        ) -> None:
    module = moscow_module()
    attackers = tokens(turn_one_state(), attack=3, count=2)
    state = position({"GER-XX-12": "2416", **{t: "2417" for t in attackers}},
                     player="soviet")
    named = run(module, state, ("attack", {"units": " ".join(attackers), "hexes": "2416",
                                           "air": "GER-AIR-II"}), side="soviet")
    assert named.rejection is not None and named.rejection.rule == "11.0 B"
    asked = run(module, state, ("attack", {"units": " ".join(attackers), "hexes": "2416"}),
                side="soviet")
    assert asked.decision is not None and asked.decision.side == "german"
    assert asked.decision.kind == "air-on-defence" and asked.decision.options == [
        "0", "1", "2", "3"]
    assert "untried-revealed" not in kinds(asked)
    done = answer(module, asked, "2", rolls=(3,))
    assert done.outcome in ("accepted", "decision"), done.rejection
    assert kinds(done)[:3] == ["decision-answered", "air-committed", "untried-revealed"]
    assert ("air", -2) in [(s["name"], s["columns"]) for s in resolved(done)["shifts"]]
    assert len(done.state["air_used"]) == 2



def test_11_0_b_a_german_standing_instruction_places_air_on_defence() -> None:
    """docs/architecture.md, The engine model: the German left `<standing air-on-defence="1"/>` in
    his own file; the
    Soviet attack goes on without asking him."""
    module = moscow_module()
    attackers = tokens(turn_one_state(), attack=3, count=2)
    state = position({"GER-XX-12": "2416", **{t: "2417" for t in attackers}},
                     player="soviet")
    standing = run(module, state, ("standing", {"air-on-defence": "1"}), side="german")
    assert standing.outcome == "accepted", standing.rejection
    result = run(module, standing.state, ("attack", {"units": " ".join(attackers),
                                                     "hexes": "2416"}),
                 side="soviet", rolls=(3,))
    assert "decision-requested" not in kinds(result)[:3]
    assert len(result.state["air_used"]) == 1


# -- 8.9: results -------------------------------------------------------------------------

def test_8_9_d_the_german_defender_chooses_a_step_loss_by_decision() -> None:
    module = moscow_module()
    attackers = tokens(turn_one_state(), attack=3, count=4)
    state = position({"GER-XX-12": "2416", "GER-XX-251": "2416",
                      **{t: "2417" for t in attackers}}, player="soviet",
                     standing={"german": {"air-on-defence": "0"}})
    result = run(module, state, ("attack", {"units": " ".join(attackers), "hexes": "2416",
                                            "loss": f"step:{attackers[0]}"}),
                 side="soviet", rolls=(2,))  # 12 against 8: 1-1, a 2 is 1/1
    assert resolved(result)["result"] == "1/1"
    assert "standing-instruction-used" in kinds(result)
    assert result.decision is not None and result.decision.side == "german"
    assert (result.decision.kind, result.decision.rule) == ("loss", "8.9 D")
    assert result.decision.options == ["retreat-1", "step:GER-XX-12", "step:GER-XX-251"]
    done = answer(module, result, "step:GER-XX-251")
    assert done.outcome == "accepted", done.rejection
    assert done.state["steps"] == {"GER-XX-251": 1}
    assert attackers[0] not in done.state["units"]  # the Soviet loss, from its order
    assert done.state["units"]["GER-XX-251"] == "2416"


def test_8_10_8_12_a_defender_retreats_and_the_attacker_advances() -> None:
    module = moscow_module()
    a = tokens(turn_one_state(), defense=3)[0]
    state = position({"GER-XX-20Pz": "2417", a: "2416"})
    result = run(module, state, ("attack", {"units": "GER-XX-20Pz", "hexes": "2416",
                                            "advance": "GER-XX-20Pz"}), rolls=(2,))
    # 6 against 3: 2-1, armor in clear 3-1; a 2 is -/1
    assert resolved(result)["final"] == "3-1" and resolved(result)["result"] == "-/1"
    assert result.decision is not None and result.decision.side == "soviet"
    assert result.decision.options == ["retreat-1", f"step:{a}"]
    chose = answer(module, result, "retreat-1")
    # 8.11 B: away from 2417, out of the 20th Panzer's ZOC: more than one safe hex
    assert chose.decision is not None and chose.decision.kind == "retreat"
    assert chose.decision.side == "soviet" and "2516" not in chose.decision.options
    path = chose.decision.options[0]
    done = answer(module, chose, path)
    assert done.outcome == "accepted", done.rejection
    assert done.state["units"][a] == path and a in done.state["retreated"]
    assert done.state["units"]["GER-XX-20Pz"] == "2416"  # 8.12: advanced, no MP cost
    assert kinds(done)[-2:] == ["units-advanced", "combat-finished"]


def test_8_9_f_a_split_result_the_defender_applies_its_loss_first() -> None:
    module = moscow_module()
    a = tokens(turn_one_state(), defense=3)[0]
    state = position({"GER-XX-20Pz": "2417", a: "2416"})
    result = run(module, state, ("attack", {"units": "GER-XX-20Pz", "hexes": "2416",
                                            "loss": "retreat-2 step:GER-XX-20Pz",
                                            "advance": "GER-XX-20Pz"}), rolls=(4,))
    assert resolved(result)["result"] == "1/1"
    assert result.decision is not None and result.decision.side == "soviet"
    done = answer(module, result, f"step:{a}")
    assert done.outcome == "accepted", done.rejection
    chosen = [(e["party"], e["choice"]) for e in done.events if e.kind == "loss-chosen"]
    assert chosen == [("defender", f"step:{a}"), ("attacker", "step:GER-XX-20Pz")]
    assert a not in done.state["units"] and done.state["steps"] == {"GER-XX-20Pz": 1}
    # 8.9 F: the attacker stayed in its hex and advances into the vacant one (8.12 I)
    assert done.state["units"]["GER-XX-20Pz"] == "2416"


def test_8_2_units_that_retreated_into_the_hex_are_swept_away() -> None:
    module = moscow_module()
    a, b = tokens(turn_one_state(), defense=3, count=2)
    state = position({"GER-XX-20Pz": "2417", a: "2416", b: "2416"}, retreated=[b],
                     standing={"soviet": {"loss": "retreat", "retreat": "first"}})
    result = run(module, state, ("attack", {"units": "GER-XX-20Pz", "hexes": "2416"}),
                 rolls=(2,))
    assert result.outcome == "accepted", result.rejection
    assert resolved(result)["defense"] == 3  # b adds nothing (8.2)
    gone = [(e["unit"], e["rule"]) for e in result.events if e.kind == "unit-eliminated"]
    assert gone == [(b, "8.2")]
    assert a in result.state["units"] and result.state["units"][a] != "2416"


# -- 7.0-7.8: overrun ---------------------------------------------------------------------

def test_7_6_a_successful_overrun_forces_an_advance_and_the_units_move_on() -> None:
    module = moscow_module()
    a = tokens(turn_one_state(), defense=3)[0]
    state = position({"GER-XX-20Pz": "2417", "GER-XX-19Pz": "2417", a: "2416"},
                     phase="movement")
    result = run(module, state, ("overrun", {"units": "GER-XX-20Pz GER-XX-19Pz",
                                             "hex": "2416", "air": "GER-AIR-II GER-AIR-LF2"}),
                 ("move", {"units": "GER-XX-20Pz", "path": "2416 2515"}), rolls=(1,))
    assert result.outcome == "accepted", result.rejection
    fight = resolved(result)
    # 12 against 3: 4-1; armor +1, overrun 2L (7.1), air +2: 5-1; a 1 is -/E
    assert fight["final"] == "5-1" and fight["result"] == "-/E"
    assert ("overrun", -2) in [(s["name"], s["columns"]) for s in fight["shifts"]]
    assert a not in result.state["units"]
    advanced = next(e for e in result.events if e.kind == "units-advanced")
    assert advanced["moves"] == [{"unit": "GER-XX-20Pz", "path": ["2416"]}]  # 7.6 C
    assert result.state["units"] == {"GER-XX-20Pz": "2515", "GER-XX-19Pz": "2417"}
    # 7.3: 2 MPs and the clear hex's 1; the move on costs 1 more (7.0 B)
    assert result.state["movers"]["GER-XX-19Pz"]["spent"] == "3"
    assert result.state["movers"]["GER-XX-20Pz"]["spent"] == "4"


def test_7_7_c_an_unsuccessful_overrun_that_retreats_ends_the_units_movement() -> None:
    module = moscow_module()
    a = tokens(turn_one_state(), defense=3)[0]
    state = position({"GER-XX-20Pz": "2417", a: "2416"}, phase="movement",
                     standing={"german": {"retreat": "first"}})
    result = run(module, state, ("overrun", {"units": "GER-XX-20Pz", "hex": "2416",
                                             "loss": "retreat-1"}), rolls=(5,))
    # 6 against 3: 2-1, armor +1, overrun 2L: 1-1; a 5 is 1/-
    assert resolved(result)["result"] == "1/-"
    assert result.outcome == "accepted", result.rejection
    assert result.state["units"][a] == "2416"  # 7.7 E: the defender never advances
    assert result.state["units"]["GER-XX-20Pz"] != "2417"
    assert result.state["movers"]["GER-XX-20Pz"]["finished"] is True
    finished = [e for e in result.events if e.kind == "combat-finished"][-1]
    assert finished["success"] is False
    here = result.state["units"]["GER-XX-20Pz"]
    again = run(module, result.state, ("move", {"units": "GER-XX-20Pz",
                                                "path": f"{here} 2417"}))
    assert again.rejection is not None and again.rejection.rule == "7.7 C"


def test_7_7_d_an_unsuccessful_overrun_that_absorbs_the_loss_may_move_on() -> None:
    module = moscow_module()
    a = tokens(turn_one_state(), defense=3)[0]
    state = position({"GER-XX-20Pz": "2417", a: "2416"}, phase="movement")
    result = run(module, state, ("overrun", {"units": "GER-XX-20Pz", "hex": "2416"}),
                 rolls=(5,))
    assert result.decision is not None and result.decision.side == "german"
    assert (result.decision.rule, result.decision.options) == (
        "7.7 B", ["retreat-1", "step:GER-XX-20Pz"])
    done = answer(module, result, "step:GER-XX-20Pz")
    assert done.outcome == "accepted", done.rejection
    assert done.state["steps"] == {"GER-XX-20Pz": 1}
    assert done.state["movers"]["GER-XX-20Pz"]["finished"] is False
    assert done.state["movers"]["GER-XX-20Pz"]["spent"] == "3"


def test_7_5_c_no_overrun_across_a_lake_hexside_even_with_a_road() -> None:
    module = moscow_module()
    a = tokens(turn_one_state())[0]
    state = position({"GER-XX-12": "2505", a: "2605"}, phase="movement")
    result = run(module, state, ("overrun", {"units": "GER-XX-12", "hex": "2605"}))
    assert result.rejection is not None and result.rejection.rule == "7.5 C"
    assert result.events == []


def test_7_0_a_no_overrun_in_the_combat_phase_nor_attack_in_the_movement_phase() -> None:
    module = moscow_module()
    a = tokens(turn_one_state())[0]
    state = position({"GER-XX-20Pz": "2417", a: "2416"})
    result = run(module, state, ("overrun", {"units": "GER-XX-20Pz", "hex": "2416"}))
    assert result.rejection is not None and result.rejection.rule == "7.0 A"
    state = position({"GER-XX-20Pz": "2417", a: "2416"}, phase="movement")
    result = run(module, state, ("attack", {"units": "GER-XX-20Pz", "hexes": "2416"}))
    assert result.rejection is not None and result.rejection.rule == "8.0 A"


def test_3_2_c_e_turn_1_overrun_costs_1_mp_and_shifts_4_right() -> None:
    module = moscow_module()
    a = tokens(turn_one_state(), defense=3)[0]
    state = position({"GER-XX-20Pz": "2417", a: "2416"}, phase="movement", turn=1)
    result = run(module, state, ("overrun", {"units": "GER-XX-20Pz", "hex": "2416"}),
                 rolls=(1,))
    assert result.outcome == "accepted", result.rejection
    fight = resolved(result)
    shifts = [(s["name"], s["columns"], s["rule"]) for s in fight["shifts"]]
    assert ("turn-1", 4, "3.2 E") in shifts and ("overrun", -2, "7.1") in shifts
    assert fight["final"] == "5-1" and fight["result"] == "-/E"
    # 3.2 C: 1 MP and the clear hex's 1
    assert result.state["movers"]["GER-XX-20Pz"]["spent"] == "2"
    assert result.state["units"]["GER-XX-20Pz"] == "2416"


def test_8_12_c_victorious_defenders_may_advance_into_the_attackers_vacated_hex() -> None:
    """8.12 A, C: the 20th Panzer (6) attacks an untried unit of defense 3 at 3-1 and
    rolls a 6: 2/-; it retreats two hexes. The defender suffered neither loss nor
    retreat, so the Soviet player may move it into 2417, which the attack vacated."""
    module = moscow_module()
    a = tokens(turn_one_state(), defense=3)[0]
    state = position({"GER-XX-20Pz": "2417", a: "2416"})
    result = run(module, state, ("standing", {"retreat": "first"}),
                 ("attack", {"units": "GER-XX-20Pz", "hexes": "2416", "loss": "retreat-2"}),
                 rolls=(6,))
    assert resolved(result)["result"] == "2/-"
    assert result.decision is not None and result.decision.kind == "defender-advance"
    assert result.decision.side == "soviet" and result.decision.rule == "8.12 C"
    assert result.decision.options == ["none", f"{a}@2417"]
    done = answer(module, result, f"{a}@2417")
    assert done.outcome == "accepted", done.rejection
    assert done.state["units"][a] == "2417"
    refused = run(module, state, ("standing", {"retreat": "first"}),
                  ("attack", {"units": "GER-XX-20Pz", "hexes": "2416", "loss": "retreat-2"}),
                  rolls=(6,))
    stays = answer(module, refused, "none")
    assert stays.outcome == "accepted" and stays.state["units"][a] == "2416"


def test_8_10_a_the_owner_chooses_the_order_of_his_retreats() -> None:
    """8.10 A: "Units are retreated (by their owner) one at a time ... in any order the
    owner chooses": asked for the first unit's path, the Soviet player answers `later`,
    retreats the other one first, then the first."""
    module = moscow_module()
    a, b = tokens(turn_one_state(), defense=3, count=2)
    state = position({"GER-XX-20Pz": "2417", a: "2416", b: "2416"})
    result = run(module, state, ("attack", {"units": "GER-XX-20Pz", "hexes": "2416"}),
                 rolls=(2,))
    assert resolved(result)["result"] == "-/1"
    chose = answer(module, result, "retreat-1")
    assert chose.decision is not None and chose.decision.kind == "retreat"
    first = chose.decision.context["unit"]
    assert chose.decision.options[-1] == "later"
    deferred = answer(module, chose, "later")
    assert deferred.decision is not None and deferred.decision.context["unit"] != first
    other = answer(module, deferred, deferred.decision.options[0])
    assert other.decision is not None and other.decision.context["unit"] == first
    done = answer(module, other, other.decision.options[0])
    assert done.outcome == "accepted", done.rejection
    moved = [e["unit"] for e in done.events if e.kind == "unit-retreated"]
    assert moved == [first]  # the deferred unit retreated last
