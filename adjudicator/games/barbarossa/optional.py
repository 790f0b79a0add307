"""1941 optional rules 20.2-20.6 (20.1 is `naval.py`): partisans (20.2), bombing the Soviet
railroads (20.3), the winter game (20.4: its thaw in `weather.thaw`, its replacements in
`reinforcements.check_replacements`, its victory in `victory.result`), German air supply
(20.5) and the Axis free deployment (20.6)."""

from __future__ import annotations

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.orders import AirSupply, BombRail, Deploy, Partisans
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.stacking import check_side_stacking
from adjudicator.games.barbarossa.vocabulary import (
    NATIONALITY_WORDS,
    OPTION_ON,
    City,
    Country,
    EventKind,
    Nationality,
    Option,
    Phase,
    Segment,
    Side,
    UnitSize,
)

PARTISANS_FROM_TURN = 3  # 20.2 C: not before Turn 3
PARTISAN_USES = 2  # 20.2 C: twice a game
FIRST_1942_TURN = 8  # 20.4.3: every turn of 1942 besides
DETECTED = 4  # 20.6.4 B: a roll of 4-6 detects the panzer corps
TURN_1_PANZER_CODE = "1"  # 20.6.3 B: the Turn 1 panzer corps reinforcement


def option(state: State, name: str) -> bool:
    """Whether an optional rule (20.0) is in play in this game."""
    return bool(state.get("options", {}).get(name) == OPTION_ON)


# -- 20.2 partisans, 20.3 railroad bombing, 20.5 air supply ---------------------------------------

def partisans(ctx: StepContext, order: Partisans) -> None:
    """20.2: the Soviets declare partisans for the coming game turn (at its start), cutting
    the Axis rail capacity to one corps; twice a game, not before Turn 3; and on every
    turn of 1942 besides (20.4.3)."""
    state = ctx.state
    if not option(state, Option.PARTISANS):
        raise CATALOGUE.refuse("option-off", "20.2", "the partisan rule (20.2) is not in play "
                               "in this game")
    if state["player"] != Side.SOVIET:
        raise CATALOGUE.refuse("not-soviet", "20.2 A", "the Soviets declare partisans in their "
                               "player turn, for the game turn that follows")
    turn = state["turn"] + 1
    if turn < PARTISANS_FROM_TURN:
        raise CATALOGUE.refuse("partisans-early", "20.2 C", "partisans may not be used before "
                               "Turn 3")
    used = state.get("partisans", {}).get("used", 0)
    if turn < FIRST_1942_TURN and used >= PARTISAN_USES:
        raise CATALOGUE.refuse("partisans-spent", "20.2 C", "the Soviets may use partisans only "
                               "twice per game (and on every turn of 1942)")
    ctx.emit(EventKind.PARTISANS_DECLARED, turn=turn, counts=turn < FIRST_1942_TURN)


def bomb_rail(ctx: StepContext, order: BombRail) -> None:
    """20.3: in its Air Segment Germany spends air points on Soviet railroads, each cutting
    the Soviet rail capacity by two units for the turn."""
    state = ctx.state
    if not option(state, Option.RAIL_BOMBING):
        raise CATALOGUE.refuse("option-off", "20.3", "the railroad bombing rule (20.3) is not "
                               "in play")
    if state["player"] != Side.AXIS or state["phase"] != Phase.AIR:
        raise CATALOGUE.refuse("not-air", "20.3", "Germany bombs railroads in its Air Segment")
    points = int(order.points or 0)
    if not 1 <= points <= state["air"][Side.AXIS]:
        raise CATALOGUE.refuse("air-points", "20.3", f"Germany has {state['air'][Side.AXIS]} "
                               f"air points, not {points}")
    ctx.emit(EventKind.RAIL_BOMBED, points=points, turn=str(state["turn"]))


def air_supply(ctx: StepContext, order: AirSupply) -> None:
    """20.5: in its Air Segment Germany supplies a German unit by air for the whole
    player turn: one air point for a corps, two for a group or an army."""
    state, game = ctx.state, GameData.of(ctx.module)
    if not option(state, Option.AIR_SUPPLY):
        raise CATALOGUE.refuse("option-off", "20.5", "the German air supply rule (20.5) is not "
                               "in play")
    if state["player"] != Side.AXIS or state["phase"] != Phase.AIR:
        raise CATALOGUE.refuse("not-air", "20.5 A", "Germany supplies by air in its Air "
                               "Segment")
    unit = order.unit
    piece = game.pieces.get(unit)
    if piece is None or unit not in state["units"] or piece.nationality != Nationality.GERMAN:
        raise CATALOGUE.refuse("not-german", "20.5 A", f"{unit!r} is not a German unit on the "
                               "map")
    cost = 1 if piece.size == UnitSize.CORPS else 2
    if state["air"][Side.AXIS] < cost:
        raise CATALOGUE.refuse("air-points", "20.5 A", f"supplying {piece.name} by air costs "
                               f"{cost} air points; {state['air'][Side.AXIS]} are left")
    ctx.emit(EventKind.AIR_SUPPLIED, unit=unit, points=cost)


# -- 20.6 the Axis free deployment ---------------------------------------------------------------

def column(label: str) -> int:
    return int(label[:2])


def on_the_border(game: GameData, h: Hex) -> bool:
    """20.6.4 B: a Soviet hex adjacent to the border, i.e. next to a land hex of another
    country."""
    return any(game.country.get(n) not in (Country.SOVIET_UNION, "", None)
               for n in game.board.neighbours(h))


