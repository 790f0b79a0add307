"""1941 optional rule 20.6 Axis Free Deployment: before Turn 1 the German places his
units of Greater Germany anywhere in Greater Germany and the three corps of Romania
anywhere in Romania, within the stacking limits, and may put the Turn 1 panzer corps
in Romania instead of one of them; then, if a panzer corps stands in Romania, the
Soviets roll: on 4-6 they redeploy their units on or south of the Kiev hex row."""

from __future__ import annotations

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa.game import Game

DETECTED = 4  # 20.6.4 B: a roll of 4-6 detects the panzer corps


def column(label: str) -> int:
    return int(label[:2])


def on_the_border(game: Game, h: Hex) -> bool:
    """20.6.4 B: a Soviet hex adjacent to the border, i.e. next to a land hex of another
    country."""
    return any(game.country.get(n) not in ("soviet", "", None)
               for n in game.board.neighbours(h))


def check_deploy(game: Game, state: State, unit: str, label: str) -> None:
    """20.6.2-20.6.3 A, 20.6.4 B: where a unit may be placed in this phase."""
    piece = game.pieces.get(unit)
    try:
        where = game.board.hex(label)
    except ValueError as exc:
        raise IllegalOrder("20.6", str(exc), code="bad-hex") from None
    if game.board.terrain[where] in ("sea", "lake"):
        raise IllegalOrder("20.6", f"{label} is water", code="bad-hex")
    if state["phase"] == "redeployment":
        # 20.6.4 B: "on or south of the Kiev hex row": the columns from Kiev's (2519) on
        kiev_row = column(game.board.label(game.city("Kiev")))
        if piece is None or piece.side != "soviet" or unit not in state["units"] \
                or column(state["units"][unit]) < kiev_row:
            raise IllegalOrder("20.6.4 B", f"{unit!r} is not a Soviet unit on or south of "
                               "the Kiev hex row", code="not-redeployable")
        if game.country[where] != "soviet" or column(label) < kiev_row:
            raise IllegalOrder("20.6.4 B", f"redeployed units stay on or south of the Kiev "
                               f"hex row in the Soviet Union, not {label}", code="bad-deploy")
        if on_the_border(game, game.board.hex(piece.deploy)) and not on_the_border(game, where):
            raise IllegalOrder("20.6.4 B", f"{piece.name} starts adjacent to the border and "
                               f"must be placed adjacent to the border, which {label} is not",
                               code="bad-deploy")
        return
    if game.since_0_3:
        check_free_unit(game, state, unit)
    if piece is None or piece.nationality != "german" or unit not in state["units"]:
        raise IllegalOrder("20.6.2", f"{unit!r} is not a German unit on the map",
                           code="not-deployable")
    home = game.country[game.board.hex(piece.deploy)] if piece.deploy.isdigit() else ""
    if home not in ("germany", "romania") or game.country[where] != home:
        raise IllegalOrder("20.6.2" if home == "germany" else "20.6.3 A",
                           f"{piece.name} may be deployed anywhere in "
                           f"{'Greater Germany' if home == 'germany' else 'Romania'}, "
                           f"not at {label}", code="bad-deploy")


NATIONALITY = {"finnish": "Finnish", "romanian": "Romanian", "soviet": "Soviet"}


def check_free_unit(game: Game, state: State, unit: str) -> None:
    """20.6.1-20.6.3 (module 0.3.0): the German places only his own units that start
    the historical game in Greater Germany or Romania; "all Finnish, Romanian, and Soviet
    units are deployed as in the historical game"."""
    piece = game.pieces.get(unit)
    if piece is None:
        raise IllegalOrder("20.6.2", f"there is no unit {unit!r} in 1941", code="not-deployable")
    if piece.nationality != "german":
        raise IllegalOrder("20.6.1", f"{piece.name} is a {NATIONALITY[piece.nationality]} "
                           "unit: all Finnish, Romanian and Soviet units are deployed as in "
                           "the historical game, and only German units are placed freely "
                           "(20.6.2-20.6.3)", code="not-deployable")
    if unit not in state["units"]:
        raise IllegalOrder("20.6.2", f"{piece.name} is a reinforcement, not a unit that starts "
                           "the historical game in Greater Germany or Romania (the Turn 1 "
                           "panzer corps may take the place of a corps in Romania with "
                           "replaces=, 20.6.3 B)", code="not-deployable")


def deploy(ctx: StepContext, order: Order) -> None:
    state, game = ctx.state, Game.of(ctx.module)
    if state["segment"] != "deployment":
        raise IllegalOrder("20.6", "units are deployed before the game begins",
                           code="not-deployment")
    unit, label = order.get("unit"), order.get("hex")
    replaces = order.get("replaces")
    if replaces:  # 20.6.3 B: the Turn 1 panzer corps in place of a corps in Romania
        panzer = game.pieces.get(unit)
        old = game.pieces.get(replaces)
        if panzer is None or panzer.deploy != "1" or not panzer.armor \
                or old is None or replaces not in state["units"] \
                or game.country[game.board.hex(old.deploy)] != "romania" \
                or old.nationality != "german":
            raise IllegalOrder("20.6.3 B", "only the Turn 1 panzer corps may replace a "
                               "German corps that starts in Romania", code="bad-substitute")
        if game.country.get(game.board.hex(label)) != "romania":
            raise IllegalOrder("20.6.3 B", f"{panzer.name} takes its place in Romania, not "
                               f"at {label}", code="bad-deploy")
        ctx.emit("unit-withdrawn", unit=replaces, turn="1")
        ctx.emit("unit-entered", unit=unit, hex=label, turn="1", mps=0)
        return
    check_deploy(game, state, unit, label)
    ctx.emit("unit-deployed", unit=unit, to=label)


def end_deployment(ctx: StepContext) -> None:
    """The end of the German deployment (stacking, 3.0) and, if a panzer corps stands in
    Romania, the Soviet die roll (20.6.4); the end of a Soviet redeployment."""
    state, game = ctx.state, Game.of(ctx.module)
    side = state["player"]
    game.check_side_stacking(state, side)
    if side == "axis":
        panzers = [u for u, x in state["units"].items() if game.pieces[u].armor
                   and game.pieces[u].nationality == "german"
                   and game.country[game.board.hex(x)] == "romania"]
        if panzers and ctx.roll_d6("20.6.4: is the panzer corps in Romania detected?") \
                >= DETECTED:
            ctx.emit("phase-ended", player="soviet", segment="deployment",
                     phase="redeployment")
            return
    ctx.emit("phase-ended", player="axis", segment="air", phase="air")
