"""Turn reports: narrative for every event kind, roll table, seed reveal, decision
request, escaping, the SVG map (one path per area) and its PNG."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from lxml import html as lxml_html

from adjudicator.engine.dice import commitment
from adjudicator.engine.module import ModuleData
from adjudicator.games.solitaire.events import APPLIERS as EVENT_HANDLERS
from adjudicator.reports import (
    StepReport,
    project_state,
    render_map_svg,
    render_report,
    write_report,
)
from adjudicator.reports.areamap import map_geometry, svg_size
from adjudicator.reports.projection import NoProjection

SVG = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ENGINE_KINDS = {"roll", "decision-requested", "decision-answered"}

# -- a tiny module: six square areas in two rows, a sea, a backdrop --------------------

SQUARES = {  # id: (name, start side, column, row)
    "berlin": ("Berlin", "german", 0, 0),
    "warsaw": ("Warsaw", "german", 1, 0),
    "minsk": ("Minsk", "soviet", 2, 0),
    "bucharest": ("Bucharest", "german", 0, 1),
    "kiev": ("Kiev", "soviet", 1, 1),
    "gorky": ("Gorky", "soviet", 2, 1),
}
ADJACENT = [("berlin", "warsaw"), ("warsaw", "minsk"), ("berlin", "bucharest"),
            ("warsaw", "kiev"), ("bucharest", "kiev"), ("minsk", "gorky"), ("kiev", "gorky"),
            ("warsaw", "bucharest")]


def square(col: int, row: int) -> str:
    x, y = 40 + 200 * col, 20 + 180 * row
    return f"M{x},{y} H{x + 200} V{y + 180} H{x} Z"


def tiny_module_xml() -> bytes:
    areas = "".join(
        f'<area id="{a}" name="{name}" start-side="{side}" romanian-allowed="true" '
        f'label-x="{140 + 200 * c}" label-y="{80 + 180 * r}" source="test">'
        f'<shape d="{square(c, r)}"/></area>'
        for a, (name, side, c, r) in SQUARES.items())
    adjacent = "".join(f'<adjacent a="{a}" b="{b}"/>' for a, b in ADJACENT)
    return f"""<module xmlns="urn:pbem:module:1" game="solitaire" version="test"
        title="Barbarossa Solitaire">
      <credits>test</credits>
      <map kind="areas" width="680" height="400">
        {areas}{adjacent}
        <sea id="black" name="Black Sea" label-x="140" label-y="380">
          <member area="bucharest" x="60" y="360"/><member area="kiev" x="260" y="360"/>
        </sea>
        <backdrop>
          <neutral name="Sweden" d="M640,0 H680 V400 H640 Z"/>
          <river name="Dnieper" d="M300,20 C320,150 280,250 300,380"/>
          <city name="Lodz" x="250" y="120"/>
        </backdrop>
      </map>
      <nationalities>
        <nationality id="german" name="German" enters="berlin"/>
        <nationality id="romanian" name="Romanian" enters="bucharest"/>
        <nationality id="hungarian" name="Hungarian" enters="bucharest"/>
        <nationality id="italian" name="Italian" enters="bucharest" lost-for-good="true"/>
      </nationalities>
      <pieces>
        <piece id="GER-6" name="6th Army" nationality="german" group="AGS"/>
        <piece id="GER-17" name="17th Army" nationality="german" group="AGS"/>
        <piece id="GER-16" name="16th Army" nationality="german" group="AGN"/>
        <piece id="GER-8" name="8th Army" nationality="german" group="GER"/>
        <piece id="RUM-3" name="3rd Army" nationality="romanian" group="RUM"/>
        <piece id="HUN-2" name="2nd Army" nationality="hungarian" group="HUN"/>
        <piece id="ITA-8" name="8th Army" nationality="italian" group="IT"/>
      </pieces>
      <turns>
        <turn id="1941-summer" name="Summer 1941" year="1941" season="summer"/>
        <turn id="1941-autumn" name="Autumn 1941" year="1941" season="autumn"/>
        <turn id="1942-winter" name="Winter 1942" year="1942" season="winter"/>
      </turns>
      <attack-chart max-units="4" max-roll="4">
        <row units="1" results="-1 -1 X-1 X"/><row units="2" results="-1 X-1 X X"/>
        <row units="3" results="X-1 X X X"/><row units="4" results="X X X X"/>
      </attack-chart>
      <soviet-attack-effects>
        <roll value="1" effect="none"/><roll value="2" effect="retreat-or-eliminate"/>
        <roll value="3" effect="eliminate"/>
      </soviet-attack-effects>
    </module>""".encode()


@pytest.fixture(scope="module")
def module() -> ModuleData:
    raw = tiny_module_xml()
    return ModuleData(etree.fromstring(raw), "solitaire", "test", hashlib.sha256(raw).hexdigest(),
                      raw)


def base_state(**changes: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "game": "solitaire", "scenario": "campaign", "end": "1942-winter",
        "options": {"free-placement": "yes", "hitlers-orders": "no", "mandatory-garrison": "yes",
                    "soviet": "random", "target-reading": "either-place",
                    "variant": "early-fury", "victory-count": "all-areas",
                    "voluntary-alliance": "no"},
        "turn": "1941-summer", "phase": "setup",
        "units": {"GER-6": "berlin", "GER-17": "berlin", "RUM-3": "bucharest",
                  "ITA-8": "bucharest"},
        "garrisons": [],
        "control": {a: side for a, (_, side, _, _) in SQUARES.items()},
        "unplaced": ["GER-16"], "moved": [], "attacked": [], "vacated": [], "entered": 0,
        "queue": [{"unit": "GER-8", "due": "1941-summer"}], "schedule": [], "out": [],
        "retreat-years": [], "soviet": {"left": 0, "done": 0}, "standing": {},
        "pending": None, "decisions": 0, "result": None,
    }
    state.update(changes)
    return state


def roll(purpose: str, d6: int, die: str = "d6") -> dict[str, Any]:
    value = (d6 + 1) // 2 if die == "D3" else d6
    return {"kind": "roll", "purpose": purpose, "die": die, "sides": 6, "d6": d6, "value": value}


# A whole turn, told event by event: free placement, standing instructions, movement,
# two attacks, a garrison, a reinforcement, three Soviet attacks, the next turn's start.
TURN_EVENTS: list[dict[str, Any]] = [
    {"kind": "unit-placed", "unit": "GER-16", "area": "warsaw"},
    {"kind": "phase-ended", "phase": "setup", "next": "movement"},
    {"kind": "standing-instructions", "side": "german", "instructions": {
        "loss-priority": ["GER-17"], "retreat-priority": ["bucharest"],
        "on-retreat-or-eliminate": "retreat"}},
    {"kind": "moved", "unit": "GER-6", "from": "berlin", "to": "warsaw",
     "route": ["berlin", "warsaw"]},
    {"kind": "moved", "unit": "GER-17", "from": "berlin", "to": "warsaw",
     "route": ["berlin", "warsaw"]},
    {"kind": "garrison-placed", "area": "berlin", "rule": "Movement (optional rule)"},
    {"kind": "phase-ended", "phase": "movement", "next": "attack"},
    roll("German attack on Kiev", 4, "D3"),
    {"kind": "attacked", "target": "kiev", "units": ["GER-17", "GER-6"],
     "origins": {"GER-17": "warsaw", "GER-6": "warsaw"}, "german_taking_part": True,
     "year": 1941, "roll": 2, "modifier": 3, "modified": 5, "row": 2, "column": 4,
     "result": "X", "rule": "Combat"},
    {"kind": "advanced", "units": ["GER-17", "GER-6"], "origins": ["warsaw"], "to": "kiev"},
    {"kind": "control-changed", "area": "kiev", "side": "german", "cause": "attack on Kiev"},
    roll("German attack on Minsk", 1, "D3"),
    {"kind": "attacked", "target": "minsk", "units": ["GER-16"],
     "origins": {"GER-16": "warsaw"}, "german_taking_part": True, "year": 1941, "roll": 1,
     "modifier": 1, "modified": 2, "row": 1, "column": 2, "result": "-1", "rule": "Combat"},
    {"kind": "unit-removed", "unit": "GER-16", "area": "warsaw",
     "reason": "lost attacking Minsk (-1)", "rule": "Combat", "returns": "1942-winter"},
    {"kind": "garrison-placed", "area": "warsaw", "rule": "Movement"},
    {"kind": "phase-ended", "phase": "attack", "next": "reinforcement"},
    {"kind": "garrison-removed", "area": "berlin", "reason": "GER-8 entered",
     "rule": "Movement"},
    {"kind": "reinforcement-placed", "unit": "GER-8", "area": "berlin"},
    {"kind": "phase-ended", "phase": "reinforcement", "next": "soviet-combat"},
    roll("number of Soviet attacks (Random column)", 4),
    {"kind": "soviet-attacks-set", "count": 2, "column": "random", "variant": "early-fury",
     "base": 1, "modifier": 1, "low": 0, "high": 1, "rule": "Soviet Combat"},
    roll("Soviet attack 1: Random Attack Chart", 5),
    {"kind": "soviet-roll-twice", "number": 1, "roll": 5,
     "rule": "Soviet Combat: Soviet Random Attack Chart"},
    roll("Soviet attack 2: Random Attack Chart", 2),
    {"kind": "roll", "purpose": "Soviet attack 2: tie between Kiev, Warsaw",
     "die": "pick 1 of 2", "sides": 2, "value": 1, "candidates": ["kiev", "warsaw"],
     "choice": "kiev"},
    {"kind": "soviet-attack-target", "number": 2, "roll": 2, "target": "kiev",
     "how": "nearest", "places": ["gorky", "minsk"], "candidates": ["kiev", "warsaw"],
     "rule": "Soviet Combat: Soviet Random Attack Chart"},
    roll("Soviet attack 2 on Kiev: effect", 3, "D3"),
    {"kind": "soviet-attack-effect", "number": 2, "target": "kiev", "roll": 2,
     "effect": "retreat-or-eliminate", "notes": [], "retreat_to": ["bucharest", "warsaw"],
     "rule": "Soviet Combat: Effects of Soviet Attack"},
    {"kind": "standing-instruction-used", "instruction": "on-retreat-or-eliminate",
     "choice": "retreat:bucharest"},
    {"kind": "retreated", "units": ["GER-17", "GER-6"], "from": "kiev", "to": "bucharest",
     "via": "land", "year": "1941", "rule": "Soviet Combat: Effects of Soviet Attack"},
    {"kind": "control-changed", "area": "kiev", "side": "soviet", "cause": "Soviet attack 2"},
    roll("Soviet attack 3: Random Attack Chart", 6),
    {"kind": "soviet-attack-target", "number": 3, "roll": 6, "target": "warsaw",
     "how": "weakest-point", "places": [], "candidates": ["warsaw"],
     "rule": "Soviet Combat: Soviet Random Attack Chart"},
    {"kind": "garrison-removed", "area": "warsaw", "reason": "Soviet attack 3",
     "rule": "Soviet Combat: Effects of Soviet Attack"},
    {"kind": "control-changed", "area": "warsaw", "side": "soviet", "cause": "Soviet attack 3"},
    {"kind": "soviet-combat-ended", "turn": "1941-summer"},
    {"kind": "turn-began", "turn": "1941-autumn", "name": "Autumn 1941"},
    {"kind": "unit-removed", "unit": "ITA-8", "area": "bucharest",
     "reason": "all italian units are eliminated at the start of Autumn 1941",
     "rule": "Restrictions", "returns": None},
    {"kind": "reinforcement-due", "unit": "HUN-2", "due": "1941-autumn"},
]
TURN_ORDERS = [
    {"index": 0, "line": 5, "kind": "place", "attrs": {"unit": "GER-16", "area": "warsaw"}},
    {"index": 1, "line": 6, "kind": "standing", "attrs": {
        "loss-priority": "GER-17", "on-retreat-or-eliminate": "retreat",
        "retreat-priority": "bucharest"}},
    {"index": 2, "line": 7, "kind": "move", "attrs": {"unit": "GER-6", "to": "warsaw"}},
    {"index": 3, "line": 8, "kind": "move", "attrs": {"unit": "GER-17", "to": "warsaw"}},
    {"index": 4, "line": 9, "kind": "attack", "attrs": {"target": "kiev",
                                                          "units": "GER-6 GER-17"}},
    {"index": 5, "line": 10, "kind": "attack", "attrs": {"target": "minsk", "units": "GER-16"}},
    {"index": 6, "line": 11, "kind": "garrison", "attrs": {"area": "warsaw"}},
    {"index": 7, "line": 12, "kind": "reinforce", "attrs": {"unit": "GER-8", "area": "berlin"}},
    {"index": 8, "line": 13, "kind": "end-turn", "attrs": {}},
]

DECISION = {"id": "D1", "side": "german", "kind": "retreat-or-eliminate",
            "rule": "Soviet Combat: Effects of Soviet Attack",
            "options": ["retreat:bucharest", "eliminate:GER-6", "eliminate:GER-17"],
            "context": {"number": 1, "target": "kiev", "roll": 2}}
DECISION_EVENTS: list[dict[str, Any]] = [
    {"kind": "decision-answered", "id": "D0", "choice": "eliminate:GER-16"},
    {"kind": "unit-removed", "unit": "GER-16", "area": "warsaw", "reason": "Soviet attack 1",
     "rule": "Soviet Combat: Effects of Soviet Attack", "returns": "1942-winter"},
    {"kind": "soviet-combat-ended", "turn": "1941-summer"},
    {"kind": "turn-began", "turn": "1941-autumn", "name": "Autumn 1941"},
    {"kind": "phase-ended", "phase": "movement", "next": "attack"},
    {"kind": "phase-ended", "phase": "attack", "next": "reinforcement"},
    {"kind": "phase-ended", "phase": "reinforcement", "next": "soviet-combat"},
    {"kind": "soviet-attacks-set", "count": 1, "column": "medium", "variant": "none",
     "base": 1, "modifier": 0, "low": 1, "high": 1, "rule": "Soviet Combat"},
    roll("Soviet attack 1: Random Attack Chart", 3),
    {"kind": "soviet-attack-target", "number": 1, "roll": 3, "target": "kiev",
     "how": "nearest", "places": ["kiev", "bucharest"], "candidates": ["kiev"],
     "rule": "Soviet Combat: Soviet Random Attack Chart"},
    roll("Soviet attack 1 on Kiev: effect", 4, "D3"),
    {"kind": "soviet-attack-effect", "number": 1, "target": "kiev", "roll": 2,
     "effect": "retreat-or-eliminate", "notes": [], "retreat_to": ["bucharest"],
     "rule": "Soviet Combat: Effects of Soviet Attack"},
    {"kind": "decision-requested", "request": DECISION},
]
FINAL_EVENTS: list[dict[str, Any]] = [
    {"kind": "soviet-combat-ended", "turn": "1942-winter"},
    {"kind": "game-ended", "areas": 5, "level": "Nazi Minor Victory", "counted": "all areas",
     "rule": "Victory Conditions"},
]
SEED = "11" * 32


def make_step(module: ModuleData, **changes: Any) -> StepReport:
    before = base_state()
    after = base_state(phase="movement", turn="1941-autumn", unplaced=[],
                       units={"GER-6": "bucharest", "GER-17": "bucharest", "GER-8": "berlin",
                              "RUM-3": "bucharest"},
                       garrisons=[], queue=[{"unit": "HUN-2", "due": "1941-autumn"}],
                       out=["ITA-8"], schedule=[["GER-16", "1942-winter"]])
    after["control"]["warsaw"] = "soviet"
    fields: dict[str, Any] = dict(
        game_id="g-test", game="solitaire", title="Barbarossa Solitaire", side="german", seq=3,
        submitted_by="Erich <erich@example.org>", outcome="accepted",
        orders_total=len(TURN_ORDERS), orders_applied=len(TURN_ORDERS),
        orders=copy.deepcopy(TURN_ORDERS), rejection=None, decision=None,
        events=copy.deepcopy(TURN_EVENTS), state_before=before, state_after=after,
        state_hash="ab" * 32, commit=commitment(bytes.fromhex(SEED)), server_seed=SEED,
        entropy="c0ffee" * 4, next_commit="cd" * 32, waiting_for="german: orders for step 4",
        module=module)
    fields.update(changes)
    return StepReport(**fields)


def words(element: Any) -> str:
    """An element's text with whitespace normalized; separate elements stay separate words."""
    return " ".join(" ".join(element.itertext()).split()).replace(" .", ".")


