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
