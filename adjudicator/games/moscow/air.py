"""Moscow '41 rule 11.0, Air Power: the German air units, the air units available to a
combat (11.0 A, 11.4), the Air Interdiction Phase (11.0 C-D, 11.4) and what an
interdicted hex multiplies (11.3 A-B)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.moscow.data import Game
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.vocabulary import INTERDICTION_FACTOR, MAX_INTERDICTING


def interdiction_factor(air_units: int) -> int:
    """11.3 A-B: an interdicted hex costs double, quadruple with two air units; 11.0 D:
    at most two air units interdict one hex."""
    if air_units < 0 or air_units > MAX_INTERDICTING:
        raise CATALOGUE.refuse("interdiction-limit", "11.0 D",
            f"at most two air units may interdict a single hex, not "
            f"{air_units}")
    return INTERDICTION_FACTOR[air_units]


def air_units(game: Game) -> list[str]:
    return sorted(u for u, p in game.pieces.items() if p.type == "air")


def interdict(ctx: StepContext, order: Order) -> None:
    """11.0 C-D, 11.4: in the Air Interdiction Phase the German places an air unit not
    yet used this turn on any hex, two at most on one hex."""
    state, game = ctx.state, Game.of(ctx.module)
    if (state["player"], state["phase"]) != ("german", "interdiction"):
        raise CATALOGUE.refuse("not-interdiction", "11.0 C",
            "air units interdict in the German Air Interdiction "
            "Phase")
    air = order.get("air")
    if air not in air_units(game):
        raise CATALOGUE.refuse("not-air", "11.0 A",
            f"{air!r} is not a German air unit; they are "
            f"{', '.join(air_units(game))}")
    if air in state["air_used"]:
        raise CATALOGUE.refuse("air-committed", "11.4", f"{air} has already been used this turn")
    try:
        label = game.board.label(game.board.hex(order.get("hex")))
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "11.0 C", str(exc)) from None
    if state["interdicted"].get(label, 0) >= MAX_INTERDICTING:
        raise CATALOGUE.refuse("interdiction-full", "11.0 D",
            f"two air units already interdict {label}, the most "
            "one hex may have")
    ctx.emit("air-interdicted", air=air, hex=label)


def apply_interdicted(state: State, data: dict[str, Any]) -> None:
    state["air_used"] = sorted({*state["air_used"], data["air"]})
    state["interdicted"][data["hex"]] = state["interdicted"].get(data["hex"], 0) + 1


def air_available(game: Game, state: State) -> list[str]:
    """11.0 A, 11.4: the German air units not yet committed this turn."""
    used = set(state["air_used"])
    return sorted(p.id for p in game.pieces.values() if p.type == "air" and p.id not in used)


def interdiction(game: Game, state: State, side: str) -> dict[Hex, int]:
    """11.3 A-B: the air units interdicting each hex; they slow Soviet units only."""
    if side != "soviet":
        return {}
    return {game.board.hex(x): n for x, n in state["interdicted"].items()}