def text_of(html: str) -> str:
    return words(lxml_html.fromstring(html).body)


def narrative_items(html: str) -> list[str]:
    doc = lxml_html.fromstring(html)
    return [words(li) for li in doc.xpath("//ul[contains(@class,'events')]/li")]


@pytest.fixture(scope="module")
def turn_report(module: ModuleData) -> Any:
    return render_report(make_step(module))


# -- the narrative ------------------------------------------------------------------------


def test_fixtures_cover_every_event_kind() -> None:
    kinds = {e["kind"] for e in TURN_EVENTS + DECISION_EVENTS + FINAL_EVENTS}
    assert kinds >= set(EVENT_HANDLERS) | ENGINE_KINDS


def test_narrative_tells_every_event_of_a_turn(turn_report: Any) -> None:
    items = narrative_items(turn_report.html)
    text = " | ".join(items)
    expected = [
        "GER-16 (16th Army) placed in Warsaw. [rule: Optional Rules: Free placement]",
        "End of the set-up phase; the movement phase begins",
        "Standing instructions of the German player recorded: loss priority GER-17; "
        "on a Soviet result of 2: retreat; retreat priority Bucharest",
        "GER-6 (6th Army) moved Berlin → Warsaw. [rule: Movement]",
        "GER-17 (17th Army) moved Berlin → Warsaw. Garrison placed in Berlin.",
        "Attack on Kiev by GER-6, GER-17 (2 units, from Warsaw): D3 roll 2 (die 4), +3 for "
        "1941 with German units = 5 → column 4 (rolls above 4 read as 4, reconstructed), "
        "row 2 units: X, attack succeeds; GER-6, GER-17 move into Kiev. Kiev becomes "
        "German-controlled. [rule: Combat]",
        "Attack on Minsk by GER-16 (1 unit, from Warsaw): D3 roll 1 (die 1), +1 for 1941 with "
        "German units = 2 → column 2, row 1 unit: -1, attack fails, the attacker loses 1 "
        "unit; GER-16 (16th Army) is lost (returns in Winter 1942). [rule: Combat]",
        "Garrison placed in Warsaw. [rule: Movement]",
        "Garrison in Berlin removed: GER-8 entered. [rule: Movement]",
        "GER-8 (8th Army) enters as a reinforcement at Berlin. [rule: Reinforcements]",
        "Soviet Attack Chart, Summer 1941, Random column: 0-1, d6 4 → 1, Early Fury +1 → "
        "2 Soviet attacks this turn. [rule: Soviet Combat]",
        "Soviet attack 1: Random Attack Chart roll 5 → roll again twice (one more attack "
        "this turn)",
        "Soviet attack 2: Random Attack Chart roll 2 → nearest front-line area to Gorky / "
        "Minsk; candidates at distance 1: Kiev and Warsaw; tie broken by die (pick 1 of 2, "
        "in id order) → Kiev. Defending: GER-6, GER-17. Effect roll D3 2 (die 3): retreat "
        "or eliminate one unit; the units may retreat to Bucharest or Warsaw. German "
        "standing instruction: retreat to Bucharest. GER-6, GER-17 retreat Kiev → "
        "Bucharest. Kiev becomes Soviet-controlled. [rule: Soviet Combat: Soviet Random Attack "
        "Chart; Effects of Soviet Attack]",
        "Soviet attack 3: Random Attack Chart roll 6 → the weakest point of the front line: "
        "Warsaw (a garrison only). Defending: a garrison alone. The garrison in Warsaw is "
        "destroyed (a garrison alone is destroyed automatically, no roll). Warsaw becomes "
        "Soviet-controlled.",
        "Soviet combat of Summer 1941 over (3 attacks made)",
        "Autumn 1941 begins",
        "ITA-8 (Italian 8th Army) is eliminated in Bucharest (all italian units are "
        "eliminated at the start of Autumn 1941); it is out of the game for good. "
        "[rule: Restrictions]",
        "Reinforcement due: HUN-2 (Hungarian 2nd Army), to enter at Bucharest",
    ]
    for line in expected:
        assert line in text, line