def check_deploy(game: GameData, state: State, unit: str, label: str) -> None:
    """20.6.2-20.6.3 A, 20.6.4 B: where a unit may be placed in this phase."""
    piece = game.pieces.get(unit)
    try:
        where = game.board.hex(label)
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "20.6", str(exc)) from None
    if game.is_water(where):
        raise CATALOGUE.refuse("bad-hex", "20.6", f"{label} is water")
    if state["phase"] == Phase.REDEPLOYMENT:
        # 20.6.4 B: "on or south of the Kiev hex row": the columns from Kiev's (2519) on
        kiev_row = column(game.board.label(game.city(City.KIEV)))
        if piece is None or piece.side != Side.SOVIET or unit not in state["units"] \
                or column(state["units"][unit]) < kiev_row:
            raise CATALOGUE.refuse("not-redeployable", "20.6.4 B", f"{unit!r} is not a Soviet "
                                   "unit on or south of the Kiev hex row")
        if game.country[where] != Country.SOVIET_UNION or column(label) < kiev_row:
            raise CATALOGUE.refuse("bad-deploy", "20.6.4 B", f"redeployed units stay on or "
                                   f"south of the Kiev hex row in the Soviet Union, not {label}")
        if on_the_border(game, game.board.hex(piece.deploy)) and not on_the_border(game, where):
            raise CATALOGUE.refuse("bad-deploy", "20.6.4 B", f"{piece.name} starts adjacent to "
                                   f"the border and must be placed adjacent to the border, "
                                   f"which {label} is not")
        return
    if game.since_0_3:
        check_free_unit(game, state, unit)
    if piece is None or piece.nationality != Nationality.GERMAN or unit not in state["units"]:
        raise CATALOGUE.refuse("not-deployable", "20.6.2", f"{unit!r} is not a German unit on "
                               "the map")
    home = game.country[game.board.hex(piece.deploy)] if piece.deploy.isdigit() else ""
    if home not in (Country.GERMANY, Country.ROMANIA) or game.country[where] != home:
        raise CATALOGUE.refuse("bad-deploy", "20.6.2" if home == Country.GERMANY else "20.6.3 A",
                               f"{piece.name} may be deployed anywhere in "
                               f"{'Greater Germany' if home == Country.GERMANY else 'Romania'}, "
                               f"not at {label}")


def check_free_unit(game: GameData, state: State, unit: str) -> None:
    """20.6.1-20.6.3 (module 0.3.0): the German places only his own units that start
    the historical game in Greater Germany or Romania; "all Finnish, Romanian, and Soviet
    units are deployed as in the historical game"."""
    piece = game.pieces.get(unit)
    if piece is None:
        raise CATALOGUE.refuse("not-deployable", "20.6.2", f"there is no unit {unit!r} in 1941")
    if piece.nationality != Nationality.GERMAN:
        raise CATALOGUE.refuse("not-deployable", "20.6.1", f"{piece.name} is a "
                               f"{NATIONALITY_WORDS[Nationality(piece.nationality)]} unit: all "
                               "Finnish, Romanian and Soviet units are deployed as in the "
                               "historical game, and only German units are placed freely "
                               "(20.6.2-20.6.3)")
    if unit not in state["units"]:
        raise CATALOGUE.refuse("not-deployable", "20.6.2", f"{piece.name} is a reinforcement, "
                               "not a unit that starts the historical game in Greater Germany "
                               "or Romania (the Turn 1 panzer corps may take the place of a "
                               "corps in Romania with replaces=, 20.6.3 B)")


def deploy(ctx: StepContext, order: Deploy) -> None:
    """20.6.2-20.6.4: a unit placed before the game begins."""
    state, game = ctx.state, GameData.of(ctx.module)
    if state["segment"] != Segment.DEPLOYMENT:
        raise CATALOGUE.refuse("not-deployment", "20.6", "units are deployed before the game "
                               "begins")
    unit, label = order.unit, order.hex
    replaces = order.replaces
    if replaces:  # 20.6.3 B: the Turn 1 panzer corps in place of a corps in Romania
        panzer = game.pieces.get(unit)
        old = game.pieces.get(replaces)
        if panzer is None or panzer.deploy != TURN_1_PANZER_CODE or not panzer.armor \
                or old is None or replaces not in state["units"] \
                or game.country[game.board.hex(old.deploy)] != Country.ROMANIA \
                or old.nationality != Nationality.GERMAN:
            raise CATALOGUE.refuse("bad-substitute", "20.6.3 B", "only the Turn 1 panzer corps "
                                   "may replace a German corps that starts in Romania")
        if game.country.get(game.board.hex(label)) != Country.ROMANIA:
            raise CATALOGUE.refuse("bad-deploy", "20.6.3 B", f"{panzer.name} takes its place "
                                   f"in Romania, not at {label}")
        ctx.emit(EventKind.UNIT_WITHDRAWN, unit=replaces, turn=TURN_1_PANZER_CODE)
        ctx.emit(EventKind.UNIT_ENTERED, unit=unit, hex=label, turn=TURN_1_PANZER_CODE, mps=0)
        return
    check_deploy(game, state, unit, label)
    ctx.emit(EventKind.UNIT_DEPLOYED, unit=unit, to=label)


def end_deployment(ctx: StepContext) -> bool:
    """The end of the German deployment (stacking, 3.0) and, if a panzer corps stands in
    Romania, the Soviet die roll (20.6.4); the end of a Soviet redeployment. Whether the
    Soviets redeploy now (20.6.4 B)."""
    state, game = ctx.state, GameData.of(ctx.module)
    side = state["player"]
    check_side_stacking(game, state, side)
    if side != Side.AXIS:
        return False
    panzers = [u for u, x in state["units"].items() if game.pieces[u].german_armor
               and game.country[game.board.hex(x)] == Country.ROMANIA]
    return bool(panzers) and ctx.roll_d6(
        "20.6.4: is the panzer corps in Romania detected?") >= DETECTED
