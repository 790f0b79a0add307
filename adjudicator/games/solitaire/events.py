"""The appliers: one function per kind of event, the only code that changes Barbarossa
Solitaire's state (docs/architecture.md, The engine model). `APPLIERS` is the table RulesBase.apply
reads."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.engine.events import Event
from adjudicator.engine.state import State
from adjudicator.games.solitaire.vocabulary import EventKind, Phase


def _sorted_add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)
        items.sort()


def phase_ended(state: State, e: Event) -> None:
    state["phase"] = e["next"]


def unit_placed(state: State, e: Event) -> None:
    state["units"][e["unit"]] = e["area"]
    state["unplaced"].remove(e["unit"])


def moved(state: State, e: Event) -> None:
    state["units"][e["unit"]] = e["to"]
    _sorted_add(state["moved"], e["unit"])
    if e["from"] not in state["units"].values():
        _sorted_add(state["vacated"], e["from"])


def garrison_placed(state: State, e: Event) -> None:
    _sorted_add(state["garrisons"], e["area"])


def garrison_removed(state: State, e: Event) -> None:
    state["garrisons"].remove(e["area"])


def control_changed(state: State, e: Event) -> None:
    state["control"][e["area"]] = e["side"]


def attacked(state: State, e: Event) -> None:
    for unit in e["units"]:
        _sorted_add(state["attacked"], unit)


def advanced(state: State, e: Event) -> None:
    for unit in e["units"]:
        state["units"][unit] = e["to"]
    for area in e["origins"]:
        if area not in state["units"].values():
            _sorted_add(state["vacated"], area)


def unit_removed(state: State, e: Event) -> None:
    if e["area"] is None:  # a unit still waiting to enter
        state["queue"] = [q for q in state["queue"] if q["unit"] != e["unit"]]
    else:
        del state["units"][e["unit"]]
    if e["returns"] is None:
        _sorted_add(state["out"], e["unit"])
    else:
        state["schedule"].append([e["unit"], e["returns"]])


def reinforcement_due(state: State, e: Event) -> None:
    state["queue"].append({"unit": e["unit"], "due": e["due"]})


def reinforcement_placed(state: State, e: Event) -> None:
    state["units"][e["unit"]] = e["area"]
    state["queue"] = [q for q in state["queue"] if q["unit"] != e["unit"]]
    state["entered"] += 1


def soviet_attacks_set(state: State, e: Event) -> None:
    state["soviet"] = {"left": e["count"], "done": 0}


def soviet_roll_twice(state: State, e: Event) -> None:
    """Roll again twice: this attack becomes two more (one more than counted)."""
    state["soviet"]["left"] += 1
    state["soviet"]["done"] += 1


def soviet_attack_target(state: State, e: Event) -> None:
    state["soviet"]["left"] -= 1
    state["soviet"]["done"] += 1


def retreated(state: State, e: Event) -> None:
    for unit in e["units"]:
        state["units"][unit] = e["to"]
    _sorted_add(state["retreat-years"], e["year"])


def standing_instructions(state: State, e: Event) -> None:
    state["standing"][e["side"]] = e["instructions"]


def turn_began(state: State, e: Event) -> None:
    state.update(turn=e["turn"], phase=Phase.MOVEMENT, moved=[], attacked=[], vacated=[],
                 entered=0, soviet={"left": 0, "done": 0})


def game_ended(state: State, e: Event) -> None:
    state["phase"] = Phase.GAME_OVER
    state["result"] = {"areas": e["areas"], "level": e["level"]}


def soviet_attack_effect(state: State, e: Event) -> None:
    """The effect roll and how it was read: the report's; the events after it act."""


def standing_instruction_used(state: State, e: Event) -> None:
    """Which standing instruction settled a choice: the report's; nothing changes."""


def soviet_combat_ended(state: State, e: Event) -> None:
    """The end of the Soviet combat: the report's; the next turn's events follow."""


APPLIERS: dict[str, Callable[[State, Event], None]] = {
    EventKind.PHASE_ENDED: phase_ended,
    EventKind.UNIT_PLACED: unit_placed,
    EventKind.MOVED: moved,
    EventKind.GARRISON_PLACED: garrison_placed,
    EventKind.GARRISON_REMOVED: garrison_removed,
    EventKind.CONTROL_CHANGED: control_changed,
    EventKind.ATTACKED: attacked,
    EventKind.ADVANCED: advanced,
    EventKind.UNIT_REMOVED: unit_removed,
    EventKind.REINFORCEMENT_DUE: reinforcement_due,
    EventKind.REINFORCEMENT_PLACED: reinforcement_placed,
    EventKind.SOVIET_ATTACKS_SET: soviet_attacks_set,
    EventKind.SOVIET_ROLL_TWICE: soviet_roll_twice,
    EventKind.SOVIET_ATTACK_TARGET: soviet_attack_target,
    EventKind.SOVIET_ATTACK_EFFECT: soviet_attack_effect,
    EventKind.RETREATED: retreated,
    EventKind.STANDING_INSTRUCTIONS: standing_instructions,
    EventKind.STANDING_INSTRUCTION_USED: standing_instruction_used,
    EventKind.SOVIET_COMBAT_ENDED: soviet_combat_ended,
    EventKind.TURN_BEGAN: turn_began,
    EventKind.GAME_ENDED: game_ended,
}