def test_narrative_is_grouped_by_phase(turn_report: Any) -> None:
    doc = lxml_html.fromstring(turn_report.html)
    titles = [words(h) for h in doc.xpath("//section[@id='narrative']//h3")]
    assert titles == ["Set-up", "Standing instructions", "German movement", "German attacks",
                      "Reinforcements", "Soviet combat", "Start of Autumn 1941"]


def test_narrative_links_rolls(turn_report: Any) -> None:
    doc = lxml_html.fromstring(turn_report.html)
    refs = [a.get("href") for a in doc.xpath("//a[@class='rollref']")]
    assert refs == [f"#roll-{n}" for n in range(1, 9)]  # every roll told exactly once


def test_decision_step(module: ModuleData) -> None:
    before = base_state(phase="soviet-combat", pending={
        "id": "D0", "side": "german", "kind": "soviet-attack-loss",
        "rule": "Soviet Combat: Effects of Soviet Attack", "options": ["eliminate:GER-16"],
        "context": {"number": 1, "target": "warsaw", "roll": 3}},
        units={"GER-16": "warsaw", "GER-6": "kiev", "GER-17": "kiev"})
    step = make_step(module, outcome="decision", events=copy.deepcopy(DECISION_EVENTS),
                     decision=copy.deepcopy(DECISION), state_before=before,
                     orders=[{"index": 0, "line": 4, "kind": "answer",
                              "attrs": {"decision": "D0", "choice": "eliminate:GER-16"}},
                             {"index": 1, "line": 5, "kind": "end-turn", "attrs": {}},
                             {"index": 2, "line": 6, "kind": "move",
                              "attrs": {"unit": "GER-6", "to": "bucharest"}}],
                     orders_total=3, orders_applied=2,
                     waiting_for="german: answer to decision D1")
    html = render_report(step).html
    text = text_of(html)
    assert ("Decision D0 answered: eliminate GER-16 (16th Army). GER-16 (16th Army) is "
            "eliminated in Warsaw (Soviet attack 1); it returns in Winter 1942. "
            "[rule: Soviet Combat: Effects of Soviet Attack]") in text
    assert ("Soviet attack 1: Random Attack Chart roll 3 → nearest front-line area to Kiev / "
            "Bucharest: Kiev (the named area itself). Defending: GER-6, GER-17.") in text
    assert ("Decision D1 opened: the German player chooses: retreat to Bucharest, eliminate "
            "GER-6 (6th Army) or eliminate GER-17 (17th Army). The game waits for the "
            "answer.") in text
    assert "Soviet Attack Chart, Autumn 1941, Medium column: 1 → 1 Soviet attack this turn" \
        in text
    doc = lxml_html.fromstring(html)
    box = doc.get_element_by_id("decision")
    box_text = words(box)
    assert "Decision D1: your choice" in box_text
    assert "retreat all units in the area to one German-controlled area, or eliminate one " \
        "unit?" in box_text
    for choice in DECISION["options"]:
        assert f'<answer decision="D1" choice="{choice}"/>' in box_text
    marks = [words(td) for td in doc.xpath("//tr/td[3]/span[1]")]
    assert marks[:3] == ["✓ applied", "✓ applied, then stopped", "– not reached"]
    assert "answer to decision D1" in text_of(html)


