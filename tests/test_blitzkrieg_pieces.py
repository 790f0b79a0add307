"""The Blitzkrieg '41 counters (adjudicator/games/blitzkrieg/data/pieces.xml): every fact
the rulebook states about them, one test per fact named after its rule, the 200-counter
count, and the shape of the reconstructed rest (OOB-README.md)."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest
from lxml import etree

DATA = Path(__file__).resolve().parents[1] / "adjudicator" / "games" / "blitzkrieg" / "data"
NS = "{urn:pbem:module:1}"
Steps = list[tuple[int, int, int]]


@pytest.fixture(scope="module")
def root() -> etree._Element:
    return etree.parse(str(DATA / "pieces.xml")).getroot()


@pytest.fixture(scope="module")
def units(root: etree._Element) -> dict[str, etree._Element]:
    return {u.get("id"): u for u in root.iter(f"{NS}unit")}


@pytest.fixture(scope="module")
def board() -> dict[str, etree._Element]:
    tree = etree.parse(str(DATA / "map.xml")).getroot()
    return {h.get("id"): h for h in tree.iter(f"{NS}hex")}


def steps(u: etree._Element) -> Steps:
    return [(int(s.get("attack")), int(s.get("defense")), int(s.get("movement")))
            for s in u.iter(f"{NS}step")]


def factors(text: str) -> tuple[int, int, int]:
    a, d, m = text.split("-")
    return int(a), int(d), int(m)


def start(u: etree._Element) -> tuple[int, int, int]:
    return steps(u)[int(u.get("start-steps")) - 1]


def test_pieces_are_valid_against_their_schema(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "pieces.rng")))
    assert schema.validate(root.getroottree()), schema.error_log.last_error


def test_schema_rejects_a_third_class(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "pieces.rng")))
    doc = etree.fromstring(etree.tostring(root))
    doc.find(f"{NS}unit").set("class", "cavalry")
    assert not schema.validate(doc)


def test_2_1_there_are_200_counters(root: etree._Element) -> None:
    total = sum(int(el.get("counters")) for el in root if isinstance(el.tag, str)
                and el.tag in (f"{NS}unit", f"{NS}marker"))
    assert total == int(root.get("counters")) == 200


def test_2_2_B_a_unit_of_three_or_four_steps_takes_two_counters(units) -> None:
    for u in units.values():
        n = len(steps(u))
        assert int(u.get("counters")) == (2 if n > 2 else 1), u.get("id")
        assert [int(s.get("n")) for s in u.iter(f"{NS}step")] == list(range(1, n + 1))


def test_steps_grow_stronger_and_start_within_the_mix(units) -> None:
    for u in units.values():
        s = steps(u)
        assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(s, s[1:], strict=False))
        assert 0 <= int(u.get("start-steps")) <= len(s)  # 6.17


def test_2_2_B_the_56th_panzer_corps(units) -> None:
    u = units["GER-XXX-56Pz"]
    assert steps(u) == [factors(t) for t in ("3-3-6", "6-4-7", "8-6-8", "10-8-9")]
    assert u.get("start-steps") == "4" and u.get("arrival") == "0"


def test_2_8_A_the_13th_corps_starts_at_two_steps_2_3_5(units) -> None:
    assert start(units["GER-XXX-13"]) == factors("2-3-5")


def test_2_8_A_the_47th_panzer_starts_at_three_steps_8_6_8(units) -> None:
    assert start(units["GER-XXX-47Pz"]) == factors("8-6-8")


def test_2_8_A_a_regular_infantry_corps_at_three_steps_is_3_4_5(units) -> None:
    for u in units.values():
        if u.get("nationality") == "german" and u.get("type") == "infantry":
            assert steps(u)[2] == factors("3-4-5")


def test_2_8_A_every_german_unit_has_four_steps(units) -> None:
    german = [u for u in units.values() if u.get("nationality") == "german"]
    assert german and all(len(steps(u)) == 4 for u in german)


def test_2_12_the_42nd_corps_is_in_play_at_the_start(units) -> None:
    u = units["GER-XXX-42"]
    assert u.get("arrival") == "0" and u.get("setup") and "rules: 2.12" in u.get("source")


def test_6_3_B_the_24th_army_enters_at_1_2_4_or_3_4_4_from_turn_2(units) -> None:
    u = units["SOV-XXXX-24"]
    assert steps(u) == [factors("1-2-4"), factors("3-4-4")]
    assert u.get("arrival") == "2" and u.get("entry") == "cadre"


def test_6_18_C_1st_shock_is_3_2_3_up_to_11_8_3_and_turn_7(units) -> None:
    u = units["SOV-XXXX-1S"]
    s = steps(u)
    assert s[0] == factors("3-2-3") and s[-1] == factors("11-8-3") and len(s) == 4
    assert u.get("arrival") == "7" and units["SOV-XXXX-2S"].get("arrival") == "7"
    assert all(units[f"SOV-XXXX-{n}S"].get("entry") == "conversion" for n in range(1, 5))


def test_6_18_C_the_40th_army_reduced_is_1_2_4(units) -> None:
    assert steps(units["SOV-XXXX-40"])[0] == factors("1-2-4")


def test_2_8_C_thirteen_soviet_armies_have_three_or_four_steps(units) -> None:
    multi = sorted(u.get("id") for u in units.values()
                   if u.get("side") == "soviet" and len(steps(u)) >= 3)
    expected = [f"SOV-XXXX-{n}" for n in (8, 9, 10, 11, 12, 19, 20, 21, 22)]
    expected += [f"SOV-XXXX-{n}S" for n in (1, 2, 3, 4)]
    assert multi == sorted(expected)


def test_2_8_C_single_step_soviet_units(units) -> None:
    for u in units.values():
        if u.get("id") in ("SOV-XXXX-LPMA", "SOV-XXXX-OBG") or (
                u.get("side") == "soviet" and u.get("type") == "mechanized"
                and u.get("size") == "corps"):
            assert len(steps(u)) == 1 and u.get("counters") == "1", u.get("id")


def test_2_8_D_soviet_units_in_play_start_at_full_strength(units) -> None:
    for u in units.values():
        if u.get("side") == "soviet" and u.get("arrival") == "0":
            assert int(u.get("start-steps")) == len(steps(u)), u.get("id")


def test_2_4_movement_classes(units) -> None:
    for u in units.values():
        kind = u.get("type")
        if kind in ("panzer", "motorized", "fast", "mechanized"):
            assert u.get("class") == "mechanized", u.get("id")
        elif kind == "supply":
            assert u.get("class") == "none"  # 5.12 B
        else:
            assert u.get("class") == "leg", u.get("id")
    tanks = {u.get("tank") for u in units.values() if u.get("size") == "corps"
             and u.get("side") == "soviet" and u.get("type") == "mechanized"}
    assert tanks == {"BT-7", "KV-1", "T-34"}


def test_11_5_italians_and_hungarians_are_mechanized(units) -> None:
    for uid in ("ITA-XXX-CSIR", "HUN-XXX-Sch"):
        assert units[uid].get("class") == "mechanized"
        assert units[uid].get("entry") == "automatic"  # 6.2 D


def test_6_2_C_soviet_automatic_reinforcements(root, units) -> None:
    auto = sorted(u.get("id") for u in units.values()
                  if u.get("side") == "soviet" and u.get("entry") == "automatic")
    assert auto == ["SOV-MSU", "SOV-PART", "SOV-XXXX-LPMA"]
    raid = root.find(f"{NS}marker[@kind='cavalry-raid']")
    assert raid.get("entry") == "automatic" and raid.get("side") == "soviet"


def test_5_12_A_the_msu_is_0_0_1_from_turn_5(units) -> None:
    u = units["SOV-MSU"]
    assert steps(u) == [(0, 0, 1)] and u.get("arrival") == "5"


def test_6_22_A_the_fmg_is_a_cadre_not_before_turn_5(units) -> None:
    u = units["SOV-XXXX-FMG"]
    assert u.get("entry") == "cadre" and int(u.get("arrival")) >= 5


def test_8_4_two_romanian_armies(units) -> None:
    rom = [u for u in units.values() if u.get("nationality") == "romanian"]
    assert len(rom) == 2 and all(u.get("size") == "army" for u in rom)
    assert len({u.get("setup") for u in rom}) == 2  # 8.4 B: never in the same hex


def test_14_39_7_the_4th_airborne_starts_in_moscow(units, board) -> None:
    u = units["SOV-XXX-4A"]
    assert board[u.get("setup")].get("place") == "Moscow"
    assert u.get("type") == "paratroop" and len(steps(u)) == 2


def test_2_11_markers(root) -> None:
    kinds = {m.get("kind"): int(m.get("counters")) for m in root.iter(f"{NS}marker")}
    assert kinds["air-supply"] == 4 and kinds["hedgehog"] == 4  # 5.17 D, 14.39.8 A
    assert kinds["cavalry-raid"] == 1 and kinds["out-of-supply"] >= 1


def test_6_5_german_reinforcements_are_okhr_cadres(units) -> None:
    later = [u for u in units.values() if u.get("nationality") == "german"
             and u.get("arrival") != "0"]
    assert later and all(u.get("entry") == "cadre" and u.get("start-steps") == "0"
                         for u in later)


def test_3_0_B_set_up_hexes(units, board) -> None:
    for u in units.values():
        at_start = u.get("arrival") == "0"
        assert bool(u.get("setup")) == at_start, u.get("id")
        if not at_start:
            continue
        hexrec = board[u.get("setup")]
        if u.get("side") == "axis":
            assert hexrec.get("zomo"), u.get("id")  # 3.0 D: west of the border
            if u.get("nationality") == "romanian":
                assert hexrec.get("zomo") == "romania"
        else:
            assert hexrec.get("country") == "soviet" and not hexrec.get("zomo")


def test_4_4_C_german_units_in_romania_at_the_start(units, board) -> None:
    in_romania = [u for u in units.values() if u.get("nationality") == "german"
                  and u.get("setup") and board[u.get("setup")].get("zomo") == "romania"]
    assert in_romania


def test_8_0_the_set_up_respects_stacking(units) -> None:
    load: dict[tuple[str, str], float] = defaultdict(float)
    for u in units.values():
        if not u.get("setup"):
            continue
        a = start(u)[0]
        if u.get("side") == "axis":
            weight = 2.0 if u.get("nationality") == "romanian" else 1.0  # 8.4 A
        elif u.get("type") == "mechanized" and u.get("size") == "corps":
            weight = 0.5  # 8.2
        elif u.get("id") == "SOV-XXX-4A":
            weight = 0.0  # 8.5 B
        else:
            weight = 2.0 if a >= 6 else 1.0  # 8.3
        load[(u.get("side"), u.get("setup"))] += weight
    for (side, _), weight in load.items():
        assert weight <= (5 if side == "axis" else 4)  # 8.1
    mech = Counter(u.get("setup") for u in units.values()
                   if u.get("side") == "soviet" and u.get("type") == "mechanized"
                   and u.get("setup"))
    assert max(mech.values()) <= 2  # 8.2


def test_every_unit_says_where_it_comes_from(units) -> None:
    for u in units.values():
        assert u.get("note") and u.get("source").endswith("reconstructed")


def test_8_2_8_4_8_5_fixed_stacking_counts(units) -> None:
    fixed = {uid: u.get("stacking") for uid, u in units.items() if u.get("stacking")}
    assert {uid for uid, v in fixed.items() if v == "2"} == {"ROM-XXXX-3", "ROM-XXXX-4"}
    assert {uid for uid, v in fixed.items() if v == "0"} == {"SOV-XXXX-LPMA", "SOV-MSU"}
    assert fixed["SOV-XXXX-OBG"] == "1"  # 6.20 C
    half = {uid for uid, v in fixed.items() if v == "0.5"}
    assert half == {uid for uid, u in units.items() if u.get("side") == "soviet"
                    and u.get("type") == "mechanized" and u.get("size") == "corps"}
    assert "SOV-XXXX-FMG" not in fixed  # "not the FMG" (8.2)


def test_5_17_B_romanian_armies_count_two_for_air_supply(units) -> None:
    counted = {uid for uid, u in units.items() if u.get("air-supply-count") == "2"}
    assert counted == {"ROM-XXXX-3", "ROM-XXXX-4"}


def test_7_7_units_that_never_enter_the_rvgk_box(units) -> None:
    barred = {uid for uid, u in units.items() if u.get("rvgk") == "no"}
    special = {"SOV-XXXX-C", "SOV-XXX-4A", "SOV-PART", "SOV-XXXX-OBG", "SOV-XXXX-LPMA"}
    assert special <= barred and all(
        units[uid].get("type") == "mechanized" for uid in barred - special)
    assert "SOV-MSU" not in barred  # 5.12 E: it may


def test_6_10_and_6_11_units_that_never_take_replacements(units) -> None:
    barred = {uid for uid, u in units.items() if u.get("replacements") == "no"}
    assert {"SOV-XXXX-LPMA", "SOV-XXX-4A", "SOV-PART", "SOV-XXXX-OBG", "ITA-XXX-CSIR",
            "HUN-XXX-Sch"} <= barred
    assert "SOV-XXXX-FMG" not in barred  # 6.10 A: the FMG is not a corps
