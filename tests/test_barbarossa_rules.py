"""1941 through the engine's step runner: the sequence of play (2.0, 17.1.1) and
movement orders (5.0, 6.0, 13.x, 3.0, 4.0) on the historical set-up."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.dice import DiceStream
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State, copy_state
from adjudicator.engine.step import StepResult, run_step
from adjudicator.errors import IllegalOrder
from adjudicator.games import get_game
from adjudicator.games.barbarossa.data import GameData as Game
from adjudicator.games.barbarossa.movement import movement_allowance
from adjudicator.games.barbarossa.rules import BarbarossaRules
from adjudicator.games.barbarossa.zoc import enemy_zones

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "barbarossa" / "data"
RULES = BarbarossaRules()


@pytest.fixture(scope="module")
def module() -> ModuleData:
    return get_game("barbarossa").bundled_module


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
    state["arriving"] = {}  # reinforcements: their own tests
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


def test_5_0_a_a_unit_moves_within_its_ma_per_phase_and_only_in_movement(module: ModuleData,
                                                               start: State) -> None:
    game = Game.of(module)
    unit = "SOV-XXXX-11"
    too_early = step(module, start, ("move", {"unit": unit, "path": "1222 1221"}))
    assert too_early.rejection is not None and too_early.rejection.rule == "2.0 E"
    state = first_movement(module, start)
    wrong_side = step(module, state, ("move", {"unit": unit, "path": "1222 1221"}))
    assert wrong_side.rejection is not None and "phasing side" in wrong_side.rejection.message
    occupied = set(state["units"].values())
    zones = enemy_zones(game, state, "axis").any
    axis, here, behind = next(
        (u, game.board.hex(x), h) for u, x in sorted(state["units"].items())
        if game.pieces[u].side == "axis" and game.pieces[u].type == "infantry"
        and game.board.hex(x) not in zones
        for h in game.board.neighbours(game.board.hex(x))
        if game.board.label(h) not in occupied and game.country[h] not in ("soviet", "")
        and game.board.terrain[h] == "clear" and h not in zones
        and not game.board.features(game.board.hex(x), h))
    path = f"{game.board.label(here)} {game.board.label(behind)}"
    moved = step(module, state, ("move", {"unit": axis, "path": path}))
    assert moved.rejection is None, moved.rejection
    assert moved.state["units"][axis] == game.board.label(behind)
    # a second move goes on from there with what is left of the MA, checked as one move
    back = f"{game.board.label(behind)} {game.board.label(here)}"
    again = step(module, moved.state, ("move", {"unit": axis, "path": back}))
    assert again.rejection is None, again.rejection
    assert again.state["paths"][axis] == [game.board.label(h) for h in (here, behind, here)]
    state, spent, at, other = again.state, 2, here, behind
    while True:
        result = step(module, state, ("move", {"unit": axis, "path": " ".join(
            game.board.label(h) for h in (at, other))}))
        spent += 1
        if result.rejection is not None:
            break
        state, at, other = result.state, other, at
    assert result.rejection.code == "too-far" and spent == game.pieces[axis].movement + 1
    assert f"bring it to {spent}" in result.rejection.message


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
    state = first_movement(module, {**start, "arriving": {}})
    corps = [u for u in sorted(state["units"]) if game.pieces[u].side == "axis"
             and game.pieces[u].size == "corps"][:3]
    state["units"] = {**state["units"], **dict.fromkeys(corps, state["units"][corps[0]])}
    result = step(module, state, end())
    assert result.rejection is not None and result.rejection.rule == "3.3 A"


# -- combat through orders (7.0, 9.1, 10.2, 17.1.4) -----------------------------------

def combat_position(module: ModuleData, start: State, units: dict[str, str],
                    air: dict[str, int] | None = None, turn: int = 2) -> State:
    """The axis First Combat Phase with only `units` on the map; from Turn 2 on, the
    Soviets retreat their own units and have left the standing instruction to take
    the first of equally good hexes."""
    state = step(module, {**start, "arriving": {}}, end(), end()).state
    assert (state["segment"], state["phase"]) == ("first", "combat")
    state.update(units=dict(units), air=air or {"axis": 2, "soviet": 0}, turn=turn,
                 standing={"soviet": {"retreat": "first"}})
    return state


def pieces_of(module: ModuleData, side: str, size: str, type_: str = "") -> list[str]:
    game = Game.of(module)
    return [u for u, p in sorted(game.pieces.items())
            if p.side == side and p.size == size and (not type_ or p.type == type_)]


def test_7_4_an_attack_rolls_once_and_applies_its_crt_result(module: ModuleData,
                                                             start: State) -> None:
    game = Game.of(module)
    panzer = pieces_of(module, "axis", "group", "armor")[0]
    army = pieces_of(module, "soviet", "army", "infantry")[0]
    state = combat_position(module, start, {panzer: "2621", army: "2620"})
    result = step(module, state, ("attack", {"hex": "2620", "units": panzer, "air": "1",
                                             "advance": panzer}))
    assert result.rejection is None and result.decision is None, result.rejection
    resolved = next(e for e in result.events if e.kind == "attack-resolved")
    ladder = game.charts.crt.ladder
    expected = ladder.final(ladder.clamp(ladder.initial(game.pieces[panzer].attack,
                                                        game.pieces[army].attack)),
                            resolved["shift"])
    assert resolved["odds"] == ladder.name(expected)
    assert resolved["result"] == game.charts.crt.result(expected, resolved["roll"])
    assert resolved["shift"] == 1 + 1  # 9.1 armor bonus (clear, June) + 10.2 one air point
    assert result.state["air"]["axis"] == 1
    after = result.state["units"]
    outcome = resolved["result"]
    if outcome in ("DE", "EX"):
        assert army not in after and after.get(panzer) in ("2620", None)
    if outcome == "AE":
        assert panzer not in after
    assert [r.kind for r in result.events].count("roll") == 1


def test_7_2_d_and_e_once_per_combat_phase(module: ModuleData, start: State) -> None:
    panzer, second = pieces_of(module, "axis", "group", "armor")[:2]
    army = pieces_of(module, "soviet", "army", "infantry")[0]
    state = combat_position(module, start, {panzer: "2621", second: "2721", army: "2620"})
    first = step(module, state, ("attack", {"hex": "2620", "units": panzer}))
    assert first.rejection is None and first.decision is None
    if army in first.state["units"] and first.state["units"][army] == "2620":
        again = step(module, first.state, ("attack", {"hex": "2620", "units": second}))
        assert again.rejection is not None and again.rejection.rule == "7.2 E"
    twice = step(module, first.state, ("attack", {"hex": "2620", "units": panzer}))
    assert twice.rejection is not None and twice.rejection.rule in ("7.2 D", "7.1 A", "7.2 E")


def test_10_2_c_the_defender_allocates_air_after_the_attacker(module: ModuleData,
                                                              start: State) -> None:
    panzer = pieces_of(module, "axis", "group", "armor")[0]
    army = pieces_of(module, "soviet", "army", "infantry")[0]
    state = combat_position(module, start, {panzer: "2621", army: "2620"},
                            air={"axis": 3, "soviet": 2})
    asked = step(module, state, ("attack", {"hex": "2620", "units": panzer, "air": "2"}))
    assert asked.decision is not None and asked.decision.side == "soviet"
    assert asked.decision.kind == "defensive-air" and asked.decision.options == ["0", "1", "2"]
    assert RULES.acting_side(asked.state) == "soviet"
    early = step(module, asked.state, end())
    assert early.rejection is not None  # the axis must wait for the answer
    answered = step(module, asked.state, ("answer", {"decision": asked.decision.id,
                                                     "choice": "2"}), side="soviet")
    assert answered.rejection is None, answered.rejection
    resolved = next(e for e in answered.events if e.kind == "attack-resolved")
    assert resolved["air"] == {"attacker": 2, "defender": 2}
    assert answered.state["air"] == {"axis": 1, "soviet": 0}


def test_10_2_b_standing_instructions_answer_for_the_absent_defender(module: ModuleData,
                                                                    start: State) -> None:
    panzer = pieces_of(module, "axis", "group", "armor")[0]
    army = pieces_of(module, "soviet", "army", "infantry")[0]
    state = combat_position(module, start, {panzer: "2621", army: "2620"},
                            air={"axis": 3, "soviet": 2})
    state["standing"]["soviet"]["defensive-air"] = "1"
    result = step(module, state, ("attack", {"hex": "2620", "units": panzer}))
    assert result.decision is None, result.decision
    resolved = next(e for e in result.events if e.kind == "attack-resolved")
    assert resolved["air"] == {"attacker": 0, "defender": 1}


def test_10_3_axis_air_needs_a_german_unit(module: ModuleData, start: State) -> None:
    game = Game.of(module)
    finn = next(u for u, p in sorted(game.pieces.items()) if p.nationality == "finnish")
    army = pieces_of(module, "soviet", "army", "infantry")[0]
    state = combat_position(module, start, {finn: "2621", army: "2620"})
    result = step(module, state, ("attack", {"hex": "2620", "units": finn, "air": "1"}))
    assert result.rejection is not None and result.rejection.rule == "10.3"


def test_2_0_c_the_non_phasing_side_waits_its_turn(module: ModuleData, start: State) -> None:
    result = step(module, start, end(), side="soviet")
    assert result.rejection is not None and result.rejection.rule == "2.0 C"


def test_17_1_4_on_turn_1_the_german_retreats_the_soviet_units(module: ModuleData,
                                                               start: State) -> None:
    """Whatever the roll, a Soviet retreat on Turn 1 is the German's choice; played until
    a DR comes up (the dice stream is fixed, so this is deterministic)."""
    panzer = pieces_of(module, "axis", "group", "armor")[0]
    army = pieces_of(module, "soviet", "army", "infantry")[0]
    for seed in range(40):
        state = combat_position(module, start, {panzer: "2621", army: "2620"}, turn=1)
        result = run_step(RULES, module, state, [Order("attack", {"hex": "2620",
                                                                  "units": panzer})],
                          "axis", DiceStream(bytes([seed]) * 32, "test", 1, b"\x02" * 32))
        if result.decision is not None:
            break
    else:
        pytest.fail("no retreat in 40 rolls")
    assert (result.decision.side, result.decision.kind, result.decision.rule) == \
        ("axis", "retreat", "17.1.4")
    choice = result.decision.options[-1]
    answered = run_step(RULES, module, result.state,
                        [Order("answer", {"decision": result.decision.id, "choice": choice})],
                        "axis", DiceStream(b"\x03" * 32, "test", 2, b"\x02" * 32))
    assert answered.rejection is None and answered.state["units"][army] == choice


# -- supply (8.0) and surrender (16.0) ---------------------------------------------------

def test_8_0_b_the_historical_set_up_is_in_supply(module: ModuleData, start: State) -> None:
    state = step(module, start, end()).state  # into the First Ground Segment
    traced = state["unsupplied"]
    assert traced == []


def test_8_3_b_and_16_0_a_cut_off_soviet_units(module: ModuleData, start: State) -> None:
    from adjudicator.engine.hexgrid import hex_distance
    from adjudicator.games.barbarossa.supply import unsupplied
    from adjudicator.games.barbarossa.surrender import surrendering

    game = Game.of(module)
    army, other = pieces_of(module, "soviet", "army", "infantry")[:2]
    soviet_land = [h for h in game.board if game.country[h] == "soviet"]
    # the Axis-held land hex farthest from the Soviet Union
    deep = max((h for h in game.board if game.country[h] not in ("soviet", "")
                and game.board.terrain[h] not in ("sea", "lake")),
               key=lambda h: (min(hex_distance(h, s) for s in soviet_land), h))
    label = game.board.label(deep)
    state = {**start, "units": {army: label, other: "1808"}}
    assert unsupplied(game, state, "soviet") == [army]
    assert surrendering(game, state) == [army]  # Moscow is more than five hexes away
    halved_state = {**start, "unsupplied": [army]}
    assert movement_allowance(game.pieces[army], halved_state) == \
        -(-game.pieces[army].movement // 2)


# -- reinforcements (14.1), rail (5.4), air negation (10.4) -----------------------------

def test_14_1_3_c_reinforcements_may_not_be_delayed(module: ModuleData, start: State) -> None:
    game = Game.of(module)
    state = first_movement(module, start)
    late = step(module, state, end())
    assert late.rejection is not None and late.rejection.rule == "14.1.3 C"
    panzer = "GER-XXX-14Pz"  # the Turn 1 panzer corps (20.6.3 B)
    wrong = step(module, state, ("enter", {"unit": panzer, "hex": "1808"}))
    assert wrong.rejection is not None and wrong.rejection.rule == "14.1.1 A"
    from adjudicator.games.barbarossa.reinforcements import entry_hexes

    west = entry_hexes(game, state, panzer)
    assert west and all(game.board.grid.to_offset(h)[1] == 28 for h in west)
    entered = step(module, state, ("enter", {"unit": panzer, "hex": game.board.label(west[0])}),
                   end())
    assert entered.rejection is None, entered.rejection
    assert entered.state["units"][panzer] == game.board.label(west[0])


def test_17_1_5_a_the_1_od_unit_enters_at_odessa(module: ModuleData, start: State) -> None:
    game = Game.of(module)
    coastal = next(u for u, p in game.pieces.items() if p.deploy == "1:Od")
    state = step(module, start, end(), end(), end(), end()).state  # past the Axis turn ...
    state = {**state, "player": "soviet", "segment": "first", "phase": "movement"}
    at_odessa = step(module, state, ("enter", {"unit": coastal, "hex": "3322"}), side="soviet")
    assert at_odessa.rejection is None, at_odessa.rejection
    elsewhere = step(module, state, ("enter", {"unit": coastal, "hex": "1808"}), side="soviet")
    assert elsewhere.rejection is not None and elsewhere.rejection.rule == "17.1.5 A"


def test_17_1_2_a_no_german_rail_on_turn_1_and_5_4_on_turn_2(module: ModuleData,
                                                             start: State) -> None:
    from adjudicator.games.barbarossa.zoc import enemy_zones

    game = Game.of(module)
    state = first_movement(module, {**start, "arriving": {}})
    zones = enemy_zones(game, state, "axis")
    corps, here, along = next(
        (u, h, n) for u, p in sorted(game.pieces.items())
        if p.side == "axis" and p.size == "corps" and p.nationality == "german"
        and u in state["units"]
        for h in [game.board.hex(state["units"][u])] if h not in zones.any
        for n in game.board.neighbours(h)
        if "rail" in game.board.features(h, n) and n not in zones.any
        and game.country[n] not in ("soviet", ""))
    path = f"{game.board.label(here)} {game.board.label(along)}"
    turn_1 = step(module, state, ("rail", {"unit": corps, "path": path}))
    assert turn_1.rejection is not None and turn_1.rejection.rule == "17.1.2 A"
    moved = step(module, {**state, "turn": 2}, ("rail", {"unit": corps, "path": path}))
    assert moved.rejection is None, moved.rejection
    assert moved.state["rail_used"]["axis"] == 1


def test_10_4_negation_in_the_air_segment(module: ModuleData, start: State) -> None:
    state = {**start, "air": {"axis": 3, "soviet": 2}}
    result = step(module, state, ("negate", {"points": "2"}))
    assert result.rejection is None and result.state["air"] == {"axis": 1, "soviet": 0}
    too_late = step(module, state, end(), ("negate", {"points": "1"}))
    assert too_late.rejection is not None and too_late.rejection.rule == "10.4"


# -- victory (18.0) --------------------------------------------------------------------

def test_18_victory_points_levels_and_the_strategic_victory(module: ModuleData,
                                                           start: State) -> None:
    from adjudicator.games.barbarossa.victory import result

    at_start = result(module, start)
    assert at_start.points == 0 and at_start.level == "Soviet substantial victory"
    assert not at_start.strategic
    taken = {"1808": "axis", "0712": "axis", "2519": "axis", "2913": "axis",
             "3610": "axis", "3313": "axis", "3116": "axis", "3322": "axis"}
    gains = result(module, {**start, "control": taken})
    assert gains.points >= 37 and gains.level.startswith("German")
    game = Game.of(module)
    soviets = [u for u, p in game.pieces.items() if p.side == "soviet"][:40]
    shifted = result(module, {**start, "control": taken,
                              "units": {u: x for u, x in start["units"].items()
                                        if u not in soviets},
                              "eliminated": soviets})
    levels = ["Soviet substantial victory", "Soviet marginal victory",
              "German marginal victory", "German substantial victory"]
    assert levels.index(shifted.level) == min(3, levels.index(gains.level) + 1)  # 18.2 B
    objectives = [o.get("hex") for o in module.root.iter(
        "{urn:pbem:module:1}objective")]
    everything = result(module, {**start, "control": dict.fromkeys(objectives, "axis")})
    assert everything.strategic  # 18.3


def test_18_1_a_the_game_ends_after_its_last_turn_with_its_result(module: ModuleData,
                                                                  start: State) -> None:
    state = {**start, "turn": 7, "player": "soviet", "segment": "second",
             "phase": "combat", "arriving": {}}
    over = step(module, state, end(), side="soviet")
    assert over.rejection is None, over.rejection
    assert over.state["phase"] == "game-over" and over.state["result"]["level"]
    assert RULES.acting_side(over.state) is None


# -- replacements (14.2) -----------------------------------------------------------------

def soviet_first_movement(start: State, turn: int, eliminated: list[str]) -> State:
    units = {u: x for u, x in start["units"].items() if u not in eliminated}
    return {**start, "turn": turn, "player": "soviet", "segment": "first",
            "phase": "movement", "arriving": {}, "units": units, "eliminated": eliminated}


def test_14_2_1_replacements_from_turn_3_at_the_east_edge(module: ModuleData,
                                                          start: State) -> None:
    game = Game.of(module)
    lost = [u for u, p in sorted(game.pieces.items()) if p.side == "soviet"
            and not p.armor and p.attack <= 4 and u in start["units"]][:5]
    sources = [game.board.label(h) for h, kind in sorted(game.supply.items())
               if kind == "soviet" and game.board.label(h) not in start["units"].values()]
    source = sources[0]
    early = step(module, soviet_first_movement(start, 2, lost),
                 ("replace", {"unit": lost[0], "hex": source}), side="soviet")
    assert early.rejection is not None and early.rejection.rule == "14.2.1"
    state = soviet_first_movement(start, 3, lost)
    wrong = step(module, state, ("replace", {"unit": lost[0], "hex": "1808"}), side="soviet")
    assert wrong.rejection is not None and wrong.rejection.rule == "14.2.3 B"
    orders = [("replace", {"unit": u, "hex": h}) for u, h in zip(lost, sources, strict=False)]
    result = step(module, state, *orders, side="soviet")
    assert result.rejection is not None and result.rejection.rule == "14.2.2 A"  # the fifth
    assert result.rejection.index == 4 and all(u in result.state["units"] for u in lost[:4])


def test_the_order_schema_takes_every_order_the_rules_know() -> None:
    schema = etree.RelaxNG(file=str(DATA / "orders.rng"))
    xml = (b'<orders xmlns="urn:pbem:orders:1" game="g" module="barbarossa" side="axis" '
           b'seq="1" prev="' + b"a" * 64 + b'" commit="' + b"b" * 64 + b'">'
           b'<entropy>' + b"00" * 32 + b'</entropy><negate points="1"/>'
           b'<move unit="GER-XXX-46Pz" path="1825 1824"/><rail unit="U" path="1825 1824"/>'
           b'<enter unit="U" hex="1828"/><replace unit="U" hex="1401"/>'
           b'<attack hex="1824" units="A B" air="1" advance="A" lose="B"/><end-phase/>'
           b'<standing defensive-air="1" retreat="first"/>'
           b'<answer decision="D1" choice="2520"/><partisans/><bomb-rail points="1"/>'
           b'<air-supply unit="U"/>'
           # 7.2 B: an attack on two hexes passes the schema; the rules refuse it in words
           b'<attack hex="2519 2520" units="A"/></orders>')
    assert schema.validate(etree.fromstring(xml)), schema.error_log
    ORDER_HANDLERS = BarbarossaRules.orders

    kinds = {el.get("name") for el in etree.parse(str(DATA / "orders.rng")).iter(
        "{http://relaxng.org/ns/structure/1.0}element")} - {"orders", "entropy", "signature"}
    assert kinds == set(ORDER_HANDLERS)


def test_15_2_2_b_finnish_attacks_on_the_map(module: ModuleData, start: State) -> None:
    """The rule's example: Finns in 0708 and 0809, Soviets in 0707, 0808 and 0910."""
    game = Game.of(module)
    finns = [u for u, p in sorted(game.pieces.items()) if p.nationality == "finnish"][:2]
    soviets = pieces_of(module, "soviet", "army", "infantry")[:3]
    units = {finns[0]: "0708", finns[1]: "0809", soviets[0]: "0707", soviets[1]: "0808",
             soviets[2]: "0910"}
    state = combat_position(module, start, units, air={"axis": 0, "soviet": 0}, turn=3)
    allowed = step(module, state, ("attack", {"hex": "0707", "units": finns[0]}))
    assert allowed.rejection is None, allowed.rejection
    for hex_, unit in (("0808", finns[0]), ("0910", finns[1])):
        refused = step(module, state, ("attack", {"hex": hex_, "units": unit}))
        assert refused.rejection is not None and refused.rejection.rule == "15.2.2 B"