def test_final_step_shows_victory(module: ModuleData) -> None:
    after = base_state(phase="game-over", turn="1942-winter",
                       result={"areas": 5, "level": "Nazi Minor Victory"})
    step = make_step(module, events=copy.deepcopy(FINAL_EVENTS), waiting_for=None,
                     state_before=base_state(phase="soviet-combat", turn="1942-winter"),
                     state_after=after, next_commit=None)
    report = render_report(step)
    text = text_of(report.html)
    assert "The game is over: Nazi Minor Victory: 5 German-controlled areas." in text
    assert ("Game over after the Soviet combat of Winter 1942: 5 German-controlled areas "
            "(all areas) → Nazi Minor Victory. [rule: Victory Conditions]") in text
    assert "Waiting for: nothing (the game is over)" in text
    assert "Nazi Minor Victory" in report.svg


def test_rejected_order_is_marked(module: ModuleData) -> None:
    rejection = {"index": 1, "line": 6, "rule": "Movement", "code": "soviet-area",
                 "message": "Minsk is Soviet-controlled: units enter Soviet areas only by "
                            "attacking"}
    orders = [{"index": 0, "line": 5, "kind": "move", "attrs": {"unit": "GER-6", "to": "warsaw"}},
              {"index": 1, "line": 6, "kind": "move", "attrs": {"unit": "GER-17", "to": "minsk"}},
              {"index": 2, "line": 7, "kind": "end-turn", "attrs": {}}]
    step = make_step(module, outcome="rejected", rejection=rejection, orders=orders,
                     orders_total=3, orders_applied=1, events=[copy.deepcopy(TURN_EVENTS[3])])
    html = render_report(step).html
    doc = lxml_html.fromstring(html)
    rows = doc.xpath("//table[contains(@class,'orders')]/tbody/tr")
    assert [r.get("class") for r in rows] == ["order applied", "order rejected",
                                              "order not-reached"]
    rejected = words(rows[1])
    assert '<move unit="GER-17" to="minsk"/>' in rejected
    assert "✗ rejected [rule: Movement] Minsk is Soviet-controlled" in rejected
    assert "Order 2 (line 6) was rejected [rule: Movement]" in text_of(html)


