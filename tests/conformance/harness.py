"""The conformance harness: one case = one small position, orders, scripted dice,
and what must come out (docs/architecture.md, Testing, DATC style).

A case file (`tests/conformance/<game>/*.xml`) holds one or more cases:

    <cases xmlns="urn:pbem:conformance:1" game="solitaire">
      <case id="combat-attack-chart-1-unit-roll-1" rule="Combat">
        <description>What the case shows, in the rulebook's words.</description>
        <options soviet="hard"/>                          (optional: game options)
        <position ...>...</position>                      (a position file, docs/position-files.md)
        <dice>1 4</dice>                                  (the die values drawn, in order)
        <orders><attack target="lvov" units="GER-6"/></orders>   (game orders, no envelope)
        <orders><answer decision="D1" choice="eliminate:GER-6"/></orders>  (optional: next step)
        <orders side="soviet">...</orders>                (the side submitting; default: the
                                                           game's first side)
        <expect>
          <accepted/> | <rejected rule="Combat" code="not-adjacent"/> | <decision kind="..."/>
          <event kind="attacked" result="-1" column="1"/>          (some event has these values)
          <no-event kind="advanced"/>                              (no such event)
          <unit id="GER-6" at="warsaw"/>  (at="off-map" when not on the map)
          <control area="lvov" side="soviet"/>
          <garrison area="minsk" present="false"/>
          <state key="phase" value="attack"/>          (a state value; a dotted key reads
                                                        into a mapping: key="soviet.left")
          <pool name="reinforcements" unit="GER-8" due="1942-summer"/>
                                         (a unit waiting to enter, with the turn it was due;
                                          name="returns": a removed unit's scheduled return;
                                          name="out": out of the game; 1941: name="arriving"
                                          with due="4", name="eliminated"; present="false":
                                          not in that pool)
        </expect>
      </case>
    </cases>

Without a position the case starts from the scenario named by the case's
`scenario` attribute (default `campaign`).

Each `<orders>` element is one step (one order file), run on the state the
step before it left, with one dice stream for the whole case. `<accepted/>`,
`<rejected>` and `<decision>` describe the last step; events are those of
every step; the other expectations read the final state.

Die values: a d6 or D3 roll takes one value 1-6 (the d6 face); a random pick
among N candidates takes one value 1-N. The case fails if the rules draw more
dice than scripted, or fewer. `<dice then="V">` lets the rules draw more: every
draw after the listed values takes V (for procedures whose length the case does
not pin down, e.g. the reconstructed number of Soviet attacks in a late turn).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from adjudicator.engine.events import Event
from adjudicator.engine.orders import Order
from adjudicator.engine.step import StepResult, run_step
from adjudicator.games import get_game
from adjudicator.security.xmlsafe import parse_trusted_file

CASE_NS = "urn:pbem:conformance:1"
ORDERS_NS = "urn:pbem:orders:1"


class ScriptedDice:
    """Dice that return the case's values, in order (value v means uniform(n) = v - 1)."""

    def __init__(self, values: list[int], then: int | None = None) -> None:
        self.values = list(values)
        self.then = then
        self.used = 0

    def uniform(self, n: int) -> int:
        if self.used >= len(self.values) and self.then is not None:
            self.used += 1
            if not 1 <= self.then <= n:
                raise AssertionError(f"die {self.used} takes then={self.then}, outside 1..{n}")
            return self.then - 1
        if self.used >= len(self.values):
            raise AssertionError(f"the rules drew die {self.used + 1} (1..{n}), but the case "
                                 f"scripts only {len(self.values)}")
        value = self.values[self.used]
        if not 1 <= value <= n:
            raise AssertionError(f"scripted die {self.used + 1} is {value}, outside 1..{n}")
        self.used += 1
        return value - 1


@dataclass
class Case:
    id: str
    rule: str
    file: Path
    element: etree._Element

    def child(self, name: str) -> etree._Element | None:
        return self.element.find(f"{{{CASE_NS}}}{name}")

    def children(self, name: str) -> list[etree._Element]:
        return self.element.findall(f"{{{CASE_NS}}}{name}")


def load_cases(game: str) -> list[Case]:
    cases = []
    for path in sorted((Path(__file__).parent / game).glob("*.xml")):
        root = parse_trusted_file(path)
        for el in root.iterfind(f"{{{CASE_NS}}}case"):
            cases.append(Case(el.get("id"), el.get("rule"), path, el))
    return cases


def orders_of(container: etree._Element | None) -> list[Order]:
    result: list[Order] = []
    for el in container if container is not None else []:
        if not isinstance(el.tag, str):
            continue
        result.append(Order(etree.QName(el).localname, dict(el.attrib), index=len(result),
                            line=el.sourceline))
    return result


