"""The Blitzkrieg '41 charts (adjudicator/games/blitzkrieg/data/charts.xml): the CRT, the
TEC, supply attenuation, advances, the Turn Record Chart and victory, one test per fact
the rulebook states (worked examples included), and the shape of the reconstructed rest
(CHARTS-README.md)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from lxml import etree

DATA = Path(__file__).resolve().parents[1] / "adjudicator" / "games" / "blitzkrieg" / "data"
NS = "{urn:pbem:module:1}"
ODDS = ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1"]


@pytest.fixture(scope="module")
def root() -> etree._Element:
    return etree.parse(str(DATA / "charts.xml")).getroot()


@pytest.fixture(scope="module")
def crt(root: etree._Element) -> dict[str, dict[int, tuple[str, str]]]:
    return {c.get("odds"): {int(r.get("roll")): (r.get("attacker", ""), r.get("defender"))
                            for r in c.iter(f"{NS}result")}
            for c in root.iter(f"{NS}column")}


@pytest.fixture(scope="module")
def turns(root: etree._Element) -> dict[int, etree._Element]:
    return {int(t.get("n")): t for t in root.iter(f"{NS}turn")}


def odds_column(attack: int, defense: int) -> str | None:
    """14.3: divide, round down in the defender's favour; above 8-1 the 8-1 column,
    below 1-3 none (ineffectual)."""
    # 1-2.5 rounds (for the defender) to 1-3
    ratio = (f"{min(attack // defense, 8)}-1" if attack >= defense
             else f"1-{-(-defense // attack)}")
    return ratio if ratio in ODDS else None


def tec(root: etree._Element, kind: str, name: str, weather: str) -> etree._Element:
    el = root.find(f"{NS}tec/{NS}{kind}[@name='{name}']/{NS}weather[@name='{weather}']")
    assert el is not None
    return el


def penalty(strength: int, percent: int) -> int:
    """5.10 C, 9.23 B: one reduction, the penalty rounded up, never below one (5.11)."""
    return max(1, strength - math.ceil(strength * percent / 100))


def test_charts_are_valid_against_their_schema(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "charts.rng")))
    assert schema.validate(root.getroottree()), schema.error_log.last_error


def test_schema_rejects_a_result_above_four(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "charts.rng")))
    doc = etree.fromstring(etree.tostring(root))
    doc.find(f"{NS}crt/{NS}column/{NS}result").set("defender", "5")
    assert not schema.validate(doc)


# -- CRT (14.3-14.7, 14.29) ----------------------------------------------------------------
def test_14_3_the_crt_has_ten_columns_of_six_rolls(crt) -> None:
    assert list(crt) == ODDS and all(sorted(col) == [1, 2, 3, 4, 5, 6] for col in crt.values())


def test_14_3_A_26_against_8_is_3_to_1(crt) -> None:
    assert odds_column(26, 8) == "3-1"


def test_14_3_B_odds_above_8_1_use_the_8_1_column(root) -> None:
    assert odds_column(90, 8) == "8-1" and root.find(f"{NS}crt").get("above") == "8-1"


def test_14_3_C_odds_below_1_3_are_ineffectual_with_a_step_loss(root) -> None:
    assert odds_column(2, 7) is None
    el = root.find(f"{NS}crt")
    assert el.get("below") == "ineffectual" and el.get("below-loss") == "1"


def test_14_4_at_3_1_a_roll_of_3_gives_0_3(crt) -> None:
    assert crt["3-1"][3] == ("0", "3")


def test_14_29_A_8_1_is_an_automatic_dx(crt) -> None:
    assert all(res == ("", "DX") for res in crt["8-1"].values())


def test_14_7_results_are_numbers_of_0_to_4(crt) -> None:
    for odds in ODDS[:-1]:
        for a, d in crt[odds].values():
            assert a in "01234" and d in "01234" and len(a) == len(d) == 1


def test_better_odds_are_never_worse_for_the_attacker(crt) -> None:
    for roll in range(1, 7):
        numeric = [crt[o][roll] for o in ODDS[:-1]]
        assert all(int(x[0]) >= int(y[0]) and int(x[1]) <= int(y[1])
                   for x, y in zip(numeric, numeric[1:], strict=False))


# -- TEC (9.0) ------------------------------------------------------------------------------
def test_9_4_clear_costs_1_in_dry_and_3_or_2_in_mud(root) -> None:
    dry, mud = tec(root, "terrain", "clear", "dry"), tec(root, "terrain", "clear", "mud")
    assert (dry.get("mechanized"), dry.get("leg")) == ("1", "1")
    assert (mud.get("mechanized"), mud.get("leg")) == ("3", "2")


def test_9_5_attacking_into_clear_in_mud_costs_10_percent(root) -> None:
    assert tec(root, "terrain", "clear", "mud").get("attack") == "10"


def test_9_23_A_minor_river_in_mud_20_plus_10_for_clear(root) -> None:
    river = int(tec(root, "hexside", "minor-river", "mud").get("attack"))
    clear = int(tec(root, "terrain", "clear", "mud").get("attack"))
    assert (river, river + clear) == (20, 30)
    assert penalty(10, river + clear) == 7  # one reduction, 9.23 B


def test_9_24_B_lake_hexsides_only_in_frost_at_plus_1_and_20_percent(root) -> None:
    assert tec(root, "hexside", "lake", "dry").get("prohibited") == "yes"
    assert tec(root, "hexside", "lake", "mud").get("prohibited") == "yes"
    frost = tec(root, "hexside", "lake", "frost")
    assert (frost.get("mp"), frost.get("attack")) == ("1", "20")


def test_9_24_C_lake_ladoga_only_in_frost_at_2_2(root) -> None:
    assert tec(root, "terrain", "lake-ladoga", "dry").get("prohibited") == "yes"
    assert tec(root, "terrain", "lake-ladoga", "mud").get("prohibited") == "yes"
    frost = tec(root, "terrain", "lake-ladoga", "frost")
    assert (frost.get("mechanized"), frost.get("leg")) == ("2", "2")
    clear = tec(root, "terrain", "clear", "frost")
    assert (clear.get("mechanized"), clear.get("leg")) == ("2", "2")  # "clear ... (2/2)"


def test_9_12_and_9_13_kerch_and_sivash_are_major_rivers(root) -> None:
    kerch = root.find(f"{NS}tec/{NS}hexside[@name='kerch']")
    sivash = root.find(f"{NS}tec/{NS}hexside[@name='sivash']")
    assert kerch.get("as") == sivash.get("as") == "major-river"
    assert sivash.get("weather") == "mud"
    assert kerch.get("no-mobile-assault") == sivash.get("no-mobile-assault") == "yes"


def test_9_14_all_sea_hexsides_are_prohibited(root) -> None:
    assert root.find(f"{NS}tec/{NS}hexside[@name='all-sea']").get("prohibited") == "yes"


def test_9_1_C_soviet_leg_units_pay_1_in_frost(root) -> None:
    el = root.find(f"{NS}tec/{NS}soviet-leg")
    assert "frost" in el.get("weather").split() and el.get("mp") == "1"


def test_every_terrain_has_all_three_weathers(root) -> None:
    for el in root.iter(f"{NS}terrain"):
        assert sorted(w.get("name") for w in el) == ["dry", "frost", "mud"]
    for name in ("minor-river", "major-river", "lake"):
        el = root.find(f"{NS}tec/{NS}hexside[@name='{name}']")
        assert sorted(w.get("name") for w in el) == ["dry", "frost", "mud"]


def test_9_16_cities_double_defense_and_shift_both_results(root) -> None:
    city = root.find(f"{NS}tec/{NS}artificial[@name='city']")
    assert city.get("defense-multiplier") == "2"
    assert (city.get("defender-result"), city.get("attacker-result")) == ("-1", "1")
    assert city.get("mechanized-attack") == "defense"  # 9.16 D
    town = root.find(f"{NS}tec/{NS}artificial[@name='town']")
    assert town.get("defender-result") == "-1" and town.get("attacker-result") is None


def test_9_18_a_town_with_a_fort_lowers_the_defender_by_two(root) -> None:
    town = root.find(f"{NS}tec/{NS}artificial[@name='town']")
    fort = root.find(f"{NS}tec/{NS}artificial[@name='fortification']")
    assert int(town.get("defender-result")) + int(fort.get("defender-result")) == -2
    assert fort.get("attacker-result") == "1"


def test_9_17_stalin_line_adds_10_percent_rounded_up(root) -> None:
    percent = int(root.find(f"{NS}tec/{NS}artificial[@name='stalin-line']").get("defense-percent"))
    assert math.ceil(11 * percent / 100) == 2


def test_14_39_8_E_a_hedgehog_is_a_city_of_six_steps(root) -> None:
    hh = root.find(f"{NS}tec/{NS}artificial[@name='hedgehog']")
    assert (hh.get("as"), hh.get("max-steps"), hh.get("all-steps")) == ("city", "6", "yes")


def test_14_39_modifiers(root) -> None:
    mods = {m.get("name"): m for m in root.iter(f"{NS}modifier")}
    for name in ("concentric", "air-point", "massed-combined-arms", "shock-armies",
                 "all-out-panzer-assault"):
        assert mods[name].get("defender-result") == "1"
    assert mods["defending-air-point"].get("defender-result") == "-1"
    assert mods["cavalry-raid"].get("attack-strength") == "3"
    assert root.find(f"{NS}air-point-limit").get("per-battle") == "2"  # 14.39.2 C


# -- supply (5.0) ---------------------------------------------------------------------------
def test_5_5_and_5_9_soviet_attenuation_by_intervening_hexes(root) -> None:
    rows = {s.get("intervening"): (int(s.get("mp")), int(s.get("percent")))
            for s in root.iter(f"{NS}soviet")}
    assert rows == {"1": (1, 10), "2": (2, 20), "3": (3, 30), "4": (4, 40), "oos": (4, 40)}


def test_5_5_B_a_7_mf_unit_out_of_supply_has_3(root) -> None:
    oos = root.find(f"{NS}supply/{NS}soviet[@intervening='oos']")
    assert max(1, 7 - int(oos.get("mp"))) == 3


def test_5_10_A_and_C_examples(root) -> None:
    four = int(root.find(f"{NS}supply/{NS}soviet[@intervening='4']").get("percent"))
    assert penalty(3 + 4 + 6, four) == 7  # the 13-factor stack loses 6 (5.2 rounded up)
    assert penalty(6, four) == 3  # 40% of 6 is 2.4, taken as 3


def test_5_11_no_factor_below_one(root) -> None:
    assert penalty(1, 40) == 1 and penalty(2, 40) == 1


def test_5_15_C_D_h9_ten_hexes_from_h19_loses_10_percent_and_1_mp(root, turns) -> None:
    axis = root.find(f"{NS}supply/{NS}axis")
    beyond = 10 - int(turns[1].get("axis-supply-germany"))
    assert beyond == 1
    assert (beyond * int(axis.get("per-hex-percent")), beyond * int(axis.get("per-hex-mp"))) \
        == (10, 1)
    assert (axis.get("max-percent"), axis.get("max-mp")) == ("40", "4")


def test_5_16_C_axis_supply_lengths_grow_by_two_from_turn_5(turns) -> None:
    lengths = {n: (int(t.get("axis-supply-germany")), int(t.get("axis-supply-allied")))
               for n, t in turns.items()}
    assert all(lengths[n] == (9, 7) for n in range(1, 5))  # 5.15 A, B
    assert lengths[5] == (11, 9) and lengths[6] == (13, 11)
    assert all(lengths[n + 1] == (lengths[n][0] + 2, lengths[n][1] + 2) for n in range(5, 11))


# -- advances (14.22-14.28) -----------------------------------------------------------------
def test_14_23_to_14_27_advance_limits(root) -> None:
    adv = {(a.get("side"), a.get("class"), a.get("supply"), a.get("weather")): int(a.get("mp"))
           for a in root.iter(f"{NS}advance")}
    assert adv[("soviet", "mechanized", "full", "any")] == 2
    assert adv[("soviet", "leg", "any", "any")] == 0
    assert adv[("rih", "any", "any", "any")] == 0
    assert adv[("german", "mechanized", "full", "dry")] == 4
    assert adv[("german", "leg", "full", "dry")] == 2
    assert adv[("german", "mechanized", "partial", "dry")] == 2
    assert adv[("german", "any", "any", "mud")] == 0
    assert adv[("german", "mechanized", "full", "frost")] == 4
    assert adv[("german", "mechanized", "partial", "frost")] == 0


def test_8_1_stacking_limits(root) -> None:
    el = root.find(f"{NS}stacking")
    assert (el.get("axis"), el.get("soviet")) == ("5", "4")


# -- the Turn Record Chart ------------------------------------------------------------------
def test_4_4_E_eleven_turns(root, turns) -> None:
    assert sorted(turns) == list(range(1, 12)) and root.find(f"{NS}trc").get("turns") == "11"


def test_9_2_turn_6_is_mud_in_the_north_and_dry_in_the_south(turns) -> None:
    t = turns[6]
    assert (t.get("weather-north"), t.get("weather-south")) == ("mud", "dry")
    assert "October" in t.get("period") and "September" in turns[5].get("period")


def test_14_39_8_hedgehogs_from_turn_7_need_frost(turns) -> None:
    assert turns[7].get("weather-north") == "frost" and "November" in turns[7].get("period")


def test_6_3_B_the_soviets_get_30_replacement_steps_on_turn_2(turns) -> None:
    assert turns[2].get("soviet-replacements") == "30"


def test_6_7_design_note_german_mechanized_replacements_are_scarce(turns) -> None:
    mech = sum(int(t.get("german-mechanized-replacements")) for t in turns.values())
    leg = sum(int(t.get("german-leg-replacements")) for t in turns.values())
    assert 0 < mech < leg


def test_6_11_B_two_romanian_replacement_steps(root) -> None:
    assert root.find(f"{NS}trc").get("romanian-replacements") == "2"


def test_14_39_2_A_soviet_air_points_first_arrive_on_turn_5(turns) -> None:
    first = min(n for n, t in turns.items() if int(t.get("soviet-air-points")) > 0)
    assert first == 5
    assert all(int(t.get("german-air-points")) > 0 for t in turns.values())


def test_7_2_B_rvgk_transit_2_on_turn_2_rising_to_5_on_turn_5(turns) -> None:
    assert [int(turns[n].get("rvgk-transit")) for n in range(2, 12)] == [2, 3, 4] + [5] * 7


def test_15_3_victory_levels_from_turn_3_up_to_43(turns) -> None:
    levels = {n: int(t.get("victory-level")) for n, t in turns.items() if t.get("victory-level")}
    assert min(levels) == 3 and max(levels) == 11
    assert levels[11] == 43  # 15.4 A: "the ultimate 43"
    values = [levels[n] for n in sorted(levels)]
    assert values == sorted(values)


# -- victory (15.0) -------------------------------------------------------------------------
def test_15_1_sudden_death_moscow_through_turn_6_for_88(root) -> None:
    el = root.find(f"{NS}victory/{NS}sudden-death")
    assert (el.get("city"), el.get("through-turn"), el.get("series-points")) == \
        ("Moscow", "6", "88")


def test_15_3_B_series_awards_87_to_83(root) -> None:
    awards = {int(a.get("turn")): int(a.get("points"))
              for a in root.findall(f"{NS}victory/{NS}series-award")}
    assert awards == {3: 87, 4: 86, 5: 85, 6: 84, 7: 83}
    assert root.find(f"{NS}victory/{NS}victory-check").get("from-turn") == "3"  # 15.3 A


def test_15_4_B_automatic_soviet_victory_below_27_after_turn_7(root) -> None:
    el = root.find(f"{NS}victory/{NS}automatic-soviet-victory")
    assert (el.get("below"), el.get("after-turn")) == ("27", "7")
    assert {int(a.get("turn")): int(a.get("points")) for a in el} == \
        {8: 27, 9: 28, 10: 29, 11: 30}


def test_15_5_deductions_for_step_losses(root) -> None:
    found = {d.get("event"): int(d.get("vp")) for d in root.iter(f"{NS}deduction")}
    assert found == {"romanian-step-beyond-two": 1, "italian-csir-eliminated": 2,
                     "hungarian-schnell-eliminated": 1,
                     "german-leg-corps-eliminated-supplied": 1,
                     "german-panzer-corps-eliminated-supplied": 2,
                     "german-leg-corps-eliminated-unsupplied": 3,
                     "german-panzer-corps-eliminated-unsupplied": 4}


def test_15_7_alternate_leningrad_twice_the_roll_at_least_6(root) -> None:
    el = root.find(f"{NS}victory/{NS}alternate-leningrad")
    assert [max(int(el.get("minimum")), int(el.get("per-pip")) * r) for r in range(1, 7)] == \
        [6, 6, 6, 8, 10, 12]
    assert (el.get("through-turn"), el.get("normal")) == ("4", "12")


def test_15_2_B_available_vps_match_the_map(root) -> None:
    board = etree.parse(str(DATA / "map.xml")).getroot()
    total = sum(int(h.get("vp")) for h in board.iter(f"{NS}hex") if h.get("vp"))
    assert int(root.find(f"{NS}victory").get("available-vps")) == total == 83


def test_reconstructed_values_say_so(root) -> None:
    for el in root.iter():
        if isinstance(el.tag, str) and el.get("source"):
            assert el.get("source").startswith(("rules:", "reconstructed"))