# -- roll table, seed, header ---------------------------------------------------------------


def test_roll_table(turn_report: Any) -> None:
    doc = lxml_html.fromstring(turn_report.html)
    rows = [[words(td) for td in tr.xpath("td")]
            for tr in doc.xpath("//section[@id='rolls']//tbody/tr")]
    assert rows == [
        ["1", "German attack on Kiev", "D3", "4", "2"],
        ["2", "German attack on Minsk", "D3", "1", "1"],
        ["3", "number of Soviet attacks (Random column)", "d6", "4", "4"],
        ["4", "Soviet attack 1: Random Attack Chart", "d6", "5", "5"],
        ["5", "Soviet attack 2: Random Attack Chart", "d6", "2", "2"],
        ["6", "Soviet attack 2: tie between Kiev, Warsaw candidates in id order: kiev, warsaw",
         "pick 1 of 2", "—", "1 → kiev"],
        ["7", "Soviet attack 2 on Kiev: effect", "D3", "3", "2"],
        ["8", "Soviet attack 3: Random Attack Chart", "d6", "6", "6"],
    ]


def test_seed_reveal(turn_report: Any, module: ModuleData) -> None:
    step = make_step(module)
    seed = lxml_html.fromstring(turn_report.html).get_element_by_id("seed")
    text = words(seed)
    for value in (step.commit, SEED, step.entropy, step.next_commit, step.state_hash):
        assert value in text
    assert "Seed matches commitment yes" in text
    assert (f"pbem dice derive --server-seed {SEED} --game g-test --seq 3 "
            f"--entropy {step.entropy} --sides 6,6,6,6,6,2,6,6") in text