def test_15_1_a_nobody_enters_hungary_on_turn_1(module: ModuleData, start: State) -> None:
    game = Game.of(module)
    state = first_movement(module, {**start, "arriving": {}})
    beside, into = next((h, n) for h in game.board if game.country[h] == "romania"
                        for n in game.board.neighbours(h) if game.country[n] == "hungary"
                        and game.board.terrain[n] == "clear")
    unit = pieces_of(module, "axis", "corps", "infantry")[0]
    state["units"] = {unit: game.board.label(beside)}
    path = f"{game.board.label(beside)} {game.board.label(into)}"
    result = step(module, state, ("move", {"unit": unit, "path": path}))
    assert result.rejection is not None and result.rejection.rule == "15.1 A"
    later = step(module, {**state, "turn": 2}, ("move", {"unit": unit, "path": path}))
    assert later.rejection is None or later.rejection.rule != "15.1 A"


# -- optional rules 20.2, 20.3, 20.5 ------------------------------------------------------

def with_options(module: ModuleData, **options: str) -> State:
    state = RULES.initial_state(module, "campaign", options)
    return {**state, "arriving": {}}


def test_20_2_partisans_cut_the_axis_rail_capacity(module: ModuleData) -> None:
    state = with_options(module, partisans="yes")
    soviet_turn = {**state, "turn": 2, "player": "soviet"}
    declared = step(module, soviet_turn, ("partisans", {}), side="soviet")
    assert declared.rejection is None, declared.rejection
    assert declared.state["partisans"] == {"used": 1, "active": 3}
    too_early = step(module, {**soviet_turn, "turn": 1}, ("partisans", {}), side="soviet")
    assert too_early.rejection is not None and too_early.rejection.rule == "20.2 C"
    spent = {**soviet_turn, "turn": 4, "partisans": {"used": 2, "active": 4}}
    again = step(module, spent, ("partisans", {}), side="soviet")
    assert again.rejection is not None and again.rejection.rule == "20.2 C"
    from adjudicator.games.barbarossa.rail import check_rail_capacity

    used, _ = check_rail_capacity("axis", 0, "corps", turn=3, partisans=True)
    with pytest.raises(IllegalOrder) as error:
        check_rail_capacity("axis", used, "corps", turn=3, partisans=True)
    assert error.value.rule == "20.2 B"
    off = step(module, {**with_options(module), "turn": 2, "player": "soviet"},
               ("partisans", {}), side="soviet")
    assert off.rejection is not None and off.rejection.code == "option-off"


