"""The 1941 events and what each does to the state: the only code that changes it (the
journal replays these, docs/architecture.md, The engine model). One applier per event kind, in
`APPLIERS`."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.engine.events import Event
from adjudicator.engine.state import State
from adjudicator.games.barbarossa.flow import FIRST_PHASE
from adjudicator.games.barbarossa.setup import no_rail_used
from adjudicator.games.barbarossa.vocabulary import Carried, EventKind, Phase, Side


def phase_ended(state: State, event: Event) -> None:
    """2.0: the next phase (or segment) begins; what a phase counted starts anew."""
    state["player"] = event["player"]
    state["segment"], state["phase"] = event["segment"], event["phase"]
    state.pop("entry_mps", None)
    if event["phase"] == Phase.MOVEMENT:
        state["moved"] = []
        state.pop("paths", None)
        state.pop("carried", None)
        state.pop("fleets_used", None)  # 20.1.1 A, 20.1.2 A: once per phase, per segment
    state["attacked_by"], state["retreated"] = [], []
    state.pop("defended", None)


def player_turn_ended(state: State, event: Event) -> None:
    """2.0 B: the Soviet player turn begins with its Air Segment."""
    state["player"] = event["player"]
    state["segment"], state["phase"] = FIRST_PHASE[1], FIRST_PHASE[2]
    state.pop("fleets_used", None)
    state["moved"], state["replaced"], state["air_supplied"] = [], [], []


def turn_began(state: State, event: Event) -> None:
    """2.0 A, 13.0, 10.1 A: a new game turn, its weather and air points."""
    player, segment, phase = FIRST_PHASE
    state.update(turn=event["turn"], weather=event["weather"], air=dict(event["air"]),
                 player=player, segment=segment, phase=phase, moved=[], air_supplied=[],
                 rail_used=no_rail_used())


def game_ended(state: State, event: Event) -> None:
    state["phase"] = Phase.GAME_OVER.value
    state["result"] = event["result"]


def unit_moved(state: State, event: Event) -> None:
    state["units"][event["unit"]] = event["path"][-1]
    state["moved"] = sorted({*state["moved"], event["unit"]})
    paths = state.setdefault("paths", {})  # 5.0: the unit's whole path this phase
    paths[event["unit"]] = [*paths.get(event["unit"], event["path"][:1]), *event["path"][1:]]


def control_changed(state: State, event: Event) -> None:
    state["control"][event["hex"]] = event["side"]


def attack_declared(state: State, event: Event) -> None:
    state["air"][event["side"]] -= event["air"]
    state["defended"] = sorted({*state.get("defended", []), *event["defenders"]})  # 7.2 E
    if event.data.get("fleet"):  # 20.1.2 A
        state["fleets_used"] = sorted({*state.get("fleets_used", []), event["fleet"]})


def attack_resolved(state: State, event: Event) -> None:
    defender = Side(state["player"]).enemy.value
    state["air"][defender] -= event["air"]["defender"]


def attack_finished(state: State, event: Event) -> None:
    state["attacked_by"] = sorted({*state.get("attacked_by", []), *event["attackers"]})


def unit_eliminated(state: State, event: Event) -> None:
    state["units"].pop(event["unit"], None)
    for waiting in state["arriving"].values():
        if event["unit"] in waiting:
            waiting.remove(event["unit"])
    state["eliminated"] = sorted({*state["eliminated"], event["unit"]})


def unit_withdrawn(state: State, event: Event) -> None:
    del state["units"][event["unit"]]
    state["arriving"].setdefault(event["turn"], []).append(event["unit"])
    state["arriving"][event["turn"]].sort()


def unit_relocated(state: State, event: Event) -> None:
    """7.8.3 an advance, 20.6 a deployment: the unit is now there."""
    state["units"][event["unit"]] = event["to"]


def unit_retreated(state: State, event: Event) -> None:
    state["units"][event["unit"]] = event["to"]
    state["retreated"] = sorted({*state.get("retreated", []), event["unit"]})


def unit_shipped(state: State, event: Event) -> None:
    state["units"][event["unit"]] = event["path"][-1]
    state["moved"] = sorted({*state["moved"], event["unit"]})
    state.setdefault("carried", {})[event["unit"]] = Carried.SEA.value  # 20.1.3
    state["fleets_used"] = sorted({*state.get("fleets_used", []), event["fleet"]})


def fleet_neutralized(state: State, event: Event) -> None:
    state["air"][Side.AXIS.value] -= event["points"]
    state["neutralized"] = sorted({*state.get("neutralized", []), event["fleet"]})


def air_negated(state: State, event: Event) -> None:
    state["air"].update(event["left"])


def unit_railed(state: State, event: Event) -> None:
    state["units"][event["unit"]] = event["path"][-1]
    state["moved"] = sorted({*state["moved"], event["unit"]})
    state.setdefault("carried", {})[event["unit"]] = Carried.RAIL.value  # 5.4 A
    state["rail_used"].update(event["used"])


def partisans_declared(state: State, event: Event) -> None:
    record = state.setdefault("partisans", {"used": 0})
    record["active"] = event["turn"]
    if event["counts"]:
        record["used"] = record.get("used", 0) + 1


def rail_bombed(state: State, event: Event) -> None:
    state["air"][Side.AXIS.value] -= event["points"]
    bombed = state.setdefault("rail_bombed", {})
    bombed[event["turn"]] = bombed.get(event["turn"], 0) + event["points"]


def air_supplied(state: State, event: Event) -> None:
    state["air"][Side.AXIS.value] -= event["points"]
    state["air_supplied"] = sorted({*state.get("air_supplied", []), event["unit"]})


def unit_replaced(state: State, event: Event) -> None:
    state["eliminated"] = [u for u in state["eliminated"] if u != event["unit"]]
    state["units"][event["unit"]] = event["hex"]
    state["replaced"] = sorted({*state.get("replaced", []), event["unit"]})
    if event.data.get("mps"):
        state.setdefault("entry_mps", {})[event["unit"]] = event["mps"]


def unit_entered(state: State, event: Event) -> None:
    state["arriving"][event["turn"]].remove(event["unit"])
    state["units"][event["unit"]] = event["hex"]
    if event.data.get("mps"):
        state.setdefault("entry_mps", {})[event["unit"]] = event["mps"]


def supply_traced(state: State, event: Event) -> None:
    state["unsupplied"] = list(event["unsupplied"])


def replacements_reduced(state: State, event: Event) -> None:
    state["replacements_reduced"] = event["turn"]  # 14.2.4 B: for this turn's replacements


def standing_set(state: State, event: Event) -> None:
    state.setdefault("standing", {})[event["side"]] = dict(event["values"])


APPLIERS: dict[str, Callable[[State, Event], None]] = {
    EventKind.PHASE_ENDED: phase_ended,
    EventKind.PLAYER_TURN_ENDED: player_turn_ended,
    EventKind.TURN_BEGAN: turn_began,
    EventKind.GAME_ENDED: game_ended,
    EventKind.UNIT_MOVED: unit_moved,
    EventKind.CONTROL_CHANGED: control_changed,
    EventKind.ATTACK_DECLARED: attack_declared,
    EventKind.ATTACK_RESOLVED: attack_resolved,
    EventKind.ATTACK_FINISHED: attack_finished,
    EventKind.UNIT_ELIMINATED: unit_eliminated,
    EventKind.UNIT_RETREATED: unit_retreated,
    EventKind.UNIT_ADVANCED: unit_relocated,
    EventKind.UNIT_DEPLOYED: unit_relocated,
    EventKind.UNIT_WITHDRAWN: unit_withdrawn,
    EventKind.STANDING_SET: standing_set,
    EventKind.SUPPLY_TRACED: supply_traced,
    EventKind.AIR_NEGATED: air_negated,
    EventKind.UNIT_RAILED: unit_railed,
    EventKind.UNIT_ENTERED: unit_entered,
    EventKind.UNIT_REPLACED: unit_replaced,
    EventKind.REPLACEMENTS_REDUCED: replacements_reduced,
    EventKind.PARTISANS_DECLARED: partisans_declared,
    EventKind.RAIL_BOMBED: rail_bombed,
    EventKind.AIR_SUPPLIED: air_supplied,
    EventKind.UNIT_SHIPPED: unit_shipped,
    EventKind.FLEET_NEUTRALIZED: fleet_neutralized,
}
