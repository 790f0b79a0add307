"""Odds combat: strengths to a ratio column, column shifts, and the table lookup.

The columns come from the game's CRT (module data). The ratio is rounded in
favour of the defender; shifts move along the columns, and past the printed
columns along whole ratios (n:1 above, 1:n below), so a game whose rules say "use
the initial combat ratio as the basis" and one that clamps
first can both be expressed; the final column is clamped to the printed ones.

>>> ladder = OddsLadder.of(["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"])
>>> ladder.name(ladder.initial(23, 5))        # 1941 rule 7.4 D: 23:5 rounds down to 4:1
'4:1'
>>> ladder.name(ladder.final(ladder.initial(6, 3), -1))   # 1941 rule 7.6 C
'1:1'
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

_RATIO = re.compile(r"(\d+)[:-](\d+)")


def ratio_value(text: str) -> Fraction:
    """The value of a printed ratio: "3:1" or "3-1" is 3, "1:2" is 1/2."""
    match = _RATIO.fullmatch(text)
    if not match or int(match.group(2)) == 0 or int(match.group(1)) == 0:
        raise ValueError(f"{text!r} is not an odds ratio like 3:1 or 1:2")
    return Fraction(int(match.group(1)), int(match.group(2)))


def halved(total: int, times: int = 1) -> int:
    """A strength halved `times` times, all halvings first and then rounded up
    (1941 rule 7.5: 15 / 2 = 7 1/2 rounds to 8)."""
    return math.ceil(Fraction(total, 2**times))


@dataclass(frozen=True)
class OddsLadder:
    """The printed odds columns, in order, on an endless ladder of whole ratios."""

    columns: tuple[Fraction, ...]
    names: tuple[str, ...]

    @classmethod
    def of(cls, printed: Sequence[str]) -> OddsLadder:
        values = tuple(ratio_value(p) for p in printed)
        if list(values) != sorted(set(values)):
            raise ValueError("odds columns must rise from left to right without repeats")
        return cls(values, tuple(printed))

    # A position on the ladder: 0 .. len-1 are the printed columns; -1, -2, ... the
    # ratios 1:n below the first, len, len+1, ... the ratios n:1 above the last.
    def initial(self, attack: int, defence: int) -> int:
        """The position of attack:defence, rounded down in favour of the defender."""
        if attack <= 0:
            raise ValueError("an attack needs some attack strength")
        if defence <= 0:
            raise ValueError("an attack needs a defender with some defence strength")
        value = Fraction(attack, defence)
        first, last = self.columns[0], self.columns[-1]
        if value < first:  # 1:n below the first column, n rounded up
            return -(math.ceil(1 / value) - math.floor(1 / first))
        if value >= last:  # n:1 above the last column, n rounded down
            return len(self.columns) - 1 + math.floor(value) - math.floor(last)
        return max(i for i, v in enumerate(self.columns) if v <= value)

    def clamp(self, position: int) -> int:
        """The printed column nearest to a position off the table."""
        return min(max(position, 0), len(self.columns) - 1)

    def final(self, position: int, shift: int) -> int:
        """Shift a position (right is positive), then clamp it to the printed columns."""
        return self.clamp(position + shift)

    def name(self, column: int) -> str:
        return self.names[column]


@dataclass(frozen=True)
class CombatTable:
    """A CRT: one result per (printed column, die roll), from module data."""

    ladder: OddsLadder
    rows: Mapping[int, Sequence[str]]  # die roll -> result per column

    def __post_init__(self) -> None:
        for roll, results in self.rows.items():
            if len(results) != len(self.ladder.columns):
                raise ValueError(f"CRT row {roll} has {len(results)} results for "
                                 f"{len(self.ladder.columns)} columns")

    def result(self, column: int, roll: int) -> str:
        return self.rows[roll][column]

    def distribution(self, column: int) -> Counter[str]:
        """How many die faces give each result in a column (for reports and tests)."""
        return Counter(self.rows[roll][column] for roll in sorted(self.rows))