def test_20_3_bombing_cuts_the_soviet_rail_capacity_by_two_per_point(module: ModuleData) -> None:
    state = {**with_options(module, **{"rail-bombing": "yes"}), "air": {"axis": 3, "soviet": 1}}
    bombed = step(module, state, ("bomb-rail", {"points": "2"}))
    assert bombed.rejection is None and bombed.state["rail_bombed"] == {"1": 2}
    assert bombed.state["air"]["axis"] == 1
    from adjudicator.games.barbarossa.rail import check_rail_capacity

    used = 0
    for _ in range(4):  # 8 - 2 * 2
        used, _ = check_rail_capacity("soviet", used, "army", turn=3, bombed=2)
    with pytest.raises(IllegalOrder) as error:
        check_rail_capacity("soviet", used, "army", turn=3, bombed=2)
    assert error.value.rule == "20.3"


def test_20_5_air_supply_keeps_a_german_unit_supplied(module: ModuleData) -> None:
    from adjudicator.engine.hexgrid import hex_distance
    from adjudicator.games.barbarossa.supply import unsupplied

    game = Game.of(module)
    state = {**with_options(module, **{"air-supply": "yes"}), "air": {"axis": 3, "soviet": 0}}
    panzer = pieces_of(module, "axis", "group", "armor")[0]
    corps = pieces_of(module, "axis", "corps", "infantry")[0]
    axis_land = [h for h in game.board if game.country[h] not in ("soviet", "")]
    deep = max((h for h in game.board if game.country[h] == "soviet"
                and game.board.terrain[h] == "clear"),
               key=lambda h: (min(hex_distance(h, a) for a in axis_land), h))
    state["units"] = {panzer: game.board.label(deep), corps: state["units"][corps]}
    state["control"] = {game.board.label(deep): "axis"}
    assert panzer in unsupplied(game, state, "axis")
    flown = step(module, state, ("air-supply", {"unit": panzer}), end())
    assert flown.rejection is None, flown.rejection
    assert flown.state["air"]["axis"] == 1  # a group costs two points
    assert panzer not in flown.state["unsupplied"]


