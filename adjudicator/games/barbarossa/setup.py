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

from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.engine.state import State
from adjudicator.errors import ModuleError
from adjudicator.games.barbarossa.charts import Charts

M = f"{{{MODULE_NS}}}"
FIRST_PHASE = ("axis", "air", "air")  # 2.0: the German player turn, its Air Segment


def scenario_state(module: ModuleData, scenario_id: str, options: dict[str, str]) -> State:
    """19.0 B: every unit with a four-digit code on that hex; the others wait for the
    turn their code names (14.1 C)."""
    scenario = next((s for s in module.findall("m:scenarios/m:scenario")
                     if s.get("id") == scenario_id), None)
    if scenario is None:
        raise ModuleError(f"1941 has no scenario {scenario_id!r}")
    units: dict[str, str] = {}
    arriving: dict[str, list[str]] = {}
    for piece in module.findall("m:pieces/m:piece"):
        code = piece.get("deploy")
        if len(code) == 4 and code.isdigit():
            units[piece.get("id")] = code
        else:
            turn = code.split(":")[0]
            arriving.setdefault(turn, []).append(piece.get("id"))
    side, segment, phase = FIRST_PHASE
    if options.get("free-deployment") == "yes":  # 20.6: the German deploys first
        segment, phase = "deployment", "deployment"
    turn = int(scenario.get("start"))
    record = Charts.of(module).turn(turn)
    state: dict[str, Any] = {
        "game": "barbarossa",
        "scenario": scenario_id,
        "options": module.options(options),
        "turn": turn,
        "last_turn": int(scenario.get("end")),
        "player": side,
        "segment": segment,
        "phase": phase,
        "weather": record.weather,
        "air": dict(record.air),
        "rail_used": {"axis": 0, "soviet": 0, "finnish": 0},
        "units": dict(sorted(units.items())),
        "arriving": {t: sorted(ids) for t, ids in sorted(arriving.items())},
        "eliminated": [],
        "control": {},  # hex -> side, only where it differs from the start (4.0 A)
        "moved": [],
        "pending": None,
        "result": None,
    }
    return state