def test_seed_mismatch_is_flagged(module: ModuleData) -> None:
    html = render_report(make_step(module, commit="00" * 32)).html
    assert "NO: the revealed seed does not match the commitment" in text_of(html)


def test_header_and_losses(turn_report: Any) -> None:
    text = text_of(turn_report.html)
    assert "Game g-test · step 3" in text
    assert "Autumn 1941, movement phase Accepted" in text
    assert "Before the step Summer 1941, set-up phase" in text
    assert "Orders 9 of 9 carried out" in text
    assert "Waiting for: german: orders for step 4" in text
    losses = lxml_html.fromstring(turn_report.html).get_element_by_id("losses")
    rows = [words(tr) for tr in losses.xpath(".//tbody/tr")]
    assert rows == [
        "GER-16 (16th Army) Warsaw lost attacking Minsk (-1) [rule: Combat] Winter 1942",
        "Garrison Warsaw Soviet attack 3 [rule: Soviet Combat: Effects of Soviet Attack] —",
        "ITA-8 (Italian 8th Army) Bucharest all italian units are eliminated at the start of "
        "Autumn 1941 [rule: Restrictions] out of the game",
    ]


def test_initial_position(module: ModuleData) -> None:
    step = make_step(module, seq=0, outcome="initial", orders=[], orders_total=0,
                     orders_applied=0, events=[], state_before=base_state(phase="movement"),
                     state_after=base_state(phase="movement"), submitted_by=None, commit=None,
                     server_seed=None, entropy=None, waiting_for="german: orders for step 1")
    text = text_of(render_report(step).html)
    assert "The game starts from this position; nothing has happened yet." in text
    assert "No dice were rolled in this step." in text
    assert "Orders as submitted" not in text


# -- escaping --------------------------------------------------------------------------------


def test_user_text_is_escaped(module: ModuleData) -> None:
    evil = '<script>alert("x")</script>'
    step = make_step(module, game_id=evil, submitted_by=evil,
                     orders=[{"index": 0, "line": 1, "kind": "move",
                              "attrs": {"unit": evil, "to": "warsaw"}}],
                     orders_total=1, orders_applied=1)
    report = render_report(step)
    assert "<script>" not in report.html
    assert "&lt;script&gt;" in report.html
    doc = lxml_html.fromstring(report.html)
    assert not doc.xpath("//script")
    assert evil in text_of(report.html)  # shown, as text
    assert "<script>" not in report.svg
    etree.fromstring(report.svg.encode())
    assert f"--game '{evil}'" in text_of(report.html)  # shell-quoted in the command


# -- the map ----------------------------------------------------------------------------------


