"""1941 rule 6.0 Zones of Control, through the kit's zones (engine/zoc.py), and what they
do to a move: 6.1 infantry, 6.2 armor, as checks of the kit's path walker
(engine/walker.py) that stop a move with a typed reason (`Stop`).

6.0 B with 13.5 C: a zone never extends through an unfrozen all-sea or all-lake hexside
(`GameData.zone_reach`); 17.1.3: throughout the German First Ground Segment of Turn 1 the
Soviet zones do not extend into Greater Germany (`first_turn.soviet_zones_stop`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.state import State
from adjudicator.engine.walker import PathStep, Stop
from adjudicator.engine.zoc import Zones, zones_of_control
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.first_turn import soviet_zones_stop
from adjudicator.games.barbarossa.vocabulary import ZONE_BLOCKING, Country

ARMOR_ZOC_TO_ZOC_COST = 2  # 6.2 B: in addition to the terrain cost


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    hex: Hex
    armor: bool  # armor-type (tank, panzer); everything else is infantry-type (1.3.2)


def never_frozen(a: Hex, b: Hex) -> bool:
    return False


def zone_of_control(board: HexBoard, unit: Unit, *,
                    frozen: Callable[[Hex, Hex], bool] = never_frozen) -> set[Hex]:
    """6.0 A-B: the six hexes around the unit, except across an all-sea or all-lake
    hexside that is not frozen (`frozen`: 13.5 C, the lakes and some seas in snow)."""
    zones = zones_of_control([(unit.id, unit.hex)], board.neighbours,
                             extends=lambda a, b: not board.features(a, b) & ZONE_BLOCKING
                             or frozen(a, b))
    return set(zones.places)


@dataclass(frozen=True)
class EnemyZones:
    """The zones of control of a side's enemies (the kit's `Zones`): the hexes in the zone
    of any enemy unit, of any enemy armor-type unit, the hexes enemy units occupy, and
    which armor-type units exert a zone where (6.2 B: entering or exiting one)."""

    zones: Zones[Hex]
    armor_units: frozenset[str]
    any: frozenset[Hex] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "any", self.zones.places)

    @cached_property
    def armor(self) -> frozenset[Hex]:
        return self.zones.of(self.armor_units.__contains__)

    @property
    def occupied(self) -> frozenset[Hex]:
        return self.zones.occupied

    def armor_at(self, h: Hex) -> frozenset[str]:
        """The enemy armor-type units whose zones reach `h`."""
        return frozenset(u for u in self.zones.exerted.get(h, ()) if u in self.armor_units)

    @classmethod
    def of(cls, board: HexBoard, enemies: Iterable[Unit], *,
           frozen: Callable[[Hex, Hex], bool] = never_frozen,
           reach: Callable[[Hex], Iterable[Hex]] | None = None,
           extends: Callable[[Hex, Hex], bool] | None = None) -> EnemyZones:
        """The zones of `enemies`: each reaching `reach(hex)` if given (the rules keep
        them per hex and weather), else the neighbours across no unfrozen all-sea or
        all-lake hexside (`frozen`); `extends`: where else a zone does not reach."""
        units = list(enemies)

        def crosses(a: Hex, b: Hex) -> bool:
            return not board.features(a, b) & ZONE_BLOCKING or frozen(a, b)

        zones = zones_of_control([(u.id, u.hex) for u in units],
                                 reach if reach is not None else board.neighbours,
                                 extends=extends if extends is not None
                                 else (lambda a, b: True) if reach is not None else crosses)
        return cls(zones, frozenset(u.id for u in units if u.armor))


def enemy_zones(game: GameData, state: State, side: str) -> EnemyZones:
    """The zones of control of `side`'s enemies (6.0), frozen hexsides in snow (13.5 C);
    on Turn 1, throughout the German First Ground Segment, Soviet zones do not extend
    across the border into Greater Germany (17.1.3). Kept per position of the enemy
    units: control is judged after every order and at every hex a unit enters (4.0 B)."""
    key = zones_key(game, state, side)
    return game.remembered(key, lambda: _zones(game, *key[1:]))  # type: ignore[no-any-return]


def zones_key(game: GameData, state: State, side: str) -> tuple[str, tuple[tuple[str, str], ...],
                                                                 str, bool]:
    """What the zones of `side`'s enemies depend on: where each enemy unit stands, the
    weather and 17.1.3; the same key, the same zones."""
    pieces = game.pieces
    enemies = tuple(sorted((u, x) for u, x in state["units"].items() if pieces[u].side != side))
    return ("zones", enemies, state["weather"], soviet_zones_stop(state, side))


def zone_hexes(game: GameData, key: tuple[str, tuple[tuple[str, str], ...], str, bool]
               ) -> frozenset[Hex]:
    """The hexes in the zone of any of the units a `zones_key` names: its zones' `any`,
    without who exerts each (4.0 B asks only that, at every hex a unit enters)."""
    def compute() -> frozenset[Hex]:
        _, enemies, weather, stop = key
        found: set[Hex] = set()
        for h in {game.hex(x) for _, x in enemies}:
            found.update(game.zone_reach(h, weather))
        if stop:  # 17.1.3, as `_zones` extends them
            return frozenset(h for h in found if game.country.get(h) != Country.GERMANY)
        return frozenset(found)
    return game.remembered(("zone hexes", *key[1:]), compute)  # type: ignore[no-any-return]


def _zones(game: GameData, enemies: tuple[tuple[str, str], ...], weather: str,
           stop: bool) -> EnemyZones:
    units = [Unit(u, game.pieces[u].side, game.hex(x), game.pieces[u].armor)
             for u, x in enemies]

    def reach(h: Hex) -> tuple[Hex, ...]:
        return game.zone_reach(h, weather)

    extends = None
    if stop:
        def extends(a: Hex, b: Hex) -> bool:
            return game.country.get(b) != Country.GERMANY
    return EnemyZones.of(game.board, units, reach=reach, extends=extends)


# -- what zones do to a move (6.1, 6.2): checks of the path walker ------------------------

def zoc_stop(unit: Unit, enemy: EnemyZones) -> Callable[[PathStep[Hex]], Stop[Hex] | None]:
    """6.1 A: an infantry-type unit ceases movement upon entering a hex in an enemy ZOC."""
    def check(step: PathStep[Hex]) -> Stop[Hex] | None:
        if step.index > 1 and not unit.armor and step.here in enemy.any:
            return Stop("zoc-stop", step)
        return None
    return check


def zoc_to_zoc(unit: Unit, step: PathStep[Hex], enemy: EnemyZones, *,
               zone_by_zone: bool = False) -> int | Stop[Hex]:
    """6.1 B / 6.2 B: moving directly from one hex in an enemy ZOC to another. Forbidden
    to infantry-type units; armor-type units may, at 2 MPs more, "as long as it is
    neither entering nor exiting a ZOC of an enemy armor-type unit".

    Until module 0.3.0 any hex in the zone of an enemy armor-type unit at either end
    forbade the move; from 0.3.0 (`zone_by_zone`, RULES-ISSUES 51) the text is read zone
    by zone: a move between two hexes of the same enemy tank's zone neither enters
    nor exits it, and is allowed."""
    here, there = step.here, step.there
    if not unit.armor:
        return Stop("zoc-to-zoc", step)
    if zone_by_zone:
        at_here, at_there = enemy.armor_at(here), enemy.armor_at(there)
        entering, exiting = bool(at_there - at_here), bool(at_here - at_there)
        if entering or exiting:
            how = " and ".join(w for w, yes in (("exit", exiting), ("enter", entering)) if yes)
            return Stop("armor-zoc", step, {"how": how})
        return ARMOR_ZOC_TO_ZOC_COST
    if here in enemy.armor or there in enemy.armor:
        return Stop("armor-zoc", step)
    return ARMOR_ZOC_TO_ZOC_COST
