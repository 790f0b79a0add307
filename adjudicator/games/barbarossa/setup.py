"""1941 rule 19.0 Preparing for Play, with 4.0 A (control at start) and 14.1
(reinforcements): the state a scenario starts from.

The state keeps what changes: where each unit on the map stands, which units are
yet to arrive (by turn; the Turn 1 codes 1:Od and 1:E keep their code), which are
eliminated, the hexes whose control differs from the start (4.0 A: the Soviet Union
Soviet, the rest Axis), the turn, the phasing side, segment and phase, the air
points of the turn and the rail capacity used.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.errors import ModuleError
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.flow import FIRST_PHASE
from adjudicator.games.barbarossa.vocabulary import (
    GAME,
    OPTION_ON,
    Option,
    Phase,
    Segment,
    Side,
    SupplySource,
)


def on_the_map(code: str) -> bool:
    """19.0 B: a four-digit deployment code is the hex the unit starts in."""
    return len(code) == 4 and code.isdigit()


def no_rail_used() -> dict[str, int]:
    """5.4 E, 15.2.4 A: the rail capacity used this player turn, per side and Finnish."""
    return {Side.AXIS.value: 0, Side.SOVIET.value: 0, SupplySource.FINNISH.value: 0}


def scenario_state(module: ModuleData, scenario_id: str, options: dict[str, str]) -> State:
    """19.0 B: every unit with a four-digit code on that hex; the others wait for the
    turn their code names (14.1 C)."""
    game = GameData.of(module)
    scenario = game.scenarios.get(scenario_id)
    if scenario is None:
        raise ModuleError(f"1941 has no scenario {scenario_id!r}")
    units: dict[str, str] = {}
    arriving: dict[str, list[str]] = {}
    for piece in game.pieces.values():
        if on_the_map(piece.deploy):
            units[piece.id] = piece.deploy
        else:
            turn = piece.deploy.split(":")[0]
            arriving.setdefault(turn, []).append(piece.id)
    side, segment, phase = FIRST_PHASE
    if options.get(Option.FREE_DEPLOYMENT) == OPTION_ON:  # 20.6: the German deploys first
        segment, phase = Segment.DEPLOYMENT.value, Phase.DEPLOYMENT.value
    turn = scenario.start
    record = game.charts.turn(turn)
    state: dict[str, Any] = {
        "game": GAME,
        "scenario": scenario_id,
        "options": module.options(options),
        "turn": turn,
        "last_turn": scenario.end,
        "player": side,
        "segment": segment,
        "phase": phase,
        "weather": record.weather,
        "air": dict(record.air),
        "rail_used": no_rail_used(),
        "units": dict(sorted(units.items())),
        "arriving": {t: sorted(ids) for t, ids in sorted(arriving.items())},
        "eliminated": [],
        "control": {},  # hex -> side, only where it differs from the start (4.0 A)
        "moved": [],
        "pending": None,
        "result": None,
    }
    return state
