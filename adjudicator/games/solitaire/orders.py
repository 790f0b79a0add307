"""The orders of Barbarossa Solitaire (data/orders.rng, docs/solitaire-orders.md), one
typed order per kind (engine/orders.py): values are kept as written, so the rules
refuse a bad one in words; and the checks of the ids every order names.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine.orders import OrderSpec
from adjudicator.engine.state import State
from adjudicator.games.solitaire.data import Charts
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.vocabulary import Rule


@dataclass(frozen=True)
class Place(OrderSpec):
    """Optional Rules, Free placement: `<place unit= area=>`."""

    KIND = "place"
    unit: str = ""
    area: str = ""


@dataclass(frozen=True)
class Move(OrderSpec):
    """Movement: `<move unit= to=>`; the route is the rules' to find."""

    KIND = "move"
    unit: str = ""
    to: str = ""


@dataclass(frozen=True)
class Garrison(OrderSpec):
    """Movement (or the set-up of Free placement): `<garrison area=>`."""

    KIND = "garrison"
    area: str = ""


@dataclass(frozen=True)
class Attack(OrderSpec):
    """Combat: `<attack target= units= lose=>`; `lose` names the unit lost if the result
    costs one (else the standing loss priority, else a decision)."""

    KIND = "attack"
    KEYWORDS = {"with": "units"}  # the shorthand: attack kiev with GER-6 GER-17
    target: str = ""
    units: tuple[str, ...] = ()
    lose: str = ""


@dataclass(frozen=True)
class Reinforce(OrderSpec):
    """Reinforcements: `<reinforce unit= area=>`."""

    KIND = "reinforce"
    unit: str = ""
    area: str = ""


@dataclass(frozen=True)
class EndTurn(OrderSpec):
    """Game Sequence: `<end-turn/>` ends the German turn; the Soviet attacks follow."""

    KIND = "end-turn"


@dataclass(frozen=True)
class Standing(OrderSpec):
    """The German player's standing instructions (docs/architecture.md, The engine model)."""

    KIND = "standing"
    POSITIONAL = ()  # the shorthand names each instruction: standing loss-priority ...
    loss_priority: tuple[str, ...] = ()
    on_retreat_or_eliminate: str = ""
    retreat_priority: tuple[str, ...] = ()


@dataclass(frozen=True)
class Answer(OrderSpec):
    """`<answer decision= choice=>` to the open decision request (protocol §4)."""

    KIND = "answer"
    decision: str = ""
    choice: str = ""


ORDER_KINDS = (Place, Move, Garrison, Attack, Reinforce, EndTurn, Standing, Answer)


def known_unit(charts: Charts, unit: str, rule: str) -> None:
    if unit not in charts.pieces:
        raise CATALOGUE.refuse("unknown-unit", rule, f"there is no unit {unit!r} in this game")


def not_a_garrison(state: State, charts: Charts, unit: str, rule: str, doing: str) -> None:
    """Movement: "Garrison units cannot move". A move or an attack that names an area
    as its unit is refused in those words when the area holds a garrison, and as an
    area, not a unit, otherwise (module 1.1.0)."""
    if unit in charts.pieces or unit not in charts.board:
        return
    if unit in state["garrisons"]:
        raise CATALOGUE.refuse("garrison-cannot-move", Rule.MOVEMENT,
                               f"{unit!r} names the garrison of {charts.name_of(unit)}, not a "
                               f"unit: garrison units cannot move, so it cannot {doing}")
    raise CATALOGUE.refuse("unknown-unit", rule, f"{unit!r} is an area of the map, "
                           "not a unit: name a unit by its id (GER-9, RUM-3)")


def known_area(charts: Charts, area: str, rule: str) -> None:
    if area not in charts.board:
        raise CATALOGUE.refuse("unknown-area", rule, f"there is no area {area!r} on this map")


def unit_on_map(state: State, charts: Charts, unit: str, rule: str) -> str:
    """The area the unit is in; refused if it is no unit or not on the map."""
    known_unit(charts, unit, rule)
    if unit not in state["units"]:
        raise CATALOGUE.refuse("unit-not-on-map", rule, f"{unit} is not on the map")
    return str(state["units"][unit])
