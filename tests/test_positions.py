"""Position files (docs/position-files.md): what the rules could never produce is refused."""

from __future__ import annotations

import pytest

from adjudicator.errors import InvalidInput
from adjudicator.games import get_game
from adjudicator.games.moscow.data import Game as MoscowGame
from adjudicator.games.moscow.untried import commitment
from adjudicator.games.moscow.view import project_state
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
    ('<unit id="SOV-XXXX-7" at="0613"/>', "3", "axis.air",
     "a sea hex of the Gulf of Finland, and the weather is clear"),
    # 13.5 C: in snow only the lakes, the Gulf of Onega and the White Sea freeze
    ('<unit id="SOV-XXXX-7" at="0613"/>', "7", "axis.air",
     "a sea hex of the Gulf of Finland, and it does not freeze"),
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


# -- Moscow '41 --------------------------------------------------------------------------------

MOSCOW = get_game("moscow")


def load_moscow(body: str, phase: str = "german.combat") -> dict:
    data = (f'<position xmlns="urn:pbem:position:1" game="moscow" turn="2" phase="{phase}">'
            f"{body}</position>").encode()
    return MOSCOW.rules.position_state(MOSCOW.bundled_module,
                                       parse_position(data, "moscow"), {})


def test_a_moscow_position_hides_its_untried_units_behind_commitments() -> None:
    state = load_moscow('<unit id="GER-XX-12" at="2417" steps="1"/>'
                        '<unit id="SOV-XX-174" at="2416"/><unit id="SOV-XX-179" at="2416"/>'
                        '<value name="revealed" value="SOV-XX-179"/>'
                        '<pool name="reinforcements"><unit id="SOV-XX-32" due="3"/></pool>'
                        '<value name="weather" value="rasputitsa"/>'
                        '<marker kind="interdiction" at="2808"/>')
    assert state["units"] == {"GER-XX-12": "2417", "U01": "2416", "U02": "2416"}
    assert state["identity"] == {"U01": "SOV-XX-174", "U02": "SOV-XX-179",
                                 "SIB3": "SOV-XX-32"}
    assert state["revealed"] == ["U02"] and state["steps"] == {"GER-XX-12": 1}
    assert (state["player"], state["phase"], state["weather"]) == ("german", "combat",
                                                                   "rasputitsa")
    game = MoscowGame.of(MOSCOW.bundled_module)
    for token, face in state["tokens"].items():  # they verify with the referee's salts
        p = game.pieces[state["identity"][token]]
        assert face["commitment"] == commitment(token, p.id, p.attack, p.defense,
                                                state["salts"][token])
    view = project_state(state, "soviet")
    assert view["identity"] == {"U02": "SOV-XX-179"} and "U01" not in view["salts"]


@pytest.mark.parametrize("body, words", [
    ('<unit id="GER-XX-12" at="2416"/><unit id="SOV-XX-174" at="2416"/>', "both sides"),
    ("".join(f'<unit id="{u}" at="1510"/>' for u in
             ("GER-XX-12", "GER-XX-251", "GER-XX-1Pz", "GER-XX-2Pz", "GER-XX-3Pz")),
     "more than four"),
    ('<unit id="GER-AIR-II" at="1510"/>', "no combat unit"),
    ('<unit id="GER-XX-12" at="1510"/><unit id="GER-XX-12" at="1511"/>', "named twice"),
    ('<value name="revealed" value="SOV-XX-174"/>', "not a Soviet unit of the position"),
    ('<marker kind="garrison" at="1510"/>', "no <marker>"),
])
def test_impossible_moscow_positions_are_refused(body: str, words: str) -> None:
    with pytest.raises(InvalidInput, match=words):
        load_moscow(body)


def test_a_moscow_position_needs_a_phase_of_the_sequence() -> None:
    with pytest.raises(InvalidInput, match="none of german.movement"):
        load_moscow("", phase="soviet.interdiction")
