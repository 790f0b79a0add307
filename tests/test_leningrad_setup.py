"""The set-ups of Leningrad '41 (games/leningrad/data/setup.xml; Scenario Setup).

Every number the set-up lists state (Logistics Values and their terms, pools, counts of
blocks in play) is checked against the blocks and the map, and every deployment lies in
an area its side controls when the scenario starts, within the stacking of 2.9.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.module import MODULE_NS

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "leningrad" / "data"
M = f"{{{MODULE_NS}}}"
CONTROL = {"preludes": "campaign", "campaign": "campaign", "in-sight": "in-sight",
           "ring": "ring"}


@pytest.fixture(scope="module")
def setups() -> dict[str, etree._Element]:
    root = etree.parse(str(DATA / "setup.xml")).getroot()
    return {s.get("id"): s for s in root.findall(f"{M}scenario")}


@pytest.fixture(scope="module")
def blocks() -> dict[str, etree._Element]:
    root = etree.parse(str(DATA / "pieces.xml")).getroot()
    return {b.get("id"): b for b in root.findall(f"{M}block")}


@pytest.fixture(scope="module")
def areas() -> dict[str, etree._Element]:
    root = etree.parse(str(DATA / "map.xml")).getroot()
    return {a.get("id"): a for a in root.findall(f"{M}area")}


def _side(setups: dict[str, etree._Element], scenario: str, side: str) -> etree._Element:
    return setups[scenario].find(f"{M}side[@id='{side}']")


def _deployed(side: etree._Element) -> list[tuple[str, str, str]]:
    """(block, area or box, strength) of every block the side puts on the map or a box."""
    out = [(p.get("block"), p.get("area") or "box:" + p.get("box"), p.get("strength", "full"))
           for p in side.findall(f"{M}place") if p.get("block")]
    for d in side.findall(f"{M}draw"):
        cands = [f.get("block") for f in d.findall(f"{M}from")]
        for k, area in enumerate(d.get("areas").split()):
            out.append((cands[k], area, d.get("strength", "full")))  # stand-ins: counts only
    return out


def _marked(blocks: dict[str, etree._Element], mark: str) -> set[str]:
    return {b for b, el in blocks.items() if el.get("mark") == mark}


def test_setup_validates_against_its_schema() -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "setup.rng")))
    assert schema.validate(etree.parse(str(DATA / "setup.xml"))), schema.error_log


def test_every_reference_names_a_block_area_or_box(setups: dict[str, etree._Element],
                                                  blocks: dict[str, etree._Element],
                                                  areas: dict[str, etree._Element]) -> None:
    boxes = {b.get("id") for b in etree.parse(str(DATA / "map.xml")).getroot().findall(f"{M}box")}
    for s in setups.values():
        for el in s.iter(f"{M}place", f"{M}from"):
            if el.get("block"):
                assert el.get("block") in blocks
            if el.get("area"):
                assert el.get("area") in areas
            if el.get("box"):
                assert el.get("box") in boxes
        for d in s.iter(f"{M}draw"):
            assert set(d.get("areas").split()) <= set(areas)
            assert len(d.get("areas").split()) <= len(d.findall(f"{M}from"))


def test_scenarios_lengths_and_initiative(setups: dict[str, etree._Element]) -> None:
    got = {k: (s.get("start-turn"), s.get("start"), s.get("end-turn"), s.get("initiative"))
           for k, s in setups.items()}
    assert got == {"preludes": ("1", "impulses", "1", "axis"),
                   "in-sight": ("1", "impulses", "2", "axis"),
                   "ring": ("3", "logistics", "4", "axis"),
                   "campaign": ("1", "impulses", "6", "axis")}
    assert setups["in-sight"].get("first") == "soviet"  # the Soviets play the 1st Impulse
    assert setups["preludes"].get("initiative-uses") == "1"
    assert setups["campaign"].get("sudden-death") == "7"


@pytest.mark.parametrize("scenario,side,lv,terms", [
    ("campaign", "soviet", 13, (4, 3, 6, 0)), ("campaign", "axis", 11, (4, 6, 1, 0)),
    ("in-sight", "soviet", 13, (4, 3, 6, 0)), ("in-sight", "axis", 11, (4, 6, 1, 0)),
    ("ring", "soviet", 10, (3, 3, 4, 0)), ("ring", "axis", 13, (3, 7, 3, 0))])
def test_7_2_1_stated_logistics_values(setups: dict[str, etree._Element], scenario: str,
                                       side: str, lv: int, terms: tuple[int, ...]) -> None:
    el = _side(setups, scenario, side)
    got = tuple(int(el.get(k)) for k in ("leader", "hqs", "vp", "bonus"))
    assert got == terms and sum(got) == lv == int(el.get("lv"))


@pytest.mark.parametrize("scenario,side", [
    ("campaign", "soviet"), ("campaign", "axis"), ("in-sight", "soviet"),
    ("in-sight", "axis"), ("ring", "soviet"), ("ring", "axis")])
def test_7_2_1_hq_term_counts_the_deployed_non_exhausted_hqs(
        setups: dict[str, etree._Element], blocks: dict[str, etree._Element], scenario: str,
        side: str) -> None:
    el = _side(setups, scenario, side)
    deployed = _deployed(el)
    for same in el.findall(f"{M}same-as"):
        source = _side(setups, same.get("scenario"), side)
        deployed += [d for d in _deployed(source) if d[0] in same.get("blocks").split()]
    hqs = {b for b, where, strength in deployed if blocks[b].get("type") in ("hq", "lw-hq")
           and not where.startswith("box:velikiye") and strength != "0"}
    assert len(hqs) == int(el.get("hqs"))


@pytest.mark.parametrize("scenario,side,vp", [
    ("campaign", "axis", 1), ("campaign", "soviet", 5), ("in-sight", "axis", 1),
    ("in-sight", "soviet", 5), ("ring", "axis", 3), ("ring", "soviet", 3)])
def test_2_4_4_1_vp_term_counts_controlled_victory_areas(
        setups: dict[str, etree._Element], areas: dict[str, etree._Element], scenario: str,
        side: str, vp: int) -> None:
    """The Soviets also hold Murmansk (+1) in every set-up."""
    control = CONTROL[scenario]
    held = [c for c, a in areas.items() if a.get("victory") and a.get(control) == side]
    assert len(held) == vp
    stated = int(_side(setups, scenario, side).get("vp"))
    assert stated == vp + (1 if side == "soviet" else 0)


def test_campaign_note_blocks_in_play_and_pools(setups: dict[str, etree._Element],
                                                blocks: dict[str, etree._Element]) -> None:
    soviet, axis = _side(setups, "campaign", "soviet"), _side(setups, "campaign", "axis")
    assert len(_deployed(soviet)) == 37
    assert len(_marked(blocks, "green-dot")) == 9
    assert len(_marked(blocks, "S")) == 13 and len(_marked(blocks, "N")) == 3
    axis_in_play = [d for d in _deployed(axis) if not d[1].startswith("box:velikiye")]
    assert len(axis_in_play) == 29
    pool = axis.find(f"{M}pool").get("blocks").split()
    leftovers = sum(len(d.findall(f"{M}from")) - len(d.get("areas").split())
                    for d in axis.findall(f"{M}draw"))
    assert len(pool) + leftovers == 13
    assert {d[0] for d in _deployed(axis) if d[1] == "box:velikiye-luki"} == _marked(blocks, "V")


def test_campaign_29_icon_blocks_with_eight_remnants(setups: dict[str, etree._Element],
                                                     blocks: dict[str, etree._Element]) -> None:
    icons = [f.get("block") for d in _side(setups, "campaign", "soviet").findall(f"{M}draw")
             for f in d.findall(f"{M}from")]
    assert len(icons) == 29
    types = Counter(blocks[b].get("type") for b in icons)
    assert types == {"infantry": 17, "mechanized": 4, "tank": 8}
    remnants = Counter(blocks[b].get("type") for b in icons if blocks[b].get("remnant"))
    assert remnants == {"infantry": 2, "mechanized": 2, "tank": 4}
    colours = Counter(blocks[b].get("colour") for b in icons)
    assert colours == {"yellow": 5, "light-blue": 9, "orange": 7, "white": 8}


def test_scenario_2_soviet_pool_of_18(setups: dict[str, etree._Element],
                                     blocks: dict[str, etree._Element]) -> None:
    side = _side(setups, "in-sight", "soviet")
    rest = sum(int(part.split(":")[1]) for d in side.findall(f"{M}draw")
               for part in (d.get("rest") or "").split() if part.startswith("pool:"))
    named = sum(len(p.get("blocks").split()) for p in side.findall(f"{M}pool[@blocks]"))
    assert rest + named == 9 and len(_marked(blocks, "green-dot")) + rest + named == 18


def test_scenario_3_soviet_pool_of_21_and_eight_surrendered(
        setups: dict[str, etree._Element], blocks: dict[str, etree._Element]) -> None:
    side = _side(setups, "ring", "soviet")
    rests = Counter()
    for d in side.findall(f"{M}draw"):
        for part in (d.get("rest") or "").split():
            kind, _, n = part.partition(":")
            left = len(d.findall(f"{M}from")) - len(d.get("areas").split())
            rests[kind] += int(n) if n else left
    named = sum(len(p.get("blocks").split()) for p in side.findall(f"{M}pool[@blocks]"))
    assert rests["pool"] + named + len(_marked(blocks, "S")) == 21
    surrendered = side.find(f"{M}surrendered").get("blocks").split()
    assert rests["surrendered"] + len(surrendered) == 8


def test_scenario_3_axis_eleven_finns_and_four_in_the_pool(
        setups: dict[str, etree._Element], blocks: dict[str, etree._Element]) -> None:
    side = _side(setups, "ring", "axis")
    finns = [b for b, _, _ in _deployed(side) if blocks[b].get("faction") == "finnish"]
    assert len(finns) == 12  # Mannerheim and the remaining 11
    white = next(d for d in side.findall(f"{M}draw") if d.get("rest") == "pool")
    assert len(white.findall(f"{M}from")) - len(white.get("areas").split()) == 4
    assert side.find(f"{M}strength-roll") is not None


@pytest.mark.parametrize("scenario", ["campaign", "in-sight", "ring"])
def test_deployments_lie_in_own_areas_within_stacking(
        setups: dict[str, etree._Element], blocks: dict[str, etree._Element],
        areas: dict[str, etree._Element], scenario: str) -> None:
    terrain = {t.get("id"): int(t.get("stacking")) for t in
               etree.parse(str(DATA / "map.xml")).getroot().findall(f"{M}terrain")}
    control = CONTROL[scenario]
    for side_id in ("axis", "soviet"):
        side = _side(setups, scenario, side_id)
        isolated = {d.get("isolated") for d in side.findall(f"{M}draw") if d.get("isolated")}
        count: Counter[str] = Counter()
        for block, where, _ in _deployed(side):
            if where.startswith("box:"):
                continue
            assert areas[where].get(control) == side_id or where in isolated, (block, where)
            count[where] += 1
        for where, n in count.items():
            if side_id == "axis" and areas[where].get("staging"):
                continue  # 2.4.5: no stacking limit for the Germans
            assert n <= terrain[areas[where].get("dot")], (scenario, side_id, where, n)


def test_2_7_finnish_set_ups_inside_the_faz(setups: dict[str, etree._Element],
                                            blocks: dict[str, etree._Element],
                                            areas: dict[str, etree._Element]) -> None:
    for scenario in ("campaign", "ring"):
        for block, where, _ in _deployed(_side(setups, scenario, "axis")):
            if blocks[block].get("faction") == "finnish" and not where.startswith("box:"):
                assert areas[where].get("faz") == "true", (scenario, block, where)


def test_victory_conditions(setups: dict[str, etree._Element]) -> None:
    conds = {k: [c.get("controls") or "loc:" + c.get("cuts-loc")
                 for c in s.find(f"{M}victory").findall(f"{M}condition")]
             for k, s in setups.items()}
    assert conds["preludes"] == ["L", "T G4 93"]
    assert conds["in-sight"] == ["L", "loc:L", "T G4 95 30"]
    assert conds["ring"] == ["L", "O 70 146 30"]
    assert setups["campaign"].find(f"{M}victory").get("sudden-death") == "7"