def run_case(game: str, case: Case) -> tuple[StepResult, ScriptedDice]:
    package = get_game(game)
    module = package.bundled_module
    options_el = case.child("options")
    options = dict(options_el.attrib) if options_el is not None else {}
    position = case.element.find("{urn:pbem:position:1}position")
    if position is not None:
        state = package.rules.position_state(module, copy.deepcopy(position), options)
    else:
        scenario = case.element.get("scenario", "campaign")
        state = package.rules.initial_state(module, scenario, options)
    dice_el = case.child("dice")
    values = [int(v) for v in (dice_el.text or "").split()] if dice_el is not None else []
    then = dice_el.get("then") if dice_el is not None else None
    dice = ScriptedDice(values, int(then) if then else None)
    steps = case.children("orders") or [None]
    events: list[Event] = []
    for container in steps:
        side = container.get("side") if container is not None else None
        result = run_step(package.rules, module, state, orders_of(container),
                          side or package.rules.sides[0], dice)
        events.extend(result.events)
        state = result.state
    result.events = events
    return result, dice


def matches(data: dict[str, Any], want: dict[str, str]) -> bool:
    for key, value in want.items():
        if key == "kind":
            continue
        got = data.get(key)
        if isinstance(got, list):
            got = " ".join(str(x) for x in got)
        elif isinstance(got, bool):
            got = "true" if got else "false"
        elif got is None:
            got = ""
        if str(got) != value:
            return False
    return True


def pool_entries(state: dict[str, Any], name: str) -> list[tuple[str, str | None]]:
    """(unit, turn) pairs of a pool: reinforcements waiting, returns scheduled, out."""
    if name == "reinforcements":
        return [(e["unit"], e["due"]) for e in state["queue"]]
    if name == "returns":
        return [(unit, due) for unit, due in state["schedule"]]
    if name == "out":
        return [(unit, None) for unit in state["out"]]
    if name == "arriving":  # 1941: reinforcements by turn
        return [(unit, turn) for turn, units in state["arriving"].items() for unit in units]
    if name == "eliminated":
        return [(unit, None) for unit in state["eliminated"]]
    raise AssertionError(f"unknown pool {name!r}")


def check_expectations(case: Case, result: StepResult, dice: ScriptedDice) -> list[str]:
    """Every expectation the result fails, in words (empty when the case passes)."""
    problems: list[str] = []
    if dice.used < len(dice.values) or (dice.used > len(dice.values) and dice.then is None):
        problems.append(f"the case scripts {len(dice.values)} dice, the rules drew {dice.used}")
    state = result.state
    events = [e.to_json() for e in result.events]
    expect = case.child("expect")
    for el in expect if expect is not None else []:
        if not isinstance(el.tag, str):
            continue
        tag = etree.QName(el).localname
        want = dict(el.attrib)
        if tag == "accepted":
            if result.outcome != "accepted":
                problems.append(f"expected acceptance, got {result.outcome}: "
                                f"{result.rejection.as_record() if result.rejection else ''}"
                                f"{result.decision.to_json() if result.decision else ''}")
        elif tag == "rejected":
            record = result.rejection.as_record() if result.rejection else None
            if record is None or not matches(record, want):
                problems.append(f"expected rejection {want}, got {record}")
        elif tag == "decision":
            got = result.decision.to_json() if result.decision else None
            if got is None or not matches(got, want):
                problems.append(f"expected decision {want}, got {got}")
        elif tag == "event":
            if not any(e["kind"] == want["kind"] and matches(e, want) for e in events):
                problems.append(f"no event like {want}; events of that kind: "
                                f"{[e for e in events if e['kind'] == want['kind']]}")
        elif tag == "no-event":
            if any(e["kind"] == want["kind"] and matches(e, want) for e in events):
                problems.append(f"unexpected event like {want}")
        elif tag == "unit":
            at = state["units"].get(want["id"], "off-map")
            if at != want["at"]:
                problems.append(f"{want['id']} is at {at}, expected {want['at']}")
        elif tag == "control":
            if state["control"][want["area"]] != want["side"]:
                problems.append(f"{want['area']} is {state['control'][want['area']]}, "
                                f"expected {want['side']}")
        elif tag == "garrison":
            present = want["area"] in state["garrisons"]
            if present != (want.get("present", "true") == "true"):
                problems.append(f"garrison in {want['area']}: {present}, expected "
                                f"{want.get('present', 'true')}")
        elif tag == "state":
            value: Any = state
            for part in want["key"].split("."):
                value = value.get(part) if isinstance(value, dict) else None
            if str(value) != want["value"]:
                problems.append(f"state {want['key']} is {value!r}, expected {want['value']!r}")
        elif tag == "pool":
            entries = pool_entries(state, want["name"])
            found = [due for unit, due in entries if unit == want["unit"]
                     and ("due" not in want or due == want["due"])]
            if bool(found) != (want.get("present", "true") == "true"):
                problems.append(f"{want['unit']} in pool {want['name']}: {bool(found)}, expected "
                                f"{want.get('present', 'true')}; the pool holds {entries}")
        else:
            problems.append(f"unknown expectation <{tag}>")
    return problems