# -- 4.0 B control by zones of control, 17.1.3 Soviet zones on Turn 1 ---------------------

def border_walk(game: Game) -> tuple[str, str, str, str]:
    """A German hex on the border, the Soviet hex beside it, and a two-hex walk inside
    Germany from the first hex past the Soviet hex's zone, all clear and crossable."""
    def open_side(a: object, b: object) -> bool:
        return game.charts.cross_cost(game.board.features(a, b), False, "clear") == 0

    for h in sorted(game.board):
        if game.country[h] != "germany" or game.board.terrain[h] != "clear":
            continue
        for s in game.board.neighbours(h):
            if game.country[s] != "soviet" or game.board.terrain[s] != "clear":
                continue
            for n in game.board.neighbours(h):
                if not (game.country[n] == "germany" and game.board.grid.adjacent(n, s)
                        and game.board.terrain[n] == "clear" and open_side(h, n)):
                    continue
                for f in game.board.neighbours(n):
                    if f not in (h, s) and game.country[f] == "germany" \
                            and game.board.terrain[f] == "clear" and open_side(n, f):
                        return tuple(game.board.label(x) for x in (h, s, n, f))  # type: ignore[return-value]
    raise AssertionError("no border found")


def test_17_1_3_no_soviet_zone_into_germany_in_the_first_german_segment(
        module: ModuleData, start: State) -> None:
    game = Game.of(module)
    german_hex, soviet_hex, along, further = border_walk(game)
    infantry = next(u for u in pieces_of(module, "axis", "corps", "infantry")
                    if game.pieces[u].nationality == "german")
    army = pieces_of(module, "soviet", "army", "infantry")[0]
    state = first_movement(module, {**start, "arriving": {}})
    state["units"] = {infantry: german_hex, army: soviet_hex}
    path = f"{german_hex} {along} {further}"
    first = step(module, state, ("move", {"unit": infantry, "path": path}))
    assert first.rejection is None, first.rejection
    second = step(module, {**state, "segment": "second"}, ("move", {"unit": infantry,
                                                                    "path": path}))
    assert second.rejection is not None and second.rejection.rule in ("6.1 A", "6.1 B")


