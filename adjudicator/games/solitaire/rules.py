"""Barbarossa Solitaire: the rules as the engine sees them.

The German player is the only human side; the Soviet side is the Soviet Combat
procedure, driven by the committed dice. `apply` is the only place state
changes; `execute` turns one order into events.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from adjudicator.engine.events import Event
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import (
    PROTOCOL_RULE,
    StepContext,
    apply_engine_event,
    take_answer,
)
from adjudicator.errors import IllegalOrder
from adjudicator.games.solitaire import german, setup, soviet, turns, validate
from adjudicator.games.solitaire.common import charts_of

RULE_STANDING = "protocol §4 (standing instructions)"


class SolitaireRules:
    game = "solitaire"
    sides = ("german",)

    def check_module(self, module: ModuleData) -> None:
        validate.check_module(module)

    # -- starting positions --------------------------------------------------
    def initial_state(self, module: ModuleData, scenario: str, options: dict[str, str]) -> State:
        return setup.scenario_state(module, scenario, options)

    def position_state(self, module: ModuleData, position: etree._Element,
                       options: dict[str, str]) -> State:
        return setup.position_state(module, position, options)

    def acting_side(self, state: State) -> str | None:
        return None if state["phase"] == "game-over" else "german"

    def pass_orders(self, state: State, side: str) -> list[str]:
        """A German pass ends the turn without moving or attacking (Game Sequence); none
        while a decision waits for an answer or units wait to be placed."""
        if state.get("pending") or (state["phase"] == "setup" and state.get("unplaced")):
            return []
        return ["<end-turn/>"]

    # -- orders ----------------------------------------------------------------
    def execute(self, ctx: StepContext, order: Order) -> None:
        if ctx.state["phase"] == "game-over":
            raise IllegalOrder("Victory Conditions", "the game is over", code="game-over")
        handler = ORDER_HANDLERS.get(order.kind)
        if handler is None:
            raise IllegalOrder(PROTOCOL_RULE, f"<{order.kind}> is not a Barbarossa Solitaire "
                               "order", code="unknown-order")
        handler(ctx, order)

    def check_static(self, module: ModuleData, order: Order) -> list[str]:
        charts = charts_of(module)
        problems = []
        for attr in ("unit", "lose"):
            if order.get(attr) and order.get(attr) not in charts.pieces:
                problems.append(f"unknown unit {order.get(attr)!r}")
        for unit in order.words("units") + order.words("loss-priority"):
            if unit not in charts.pieces:
                problems.append(f"unknown unit {unit!r}")
        for attr in ("to", "area", "target"):
            if order.get(attr) and order.get(attr) not in charts.board:
                problems.append(f"unknown area {order.get(attr)!r}")
        return problems

    def summary(self, state: State) -> dict[str, Any]:
        return {"turn": state["turn"], "phase": state["phase"], "result": state["result"]}

    # -- events ----------------------------------------------------------------
    def apply(self, state: State, event: Event) -> None:
        if apply_engine_event(state, event):
            return
        handler = EVENT_HANDLERS.get(event.kind)
        if handler is None:
            raise ValueError(f"unknown solitaire event {event.kind!r}")
        handler(state, event)


# -- order handlers ------------------------------------------------------------
def standing_instructions(ctx: StepContext, order: Order) -> None:
    """Standing instructions for the German's choices during Soviet combat and after
    his own attacks (DESIGN §4): a loss priority, retreat or eliminate on a 2, and
    where to retreat, in order of preference."""
    charts = charts_of(ctx.module)
    prefer = order.get("on-retreat-or-eliminate")
    if prefer and prefer not in ("retreat", "eliminate"):
        raise IllegalOrder(RULE_STANDING, "on-retreat-or-eliminate must be 'retreat' or "
                           "'eliminate'", code="bad-standing")
    for unit in order.words("loss-priority"):
        german.known_unit(charts, unit, RULE_STANDING)
    for area in order.words("retreat-priority"):
        german.known_area(charts, area, RULE_STANDING)
    instructions: dict[str, Any] = {
        "loss-priority": order.words("loss-priority"),
        "retreat-priority": order.words("retreat-priority"),
    }
    if prefer:
        instructions["on-retreat-or-eliminate"] = prefer
    ctx.emit("standing-instructions", side="german", instructions=instructions)


def answer(ctx: StepContext, order: Order) -> None:
    """An answer to the open decision request; the interrupted procedure goes on."""
    pending, choice = take_answer(ctx, order)
    charts = charts_of(ctx.module)
    context = pending["context"]
    unit = choice.partition(":")[2]
    if pending["kind"] == "attack-loss":
        german.resolve_attack(ctx, charts, context["target"], context["units"],
                              context["result"], unit)
        return
    if pending["kind"] == "soviet-attack-loss":
        soviet.apply_loss(ctx, charts, context["number"], unit)
    else:
        soviet.apply_response(ctx, charts, context["number"], context["target"], choice)
    turns.finish_soviet_combat(ctx, charts)


ORDER_HANDLERS = {
    "place": german.place_unit,
    "move": german.move_unit,
    "garrison": german.place_garrison,
    "attack": german.attack,
    "reinforce": german.place_reinforcement,
    "end-turn": lambda ctx, order: turns.end_turn(ctx),
    "standing": standing_instructions,
    "answer": answer,
}


# -- event handlers: the only code that changes solitaire state ---------------------
def _sorted_add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)
        items.sort()


def _remove_unit(state: State, e: Event) -> None:
    if e["area"] is None:  # a unit still waiting to enter
        state["queue"] = [q for q in state["queue"] if q["unit"] != e["unit"]]
    else:
        del state["units"][e["unit"]]
    if e["returns"] is None:
        _sorted_add(state["out"], e["unit"])
    else:
        state["schedule"].append([e["unit"], e["returns"]])


def _moved(state: State, e: Event) -> None:
    state["units"][e["unit"]] = e["to"]
    _sorted_add(state["moved"], e["unit"])
    if e["from"] not in state["units"].values():
        _sorted_add(state["vacated"], e["from"])


def _attacked(state: State, e: Event) -> None:
    for unit in e["units"]:
        _sorted_add(state["attacked"], unit)


def _advanced(state: State, e: Event) -> None:
    for unit in e["units"]:
        state["units"][unit] = e["to"]
    for area in e["origins"]:
        if area not in state["units"].values():
            _sorted_add(state["vacated"], area)


def _retreated(state: State, e: Event) -> None:
    for unit in e["units"]:
        state["units"][unit] = e["to"]
    _sorted_add(state["retreat-years"], e["year"])


def _turn_began(state: State, e: Event) -> None:
    state.update(turn=e["turn"], phase="movement", moved=[], attacked=[], vacated=[], entered=0,
                 soviet={"left": 0, "done": 0})


def _placed_reinforcement(state: State, e: Event) -> None:
    state["units"][e["unit"]] = e["area"]
    state["queue"] = [q for q in state["queue"] if q["unit"] != e["unit"]]
    state["entered"] += 1


def _soviet_target(state: State, e: Event) -> None:
    state["soviet"]["left"] -= 1
    state["soviet"]["done"] += 1


def _soviet_twice(state: State, e: Event) -> None:
    state["soviet"]["left"] += 1
    state["soviet"]["done"] += 1


def _garrison_removed(state: State, e: Event) -> None:
    state["garrisons"].remove(e["area"])


def _unit_placed(state: State, e: Event) -> None:
    state["units"][e["unit"]] = e["area"]
    state["unplaced"].remove(e["unit"])


def _game_ended(state: State, e: Event) -> None:
    state["phase"] = "game-over"
    state["result"] = {"areas": e["areas"], "level": e["level"]}


def _ignore(state: State, e: Event) -> None:
    """Events that record a procedure's reasoning for the report; no state changes."""


EVENT_HANDLERS = {
    "phase-ended": lambda s, e: s.update(phase=e["next"]),
    "unit-placed": _unit_placed,
    "moved": _moved,
    "garrison-placed": lambda s, e: _sorted_add(s["garrisons"], e["area"]),
    "garrison-removed": _garrison_removed,
    "control-changed": lambda s, e: s["control"].__setitem__(e["area"], e["side"]),
    "attacked": _attacked,
    "advanced": _advanced,
    "unit-removed": _remove_unit,
    "reinforcement-due": lambda s, e: s["queue"].append({"unit": e["unit"], "due": e["due"]}),
    "reinforcement-placed": _placed_reinforcement,
    "soviet-attacks-set": lambda s, e: s.update(soviet={"left": e["count"], "done": 0}),
    "soviet-roll-twice": _soviet_twice,
    "soviet-attack-target": _soviet_target,
    "soviet-attack-effect": _ignore,
    "retreated": _retreated,
    "standing-instructions": lambda s, e: s["standing"].__setitem__(e["side"], e["instructions"]),
    "standing-instruction-used": _ignore,
    "soviet-combat-ended": _ignore,
    "turn-began": _turn_began,
    "game-ended": _game_ended,
}
