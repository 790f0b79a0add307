"""The orders of Moscow '41 (data/orders.rng, docs/moscow-orders.md), one frozen value per
order kind (engine/orders.py `OrderSpec`): read from an order file's element, written
back with `to_xml()`. Values are kept as written; the rules check them and refuse a bad
one in words."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine.orders import OrderSpec


@dataclass(frozen=True)
class Draw(OrderSpec):
    """1.3.1 C-D: the Soviet units are drawn from the cup as untried tokens."""

    KIND = "draw"


@dataclass(frozen=True)
class Place(OrderSpec):
    """1.3.1 E-H, 1.3.2 C-D: a unit (a Soviet token) is set up on a hex."""

    KIND = "place"
    unit: str = ""
    hex: str = ""


@dataclass(frozen=True)
class Move(OrderSpec):
    """4.0-6.4: a unit or a stack moves one leg along a path, its own hex first."""

    KIND = "move"  # the shorthand: move GER-XX-12 GER-XX-251 path 1510 1611
    units: tuple[str, ...] = ()
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Overrun(OrderSpec):
    """7.0-7.8: a unit or a stack overruns the enemy units of one adjacent hex, with air
    units (11.0), the loss choices in order of preference (8.9) and the units that
    advance (7.6 C-D)."""

    KIND = "overrun"
    POSITIONAL = ("hex",)  # the shorthand: overrun 2416 with GER-XX-20Pz air GER-AIR-II
    KEYWORDS = {"with": "units"}
    units: tuple[str, ...] = ()
    hex: str = ""
    air: tuple[str, ...] = ()
    loss: tuple[str, ...] = ()
    advance: tuple[str, ...] = ()


@dataclass(frozen=True)
class Attack(OrderSpec):
    """8.0-8.12: units attack the enemy units of one hex or several (8.3)."""

    KIND = "attack"
    POSITIONAL = ("hexes",)  # the shorthand: attack 2416 2316 with GER-XX-18Pz GER-XX-9Pz
    KEYWORDS = {"with": "units"}
    units: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    air: tuple[str, ...] = ()
    loss: tuple[str, ...] = ()
    advance: tuple[str, ...] = ()


@dataclass(frozen=True)
class Interdict(OrderSpec):
    """11.0 C-D, 11.3: a German air unit interdicts a hex."""

    KIND = "interdict"
    air: str = ""
    hex: str = ""


@dataclass(frozen=True)
class Enter(OrderSpec):
    """14.0-14.4: this turn's Soviet reinforcement enters at an east-edge hex."""

    KIND = "enter"
    unit: str = ""
    hex: str = ""


@dataclass(frozen=True)
class Standing(OrderSpec):
    """Standing instructions for the choices of the other side's player turn (11.0 B,
    8.9 D-E, 8.11, 8.12 C)."""

    KIND = "standing"
    POSITIONAL = ()  # the shorthand names each instruction: standing retreat first
    air_on_defence: str = ""
    loss: str = ""
    retreat: str = ""
    advance: str = ""


@dataclass(frozen=True)
class Answer(OrderSpec):
    """The answer to the open decision request (docs/protocol.md)."""

    KIND = "answer"
    decision: str = ""
    choice: str = ""


@dataclass(frozen=True)
class EndPhase(OrderSpec):
    """1.3, 3.1: the end of a side's set-up or of the current phase."""

    KIND = "end-phase"


ORDER_KINDS: tuple[type[OrderSpec], ...] = (
    Draw, Place, Move, Overrun, Attack, Interdict, Enter, Standing, Answer, EndPhase)