def test_4_0_b_an_uncontested_zone_of_control_takes_the_hex(module: ModuleData,
                                                            start: State) -> None:
    game = Game.of(module)
    panzer = pieces_of(module, "axis", "group", "armor")[0]
    state = first_movement(module, {**start, "arriving": {}, "turn": 2})
    state["units"] = {panzer: "2621"}
    ended = step(module, state, end())
    assert ended.rejection is None, ended.rejection
    around = [game.board.label(h) for h in game.board.neighbours(game.board.hex("2621"))
              if game.board.terrain[h] not in ("sea", "lake")]
    assert all(ended.state["control"].get(x) == "axis" for x in around)


def test_7_3_a_retreated_unit_adds_nothing_to_the_defence(module: ModuleData,
                                                         start: State) -> None:
    panzer = pieces_of(module, "axis", "group", "armor")[0]
    first, second = pieces_of(module, "soviet", "army", "infantry")[:2]
    state = combat_position(module, start, {panzer: "2621", first: "2620", second: "2620"})
    state["retreated"] = [second]
    result = step(module, state, ("attack", {"hex": "2620", "units": panzer}))
    resolved = next(e for e in result.events if e.kind == "attack-resolved")
    game = Game.of(module)
    assert resolved["defence"] == game.pieces[first].attack


