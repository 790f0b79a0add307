"""Moscow '41 rule 1.3, Setup: the Soviet player draws every unit from the cup and
places each untried, the Siberian divisions go to the Turn Record Track at random, and
the German player sets up west of the front line.

The draw is one order (`<draw/>`) because a player writes a whole file before he sees
what it draws: the draw shows each token's untried face (type and movement), and the
Soviet player places the tokens in his next file (`<place unit="U07" hex="1605"/>`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.errors import ModuleError
from adjudicator.games.moscow.data import Game, scenario_turns, turn_record
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.setupzones import (
    check_german_placement,
    check_german_setup,
    check_soviet_placement,
    check_soviet_setup,
)
from adjudicator.games.moscow.untried import draw_tokens


@dataclass(frozen=True)
class Face:
    """An untried token as the set-up rules see it: its type, Siberian or not."""

    type: str
    siberian: bool


def scenario_state(module: ModuleData, scenario_id: str, options: dict[str, str]) -> State:
    """Before the set-up: every German unit waits to be placed (1.3.2 B), every Soviet
    unit but the Siberians is in the cup (1.3.1 B-C), the Soviet player draws first."""
    scenario = scenario_turns(module).get(scenario_id)
    if scenario is None:
        raise ModuleError(f"Moscow '41 has no scenario {scenario_id!r}")
    resolved = module.options(options)  # 16.4: the bid
    game = Game.of(module)
    cup = sorted(u for u, p in game.pieces.items()
                 if p.side == "soviet" and p.untried and not p.siberian)
    siberians = sorted(u for u, p in game.pieces.items() if p.siberian)
    german = sorted(u for u, p in game.pieces.items()
                    if p.side == "german" and p.setup == "west-of-front")
    state: dict[str, Any] = {
        "game": "moscow", "scenario": scenario_id, "options": resolved,
        "turn": scenario[0], "last_turn": scenario[1],
        "player": "soviet", "phase": "draw",  # 1.3.1 A: the Soviet player sets up first
        "weather": "clear",
        "units": {},  # unit (German piece id or Soviet token) -> hex
        "steps": {},  # German units reduced to one step (8.9 H)
        "unplaced": german,  # German units still to set up (1.3.2)
        "tokens": {},  # token -> its untried face: type, movement, siberian, commitment
        "identity": {},  # token -> piece id (hidden from both sides until revealed)
        "salts": {},  # token -> commitment salt (hidden likewise)
        "revealed": [],
        "cup": cup,  # 1.3.1 C; later the eliminated Soviet infantry (8.9 I, 14.0 C)
        "siberian_cup": siberians,
        "arriving": {},  # turn -> tokens (the Siberian divisions, 1.3.1 I)
        "eliminated": [],  # piece ids
        "air_used": [],  # 11.4: committed air units this turn
        "interdicted": {},  # hex -> air units (11.3)
        "last_occupied": {},  # hex -> the side whose unit last entered it (9.4)
        "movers": {}, "moving": [], "done": [],  # this Movement Phase (4.1, 3.1.1 A)
        "pending": None, "result": None,
    }
    return state


def draw(ctx: StepContext, order: Order) -> None:
    """1.3.1 C-D, I: every unit in the cup is drawn, in random order, as an untried
    token; the four Siberian divisions go one to each "Reinf: S" box of the Turn Record
    Track (Turns 3-6) at random (RULES-ISSUES 1, 4)."""
    state = ctx.state
    if state["phase"] != "draw":
        raise CATALOGUE.refuse("not-draw", "1.3.1 C",
            "the Soviet units are drawn from the cup once, at the "
            "start of the set-up")
    tokens = [f"U{i:02d}" for i in range(1, len(state["cup"]) + 1)]
    draw_tokens(ctx, tokens, state["cup"], "the Soviet set-up")
    boxes = [t for t, box in sorted(turn_record(ctx.module).items()) if box.siberian]
    draw_tokens(ctx, [f"SIB{t}" for t in boxes], state["siberian_cup"],
                "the Siberian divisions on the Turn Record Track")
    ctx.emit("setup-drawn", placing=tokens, arriving={str(t): [f"SIB{t}"] for t in boxes})


def place(ctx: StepContext, order: Order) -> None:
    """1.3.1 E-H, 1.3.2 C-D: a unit is set up on a hex of its side's zone."""
    state, game = ctx.state, Game.of(ctx.module)
    unit, label = order.get("unit"), order.get("hex")
    side = state["player"]
    if state["phase"] != "setup":
        raise CATALOGUE.refuse("not-setup", "1.3", "units are placed during the set-up only")
    try:
        h = game.board.hex(label)
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "1.3", str(exc)) from None
    label = game.board.label(h)
    already = sum(1 for x in state["units"].values() if x == label)
    if side == "soviet":
        face = state["tokens"].get(unit)
        if face is None or face["siberian"] or unit in state["units"]:
            raise CATALOGUE.refuse("not-placeable", "1.3.1 D",
                f"{unit!r} is not a drawn Soviet unit waiting to be "
                "placed")
        check_soviet_placement(game, face["type"], h, already)
    else:
        if unit not in state["unplaced"]:
            raise CATALOGUE.refuse("not-placeable", "1.3.2 B",
                f"{unit!r} is not a German unit waiting to be set "
                "up")
        check_german_placement(game, game.pieces[unit].type, h, already)
    ctx.emit("unit-placed", unit=unit, hex=label)


def end_setup(ctx: StepContext) -> None:
    """1.3.1 F, 1.3.2: the Soviet set-up is complete when every drawn token stands on the
    map and every front-line hex holds two units; then the German sets up, and Turn 1
    begins with the German Movement Phase (3.1.1)."""
    state, game = ctx.state, Game.of(ctx.module)
    if state["player"] == "soviet":
        faces = {t: Face(f["type"], f["siberian"]) for t, f in state["tokens"].items()}
        check_soviet_setup(game, faces, {u: game.board.hex(x)
                                         for u, x in state["units"].items()})
        ctx.emit("phase-ended", player="german", phase="setup")
        return
    german = {u: p for u, p in game.pieces.items() if p.side == "german"}
    check_german_setup(game, german, {u: game.board.hex(x) for u, x in state["units"].items()
                                      if u in german})
    ctx.emit("phase-ended", player="german", phase="movement")


def apply_placed(state: State, data: dict[str, Any]) -> None:
    state["units"][data["unit"]] = data["hex"]
    state["unplaced"] = [u for u in state["unplaced"] if u != data["unit"]]


def apply_drawn_setup(state: State, data: dict[str, Any]) -> None:
    state["phase"] = "setup"
    state["arriving"] = {t: list(tokens) for t, tokens in data["arriving"].items()}
