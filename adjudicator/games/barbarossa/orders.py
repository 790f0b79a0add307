"""The orders of 1941 (data/orders.rng, docs/barbarossa-orders.md), one frozen value per
order kind (engine/orders.py `OrderSpec`): read from an order file's element, written back
with `to_xml()`. Values are kept as written; the rules check them and refuse a bad one in
words, in the order they always have."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine.orders import OrderSpec


@dataclass(frozen=True)
class Negate(OrderSpec):
    """10.4: negate the other side's air points in the Air Segment."""

    KIND = "negate"
    points: str = ""


@dataclass(frozen=True)
class Move(OrderSpec):
    """5.0: move a unit overland along a path of hexes, its own hex first."""

    KIND = "move"
    unit: str = ""
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rail(OrderSpec):
    """5.4: move a unit by rail along connected railroad hexes."""

    KIND = "rail"
    unit: str = ""
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Enter(OrderSpec):
    """14.1: a reinforcement enters play at a hex."""

    KIND = "enter"
    unit: str = ""
    hex: str = ""


@dataclass(frozen=True)
class Replace(OrderSpec):
    """14.2: an eliminated Soviet unit returns as a replacement."""

    KIND = "replace"
    unit: str = ""
    hex: str = ""


@dataclass(frozen=True)
class Attack(OrderSpec):
    """7.0: units attack the occupants of one hex (`hex` as written: 7.2 B refuses two in
    words), with air points (10.2 A), the unit that advances (7.8.3) and the one lost in
    an exchange (7.7.6 B)."""

    KIND = "attack"
    KEYWORDS = {"with": "units"}  # the shorthand: attack 2418 with GER-6 air 1
    hex: str = ""
    units: tuple[str, ...] = ()
    air: str = ""
    advance: str = ""
    lose: str = ""


@dataclass(frozen=True)
class EndPhase(OrderSpec):
    """2.0 E: the phase (or the set-up of 20.6) is over."""

    KIND = "end-phase"


@dataclass(frozen=True)
class Partisans(OrderSpec):
    """20.2: the Soviets use their partisans in the game turn that follows."""

    KIND = "partisans"


@dataclass(frozen=True)
class BombRail(OrderSpec):
    """20.3: German air points bomb the Soviet railroads."""

    KIND = "bomb-rail"
    points: str = ""


@dataclass(frozen=True)
class AirSupply(OrderSpec):
    """20.5: a German unit supplied by air."""

    KIND = "air-supply"
    unit: str = ""


@dataclass(frozen=True)
class SeaMove(OrderSpec):
    """20.1.1 A, 20.1.2 A: a Soviet fleet carries a unit."""

    KIND = "sea-move"
    unit: str = ""
    to: str = ""


@dataclass(frozen=True)
class Neutralize(OrderSpec):
    """20.1.4 A: three German air points neutralize a fleet."""

    KIND = "neutralize"
    fleet: str = ""


@dataclass(frozen=True)
class Disband(OrderSpec):
    """20.1.1 B: the Soviets eliminate a unit from the neutralized fleet's overstacked hex."""

    KIND = "disband"
    unit: str = ""


@dataclass(frozen=True)
class Deploy(OrderSpec):
    """20.6: a unit placed before the game begins (`replaces`: 20.6.3 B)."""

    KIND = "deploy"
    POSITIONAL = ("unit", "hex")  # the shorthand: deploy GER-6 2621 replaces GER-7
    unit: str = ""
    hex: str = ""
    replaces: str = ""


@dataclass(frozen=True)
class Standing(OrderSpec):
    """docs/architecture.md, The engine model: a side's standing instructions: its defensive air
    points per attack
    (10.2 B) and how its retreats are chosen (7.8.1)."""

    KIND = "standing"
    POSITIONAL = ()  # the shorthand names each instruction: standing retreat first
    defensive_air: str = ""
    retreat: str = ""


@dataclass(frozen=True)
class Answer(OrderSpec):
    """docs/architecture.md, The engine model: the answer to the open decision request."""

    KIND = "answer"
    decision: str = ""
    choice: str = ""


ORDER_SPECS: tuple[type[OrderSpec], ...] = (
    Negate, Move, Rail, Enter, Replace, Attack, EndPhase, Partisans, BombRail, AirSupply,
    SeaMove, Neutralize, Disband, Deploy, Standing, Answer)
