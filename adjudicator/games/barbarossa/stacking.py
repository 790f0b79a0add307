"""1941 rule 3.0 Stacking (with 11.0 B-C in fortifications): what a stack may hold, in
words, and the limits checked through the kit's stacking groups (engine/stacking.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.stacking import over_limit
from adjudicator.engine.state import State
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.fortifications import fortified
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.vocabulary import Side, UnitSize

AXIS_CORPS_PER_HEX = 2  # 3.1 B; a group or an army counts as two (3.1 A)
SOVIET_UNITS_PER_HEX = 2  # 3.2 A-C: two units, of which one of any size outside fortifications


@dataclass(frozen=True)
class Stacked:
    id: str
    size: str  # corps, group, army


def stacking_problem(side: str, units: Sequence[Stacked], *, fortification: bool) -> str | None:
    """3.1-3.2: what is wrong with a stack, in words, or None.

    Axis: at most two corps, a group or an army counting as two (3.1 A-B; the Axis get
    nothing from fortifications, 11.0 B). Soviets: one unit of any size plus one corps
    (3.2 A-B), two units of any size in a fortifications hex (3.2 C, 11.0 C)."""
    if side == Side.AXIS:
        load = sum(1 if u.size == UnitSize.CORPS else 2 for u in units)
        if load > AXIS_CORPS_PER_HEX:
            return ("Axis units stack at most two corps per hex, and a group or an army "
                    "stacks with no other unit (3.1 A-B)")
        return None
    if len(units) > SOVIET_UNITS_PER_HEX:
        where = "a fortifications hex" if fortification else "a hex"
        return f"at most two Soviet units may stack in {where} (3.2, 11.0 C)"
    if not fortification and sum(1 for u in units if u.size != UnitSize.CORPS) > 1:
        return ("outside a fortifications hex the Soviets stack one unit of any size plus "
                "one corps (3.2 A)")
    return None


def check_stacking(side: str, units: Sequence[Stacked], where: str, *,
                   fortification: bool) -> None:
    """3.3 A: the limits at the end of a Movement Phase."""
    problem = stacking_problem(side, units, fortification=fortification)
    if problem:
        raise CATALOGUE.refuse("overstacked", "11.0 C" if fortification and side == Side.SOVIET
                               else "3.3 A",
                               f"at the end of the Movement Phase {where} holds "
                               f"{', '.join(u.id for u in units)}: {problem}")


def stack_in(game: GameData, state: State, label: str, *, without: str | None = None
             ) -> list[Stacked]:
    """The units in a hex, in id order (`without`: but that one)."""
    return [Stacked(u, game.pieces[u].size) for u, x in sorted(state["units"].items())
            if x == label and u != without]


def problem_in(game: GameData, state: State, label: str, side: str) -> str | None:
    """3.0: what is wrong with the stack in a hex now, in words."""
    return stacking_problem(side, stack_in(game, state, label),
                            fortification=fortified(game, state, game.board.hex(label)))


def problem_with(game: GameData, state: State, unit: str, h: Hex) -> str | None:
    """3.0, 11.0 C: what would be wrong with the stack in `h` if `unit` joined it."""
    piece, label = game.pieces[unit], game.board.label(h)
    stack = [Stacked(u, game.pieces[u].size) for u, x in state["units"].items()
             if x == label and u != unit]
    return stacking_problem(piece.side, [*stack, Stacked(unit, piece.size)],
                            fortification=fortified(game, state, h))


def side_problems(game: GameData, state: State, side: str) -> list[tuple[str, list[str], str]]:
    """3.0: every stack of `side` over the limits (11.0 C in fortifications): the hex, its
    units and the problem, in the kit's order of stacks."""
    units = [u for u in state["units"] if game.pieces[u].side == side]

    def fits(label: str, stack: list[str]) -> str | None:
        return stacking_problem(side, [Stacked(u, game.pieces[u].size) for u in stack],
                                fortification=fortified(game, state, game.board.hex(label)))

    return over_limit(state["units"], fits, units)


def check_side_stacking(game: GameData, state: State, side: str) -> None:
    """3.0: every stack of `side` is within the limits (11.0 C in fortifications)."""
    for label, stack, _ in side_problems(game, state, side)[:1]:
        check_stacking(side, [Stacked(u, game.pieces[u].size) for u in stack], label,
                       fortification=fortified(game, state, game.board.hex(label)))
