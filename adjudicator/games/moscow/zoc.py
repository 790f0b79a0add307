"""Moscow '41 rule 5.0, Zones of Control, over plain facts: the hexes a combat unit's
zone covers (not across a lake hexside no road crosses, 5.0 C) and the enemy units as
movement, overrun and supply see them (4.4, 4.7, 9.3)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.zoc import Zones
from adjudicator.engine.zoc import zones_of_control as kit_zones
from adjudicator.games.moscow.data import Unit
from adjudicator.games.moscow.terrain import Terrain


def never_blocked(a: Hex, b: Hex) -> bool:
    return False


def zone_of_control(board: HexBoard, h: Hex, *,
                    blocked: Callable[[Hex, Hex], bool] = never_blocked) -> frozenset[Hex]:
    """5.0 A, C: the six hexes adjacent to a combat unit in `h`, except across a hexside
    that `blocked` names (Terrain.blocks_zoc: a lake hexside no road crosses)."""
    return frozenset(n for n in board.neighbours(h) if not blocked(h, n))


def zones_of_control(board: HexBoard, units: Iterable[Unit], *,
                     blocked: Callable[[Hex, Hex], bool] = never_blocked) -> frozenset[Hex]:
    """5.0 A-D: every hex in the ZOC of any of `units` (all combat units exert one; two
    ZOCs in a hex add nothing, 5.0 D). Air units are not combat units: leave them out."""
    return kit_zones([(u.id, u.hex) for u in units], board.neighbours,
                     extends=lambda a, b: not blocked(a, b)).places


@dataclass(frozen=True)
class EnemyZones:
    """The enemy combat units as movement sees them: the hexes they occupy (4.4) and
    the hexes in their ZOCs (4.7), from the kit's zones of control (engine/zoc.py).
    Friendly units never negate an EZOC for movement (4.7 C), so nothing friendly goes
    in here."""

    occupied: frozenset[Hex]
    zoc: frozenset[Hex]
    zones: Zones[Hex]  # who exerts a zone into each hex
    at: Mapping[str, Hex]  # each enemy unit's hex

    @classmethod
    def of(cls, terrain: Terrain, enemies: Iterable[Unit]) -> EnemyZones:
        """The zones of `enemies`, computed once for the same units in the same hexes
        (movement, overrun and supply ask after every order)."""
        at = {u.id: u.hex for u in sorted(enemies, key=lambda u: u.id)}
        key = ("enemy-zones", tuple(at.items()))
        return terrain.memo.get(key, lambda: cls._of(terrain, at))  # type: ignore[no-any-return]

    @classmethod
    def _of(cls, terrain: Terrain, at: Mapping[str, Hex]) -> EnemyZones:
        zones = kit_zones(list(at.items()), terrain.board.neighbours,
                          extends=lambda a, b: not terrain.blocks_zoc(a, b))
        return cls(zones.occupied, zones.places, zones, MappingProxyType(dict(at)))

    def zoc_without(self, h: Hex) -> frozenset[Hex]:
        """The EZOC hexes without the ZOC of the units in `h` (an overrun's defenders)."""
        return self.zones.without([u for u, where in self.at.items() if where == h])
