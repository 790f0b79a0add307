"""Barbarossa Solitaire: the rules as the engine sees them (engine/rules.py RulesBase).

The German player is the only human side; the Soviet side is the Soviet Combat
procedure, driven by the committed dice. The tables wire each order to its procedure
and each event to its applier (events.py, the only code that changes state); the
answers to decisions resume the procedure that asked (combat.GERMAN_ATTACK,
sequence.SOVIET_TURN).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from lxml import etree

from adjudicator.engine.listing import AttackOdds, Listing
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.procedure import Resumer
from adjudicator.engine.rules import OrderHandler, RulesBase
from adjudicator.engine.stacking import over_limit
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire import data, listing, position, setup
from adjudicator.games.solitaire.combat import GERMAN_ATTACK, attack
from adjudicator.games.solitaire.data import charts_of
from adjudicator.games.solitaire.decisions import standing_instructions
from adjudicator.games.solitaire.events import APPLIERS
from adjudicator.games.solitaire.flow import pass_orders, player_of
from adjudicator.games.solitaire.movement import move_unit, place_garrison
from adjudicator.games.solitaire.optional import place_unit
from adjudicator.games.solitaire.orders import (
    ORDER_KINDS,
    Answer,
    Attack,
    EndTurn,
    Garrison,
    Move,
    Place,
    Reinforce,
    Standing,
)
from adjudicator.games.solitaire.reinforcements import place_reinforcement
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.restrictions import allies_together
from adjudicator.games.solitaire.sequence import SOVIET_TURN, end_turn
from adjudicator.games.solitaire.vocabulary import GAME, TITLE, Phase, Pool, Rule, Side


class SolitaireRules(RulesBase):
    game = GAME
    title = TITLE
    sides = (Side.GERMAN.value,)
    catalogue = CATALOGUE
    events = APPLIERS
    resumer = Resumer((GERMAN_ATTACK, SOVIET_TURN))
    game_over_rule = Rule.VICTORY
    order_specs = ORDER_KINDS
    orders: ClassVar[Mapping[str, OrderHandler]] = {
        Place.KIND: place_unit,
        Move.KIND: move_unit,
        Garrison.KIND: place_garrison,
        Attack.KIND: attack,
        Reinforce.KIND: place_reinforcement,
        EndTurn.KIND: end_turn,
        Standing.KIND: standing_instructions,
        Answer.KIND: lambda ctx, order: answer(ctx, order),  # defined below
    }

    def check_module(self, module: ModuleData) -> None:
        data.check_module(module)

    # -- starting positions --------------------------------------------------
    def initial_state(self, module: ModuleData, scenario: str, options: dict[str, str]) -> State:
        return setup.scenario_state(module, scenario, options)

    def position_state(self, module: ModuleData, root: etree._Element,
                       options: dict[str, str]) -> State:
        return position.position_state(module, root, options)

    # -- whose step --------------------------------------------------------------
    def acting_side(self, state: State) -> str | None:
        """The German player's, whatever the phase: the Soviet combat stops only for
        his answers; None once the game is over."""
        if state["phase"] == Phase.GAME_OVER:
            return None
        if state.get("pending"):
            return str(state["pending"]["side"])
        player = player_of(state["phase"])
        return None if player is None else str(player)

    def pass_orders(self, state: State, side: str) -> list[str]:
        return pass_orders(state, side)

    # -- orders ----------------------------------------------------------------
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

    def legal_orders(self, module: ModuleData, state: State, side: str) -> Listing:
        return listing.legal_orders(module, state, side)

    def attack_odds(self, module: ModuleData, state: State, side: str,
                    attackers: tuple[str, ...], target: str) -> AttackOdds | None:
        return listing.attack_odds(module, state, side, attackers, target)

    # -- what the property suite reads ------------------------------------------
    def positions(self, state: State) -> dict[str, str]:
        return dict(state["units"])

    def pools(self, state: State) -> dict[str, list[str]]:
        """The units off the map: waiting to enter (due), scheduled to enter later (the
        scenario's reinforcements and the units that return), out of the game, waiting
        to be placed (Free placement)."""
        waiting = [entry["unit"] for entry in state["queue"]]
        return {Pool.REINFORCEMENTS: waiting,
                Pool.ARRIVING: setup.arriving_later(state),
                Pool.OUT: list(state["out"]),
                Pool.UNPLACED: list(state["unplaced"])}

    def stacking_problems(self, module: ModuleData, state: State) -> list[str]:
        """There is no stacking limit (Movement), but Romanian and Hungarian units cannot
        stack in the same area (Restrictions), and a unit entering a garrisoned area
        removes the garrison (Movement)."""
        charts = charts_of(module)
        garrisons = set(state["garrisons"])

        def fits(area: str, units: list[str]) -> str | None:
            if allies_together(charts, units):
                return f"Romanian and Hungarian units stack in {area}: {', '.join(units)}"
            if area in garrisons:
                return f"a garrison and units share {area}: {', '.join(units)}"
            return None

        return [problem for _, _, problem in over_limit(state["units"], fits)]


def answer(ctx: StepContext, order: Order) -> None:
    """An answer to the open decision: RulesBase.answer resumes the procedure that
    asked."""
    rules = ctx.rules
    assert isinstance(rules, RulesBase)
    rules.answer(ctx, order)


RULES = SolitaireRules()