def test_20_4_1_the_thaw_drowns_units_on_the_ice(module: ModuleData, start: State) -> None:
    game = Game.of(module)
    lake = next(game.board.label(h) for h in sorted(game.board)
                if game.board.terrain[h] == "lake")
    army = pieces_of(module, "soviet", "army", "infantry")[0]
    winter = RULES.initial_state(module, "winter", {})
    # the end of Turn 9 (February 1942, snow) before the March thaw (mud)
    state = {**winter, "turn": 9, "player": "soviet", "segment": "second",
             "phase": "combat", "weather": "snow", "arriving": {}, "units": {army: lake}}
    thaw = step(module, state, end(), side="soviet")
    assert thaw.rejection is None, thaw.rejection
    assert army not in thaw.state["units"] and army in thaw.state["eliminated"]
    assert thaw.state["weather"] == "mud"


def test_7_8_2_c_a_retreat_goes_on_until_there_is_room(module: ModuleData,
                                                       start: State) -> None:
    from adjudicator.engine.hexgrid import hex_distance
    from adjudicator.games.barbarossa.combat_results import retreat_options

    game = Game.of(module)
    panzer = pieces_of(module, "axis", "group", "armor")[0]
    armies = pieces_of(module, "soviet", "army", "infantry")
    corps = pieces_of(module, "soviet", "corps")
    units = {panzer: "2621", armies[0]: "2620"}
    for i, label in enumerate(("2520", "2619", "2720")):  # every open hex full (3.0)
        units[armies[i + 1]] = label
        units[corps[i]] = label
    state = {**start, "units": units}
    options = retreat_options(game, state, armies[0])
    assert options, "the army should find room further back"
    here = game.board.hex("2620")
    assert all(hex_distance(here, game.board.hex(x)) == 2 for x in options)


