"""Moscow '41 rule 7.0, Overrun: the movement side of an overrun over plain facts (its
cost, 7.3, with the disengagement of 7.0 D; the stack that may overrun, 7.4; the hex,
7.5), and the `<overrun>` order, which combat.py declares and fights as an attack with
its own shifts and results (7.1, 7.6-7.8)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType

from adjudicator.engine.hexgrid import Hex
from adjudicator.games.moscow.movement import (
    NOTHING,
    Mover,
    _entry_cost,
    _label,
    check_disengagement,
    check_stack,
    disengagement_cost,
    finished_error,
)
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.vocabulary import GERMAN
from adjudicator.games.moscow.zoc import EnemyZones

OVERRUN_COST = 2  # 7.3


TURN_1_GERMAN_OVERRUN_COST = 1  # 3.2 C, 7.3 exception


# -- 7.0-7.5: the movement side of an overrun -------------------------------------------------
@dataclass(frozen=True)
class Overrun:
    """What an overrun costs (7.3, 3.2 C) and whether the overrunning units have it.

    `costs`: the MPs each unit expends; `enough`: every unit has them left, or makes the
    overrun as its minimum move (4.3); `short`: the units that lack them;
    `disengagement`: the overrunning hex is in the ZOC of enemy units other than the
    defenders, so the overrun pays the disengagement cost too (7.0 D, 7.2); `into_ezoc`:
    the defenders' hex is in the ZOC of other enemy units (the 6.4 exception);
    `left_behind`: the friendly combat units not in the overrun that stay in the
    overrunning hex (module 0.1.0's 6.0 B check); `revised` False: module 0.1.0's
    readings (RULES-ISSUES, "What module 0.2.0 changed")."""

    target: Hex
    costs: Mapping[str, Fraction]
    enough: bool
    minimum_move: bool
    disengagement: bool
    into_ezoc: bool
    short: tuple[str, ...] = ()
    left_behind: int = 0
    revised: bool = True

    def after(self, movers: Sequence[Mover], *, advanced: Collection[str] = (),
              zoc: frozenset[Hex] | None = None,
              ends: Mapping[str, Hex] | None = None) -> tuple[Mover, ...]:
        """The movers once the overrun is resolved: every one has paid its cost (7.3;
        all its MPs for a minimum move, 4.3, which leaves it none); those in `advanced`
        stand in the target hex (7.6 C-D, at no MP cost), or in the hex `ends` names
        after a two-hex advance (7.6 D, 8.12 F).

        - 4.7 B: a unit that advanced stops if the hex it ended in is in an EZOC (`zoc`:
          the EZOC after the combat, by default the other enemy units' ZOC before it).
        - 7.0 B, 7.4 C: a unit that stopped on entering the overrunning hex may go on if
          the combat left that hex in no EZOC (RULES-ISSUES 19).
        - 6.4 exception: after an overrun that disengaged and advanced into an EZOC hex,
          the whole overrunning force may move no further this phase, panzers included
          (`ended` "6.4"; RULES-ISSUES 20).
        - A force that retreated after the overrun is finished too (7.7 C): the caller
          knows where it went and says so.

        Module 0.1.0 (`revised` False) read 6.0 B into an overrun that disengaged (its
        hex may not be left empty: IllegalOrder if every overrunning unit advances and
        nothing else stays), placed every advancing unit in the target hex and left a
        unit that stayed behind as halted as it was.
        """
        if not self.revised and self.disengagement and advanced and self.left_behind < 1 \
                and all(m.id in advanced for m in movers):
            raise CATALOGUE.refuse("no-detachment", "6.0 B",
                "the overrun disengaged from the hex, so a friendly "
                "combat unit must remain there: not every overrunning unit "
                "may advance (6.3)")
        in_zoc = (self.target in zoc) if zoc is not None else self.into_ezoc
        stopped = bool(advanced) and in_zoc and self.disengagement
        out = []
        for m in movers:
            moved = m.id in advanced
            if not self.revised:
                out.append(replace(
                    m, unit=replace(m.unit, hex=self.target) if moved else m.unit,
                    spent=m.spent + self.costs[m.id],
                    halted=(moved and in_zoc) or (m.halted and not moved),
                    finished=m.finished or stopped))
                continue
            here = (ends or {}).get(m.id, self.target) if moved else m.hex
            if zoc is None:
                halted = in_zoc if moved else m.halted
            else:
                halted = here in zoc if moved else m.halted and here in zoc
            out.append(replace(
                m, unit=replace(m.unit, hex=here), spent=m.spent + self.costs[m.id],
                halted=halted, finished=m.finished or stopped,
                ended="6.4" if stopped and not m.finished else m.ended))
        return tuple(out)


def overrun_cost(terrain: Terrain, movers: Sequence[Mover], target: Hex, enemy: EnemyZones,
                 *, turn: int, left_behind: int = 0,
                 interdiction: Mapping[Hex, int] = NOTHING,
                 revised: bool = True) -> Overrun:
    """7.0 C-D, 7.3, 7.4, 7.5 C, 4.3: the MPs a unit or stack spends to overrun the enemy
    units in the adjacent `target` hex, and whether it has them.

    Each unit pays +2 MPs (+1 for German units on Turn 1, 3.2 C) plus its own TEC cost
    of entering the defenders' hex from its own (7.3; a road or river on the hexside
    counts as for a move), that cost doubled or quadrupled for a Soviet unit by
    interdiction (11.3; RULES-ISSUES 21). If the overrunning hex is also in the ZOC of
    enemy units other than the defenders, the overrun leaves an EZOC (4.7 D) and pays the
    disengagement cost (7.0 D, 7.2; 6.1-6.2, none for Germans on Turn 1); who may pay it
    is as for a disengagement (6.1), but no friendly unit need stay in the hex (6.0 B is
    about disengaging; RULES-ISSUES 18), and 6.4 yields to its exception. A unit that has
    not moved yet may overrun the first hex by spending all its MPs (4.3), except when
    the overrun disengages (4.3's exception; RULES-ISSUES 21).

    IllegalOrder: 7.4 A-B a stack of more than four or that did not begin the phase
    together; 7.0 C a target not adjacent; 7.5 A a target with no enemy unit; 7.5 C a
    lake hexside, road or not; 4.3, 6.4, 7.7 C a unit that has finished moving; 6.1 a
    German infantry or Soviet unit leaving an EZOC hex it did not begin the phase in.
    `revised` False: module 0.1.0, which refused a lone unit's overrun out of an EZOC
    hex with no friendly unit left behind (6.0 B) and did not compound 11.3 C.
    """
    board = terrain.board
    check_stack(movers, rule="7.4 B" if len(movers) > 1 else "7.0 C")
    here = movers[0].hex
    names = ", ".join(m.id for m in movers)
    where = f"{_label(board, here)} to {_label(board, target)}"
    for m in movers:
        if m.finished:
            raise finished_error(m, overrun=True)
    if target not in board or not board.grid.adjacent(here, target):
        raise CATALOGUE.refuse("not-adjacent", "7.0 C",
            f"a unit may overrun only an adjacent hex; "
            f"{_label(board, target)} is not next to {_label(board, here)}")
    if target not in enemy.occupied:
        raise CATALOGUE.refuse("overrun-target", "7.5 A",
            f"an overrun is made against enemy units; there are none "
            f"in {_label(board, target)}")
    if terrain.blocks_overrun(here, target):
        raise CATALOGUE.refuse("lake", "7.5 C",
            f"{names} cannot overrun from {where} across a lake "
            "hexside, even where a road crosses it")
    others = enemy.zoc_without(target)
    disengaging = here in others
    if disengaging:
        for m in movers:
            check_disengagement(board, m)
        if not revised and left_behind < 1 and len(movers) == 1:
            raise CATALOGUE.refuse("no-detachment", "6.0 B",
                f"{names} would disengage from {_label(board, here)} "
                "by overrunning and must advance if it succeeds (7.6 C): a "
                "friendly combat unit must remain in the hex (6.3)")
    costs: dict[str, Fraction] = {}
    short: list[str] = []
    minimum = False
    for m in movers:
        base = TURN_1_GERMAN_OVERRUN_COST if turn == 1 and m.unit.side == GERMAN \
            else OVERRUN_COST
        cost = base + _entry_cost(terrain, m, here, target, interdiction, "7.3",
                                  first=not m.has_moved, revised=revised)
        if disengaging:
            cost += disengagement_cost(m.unit, turn=turn)
        if m.spent + cost > m.allowance:
            if not m.has_moved and not disengaging and m.allowance > 0:
                cost, minimum = Fraction(m.allowance) - m.spent, True
            else:
                short.append(m.id)
        costs[m.id] = cost
    return Overrun(target, MappingProxyType(costs), not short, minimum, disengaging,
                   target in others, tuple(short), left_behind, revised)


