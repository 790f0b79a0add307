"""Moscow '41 combat (games/moscow/combat_odds.py, combat_results.py) on the real module:
the rulebook's examples and every rule of 7.0-8.12, 9.2, 10.0-10.2, 11.0-11.1, 13.0,
3.2 E and 15.1 B / 15.2 B, named in the test names. Units the rulebook names are the
real counters of pieces.xml; hexes are those of map.xml."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.hexgrid import Hex, hex_distance
from adjudicator.engine.module import ModuleData, load_module
from adjudicator.errors import IllegalOrder
from adjudicator.games.moscow.charts import CombatCharts, CombatMap
from adjudicator.games.moscow.combat_odds import (
    Combat,
    Combatant,
    Shift,
    attack_strength,
    check_attack,
    column_shifts,
    combat_odds,
    defense_strength,
    resolve_odds,
    strength,
)
from adjudicator.games.moscow.combat_results import (
    AdvanceMove,
    Option,
    RetreatFacts,
    attacking_victors,
    check_advance,
    check_loss_choice,
    check_retreat,
    defending_victors,
    loss_options,
    overrun_attacker_options,
    overrun_movement_over,
    overrun_successful,
    retreat_paths,
    swept_away,
)

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "moscow" / "data"


@pytest.fixture(scope="module")
def module() -> ModuleData:
    return load_module((DATA / "module.xml").read_bytes(),
                       etree.RelaxNG(file=str(DATA / "module.rng")), expected_game="moscow")


@pytest.fixture(scope="module")
def charts(module: ModuleData) -> CombatCharts:
    return CombatCharts.of(module)


@pytest.fixture(scope="module")
def ground(module: ModuleData) -> CombatMap:
    return CombatMap.of(module)


@pytest.fixture(scope="module")
def printed(module: ModuleData) -> dict[str, dict[str, str]]:
    return {el.get("id"): dict(el.attrib) for el in module.findall("m:pieces/m:piece")}


@pytest.fixture()
def unit(printed, ground: CombatMap):
    """A counter of pieces.xml standing in a hex (by label)."""
    def make(uid: str, where: str, **kw: object) -> Combatant:
        p = printed[uid]
        german = p["side"] == "german"
        full = int(p.get("strength") or p["attack"])
        kw.setdefault("steps", int(p["steps"]))
        return Combatant(uid, p["side"], p["type"], ground.board.hex(where), full,
                         full if german else int(p["defense"]), int(p.get("reduced", 0)),
                         **kw)  # type: ignore[arg-type]
    return make


@pytest.fixture()
def zoc(ground: CombatMap):
    """Test stand-in for the movement rules' ZOC: next to the hex, not across a lake
    hexside unless a road crosses it (5.0 C, RULES-NOTES 10)."""
    def in_zoc(a: Hex, b: Hex) -> bool:
        f = ground.features(a, b)
        return ground.adjacent(a, b) and not ("lake" in f and "road" not in f)
    return in_zoc


def hexes(ground: CombatMap, *labels: str) -> tuple[Hex, ...]:
    return tuple(ground.board.hex(h) for h in labels)


def names(shifts) -> dict[str, int]:
    return {s.name: s.columns for s in shifts}


# -- the charts ---------------------------------------------------------------------------
def test_charts_are_read_once_per_module(module, charts) -> None:
    assert CombatCharts.of(module) is charts
    assert CombatMap.of(module) is CombatMap.of(module)


def test_2_3_crt_columns_rows_and_notation(charts) -> None:
    assert charts.ladder.names == ("1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1",
                                   "8-1", "9-1", "10-1")
    assert sorted(charts.crt.rows) == [1, 2, 3, 4, 5, 6]
    assert charts.notation == "attacker/defender"
    assert charts.best_roll == 1


def test_2_3_errata_4_1_roll_6_is_2_over_dash(charts) -> None:
    assert ("4-1", 6, "2/-") in charts.errata
    result = charts.result(charts.column("4-1"), 6)
    assert (result.code, result.attacker, result.defender) == ("2/-", "2", "-")


def test_8_5_g_a_roll_off_the_table_is_refused(charts) -> None:
    with pytest.raises(IllegalOrder) as err:
        charts.result(0, 7)
    assert err.value.rule == "8.5 G"


def test_8_9_result_codes_parse_into_attacker_and_defender_parts(charts) -> None:
    parts = {code: (r.attacker, r.defender, r.split) for code, r in charts.results.items()}
    assert parts["-"] == ("-", "-", False)
    assert parts["1/-"] == ("1", "-", False)
    assert parts["-/2"] == ("-", "2", False)
    assert parts["-/E"] == ("-", "E", False)
    assert parts["E/-"] == ("E", "-", False)
    assert parts["2/1"] == ("2", "1", True)
    assert parts["1/1"] == ("1", "1", True)


def test_8_9_f_split_results_the_defender_applies_first(charts) -> None:
    assert charts.parse("2/1").order == ("defender", "attacker")
    assert charts.parse("-/1").order == ("defender",)
    assert charts.parse("-").order == ()


def test_column_shifts_chart_and_tec_combat_lines(charts) -> None:
    assert {c: charts.shifts[c].columns for c in ("turn-1", "overrun", "armor", "air",
                                                  "rasputitsa", "snow")} == {
        "turn-1": 4, "overrun": 2, "armor": 1, "air": 1, "rasputitsa": 1, "snow": 2}
    assert charts.shifts["air"].max_units == 3
    assert charts.shifts["turn-1"].turns == frozenset({1})
    assert charts.hex_terrain["woods"].shift == -1
    assert charts.hex_terrain["marsh"].shift == -2
    assert charts.hex_features["city"].shift == -1
    assert charts.hexsides["river"].when == "all-attackers-across"
    ring = charts.hexsides["moscow-ring"]
    assert (ring.shift, ring.when, ring.attacker) == (-1, "all-attackers-across", "german")
    lake = charts.hexsides["lake"]
    assert (lake.effect, lake.defender_terrain, lake.overrun_prohibited) == (
        "road-only", "marsh", True)


# -- odds: 8.5, 8.7, 8.8 ------------------------------------------------------------------
def test_8_5_d_8_against_4_is_2_to_1(charts) -> None:
    odds = resolve_odds(charts.ladder, 8, 4, ())
    assert (odds.initial, odds.final) == ("2-1", "2-1")


def test_8_8_11_against_4_rounds_to_2_to_1_for_the_defender(charts) -> None:
    assert resolve_odds(charts.ladder, 11, 4, ()).final == "2-1"


def test_8_7_b_11_to_1_is_read_on_the_10_to_1_column(charts) -> None:
    odds = resolve_odds(charts.ladder, 11, 1, ())
    assert (odds.initial, odds.final, odds.column) == ("11-1", "10-1", 10)


def test_8_7_a_the_initial_ratio_off_the_table_is_the_basis(charts) -> None:
    two_left = [Shift("overrun", -2, "7.1")]
    assert resolve_odds(charts.ladder, 13, 1, two_left).final == "10-1"   # 13 -> 11 -> 10
    assert resolve_odds(charts.ladder, 11, 1, two_left).final == "9-1"
    four_right = [Shift("turn-1", 4, "3.2 E")]
    odds = resolve_odds(charts.ladder, 1, 4, four_right)       # 1-3, 1-2, 1-1, 2-1
    assert (odds.initial, odds.final) == ("1-4", "2-1")
    assert resolve_odds(charts.ladder, 1, 9, ()).final == "1-2"          # 8.7 B, lowest


# -- strengths: 2.5, 2.6, 8.2, 8.4, 7.8 ---------------------------------------------------
def test_2_5_german_strength_full_or_reduced_by_steps(unit) -> None:
    pz = unit("GER-XX-18Pz", "2315")
    assert strength(pz, attacking=True) == strength(pz, attacking=False) == 6
    assert strength(replace(pz, steps=1), attacking=False) == 3


def test_combatant_of_a_counter_with_the_printed_values(ground) -> None:
    @dataclass(frozen=True)
    class Counter:  # what the rules glue keeps per piece
        id: str = "GER-XX-9Pz"
        side: str = "german"
        type: str = "armor"
        steps: int = 2
        attack: int = 7
        defense: int = 7
        reduced: int = 4

    here = ground.board.hex("2315")
    pz = Combatant.of(Counter(), here, steps=1, supplied=False)
    assert (pz.id, pz.hex, pz.steps, pz.supplied, pz.armor, pz.full_strength) == (
        "GER-XX-9Pz", here, 1, False, True, False)
    assert strength(pz, attacking=True) == 4


def test_2_6_soviet_attack_and_defense_strengths(unit) -> None:
    rifles = unit("SOV-XX-174", "2416")  # attack 2, defense 3
    assert (strength(rifles, attacking=True), strength(rifles, attacking=False)) == (2, 3)


def test_8_4_a_every_attacker_adds_its_full_strength(unit) -> None:
    attackers = [unit("GER-XX-18Pz", "2315"), unit("GER-XX-9Pz", "2315"),
                 unit("GER-XX-20Pz", "2417")]
    assert attack_strength(attackers) == 6 + 7 + 6


def test_8_2_retreated_units_add_nothing_in_the_combat_phase(unit) -> None:
    stayed = unit("SOV-XX-174", "2416")
    came = unit("SOV-XX-179", "2416", retreated=True)
    assert defense_strength([stayed, came]) == 3


def test_7_8_retreated_units_do_add_during_an_overrun(unit) -> None:
    stayed = unit("SOV-XX-174", "2416")
    came = unit("SOV-XX-179", "2416", retreated=True)
    assert defense_strength([stayed, came], overrun=True) == 3 + 2


# -- 8.3 coordinated attack, the rulebook's example ---------------------------------------
@pytest.fixture()
def example_8_3(unit, ground):
    attackers = (unit("GER-XX-18Pz", "2315"), unit("GER-XX-9Pz", "2315"),
                 unit("GER-XX-20Pz", "2417"))
    defenders = (unit("SOV-XX-174", "2416"), unit("SOV-XX-179", "2316"))
    return Combat(attackers, defenders, hexes(ground, "2416", "2316"))


def test_8_3_b_18th_9th_and_20th_panzer_attack_2416_and_2316(example_8_3, ground, zoc,
                                                               charts) -> None:
    check_attack(example_8_3, ground, zoc)
    odds = combat_odds(charts, ground, example_8_3)
    assert (odds.attack, odds.defense, odds.initial) == (19, 5, "3-1")
    # 8.3 A: the woods of 2316 help the defender more than the clear 2416; not every
    # attacker crosses the river; woods deny the attacker's armor shift (10.1 C)
    assert [(s.name, s.columns, s.rule, s.detail) for s in odds.shifts] == [
        ("terrain", -1, "8.3 A, 8.5 F (TEC)", "woods in 2316")]
    assert odds.final == "2-1"


def test_8_3_b_the_3rd_panzer_is_not_adjacent_to_both_hexes(example_8_3, unit, ground,
                                                            zoc) -> None:
    third = unit("GER-XX-3Pz", "2415")
    with pytest.raises(IllegalOrder) as err:
        check_attack(replace(example_8_3, attackers=(*example_8_3.attackers, third)),
                     ground, zoc)
    assert (err.value.rule, err.value.code) == ("8.3 B", "not-adjacent")
    # alone against 2416, next to it, the 3rd may attack
    check_attack(Combat((third,), (example_8_3.defenders[0],), hexes(ground, "2416")),
                 ground, zoc)


# -- 8.0 and 8.1 legality -----------------------------------------------------------------
def test_8_1_a_an_attacker_must_be_in_the_defenders_zoc(example_8_3, ground) -> None:
    with pytest.raises(IllegalOrder) as err:
        check_attack(example_8_3, ground, lambda a, b: False)
    assert (err.value.rule, err.value.code) == ("8.1 A", "not-in-zoc")


def test_8_1_a_an_attacker_must_be_next_to_the_hex(unit, ground, zoc) -> None:
    far = Combat((unit("GER-XX-12", "2314"),), (unit("SOV-XX-174", "2416"),),
                 hexes(ground, "2416"))
    with pytest.raises(IllegalOrder) as err:
        check_attack(far, ground, zoc)
    assert err.value.rule == "8.1 A"


def test_8_1_b_no_unit_attacks_twice(example_8_3, ground, zoc) -> None:
    with pytest.raises(IllegalOrder) as err:
        check_attack(example_8_3, ground, zoc, attacked={"GER-XX-9Pz"})
    assert (err.value.rule, err.value.code) == ("8.1 B", "attacked-twice")


def test_8_1_b_no_unit_defends_twice(example_8_3, ground, zoc) -> None:
    with pytest.raises(IllegalOrder) as err:
        check_attack(example_8_3, ground, zoc, defended={"SOV-XX-179"})
    assert (err.value.rule, err.value.code) == ("8.1 B", "defended-twice")


def test_8_2_a_hex_a_unit_retreated_into_may_be_attacked(unit, ground, zoc) -> None:
    fresh, came = unit("SOV-XX-174", "2416"), unit("SOV-XX-179", "2416", retreated=True)
    attack = Combat((unit("GER-XX-20Pz", "2417"),), (fresh, came), hexes(ground, "2416"))
    check_attack(attack, ground, zoc, defended={"SOV-XX-179"})
    # ... but not when only units that already defended are there (8.1 B)
    with pytest.raises(IllegalOrder) as err:
        check_attack(replace(attack, defenders=(came,)), ground, zoc, defended={"SOV-XX-179"})
    assert err.value.rule == "8.1 B"


def test_8_0_a_attackers_and_defenders_are_enemies(unit, ground, zoc) -> None:
    with pytest.raises(IllegalOrder) as err:
        check_attack(Combat((unit("GER-XX-20Pz", "2417"),), (unit("GER-XX-12", "2416"),),
                            hexes(ground, "2416")), ground, zoc)
    assert err.value.rule == "8.0 A"


def test_8_0_f_attack_across_a_lake_only_where_a_road_crosses(unit, ground, zoc,
                                                              charts) -> None:
    soviets = (unit("SOV-XX-174", "2605"),)
    over_road = Combat((unit("GER-XX-12", "2505"),), soviets, hexes(ground, "2605"))
    check_attack(over_road, ground, zoc)
    # the defender's clear hex counts as marsh
    shifts = column_shifts(charts, ground, over_road)
    assert [(s.name, s.columns, s.rule) for s in shifts] == [("terrain", -2, "8.0 F (TEC)")]
    no_road = replace(over_road, attackers=(unit("GER-XX-12", "2704"),))
    with pytest.raises(IllegalOrder) as err:
        check_attack(no_road, ground, zoc)
    assert (err.value.rule, err.value.code) == ("8.0 F", "lake")


def test_7_5_c_no_overrun_across_a_lake_hexside_even_with_a_road(unit, ground, zoc) -> None:
    overrun = Combat((unit("GER-XX-12", "2505"),), (unit("SOV-XX-174", "2605"),),
                     hexes(ground, "2605"), overrun=True)
    with pytest.raises(IllegalOrder) as err:
        check_attack(overrun, ground, zoc)
    assert (err.value.rule, err.value.code) == ("7.5 C", "overrun-lake")


def test_7_5_a_an_overrun_is_against_one_hex(example_8_3, ground, zoc) -> None:
    with pytest.raises(IllegalOrder) as err:
        check_attack(replace(example_8_3, overrun=True), ground, zoc)
    assert err.value.rule == "7.5 A"


def test_7_5_b_overruns_repeat_against_the_same_units(unit, ground, zoc) -> None:
    overrun = Combat((unit("GER-XX-20Pz", "2417"),), (unit("SOV-XX-174", "2416"),),
                     hexes(ground, "2416"), overrun=True)
    check_attack(overrun, ground, zoc, attacked={"GER-XX-20Pz"}, defended={"SOV-XX-174"})


# -- 13.0 the Moscow defensive ring -------------------------------------------------------
def test_13_0_1L_when_every_german_attacker_crosses_the_ring(unit, ground, zoc,
                                                             charts) -> None:
    attack = Combat((unit("GER-XX-7", "2607"), unit("GER-XX-23", "2608")),
                    (unit("SOV-XX-174", "2707"),), hexes(ground, "2707"))
    check_attack(attack, ground, zoc)
    assert names(column_shifts(charts, ground, attack)) == {"moscow-ring": -1}
    assert column_shifts(charts, ground, attack)[0].rule == "13.0 B-C"


def test_13_0_c_no_ring_shift_if_any_attacker_does_not_cross_it(unit, ground, zoc,
                                                                charts) -> None:
    attack = Combat((unit("GER-XX-7", "2607"), unit("GER-XX-23", "2608"),
                     unit("GER-XX-34", "2708")),
                    (unit("SOV-XX-174", "2707"),), hexes(ground, "2707"))
    check_attack(attack, ground, zoc)
    assert "moscow-ring" not in names(column_shifts(charts, ground, attack))


def test_13_0_a_the_ring_helps_only_against_german_attacks(unit, ground, charts) -> None:
    attack = Combat((unit("SOV-XX-174", "2707"),), (unit("GER-XX-7", "2607"),),
                    hexes(ground, "2607"))
    assert names(column_shifts(charts, ground, attack)) == {"terrain": -1}  # woods only


# -- every other column shift -------------------------------------------------------------
@pytest.fixture()
def plain(unit, ground) -> Combat:
    """German infantry against Soviet rifles in clear 2416, no river crossed."""
    return Combat((unit("GER-XX-12", "2417"),), (unit("SOV-XX-174", "2416"),),
                  hexes(ground, "2416"))


def test_no_shift_without_a_cause(plain, ground, charts) -> None:
    assert column_shifts(charts, ground, plain) == ()


def test_tec_river_1L_when_every_attacker_crosses(unit, ground, charts, plain) -> None:
    across = replace(plain, attackers=(unit("GER-XX-12", "2315"),))
    assert names(column_shifts(charts, ground, across)) == {"river": -1}
    both = replace(plain, attackers=(unit("GER-XX-12", "2315"), unit("GER-XX-23", "2417")))
    assert column_shifts(charts, ground, both) == ()


def test_tec_a_city_replaces_the_terrain_of_its_hex(unit, ground, charts) -> None:
    moscow = Combat((unit("GER-XX-12", "2707"),), (unit("SOV-XX-174", "2808"),),
                    hexes(ground, "2808"))
    assert names(column_shifts(charts, ground, moscow)) == {"terrain": -1}
    # a town leaves its clear terrain: Bolkhov
    bolkhov = Combat((unit("GER-XX-12", "2416"),), (unit("SOV-XX-174", "2516"),),
                     hexes(ground, "2516"))
    assert column_shifts(charts, ground, bolkhov) == ()


def test_3_2_e_turn_1_german_attacks_4R(plain, ground, charts) -> None:
    assert names(column_shifts(charts, ground, replace(plain, turn=1))) == {"turn-1": 4}


def test_3_2_e_turn_1_overruns_4R_and_still_2L(plain, ground, charts) -> None:
    shifts = column_shifts(charts, ground, replace(plain, turn=1, overrun=True))
    assert names(shifts) == {"turn-1": 4, "overrun": -2}


def test_3_2_e_turn_1_shift_is_german_only(unit, ground, charts) -> None:
    soviet = Combat((unit("SOV-XX-174", "2416"),), (unit("GER-XX-12", "2417"),),
                    hexes(ground, "2417"), turn=1)
    assert column_shifts(charts, ground, soviet) == ()


def test_7_1_overrun_2L(plain, ground, charts) -> None:
    assert names(column_shifts(charts, ground, replace(plain, overrun=True))) == {
        "overrun": -2}


def test_9_2_unsupplied_attackers_2L_unsupplied_defenders_2R(plain, ground, charts) -> None:
    hungry = replace(plain, attackers=(replace(plain.attackers[0], supplied=False),))
    assert names(column_shifts(charts, ground, hungry)) == {"unsupplied-attacker": -2}
    cut_off = replace(plain, defenders=(replace(plain.defenders[0], supplied=False),))
    assert names(column_shifts(charts, ground, cut_off)) == {"unsupplied-defender": 2}
    both = replace(hungry, defenders=cut_off.defenders)
    assert sum(s.columns for s in column_shifts(charts, ground, both)) == 0


def test_10_1_attacking_armor_one_column_once_in_clear_terrain(unit, plain, ground,
                                                               charts) -> None:
    panzers = replace(plain, attackers=(unit("GER-XX-20Pz", "2417"),
                                        unit("GER-XX-19Pz", "2417")))
    shifts = column_shifts(charts, ground, panzers)
    assert names(shifts) == {"armor": 1}  # 10.1 B: once
    assert shifts[0].rule == "10.1 C"


def test_10_1_a_mechanized_units_give_no_armor_shift(unit, plain, ground, charts) -> None:
    motorized = replace(plain, attackers=(unit("GER-XX-3Mot", "2417"),))
    assert column_shifts(charts, ground, motorized) == ()


def test_10_1_c_attacking_armor_needs_clear_terrain_rivers_ignored(unit, ground,
                                                                   charts) -> None:
    across_river = Combat((unit("GER-XX-20Pz", "2315"),), (unit("SOV-XX-174", "2416"),),
                          hexes(ground, "2416"))
    assert names(column_shifts(charts, ground, across_river)) == {"river": -1, "armor": 1}
    woods = Combat((unit("GER-XX-20Pz", "2417"),), (unit("SOV-XX-174", "2316"),),
                   hexes(ground, "2316"))
    assert names(column_shifts(charts, ground, woods)) == {"terrain": -1}
    city = Combat((unit("GER-XX-20Pz", "2707"),), (unit("SOV-XX-174", "2808"),),
                  hexes(ground, "2808"))
    assert "armor" not in names(column_shifts(charts, ground, city))


def test_10_1_d_defending_armor_always_gets_its_shift(unit, ground, charts) -> None:
    tanks_in_woods = Combat((unit("GER-XX-12", "2417"),), (unit("SOV-X-4T", "2316"),),
                            hexes(ground, "2316"))
    shifts = column_shifts(charts, ground, tanks_in_woods)
    assert names(shifts) == {"terrain": -1, "armor-defending": -1}
    # both sides' armor: the shifts cancel
    both = Combat((unit("GER-XX-20Pz", "2417"),), (unit("SOV-X-4T", "2416"),),
                  hexes(ground, "2416"))
    assert names(column_shifts(charts, ground, both)) == {"armor": 1, "armor-defending": -1}


def test_10_2_german_armor_defending_in_a_city_gets_no_shift(unit, ground, charts) -> None:
    orel = Combat((unit("SOV-XX-174", "2417"),), (unit("GER-XX-4Pz", "2517"),),
                  hexes(ground, "2517"))
    assert names(column_shifts(charts, ground, orel)) == {"terrain": -1}  # the city only
    bolkhov = Combat((unit("SOV-XX-174", "2416"),), (unit("GER-XX-4Pz", "2516"),),
                     hexes(ground, "2516"))  # a town: not a city
    assert names(column_shifts(charts, ground, bolkhov)) == {"armor-defending": -1}


def test_11_1_a_air_one_column_for_the_german_side_per_unit(plain, unit, ground,
                                                            charts) -> None:
    assert names(column_shifts(charts, ground, replace(plain, air=2))) == {"air": 2}
    defending = Combat((unit("SOV-XX-174", "2416"),), (unit("GER-XX-12", "2417"),),
                       hexes(ground, "2417"), air=3)
    assert names(column_shifts(charts, ground, defending)) == {"air": -3}


def test_11_0_e_at_most_three_air_units_on_one_combat(plain, ground, zoc) -> None:
    check_attack(replace(plain, air=3), ground, zoc)
    with pytest.raises(IllegalOrder) as err:
        check_attack(replace(plain, air=4), ground, zoc)
    assert err.value.rule == "11.0 E"


def test_15_1_b_rasputitsa_1L_on_every_attack(plain, unit, ground, charts) -> None:
    assert names(column_shifts(charts, ground, replace(plain, weather="rasputitsa"))) == {
        "rasputitsa": -1}
    soviet = Combat((unit("SOV-XX-174", "2416"),), (unit("GER-XX-12", "2417"),),
                    hexes(ground, "2417"), weather="rasputitsa")
    assert names(column_shifts(charts, ground, soviet)) == {"rasputitsa": -1}


def test_15_2_b_snow_2L_on_german_attacks_only(plain, unit, ground, charts) -> None:
    assert names(column_shifts(charts, ground, replace(plain, weather="snow"))) == {
        "snow": -2}
    soviet = Combat((unit("SOV-XX-174", "2416"),), (unit("GER-XX-12", "2417"),),
                    hexes(ground, "2417"), weather="snow")
    assert column_shifts(charts, ground, soviet) == ()


def test_8_5_f_shifts_add_up_from_the_initial_ratio(plain, ground, charts) -> None:
    attack = replace(plain, turn=1, overrun=True, air=1)  # 4 vs 3: 1-1, +4 -2 +1 = 4-1
    odds = combat_odds(charts, ground, attack)
    assert (odds.initial, odds.total_shift, odds.final) == ("1-1", 3, "4-1")


# -- results: 8.9 -------------------------------------------------------------------------
def options(part, units, **kw) -> set[tuple[tuple[str, ...], int]]:
    return {(o.losses, o.retreat) for o in loss_options(part, units, **kw)}


def test_8_9_d_one_german_step_or_all_retreat_one_hex(unit) -> None:
    stack = [unit("GER-XX-18Pz", "2315"), unit("GER-XX-9Pz", "2315")]
    assert options("1", stack) == {(("GER-XX-18Pz",), 0), (("GER-XX-9Pz",), 0), ((), 1)}


def test_8_9_d_one_soviet_step_eliminates_a_unit(unit) -> None:
    stack = [unit("SOV-XX-174", "2416"), unit("SOV-XX-179", "2416")]
    found = loss_options("1", stack)
    assert {(o.losses, o.retreat, o.eliminated) for o in found} == {
        (("SOV-XX-174",), 0, ("SOV-XX-174",)), (("SOV-XX-179",), 0, ("SOV-XX-179",)),
        ((), 1, ())}


def test_8_9_e_two_german_steps_split_or_one_full_strength_unit(unit) -> None:
    pz, inf = unit("GER-XX-18Pz", "2315"), unit("GER-XX-12", "2315", steps=1)
    assert options("2", [pz, inf]) == {
        ((), 2),                                   # all retreat two hexes
        (("GER-XX-12", "GER-XX-18Pz"), 0),         # one step each
        (("GER-XX-18Pz", "GER-XX-18Pz"), 0),       # eliminate the full-strength unit
        (("GER-XX-18Pz",), 1), (("GER-XX-12",), 1),  # one step, then all retreat one hex
    }
    # the reduced 12th cannot lose two steps
    with pytest.raises(IllegalOrder) as err:
        check_loss_choice("2", [pz, inf], ["GER-XX-12", "GER-XX-12"], 0)
    assert err.value.rule == "8.9 E"


def test_8_9_e_h_two_soviet_steps_are_two_units(unit) -> None:
    stack = [unit("SOV-XX-174", "2416"), unit("SOV-XX-179", "2416")]
    assert options("2", stack) == {((), 2), (("SOV-XX-174", "SOV-XX-179"), 0),
                                   (("SOV-XX-174",), 1), (("SOV-XX-179",), 1)}
    alone = [unit("SOV-XX-174", "2416")]
    assert options("2", alone) == {((), 2), (("SOV-XX-174",), 0)}


def test_8_9_g_e_eliminates_every_affected_unit(unit) -> None:
    stack = [unit("GER-XX-18Pz", "2315"), unit("GER-XX-12", "2315", steps=1)]
    [only] = loss_options("E", stack)
    assert only.eliminated == ("GER-XX-12", "GER-XX-18Pz")
    assert only.retreat == 0
    assert loss_options("-", stack) == [Option()]


def test_8_9_d_a_choice_outside_the_result_is_refused(unit) -> None:
    stack = [unit("SOV-XX-174", "2416"), unit("SOV-XX-179", "2416")]
    assert check_loss_choice("1", stack, [], 1).retreat == 1
    with pytest.raises(IllegalOrder) as err:
        check_loss_choice("1", stack, ["SOV-XX-174"], 1)
    assert (err.value.rule, err.value.code) == ("8.9 D", "loss-choice")


def test_8_2_retreated_units_are_eliminated_on_an_adverse_result(unit) -> None:
    stayed, came = unit("SOV-XX-174", "2416"), unit("SOV-XX-179", "2416", retreated=True)
    assert swept_away("1", [stayed, came], overrun=False) == ("SOV-XX-179",)
    assert swept_away("-", [stayed, came], overrun=False) == ()
    assert swept_away("1", [stayed, came], overrun=True) == ()


def test_7_6_a_7_7_a_overrun_success_iff_the_defenders_leave_or_die(unit) -> None:
    stack = [unit("SOV-XX-174", "2416"), unit("SOV-XX-179", "2416")]
    by_option = {(o.losses, o.retreat): overrun_successful(o, stack)
                 for o in loss_options("1", stack)}
    assert by_option == {(("SOV-XX-174",), 0): False, (("SOV-XX-179",), 0): False,
                         ((), 1): True}
    [wiped] = loss_options("E", stack)
    assert overrun_successful(wiped, stack)


def test_7_6_b_successful_overrunners_absorb_the_loss(unit) -> None:
    pz = [unit("GER-XX-20Pz", "2417")]
    assert options("1", pz) == {(("GER-XX-20Pz",), 0), ((), 1)}
    found = overrun_attacker_options("1", pz, successful=True)
    assert {(o.losses, o.retreat) for o in found} == {(("GER-XX-20Pz",), 0)}
    with pytest.raises(IllegalOrder) as err:
        check_loss_choice("1", pz, [], 1, may_retreat=False)
    assert err.value.rule == "7.6 B"


def test_7_7_b_d_failed_overrunners_absorb_or_retreat_and_stop(unit) -> None:
    pz = [unit("GER-XX-20Pz", "2417")]
    found = overrun_attacker_options("2", pz, successful=False)
    assert {(o.losses, o.retreat) for o in found} == {
        ((), 2), (("GER-XX-20Pz",), 1), (("GER-XX-20Pz", "GER-XX-20Pz"), 0)}
    assert {o.retreat: overrun_movement_over(o) for o in found} == {
        2: True, 1: True, 0: False}


# -- retreats: 8.10-8.11 ------------------------------------------------------------------
# A Soviet unit in 2416 attacked from 2315: the hexes farther from 2315 are 2417, 2515 and
# 2516 (2415 and 2316 are next to 2315 too).
def test_8_11_b_a_retreat_moves_away_from_the_enemy(ground) -> None:
    start = ground.board.hex("2416")
    facts = RetreatFacts(frozenset(hexes(ground, "2315")), enemy=frozenset(hexes(ground, "2315")))
    assert retreat_paths(ground, start, 1, facts) == [hexes(ground, "2417"),
                                                      hexes(ground, "2515"),
                                                      hexes(ground, "2516")]
    assert sorted(retreat_paths(ground, start, 1, facts)) == retreat_paths(ground, start, 1,
                                                                           facts)


def test_8_11_b_no_retreat_into_an_ezoc_unless_a_friend_is_there(ground) -> None:
    h = ground.board.hex
    facts = RetreatFacts(frozenset({h("2315")}), enemy=frozenset({h("2315")}),
                         enemy_zoc=frozenset(hexes(ground, "2417", "2515", "2516")),
                         friendly={h("2516"): 1})
    assert retreat_paths(ground, h("2416"), 1, facts) == [(h("2516"),)]
    with pytest.raises(IllegalOrder) as err:
        check_retreat(ground, h("2416"), [h("2417")], 1, facts)
    assert (err.value.rule, err.value.code) == ("8.11 B", "unsafe-retreat")


def test_8_11_c_vacant_safe_hexes_before_occupied_ones(ground) -> None:
    h = ground.board.hex
    facts = RetreatFacts(frozenset({h("2315")}), friendly={h("2516"): 2, h("2515"): 1})
    assert retreat_paths(ground, h("2416"), 1, facts) == [(h("2417"),)]
    with pytest.raises(IllegalOrder) as err:
        check_retreat(ground, h("2416"), [h("2516")], 1, facts)
    assert (err.value.rule, err.value.code) == ("8.11 C", "retreat-priority")
    # with the vacant hex gone, the occupied ones are safe
    no_vacant = replace(facts, enemy_zoc=frozenset({h("2417")}))
    assert retreat_paths(ground, h("2416"), 1, no_vacant) == [(h("2515"),), (h("2516"),)]


def test_8_11_b_fewer_than_four_other_friendly_units_in_the_final_hex(ground) -> None:
    h = ground.board.hex
    facts = RetreatFacts(frozenset({h("2315")}),
                         friendly={h("2417"): 4, h("2515"): 4, h("2516"): 3})
    assert retreat_paths(ground, h("2416"), 1, facts) == [(h("2516"),)]


def test_8_11_a_no_safe_hex_eliminates(ground) -> None:
    h = ground.board.hex
    facts = RetreatFacts(frozenset({h("2315")}),
                         enemy_zoc=frozenset(hexes(ground, "2417", "2515", "2516")))
    assert retreat_paths(ground, h("2416"), 1, facts) == []
    with pytest.raises(IllegalOrder) as err:
        check_retreat(ground, h("2416"), [h("2417")], 1, facts)
    assert err.value.rule == "8.11 A"


def test_8_11_b_each_hex_of_a_two_hex_retreat_is_safe(ground) -> None:
    h = ground.board.hex
    facts = RetreatFacts(frozenset({h("2315")}))
    paths = retreat_paths(ground, h("2416"), 2, facts)
    assert paths and all(len(p) == 2 for p in paths)
    assert (h("2417"), h("2418")) in paths
    assert (h("2417"), h("2416")) not in paths
    # every step takes it farther from 2315
    for first, second in paths:
        assert hex_distance(first, h("2315")) == 2 and hex_distance(second, h("2315")) == 3
    blocked = replace(facts, enemy_zoc=frozenset({h("2418")}))
    assert (h("2417"), h("2418")) not in retreat_paths(ground, h("2416"), 2, blocked)


def test_8_11_b_distance_from_the_original_hex_of_a_retreated_enemy(ground) -> None:
    h = ground.board.hex
    # the attacker retreated from 2315 first (a split result); the defender still measures
    # from 2315, wherever the attacker is now
    facts = RetreatFacts(frozenset({h("2315")}), enemy=frozenset({h("2215")}))
    assert retreat_paths(ground, h("2416"), 1, facts) == [(h("2417"),), (h("2515"),),
                                                          (h("2516"),)]


def test_4_8_d_no_retreat_across_a_lake_hexside_without_a_road(ground) -> None:
    h = ground.board.hex
    # 2605 attacked from 2505 and 2504: 2704 lies across a road-less lake hexside
    facts = RetreatFacts(frozenset({h("2505"), h("2504")}))
    paths = retreat_paths(ground, h("2605"), 1, facts)
    assert (h("2704"),) not in paths
    assert paths == [(h("2705"),)]


# -- advance after combat: 8.12 -----------------------------------------------------------
def test_8_12_a_up_to_four_victors_into_each_vacated_hex(ground) -> None:
    h = ground.board.hex
    moves = [AdvanceMove(f"u{i}", (h("2416"),)) for i in range(5)]
    victors = {f"u{i}" for i in range(5)}
    check_advance(ground, moves[:4], victors=victors, vacated={h("2416")})
    with pytest.raises(IllegalOrder) as err:
        check_advance(ground, moves, victors=victors, vacated={h("2416")})
    assert (err.value.rule, err.value.code) == ("8.12 A", "advance-stack")
    with pytest.raises(IllegalOrder) as err:
        check_advance(ground, [AdvanceMove("u0", (h("2516"),))], victors=victors,
                      vacated={h("2416")})
    assert err.value.rule == "8.12 A"


def test_8_12_b_an_attacker_that_retreated_is_not_victorious(example_8_3, ground) -> None:
    victors = attacking_victors(example_8_3.attackers, retreated={"GER-XX-20Pz"})
    assert victors == ("GER-XX-18Pz", "GER-XX-9Pz")
    with pytest.raises(IllegalOrder) as err:
        check_advance(ground, [AdvanceMove("GER-XX-20Pz", hexes(ground, "2416"))],
                      victors=victors, vacated=set(hexes(ground, "2416")))
    assert err.value.code == "not-victorious"


def test_8_12_c_8_9_f_7_7_e_when_defenders_may_advance(charts, unit) -> None:
    defenders = [unit("SOV-XX-174", "2416"), unit("SOV-XX-179", "2416", retreated=True)]
    assert defending_victors(charts.parse("1/-"), defenders, overrun=False) == ("SOV-XX-174",)
    assert defending_victors(charts.parse("2/1"), defenders, overrun=False) == ()  # 8.9 F
    assert defending_victors(charts.parse("1/-"), defenders, overrun=True) == ()   # 7.7 E


def test_8_12_f_into_both_hexes_of_a_two_hex_retreat(ground) -> None:
    h = ground.board.hex
    moves = [AdvanceMove("GER-XX-20Pz", (h("2416"), h("2417"))),
             AdvanceMove("GER-XX-9Pz", (h("2416"),))]
    check_advance(ground, moves, victors={"GER-XX-20Pz", "GER-XX-9Pz"},
                  vacated={h("2416")}, beyond={h("2417")})
    with pytest.raises(IllegalOrder) as err:  # not emptied by the retreat
        check_advance(ground, [AdvanceMove("GER-XX-20Pz", (h("2416"), h("2515")))],
                      victors={"GER-XX-20Pz"}, vacated={h("2416")}, beyond={h("2417")})
    assert err.value.rule == "8.12 F"


def test_8_12_i_only_one_hex_when_every_defender_was_eliminated(ground) -> None:
    h = ground.board.hex
    with pytest.raises(IllegalOrder) as err:
        check_advance(ground, [AdvanceMove("GER-XX-20Pz", (h("2416"), h("2417")))],
                      victors={"GER-XX-20Pz"}, vacated={h("2416")}, beyond={h("2417")},
                      all_eliminated=True)
    assert err.value.rule == "8.12 I"


def test_8_12_g_advance_into_an_ezoc_is_allowed(ground) -> None:
    # check_advance takes no zone of control at all: an advance is never stopped by one
    h = ground.board.hex
    check_advance(ground, [AdvanceMove("GER-XX-20Pz", (h("2416"),))],
                  victors={"GER-XX-20Pz"}, vacated={h("2416")})


def test_7_6_c_8_12_e_a_successful_overrun_forces_an_advance(ground) -> None:
    h = ground.board.hex
    with pytest.raises(IllegalOrder) as err:
        check_advance(ground, [], victors={"GER-XX-20Pz"}, vacated={h("2416")},
                      must_advance=True)
    assert (err.value.rule, err.value.code) == ("7.6 C", "must-advance")
    check_advance(ground, [AdvanceMove("GER-XX-20Pz", (h("2416"),))],
                  victors={"GER-XX-20Pz"}, vacated={h("2416")}, must_advance=True)
    # otherwise advancing is optional (8.12 E)
    check_advance(ground, [], victors={"GER-XX-20Pz"}, vacated={h("2416")})
