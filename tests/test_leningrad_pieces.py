"""The blocks, the Marat, the Defensive Lines and the Bombers of Leningrad '41
(games/leningrad/data/pieces.xml; rules 1.1, 1.2, 4.0 and The Armies).

The sticker sheet is not available: these tests pin every number and property the
rulebook states; the rest is reconstructed and listed in OOB-README.md.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.module import MODULE_NS

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "leningrad" / "data"
M = f"{{{MODULE_NS}}}"


@pytest.fixture(scope="module")
def root() -> etree._Element:
    return etree.parse(str(DATA / "pieces.xml")).getroot()


@pytest.fixture(scope="module")
def blocks(root: etree._Element) -> dict[str, etree._Element]:
    return {b.get("id"): b for b in root.findall(f"{M}block")}


def _count(blocks: dict[str, etree._Element], **attrs: str) -> int:
    return sum(all(b.get(k.replace("_", "-")) == v for k, v in attrs.items())
               for b in blocks.values())


def test_pieces_validate_against_their_schema() -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "pieces.rng")))
    assert schema.validate(etree.parse(str(DATA / "pieces.xml"))), schema.error_log


def test_1_1_109_blocks_and_the_marat(root: etree._Element,
                                      blocks: dict[str, etree._Element]) -> None:
    assert len(blocks) == 109 == int(root.get("blocks"))
    assert [s.get("name") for s in root.findall(f"{M}ship")] == ["Marat"]


def test_1_2_35_german_12_finnish_62_soviet_blocks(blocks: dict[str, etree._Element]) -> None:
    assert Counter(b.get("faction") for b in blocks.values()) == {
        "german": 35, "finnish": 12, "soviet": 62}


def test_the_armies_axis_formations(blocks: dict[str, etree._Element]) -> None:
    german = {b: blocks[b] for b in blocks if blocks[b].get("faction") == "german"}
    colours = Counter(b.get("colour") for b in german.values())
    assert colours["light-blue"] == 4 and colours["yellow"] == 5  # 16th and 18th Army
    assert colours["red"] == 4 and colours["green"] == 3 and colours["blue"] == 4
    assert colours["white"] == 11  # Axis Reserves
    assert {b.get("id") for b in german.values() if b.get("colour") == "none"} == {
        "hitler", "dietl", "ger-1fk", "ger-8fk"}


def test_the_armies_soviet_fronts(blocks: dict[str, etree._Element]) -> None:
    soviet = [b for b in blocks.values() if b.get("faction") == "soviet"]
    colours = Counter(b.get("colour") for b in soviet)
    assert colours == {"light-blue": 13, "yellow": 6, "green": 6, "orange": 9, "white": 26,
                       "none": 1, "any": 1}  # Stalin, Zhukov


def test_4_2_6_axis_nine_hqs_seven_tactical(blocks: dict[str, etree._Element]) -> None:
    axis = [b for b in blocks.values() if b.get("faction") != "soviet"]
    tactical = {b.get("id") for b in axis if b.get("type") == "hq"}
    assert tactical == {"ger-16-hq", "ger-18-hq", "dietl", "ger-39-hq", "ger-41-hq",
                        "ger-56-hq", "mannerheim"}
    assert {b.get("id") for b in axis if b.get("type") == "lw-hq"} == {"ger-1fk", "ger-8fk"}


def test_4_2_6_soviet_five_tactical_hqs(blocks: dict[str, etree._Element]) -> None:
    hqs = {b.get("abbr") for b in blocks.values()
           if b.get("faction") == "soviet" and b.get("type") == "hq"}
    assert hqs == {"Z", "NW", "V", "K", "L"}


def test_4_2_6_each_tactical_hq_has_its_own_colour(blocks: dict[str, etree._Element]) -> None:
    for faction in ("german", "soviet"):
        colours = [b.get("colour") for b in blocks.values() if b.get("faction") == faction
                   and b.get("type") == "hq" and b.get("colour") not in ("none", "any")]
        assert len(colours) == len(set(colours))


def test_4_2_1_blocks_that_cannot_move(blocks: dict[str, etree._Element]) -> None:
    assert {b.get("id") for b in blocks.values() if b.get("move") == "none"} == {
        "hitler", "stalin", "mannerheim", "sov-hanko", "sov-kuresaare"}


def test_4_2_1_static_brigades_hanko_and_kuresaare(blocks: dict[str, etree._Element]) -> None:
    static = [b for b in blocks.values() if b.get("type") == "static"]
    assert sorted(b.get("name") for b in static) == ["Hanko Static Brigade",
                                                     "Kuresaare Static Brigade"]
    assert all(b.get("size") == "brigade" for b in static)


def test_4_2_5_fast_and_slow_types(blocks: dict[str, etree._Element]) -> None:
    for b in blocks.values():
        if b.get("type") in ("tank", "motorized", "mechanized", "cavalry"):
            assert b.get("move") == "fast", b.get("id")
        if b.get("type") in ("infantry", "airborne"):
            assert b.get("move") == "slow", b.get("id")


def test_4_2_2_hq_star_colours(blocks: dict[str, etree._Element]) -> None:
    for b in blocks.values():
        if b.get("type") == "lw-hq":
            assert b.get("firepower") == "blue"
        elif b.get("id") in ("zhukov", "mannerheim"):
            assert b.get("firepower") == "red"
        elif b.get("type") == "hq":
            assert b.get("firepower") == "white", b.get("id")


def test_4_2_3_strength_from_4_to_1(blocks: dict[str, etree._Element]) -> None:
    assert {int(b.get("strength")) for b in blocks.values()} == {1, 2, 3, 4}


def test_4_2_note_sizes_and_dots(blocks: dict[str, etree._Element]) -> None:
    for b in blocks.values():
        if b.get("type") in ("hq", "lw-hq", "leader"):
            continue
        size, dots = b.get("size"), int(b.get("strength"))
        if b.get("faction") == "soviet" and b.get("type") != "static":
            assert dots == {"army": 4, "corps": 3, "division": 2}[size], b.get("id")
        if b.get("faction") != "soviet":
            assert dots == {"corps": 4, "division": dots if dots in (2, 3) else -1,
                            "brigade": 1}[size], b.get("id")
    assert blocks["fin-cav"].get("strength") == "1"


def test_7_1_leaders_have_four_stars(blocks: dict[str, etree._Element]) -> None:
    assert blocks["hitler"].get("strength") == blocks["stalin"].get("strength") == "4"


def test_10_6_zhukov_is_the_only_fast_soviet_hq(blocks: dict[str, etree._Element]) -> None:
    fast = [b.get("id") for b in blocks.values() if b.get("faction") == "soviet"
            and b.get("type") == "hq" and b.get("move") == "fast"]
    assert fast == ["zhukov"] and blocks["zhukov"].get("colour") == "any"


def test_10_7_mannerheim_is_the_only_triple_fire_axis_hq(blocks: dict[str, etree._Element]) -> None:
    tf = [b.get("id") for b in blocks.values() if b.get("faction") != "soviet"
          and b.get("type") == "hq" and b.get("firepower") == "red"]
    assert tf == ["mannerheim"]


def test_10_17_four_blitz_hqs(blocks: dict[str, etree._Element]) -> None:
    assert {b.get("abbr") for b in blocks.values() if b.get("blitz") == "true"} == {
        "Z", "R", "S", "M"}


def test_10_11_luftwaffe_hqs_are_slow(blocks: dict[str, etree._Element]) -> None:
    assert blocks["ger-1fk"].get("move") == blocks["ger-8fk"].get("move") == "slow"


def test_10_11_1_example_first_fk_at_full_strength_has_four_stars(
        blocks: dict[str, etree._Element]) -> None:
    assert blocks["ger-1fk"].get("strength") == "4"


def test_2_2_and_5_1_five_v_blocks(blocks: dict[str, etree._Element]) -> None:
    assert {b.get("id") for b in blocks.values() if b.get("mark") == "V"} == {
        "ger-39-hq", "ger-12pz", "ger-18mot", "ger-20mot", "ger-8fk"}


def test_5_1_thirteen_s_and_three_n_blocks(blocks: dict[str, etree._Element]) -> None:
    assert _count(blocks, mark="S") == 13 and _count(blocks, mark="N") == 3
    assert all(b.get("faction") == "soviet" for b in blocks.values()
               if b.get("mark") in ("S", "N"))


def test_campaign_nine_green_dot_blocks(blocks: dict[str, etree._Element]) -> None:
    assert _count(blocks, mark="green-dot") == 9


def test_5_1_the_leningrad_militia_is_regular_infantry_marked_l(
        blocks: dict[str, etree._Element]) -> None:
    lm = blocks["sov-lm"]
    assert lm.get("type") == "infantry" and lm.get("mark") == "L" and lm.get("abbr") == "LM"


def test_10_15_1_axis_tanks_have_three_dots(blocks: dict[str, etree._Element]) -> None:
    tanks = [b for b in blocks.values() if b.get("faction") == "german" and b.get("type") == "tank"]
    assert len(tanks) == 4 and all(b.get("strength") == "3" for b in tanks)


def test_10_13_2_finnish_divisions_have_two_red_dots(blocks: dict[str, etree._Element]) -> None:
    divisions = [b for b in blocks.values() if b.get("id").startswith("fin-")
                 and b.get("size") == "division"]
    assert len(divisions) == 7
    assert all(b.get("strength") == "2" and b.get("firepower") == "red" for b in divisions)


def test_2_7_the_163rd_is_finnish(blocks: dict[str, etree._Element]) -> None:
    assert blocks["ger-163"].get("faction") == "finnish"


def test_14_6_example_colours(blocks: dict[str, etree._Element]) -> None:
    assert blocks["ger-6pz"].get("colour") == "red" and blocks["ger-6pz"].get("type") == "tank"
    assert blocks["ger-3mot"].get("colour") == "green"


def test_14_7_three_soviet_cavalry_three_shock_armies_and_azul(
        blocks: dict[str, etree._Element]) -> None:
    assert _count(blocks, faction="soviet", type="cavalry") == 3
    assert sum("Shock Army" in b.get("name") for b in blocks.values()) == 3
    assert any("Azul" in b.get("name") for b in blocks.values())


def test_scenario_3_seven_german_infantry_corps_six_soviet(
        blocks: dict[str, etree._Element]) -> None:
    assert _count(blocks, faction="german", type="infantry", size="corps") == 7
    assert _count(blocks, faction="soviet", type="infantry", size="corps") == 6


def test_campaign_eight_fast_german_combat_blocks_besides_tt(
        blocks: dict[str, etree._Element]) -> None:
    fast = [b for b in blocks.values() if b.get("faction") == "german"
            and b.get("type") in ("tank", "motorized") and b.get("id") != "ger-tt"]
    assert Counter(b.get("type") for b in fast) == {"tank": 4, "motorized": 4}


def test_campaign_soviet_remnants(blocks: dict[str, etree._Element]) -> None:
    remnants = {b.get("id") for b in blocks.values() if b.get("remnant") == "true"}
    assert {"sov-lm", "sov-5abc"} <= remnants and len(remnants) == 10


def test_4_1_thirty_defensive_lines(root: etree._Element) -> None:
    lines = {el.get("faction"): el for el in root.findall(f"{M}lines")}
    assert int(lines["german"].get("count")) == 10 and lines["german"].get("colour") == "black"
    assert int(lines["soviet"].get("count")) == 20 and lines["soviet"].get("colour") == "red"
    assert all(el.get("strength") == "1" and el.get("firepower") == "black"
               and el.get("absorb") == "1" for el in lines.values())


def test_10_11_1_eight_bombers(root: etree._Element) -> None:
    bombers = root.findall(f"{M}bomber")
    assert len(bombers) == 8
    level = [b for b in bombers if b.get("kind") == "level"]
    stukas = [b for b in bombers if b.get("kind") == "dive"]
    assert len(level) == 6 and all(b.get("firepower") == "white" for b in level)
    assert len(stukas) == 2 and all(b.get("firepower") == "red" and b.get("blitz") == "true"
                                    and b.get("fliegerkorps") == "ger-8fk" for b in stukas)
    assert Counter(b.get("name") for b in bombers if b.get("fliegerkorps") == "ger-1fk") == {
        "Ju-88": 4}


def test_14_3_the_marat(root: etree._Element) -> None:
    marat = root.find(f"{M}ship")
    assert (marat.get("firepower"), marat.get("damaged-firepower"), marat.get("dice")) == (
        "red", "white", "1")


def test_1_1_eighty_three_wooden_markers(root: etree._Element) -> None:
    markers = sum(int(m.get("count")) for m in root.findall(f"{M}marker"))
    lines = sum(int(el.get("count")) for el in root.findall(f"{M}lines"))
    assert markers + lines == 83


def test_reconstructed_blocks_are_marked_and_listed(blocks: dict[str, etree._Element]) -> None:
    readme = (DATA / "OOB-README.md").read_text(encoding="utf-8").lower()
    for b in blocks.values():
        assert b.get("source") in ("rulebook", "reconstructed", "rulebook; reconstructed")
    for word in ("names", "firepower", "strength", "remnant", "s circle", "green dot"):
        assert word in readme
