"""1941 rule 11.0 Fortifications, as the other rules ask about them: whether a hex is a
fortifications hex now (20.1.1 B: 0713 is clear terrain once the Baltic Sea Fleet is
neutralized). What a fortifications hex does is said where it does it: stacking (11.0 C,
`stacking.py`), defence (11.0 D, `combat.py`), supply (11.0 F, `supply.py`)."""

from __future__ import annotations

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.state import State
from adjudicator.games.barbarossa.data import GameData


def fortified(game: GameData, state: State, h: Hex) -> bool:
    """11.0: a fortifications hex, unless it is the base of a neutralized fleet
    (20.1.1 B: 0713 is then clear terrain)."""
    return h in game.fortifications and not any(
        fleet.base == h for fleet_id, fleet in game.fleets.items()
        if fleet_id in state.get("neutralized", []))