def test_14_1_2_2_example_no_room_at_kalinin(module: ModuleData, start: State) -> None:
    """An infantry army and a tank corps at Kalinin: no reinforcement may be placed
    there (the stacking limits, 14.1.2.2 E)."""
    game = Game.of(module)
    kalinin = next(game.board.label(h) for h, name in game.city_names.items()
                   if name == "Kalinin")
    army = pieces_of(module, "soviet", "army", "infantry")[0]
    tank = pieces_of(module, "soviet", "corps", "armor")[0]
    arriving = next(u for u in start["arriving"]["2"] if game.pieces[u].side == "soviet")
    units = {u: x for u, x in start["units"].items() if u not in (army, tank)}
    state = {**start, "turn": 2, "player": "soviet", "segment": "first", "phase": "movement",
             "units": {**units, army: kalinin, tank: kalinin},
             "arriving": {"2": [arriving]}}
    placed = step(module, state, ("enter", {"unit": arriving, "hex": kalinin}), side="soviet")
    assert placed.rejection is not None and placed.rejection.rule == "14.1.2.2 E"
    empty = {**state, "units": units}
    fine = step(module, empty, ("enter", {"unit": arriving, "hex": kalinin}), side="soviet")
    assert fine.rejection is None, fine.rejection


def test_14_1_1_b_entering_costs_the_entry_hex(
        module: ModuleData, start: State) -> None:
    from adjudicator.games.barbarossa.reinforcements import entry_hexes

    game = Game.of(module)
    state = {**first_movement(module, start), "turn": 2}
    state["arriving"] = {"2": ["GER-XXX-14Pz"]}
    entry = entry_hexes(game, state, "GER-XXX-14Pz")[0]
    label = game.board.label(entry)
    entered = step(module, state, ("enter", {"unit": "GER-XXX-14Pz", "hex": label}))
    assert entered.rejection is None, entered.rejection
    entry_cost = game.charts.enter_cost(game.board.terrain[entry], True, "clear")
    assert entered.state["entry_mps"] == {"GER-XXX-14Pz": entry_cost}
    # the move that follows has its MA less the entry hex (5.0 D)
    piece = game.pieces["GER-XXX-14Pz"]
    assert movement_allowance(piece, entered.state) - entered.state["entry_mps"][
        "GER-XXX-14Pz"] == piece.movement - entry_cost