def test_svg_has_one_path_per_area(turn_report: Any, module: ModuleData) -> None:
    root = etree.fromstring(turn_report.svg.encode())
    paths = root.findall(f".//{SVG}path[@data-area]")
    assert sorted(p.get("data-area") for p in paths) == sorted(SQUARES)
    assert len(root.findall(f".//{SVG}path[@class='area']")) == len(SQUARES)
    # fills follow control after the step: Warsaw fell to the Soviets
    fills = {u.get("data-area"): u.get("fill") for u in root.iter(f"{SVG}use")
             if u.get("data-area")}
    assert fills["warsaw"] == fills["minsk"] != fills["berlin"]


def test_svg_counters_and_markers(module: ModuleData) -> None:
    state = base_state(phase="movement", garrisons=["berlin"],
                       units={"GER-6": "warsaw", "GER-17": "warsaw", "GER-16": "warsaw",
                              "GER-8": "warsaw", "RUM-3": "warsaw", "ITA-8": "bucharest"})
    svg = render_map_svg(module, state, "german")
    root = etree.fromstring(svg.encode())
    stacks = {g.get("data-area"): g for g in root.iter(f"{SVG}g") if g.get("data-area")
              and g.getparent().get("class") == "units"}
    warsaw = stacks["warsaw"].findall(f"{SVG}g[@class='counter']")
    assert [c.findtext(f"{SVG}title") for c in warsaw] == [
        "GER-16 (16th Army)", "GER-6 (6th Army)", "GER-17 (17th Army)", "GER-8 (8th Army)",
        "RUM-3 (Romanian 3rd Army)"]
    # five counters: two rows, none overlapping
    boxes = [(float(c.find(f"{SVG}rect[2]").get("x")), float(c.find(f"{SVG}rect[2]").get("y")))
             for c in warsaw]
    for i, (x1, y1) in enumerate(boxes):
        for x2, y2 in boxes[i + 1:]:
            assert abs(x1 - x2) >= 30 or abs(y1 - y2) >= 28
    assert len({y for _, y in boxes}) == 2
    berlin = stacks["berlin"].findall(f"{SVG}g[@class='marker']")
    assert [m.findtext(f"{SVG}text") for m in berlin] == ["G"]
    assert "RUM" in svg and "Black Sea" in svg and "Front line" in svg
    front = root.find(f".//{SVG}g[@class='front-line']")
    assert len(front) > 0


def test_png_is_the_svg_rasterized(turn_report: Any) -> None:
    png = turn_report.png
    assert png.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == svg_size(turn_report.svg)
    assert width == 680


def test_map_geometry_reads_backdrop(module: ModuleData) -> None:
    geo = map_geometry(module)
    assert (geo.width, geo.height) == (680, 400)
    assert [n for n, _, _ in geo.neutrals] == ["Sweden"]
    assert [n for n, _ in geo.rivers] == ["Dnieper"]
    assert geo.cities == [("Lodz", 250.0, 120.0)]
    assert geo.seas[0].members[0] == ("bucharest", 60.0, 360.0)


def test_rendering_is_deterministic(module: ModuleData) -> None:
    a, b = render_report(make_step(module)), render_report(make_step(module))
    assert a.html == b.html and a.svg == b.svg and a.png == b.png


# -- projection and files ------------------------------------------------------------------


def test_projection_hook(module: ModuleData) -> None:
    state = base_state()
    seen = project_state("solitaire", state, "german")
    assert seen == state and seen is not state
    with pytest.raises(NoProjection):
        project_state("blitzkrieg", state, "german")


