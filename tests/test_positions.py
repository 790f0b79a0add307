"""Position files (docs/position-files.md): what the rules could never produce is refused."""

from __future__ import annotations

import pytest

from adjudicator.errors import InvalidInput
from adjudicator.games import get_game
from adjudicator.referee.gamedir import parse_position

PACKAGE = get_game("solitaire")


def position(body: str) -> bytes:
    return ('<position xmlns="urn:pbem:position:1" game="solitaire" turn="1942-summer">'
            f"{body}</position>").encode()


def load(body: str) -> dict:
    return PACKAGE.rules.position_state(PACKAGE.bundled_module,
                                        parse_position(position(body), "solitaire"), {})


@pytest.mark.parametrize("body, words", [
    ('<unit id="RUM-3" at="budapest"/><unit id="HUN-2" at="budapest"/>', "cannot stack"),
    ('<unit id="RUM-3" at="warsaw"/>', "north of the Romanian line"),
    ('<unit id="GER-6" at="kiev"/><marker kind="garrison" at="kiev"/>', "cannot share"),
    ('<marker kind="garrison" at="kiev"/><marker kind="garrison" at="kiev"/>', "two garrisons"),
    ('<pool name="reinforcements"><unit id="ZZZ" due="1942-summer"/></pool>', "unknown unit"),
    ('<unit id="GER-6" at="kiev"/><pool name="out"><unit id="GER-6"/></pool>', "two places"),
    ('<unit id="GER-6" at="atlantis"/>', "unknown area"),
    ('<control area="kiev" side="finnish"/>', "bad control"),
])
def test_impossible_positions_are_refused(body: str, words: str) -> None:
    with pytest.raises(InvalidInput, match=words):
        load(body)


def test_a_possible_position_loads_and_control_follows_the_rules() -> None:
    state = load('<unit id="GER-6" at="kiev"/><marker kind="garrison" at="berlin"/>'
                 '<control area="minsk" side="soviet"/>')
    assert state["units"] == {"GER-6": "kiev"} and state["garrisons"] == ["berlin"]
    assert state["control"]["kiev"] == "german"
    assert state["control"]["minsk"] == "soviet"  # linked to the Soviet sources


# -- 1941: Operation Barbarossa ------------------------------------------------------------

BARBAROSSA = get_game("barbarossa")


def load_1941(body: str, turn: str = "3", phase: str = "soviet.first.movement",
              options: dict[str, str] | None = None) -> dict:
    data = (f'<position xmlns="urn:pbem:position:1" game="barbarossa" turn="{turn}" '
            f'phase="{phase}">{body}</position>').encode()
    return BARBAROSSA.rules.position_state(BARBAROSSA.bundled_module,
                                           parse_position(data, "barbarossa"), options or {})


@pytest.mark.parametrize("body, turn, phase, words", [
    ('<unit id="SOV-XXXX-7" at="0712"/><unit id="GER-XXX-26" at="0712"/>', "3",
     "axis.air", "both sides stand in 0712"),
    ('<unit id="SOV-XXXX-7" at="0712"/><unit id="SOV-XXXX-23" at="0712"/>'
     '<unit id="SOV-XXXX-8" at="0712"/>', "3", "axis.air", "at most two Soviet units"),
    ('<unit id="SOV-XXXX-7" at="0613"/>', "3", "axis.air", "outside snow"),
    ('<unit id="SOV-XXXX-99" at="0712"/>', "3", "axis.air", "no unit 'SOV-XXXX-99'"),
    ('<unit id="SOV-XXXX-7" at="0712"/><pool name="eliminated"><unit id="SOV-XXXX-7"/></pool>',
     "3", "axis.air", "named twice"),
    ('<unit id="SOV-XXXX-7" at="9999"/>', "3", "axis.air", "9999"),
    ("", "8", "axis.air", "Turn 1 to Turn 7"),
    ("", "1", "axis.second.combat", "no second combat phase"),
    ("", "3", "german.air", "none of axis.air"),
    ('<pool name="reinforcements"><unit id="SOV-XXXX-7" due="2"/></pool>', "3", "axis.air",
     "before Turn 3"),
    ('<control area="0712" side="finnish"/>', "3", "axis.air", "axis or soviet"),
    ('<value name="fleet-neutralized" value="pacific"/>', "3", "axis.air", "no value"),
    ('<marker kind="garrison" at="0712"/>', "3", "axis.air", "no <marker>"),
])
def test_impossible_1941_positions_are_refused(body: str, turn: str, phase: str,
                                               words: str) -> None:
    with pytest.raises(InvalidInput, match=words):
        load_1941(body, turn, phase)


def test_a_1941_position_sets_the_moment_the_counters_and_supply() -> None:
    state = load_1941('<unit id="GER-XXX-26" at="0712"/><unit id="SOV-XXXX-7" at="0812"/>'
                      '<pool name="eliminated"><unit id="SOV-XXXX-23"/></pool>'
                      '<value name="air.axis" value="1"/><value name="rail.soviet" value="3"/>'
                      '<value name="fleet-neutralized" value="baltic"/>',
                      phase="axis.second.combat", options={"naval": "yes"})
    assert (state["turn"], state["player"], state["segment"], state["phase"]) == \
        (3, "axis", "second", "combat")
    assert state["units"] == {"GER-XXX-26": "0712", "SOV-XXXX-7": "0812"}
    assert state["control"] == {"0712": "axis"}  # 4.0 B: the occupier's
    assert state["eliminated"] == ["SOV-XXXX-23"] and state["air"]["axis"] == 1
    assert state["rail_used"]["soviet"] == 3 and state["neutralized"] == ["baltic"]
    assert state["unsupplied"] == ["GER-XXX-26"]  # 8.0 B: traced for the phasing side
    later = {u for units in state["arriving"].values() for u in units}
    assert later and all(int(t) > 3 for t in state["arriving"])  # 14.1 C: as printed