# -- 20.6 Axis free deployment ---------------------------------------------------------

def test_20_6_2_german_units_deploy_anywhere_in_greater_germany(module: ModuleData) -> None:
    game = Game.of(module)
    state = RULES.initial_state(module, "campaign", {"free-deployment": "yes"})
    assert (state["player"], state["segment"]) == ("axis", "deployment")
    unit = next(u for u, x in sorted(state["units"].items())
                if game.pieces[u].nationality == "german" and game.pieces[u].size == "corps"
                and game.country[game.board.hex(x)] == "germany")
    empty = next(game.board.label(h) for h in sorted(game.board)
                 if game.country[h] == "germany" and game.board.terrain[h] == "clear"
                 and game.board.label(h) not in state["units"].values())
    moved = step(module, state, ("deploy", {"unit": unit, "hex": empty}), end())
    assert moved.rejection is None, moved.rejection
    assert moved.state["units"][unit] == empty
    assert (moved.state["segment"], moved.state["phase"]) == ("air", "air")
    assert not [e for e in moved.events if e.kind == "roll"]  # no panzer corps in Romania
    wrong = step(module, state, ("deploy", {"unit": unit, "hex": "1808"}))
    assert wrong.rejection is not None and wrong.rejection.rule == "20.6.2"


def test_20_6_3_b_and_20_6_4_the_panzer_corps_in_romania(module: ModuleData) -> None:
    game = Game.of(module)
    state = RULES.initial_state(module, "campaign", {"free-deployment": "yes"})
    corps = next(u for u, x in sorted(state["units"].items())
                 if game.pieces[u].nationality == "german"
                 and game.country[game.board.hex(x)] == "romania")
    where = state["units"][corps]
    swapped = step(module, state, ("deploy", {"unit": "GER-XXX-14Pz", "hex": where,
                                              "replaces": corps}), end())
    assert swapped.rejection is None, swapped.rejection
    assert swapped.state["units"]["GER-XXX-14Pz"] == where
    assert corps in swapped.state["arriving"]["1"]  # a Turn 1 reinforcement instead
    roll = next(e for e in swapped.events if e.kind == "roll")
    detected = roll["value"] >= 4
    assert swapped.state["player"] == ("soviet" if detected else "axis")
    if detected:  # 20.6.4 B: units on or south of the Kiev row may be redeployed
        south = next(u for u, x in sorted(swapped.state["units"].items())
                     if game.pieces[u].side == "soviet" and int(x[:2]) >= 25)
        north = next(u for u, x in sorted(swapped.state["units"].items())
                     if game.pieces[u].side == "soviet" and int(x[:2]) < 25)
        refused = step(module, swapped.state, ("deploy", {"unit": north, "hex": "2519"}),
                       side="soviet")
        assert refused.rejection is not None and refused.rejection.rule == "20.6.4 B"
        target = next(game.board.label(h) for h in sorted(game.board)
                      if game.country[h] == "soviet" and int(game.board.label(h)[:2]) >= 25
                      and game.board.terrain[h] == "clear"
                      and game.board.label(h) not in swapped.state["units"].values())
        done = step(module, swapped.state, ("deploy", {"unit": south, "hex": target}),
                    end(), side="soviet")
        assert done.rejection is None, done.rejection
        assert (done.state["player"], done.state["segment"]) == ("axis", "air")


def test_12_0_b_a_shock_army_moved_by_rail_has_moved(module: ModuleData) -> None:
    """RULES-ISSUES 53: rail movement is movement; a shock army that went by rail in the
    segment's Movement Phase attacks at half strength (12.0 B). (An attack right after a
    rail move is rare: 5.4 D keeps the train out of enemy zones.)"""
    from adjudicator.games.barbarossa.combat import combatant

    root = etree.fromstring(b'<position xmlns="urn:pbem:position:1" game="barbarossa" '
                            b'turn="7" phase="soviet.first.movement">'
                            b'<unit id="SOV-XXXX-1S" at="1808"/></position>')
    state = RULES.position_state(module, root, {})
    railed = step(module, state, ("rail", {"unit": "SOV-XXXX-1S", "path": "1808 1809 1810"}),
                  end(), side="soviet")
    assert railed.rejection is None, railed.rejection
    game = Game.of(module)
    assert combatant(game, "SOV-XXXX-1S", railed.state, attacking=True).halvings == 1
    assert combatant(game, "SOV-XXXX-1S", state, attacking=True).halvings == 0