def test_renderers_use_the_projection(module: ModuleData, monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator import games
    from adjudicator.engine.hidden import OpenView

    class HideRomanians(OpenView):
        def project_state(self, state: dict[str, Any], side: str) -> dict[str, Any]:
            state = copy.deepcopy(state)
            state["units"] = {u: a for u, a in state["units"].items()
                              if not u.startswith("RUM")}
            return state

    package = games.get_game("solitaire")
    hiding = dataclasses.replace(package.definition, view=HideRomanians())
    monkeypatch.setitem(games._LOADED, "solitaire", dataclasses.replace(package,
                                                                        definition=hiding))
    report = render_report(make_step(module))
    assert "RUM-3" not in report.svg
    position = lxml_html.fromstring(report.html).get_element_by_id("position")
    assert "RUM-3" not in position.text_content()
    assert "RUM-3" not in render_map_svg(module, base_state(), "german")


def test_write_report(tmp_path: Path, module: ModuleData) -> None:
    paths = write_report(make_step(module), tmp_path / "out")
    assert sorted(paths) == ["html", "png", "svg"]
    assert paths["html"].name == "report.html"
    assert paths["png"].read_bytes().startswith(PNG_SIGNATURE)
    etree.parse(str(paths["svg"]))
    html = paths["html"].read_text(encoding="utf-8")
    assert re.search(r"<svg[^>]*class=\"area-map\"", html)  # the map is inline


# -- the real module, through the referee: journal -> StepReport -> report ----------------

EXAMPLE_KEYS = Path(__file__).resolve().parent.parent / "examples" / "solitaire"


def naive_orders(game: Any, seq: int) -> list[str]:
    """Every front-line stack attacks one adjacent Soviet area; answers take the last
    option; the first step sets standing instructions."""
    from adjudicator.games.solitaire.control import front_line
    from adjudicator.games.solitaire.data import charts_of

    state = game.state
    if state.get("pending"):
        pending = state["pending"]
        return [f'<answer decision="{pending["id"]}" choice="{pending["options"][-1]}"/>']
    charts = charts_of(game.module)
    lines = []
    if seq == 1:
        lines.append('<standing loss-priority="RUM-4 RUM-3 GER-18" '
                     'on-retreat-or-eliminate="retreat" retreat-priority="warsaw bucharest"/>')
    used: set[str] = set()
    for area in front_line(charts, state):
        units = sorted(u for u, a in state["units"].items() if a == area)
        targets = [n for n in charts.board.neighbours(area)
                   if state["control"][n] == "soviet" and n not in used]
        if units and targets and area != "bucharest":
            used.add(targets[seq % len(targets)])
            lines.append(f'<attack target="{targets[seq % len(targets)]}" '
                         f'units="{" ".join(units)}"/>')
    return [*lines, "<end-turn/>"]


@pytest.fixture(scope="module")
def played_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from adjudicator.engine.orders import ORDERS_NS
    from adjudicator.games import get_game
    from adjudicator.referee.gamedir import load_game
    from adjudicator.referee.referee import adjudicate, create_game
    from adjudicator.security.keys import load_private_key
    from adjudicator.security.signing import sign_orders
    from adjudicator.security.xmlsafe import parse_untrusted

    try:
        get_game("solitaire").bundled_module  # noqa: B018 - loads and validates it
    except Exception as exc:  # noqa: BLE001 - the module is assembled by another tool
        pytest.skip(f"the bundled solitaire module is not available: {exc}")
    directory = tmp_path_factory.mktemp("game") / "g"
    create_game(directory, "solitaire", "campaign",
                {"german": (EXAMPLE_KEYS / "german.pub").read_bytes()},
                options={"soviet": "hard"}, test_seed=b"report tests" * 2, game_id="rep-1")
    key = load_private_key((EXAMPLE_KEYS / "german.key").read_bytes())
    for seq in range(1, 8):
        game = load_game(directory)
        if game.acting_side is None:
            break
        body = "\n  ".join(naive_orders(game, seq))
        text = (f'<orders xmlns="{ORDERS_NS}" game="rep-1" module="solitaire" side="german" '
                f'seq="{seq}" prev="{game.state_hash}" commit="{game.current_commit}">\n'
                f"  <entropy></entropy>\n  {body}\n</orders>\n")
        signed = sign_orders(parse_untrusted(text.encode()), key,
                             entropy=hashlib.sha256(b"entropy %d" % seq).digest())
        result = adjudicate(directory, signed)
        assert result.kind == "step", result.error
    return directory


def test_reports_of_a_real_game(played_game: Path, tmp_path: Path) -> None:
    from adjudicator.engine.dice import DiceStream
    from adjudicator.games.solitaire.report_narrative import HANDLERS
    from adjudicator.referee.gamedir import load_game
    from adjudicator.reports.from_journal import step_report

    game = load_game(played_game)
    areas = len(game.module.findall("m:map/m:area"))
    kinds: set[str] = set()
    for seq in range(len(game.steps) + 1):
        step = step_report(game, seq, "german")
        report = render_report(step)
        kinds |= {e["kind"] for e in step.events}
        doc = lxml_html.fromstring(report.html)
        rolls = [e for e in step.events if e["kind"] == "roll"]
        # every roll is in the table and told exactly once in the narrative
        assert len(doc.xpath("//section[@id='rolls']//tbody/tr")) == len(rolls)
        refs = [a.get("href") for a in doc.xpath("//a[@class='rollref']")]
        assert sorted(refs) == sorted(f"#roll-{n}" for n in range(1, len(rolls) + 1))
        # the derive command's stream gives the raw values of the table, in order
        if step.server_seed:
            stream = DiceStream(bytes.fromhex(step.server_seed), step.game_id, seq,
                                bytes.fromhex(step.entropy or ""))
            assert [stream.uniform(e["sides"]) + 1 for e in rolls] == \
                [e.get("d6", e["value"]) for e in rolls]
            assert "Seed matches commitment yes" in words(doc.get_element_by_id("seed"))
        root = etree.fromstring(report.svg.encode())
        assert len(root.findall(f".//{SVG}path[@data-area]")) == areas
        assert struct.unpack(">II", report.png[16:24]) == svg_size(report.svg)
        assert step.state_hash in report.html
        if step.decision:
            assert f'choice="{step.decision["options"][0]}"' in words(
                doc.get_element_by_id("decision"))
    assert kinds - {"roll"} <= set(HANDLERS)
    assert {"attacked", "soviet-attack-target", "turn-began"} <= kinds
    paths = write_report(step_report(game, len(game.steps), "german"), tmp_path)
    assert paths["png"].stat().st_size > 10_000
