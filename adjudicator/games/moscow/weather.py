"""Moscow '41 rule 15.0, Rasputitsa and Snow Weather: the Turn Record Track's weather
ranges (charts.xml) and the roll that picks each turn's weather from Turn 2 on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.games.moscow.vocabulary import DIE

FIRST_WEATHER_TURN = 2  # 15.0 A


@dataclass(frozen=True)
class TurnWeather:
    """One box of the Turn Record Track (15.0): the die rolls that bring rasputitsa or
    snow (all six: it comes automatically), and whether a Siberian division arrives."""

    turn: int
    roll: bool  # 15.0 A: the Soviet player rolls this turn
    rasputitsa: frozenset[int]
    snow: frozenset[int]
    siberian: bool = False

    @property
    def automatic(self) -> str | None:
        """15.0 B: the weather that comes whatever the die, if any."""
        for name, faces in (("rasputitsa", self.rasputitsa), ("snow", self.snow)):
            if faces >= frozenset(DIE):
                return name
        return None

    @property
    def needs_roll(self) -> bool:
        """15.0 A-B: a die is rolled from Turn 2, except on a turn of automatic weather."""
        return self.roll and self.automatic is None


def weather_for(turn: int, roll: int | None, track: Mapping[int, TurnWeather]) -> str:
    """15.0: the weather of a turn, "clear", "rasputitsa" or "snow". No roll on Turn 1
    (15.0 A) nor on a turn whose weather is automatic (15.0 B): `roll` is then None; on
    any other turn it is the Soviet player's die. ValueError for a roll where none is
    made, or a missing one.

    >>> from adjudicator.games.moscow.data import die_faces
    >>> track = {1: TurnWeather(1, False, frozenset(), frozenset()),
    ...          3: TurnWeather(3, True, die_faces("all"), frozenset()),
    ...          6: TurnWeather(6, True, die_faces("1-2"), die_faces("6"))}
    >>> weather_for(1, None, track), weather_for(3, None, track)
    ('clear', 'rasputitsa')
    >>> [weather_for(6, roll, track) for roll in range(1, 7)]
    ['rasputitsa', 'rasputitsa', 'clear', 'clear', 'clear', 'snow']
    """
    box = track.get(turn)
    if box is None:
        raise ValueError(f"the Turn Record Track has no Turn {turn}")
    if not box.needs_roll:
        if roll is not None:
            raise ValueError(f"no weather die is rolled on Turn {turn} (15.0)")
        return box.automatic or "clear"
    if roll not in DIE:
        raise ValueError(f"the weather on Turn {turn} needs one die roll, 1 to 6 (15.0 A)")
    if roll in box.rasputitsa:
        return "rasputitsa"
    if roll in box.snow:
        return "snow"
    return "clear"
