"""The events of Moscow '41 and what each changes: the only code that changes a Moscow '41
state (engine/rules.py `RulesBase.apply` dispatches on `APPLIERS`). Each chapter's own
events are applied in its module (`apply_*`); the sequence of play's are here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.engine.events import Event
from adjudicator.engine.rules import EventHandler
from adjudicator.engine.state import State
from adjudicator.games.moscow import setup, untried
from adjudicator.games.moscow.air import apply_interdicted
from adjudicator.games.moscow.combat import EVENTS, reset_fighting
from adjudicator.games.moscow.movement import apply_moved, reset_movement
from adjudicator.games.moscow.reinforcements import (
    apply_reinforcement_drawn,
    apply_reinforcement_entered,
    apply_reinforcement_lost,
)


def _phase_ended(state: State, data: dict[str, Any]) -> None:
    state["player"], state["phase"] = data["player"], data["phase"]
    reset_fighting(state)
    if data["phase"] == "movement":
        reset_movement(state)


def _standing_set(state: State, data: dict[str, Any]) -> None:
    state.setdefault("standing", {})[data["side"]] = dict(data["values"])


def _unit_eliminated(state: State, data: dict[str, Any]) -> None:
    """8.9 H-I: eliminated; Soviet infantry but the Siberians goes back to the cup."""
    unit = data["unit"]
    state["units"].pop(unit, None)
    state["eliminated"] = sorted({*state["eliminated"], unit})
    face = state["tokens"].get(unit)
    if face is not None and face["type"] == "infantry" and not face["siberian"]:
        state["cup"] = sorted({*state["cup"], state["identity"][unit]})


def _turn_began(state: State, data: dict[str, Any]) -> None:
    state.update(turn=data["turn"], weather=data["weather"], player="german",
                 phase="movement", air_used=[], interdicted={})
    reset_movement(state)
    reset_fighting(state)


def _game_ended(state: State, data: dict[str, Any]) -> None:
    state["phase"] = "game-over"
    state["result"] = data["result"]


EVENT_HANDLERS: dict[str, Callable[[State, dict[str, Any]], None]] = {
    "untried-drawn": untried.apply_drawn,
    "untried-revealed": untried.apply_revealed,
    "setup-drawn": setup.apply_drawn_setup,
    "unit-placed": setup.apply_placed,
    "units-moved": apply_moved,
    "air-interdicted": apply_interdicted,
    "reinforcement-drawn": apply_reinforcement_drawn,
    "reinforcement-entered": apply_reinforcement_entered,
    "reinforcement-lost": apply_reinforcement_lost,
    "unit-eliminated": _unit_eliminated,
    "standing-set": _standing_set,
    "phase-ended": _phase_ended,
    "turn-began": _turn_began,
    "game-ended": _game_ended,
    **EVENTS,
}


def _applier(apply: Callable[[State, dict[str, Any]], None]) -> EventHandler:
    def on(state: State, event: Event) -> None:
        apply(state, event.data)
    return on


APPLIERS: dict[str, EventHandler] = {kind: _applier(h) for kind, h in EVENT_HANDLERS.items()}
