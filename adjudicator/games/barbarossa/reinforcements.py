"""1941 rule 14.0 Reinforcements and Replacements: where and when reinforcements enter
(14.1, with 17.1.5 on Turn 1), the refusals that say which condition fails (module
0.3.0), the Soviet replacements (14.2, with 20.4.2 in 1942) and the Moscow penalty
(14.2.4 B)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa.control import control_of
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.first_turn import is_first_turn
from adjudicator.games.barbarossa.hungary_finland import check_hungary
from adjudicator.games.barbarossa.movement import check_room_at_the_end
from adjudicator.games.barbarossa.orders import Enter, Replace
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.stacking import problem_with
from adjudicator.games.barbarossa.supply import east_edge_lines
from adjudicator.games.barbarossa.vocabulary import (
    ENTRY_TERRAIN,
    NO_REPLACEMENTS,
    RULES_0_4,
    SIDE_ADJECTIVES,
    City,
    CityClass,
    Country,
    DeployCode,
    EventKind,
    Phase,
    ReplacementKind,
    Segment,
    Side,
    SupplySource,
    UnitSize,
)

FIRST_1942_TURN = 8  # 20.4.2: the turns of 1942
INFANTRY_PER_TURN = 4  # 14.2.2 A: four infantry-type units plus one tank corps, or three
STRONG = 4  # 14.2.2 B: only one unit with a combat strength greater than four
MOSCOW_PENALTY = 1  # 14.2.4 B: one infantry-type unit fewer
WINTER_PENALTY = 2  # 20.4.2 A: two fewer in 1942


# -- 14.1 reinforcements ----------------------------------------------------------------------

def enemy_in(game: GameData, state: State, side: str, h: Hex) -> bool:
    label = game.board.label(h)
    return any(x == label and game.pieces[u].side != side for u, x in state["units"].items())


def east_sources(game: GameData) -> list[Hex]:
    """8.2.2 A: the Soviet supply sources, on the east edge."""
    return sorted(h for h, kind in game.supply.items() if kind == SupplySource.SOVIET)


def entry_hexes(game: GameData, state: State, unit: str) -> list[Hex]:
    """14.1.1-14.1.2, 17.1.5: where a reinforcement may enter this turn."""
    piece = game.pieces[unit]
    side = piece.side
    occupied = {game.board.hex(x) for u, x in state["units"].items()
                if game.pieces[u].side != side}
    if piece.deploy == DeployCode.ODESSA:  # 17.1.5 A
        odessa = game.city(City.ODESSA)
        return [odessa] if control_of(game, state, odessa) == Side.SOVIET else []
    if side == Side.AXIS:  # 14.1.1 A: friendly clear or rough hexes of the west edge (1.1)
        west_edge = game.west_edge()
        return [h for h in game.board if game.board.grid.to_offset(h)[1] == west_edge
                and game.board.terrain[h] in ENTRY_TERRAIN
                and control_of(game, state, h) == Side.AXIS and h not in occupied
                and not (is_first_turn(state) and game.country.get(h) == Country.HUNGARY)]
    sources = [h for h, kind in game.supply.items() if kind == SupplySource.SOVIET
               and control_of(game, state, h) == Side.SOVIET and h not in occupied]
    if piece.deploy == DeployCode.EAST:  # 17.1.5 B
        return sources
    if state["moved"]:  # 14.1.2.2 D: cities only before any unit moves in the phase
        return sources
    # 14.1.2.2: a friendly major city of the Soviet Union that traces to the east edge
    traces = east_edge_lines(game, state, frozenset(sources))
    cities = [h for h, kind in game.cities.items() if kind == CityClass.MAJOR
              and game.country[h] == Country.SOVIET_UNION
              and control_of(game, state, h) == Side.SOVIET
              and h not in occupied and traces(h)]
    return sorted(set(sources) | set(cities))


def enter(ctx: StepContext, order: Enter) -> None:
    """14.1.3 A: the phasing side's reinforcements of this turn enter in the Movement
    Phase of its First Ground Segment, at a hex 14.1.1-14.1.2 allows, within the stacking
    limits (14.1.2.2 E)."""
    state, game = ctx.state, GameData.of(ctx.module)
    unit = order.unit
    piece = game.pieces.get(unit)
    if (state["segment"], state["phase"]) != (Segment.FIRST, Phase.MOVEMENT):
        raise CATALOGUE.refuse("not-entry-phase", "14.1.3 A", "reinforcements enter in the "
                               "Movement Phase of the First Ground Segment")
    if piece is None or piece.side != state["player"] \
            or unit not in state["arriving"].get(str(state["turn"]), []):
        raise CATALOGUE.refuse("not-arriving", "14.1 C", f"{unit!r} is not a reinforcement of "
                               f"the phasing side for Turn {state['turn']}")
    try:
        where = game.board.hex(order.hex)
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "14.1", str(exc)) from None
    check_hungary(state["turn"], game.country.get(where, ""))  # 15.1 A
    edge = piece.side == Side.AXIS or where in [h for h, kind in game.supply.items()
                                                if kind == SupplySource.SOVIET]
    if not game.since_0_3 and not edge and state["moved"] and piece.deploy != DeployCode.ODESSA:
        raise CATALOGUE.refuse("city-entry-late", "14.1.2.2 D", "reinforcements appearing at "
                               "major cities must be placed before any units move in the phase")
    allowed = entry_hexes(game, state, unit)
    if where not in allowed and ctx.module.at_least(RULES_0_4):  # and where it may
        refusal = why_not(game, state, unit, where)
        words = f"{refusal.message}. {where_it_may_enter(game, allowed)}"
        if refusal.code == "city-entry-late":
            raise CATALOGUE.refuse("city-entry-late", refusal.rule, words)
        raise CATALOGUE.refuse("bad-entry", refusal.rule, words)
    if where not in allowed and game.since_0_3:  # the condition that fails, in words
        raise why_not(game, state, unit, where)
    if where not in allowed:
        rule = {DeployCode.ODESSA: "17.1.5 A", DeployCode.EAST: "17.1.5 B"}.get(
            piece.deploy, "14.1.1 A" if piece.side == Side.AXIS else "14.1.2")
        raise CATALOGUE.refuse("bad-entry", rule, f"{piece.name} may not enter at "
                               f"{game.board.label(where)}")
    label = game.board.label(where)
    if edge:  # 3.3 A: stacking counts at the end of the phase; the unit may move on
        check_room_at_the_end(game, state, unit, where, moving_on=[where])
    else:  # 3.3 C, 14.1.2.2 E: stacking holds where units are placed at cities
        problem = problem_with(game, state, unit, where)
        if problem and ctx.module.at_least(RULES_0_4):
            others = [h for h in allowed if h != where]
            raise CATALOGUE.refuse("overstacked", "14.1.2.2 E", f"{label}: {problem}. "
                                   f"{where_it_may_enter(game, others, 'else ')}")
        if problem:
            raise CATALOGUE.refuse("overstacked", "14.1.2.2 E", f"{label}: {problem}")
    # 14.1.1 B, 14.1.2.1 B: entering from a map edge costs the hex's MPs (a major city
    # costs nothing, 14.1.2.2 C); the unit moves on with the rest, or by rail from a
    # supply source, counted against the rail capacity (14.1.1 C-D, 14.1.2.1 C)
    cost = entry_cost(game, state, unit, where) if edge and piece.deploy != DeployCode.ODESSA \
        else 0
    ctx.emit(EventKind.UNIT_ENTERED, unit=unit, hex=label, turn=str(state["turn"]), mps=cost)


def where_it_may_enter(game: GameData, allowed: Sequence[Hex], other: str = "") -> str:
    """The entry hexes of a refused entry in words (module 0.4.0); none: 14.1.3 D."""
    if not allowed:
        return (f"It may enter nowhere {other}this turn: a reinforcement unable to enter "
                "is eliminated when the phase ends (14.1.3 D)")
    return f"It may enter at: {', '.join(game.label(h) for h in allowed)}"


def entry_cost(game: GameData, state: State, unit: str, where: Hex) -> int:
    """14.1.1 B, 14.1.2.1 B: a unit entering from a map edge pays for its entry hex."""
    piece = game.pieces[unit]
    cost = game.charts.enter_cost(game.board.terrain[where], piece.armor, state["weather"],
                                  water=game.water.get(where), special=piece.special)
    return cost or 0


def missing_reinforcements(ctx: StepContext) -> None:
    """14.1.3 C-D at the end of the First Movement Phase: a reinforcement that could have
    entered must have; one that could not is eliminated."""
    state, game = ctx.state, GameData.of(ctx.module)
    due = [u for u in state["arriving"].get(str(state["turn"]), [])
           if game.pieces[u].side == state["player"]]
    can_enter = [u for u in due if entry_hexes(game, state, u)]
    if can_enter and ctx.module.at_least(RULES_0_4):  # and where each may enter
        where = "; ".join(f"{u} may enter at "
                          f"{', '.join(game.label(h) for h in entry_hexes(game, state, u))}"
                          for u in can_enter)
        names = ", ".join(f"{game.pieces[u].name} ({u})" for u in can_enter)
        raise CATALOGUE.refuse("reinforcement-due", "14.1.3 C", f"{names} must enter this "
                               f"turn; reinforcements may not be delayed ({where})")
    if can_enter:
        names = ", ".join(f"{game.pieces[u].name} ({u})" for u in can_enter)
        raise CATALOGUE.refuse("reinforcement-due", "14.1.3 C", f"{names} must enter this "
                               "turn; reinforcements may not be delayed")
    for unit in due:
        ctx.emit(EventKind.UNIT_ELIMINATED, unit=unit, rule="14.1.3 D")


# -- the refusal of an entry, in words (module 0.3.0) ----------------------------------------

def why_not(game: GameData, state: State, unit: str, where: Hex) -> IllegalOrder:
    """The refusal of `<enter unit= hex=>` at a hex that is not one of the unit's entry
    hexes (`entry_hexes`): the rule and the condition that fails (the hex is not on the
    west edge, not clear or rough, enemy controlled or occupied, not a supply source or a
    major city, a city without a supply line to the east edge), not only the hex."""
    piece = game.pieces[unit]
    name, at = piece.name, game.place(where)
    held = control_of(game, state, where)
    if enemy_in(game, state, piece.side, where):
        return CATALOGUE.refuse("bad-entry", "5.0 E", f"{name} may not enter at {at}: enemy "
                                "units occupy it")
    if piece.deploy == DeployCode.ODESSA:
        odessa = game.city(City.ODESSA)
        if where != odessa:
            return CATALOGUE.refuse("bad-entry", "17.1.5 A", f"{name} (deployment code 1:Od) "
                                    f"is placed at {game.place(odessa)}, not at {at}")
        return CATALOGUE.refuse("bad-entry", "17.1.5 A", f"Odessa is Axis controlled, so "
                                f"{name} may not be placed there: it is eliminated instead "
                                "when the phase ends")
    if piece.side == Side.AXIS:
        return _why_not_west(game, state, name, where, held)
    sources = east_sources(game)
    listed = ", ".join(game.board.label(h) for h in sources)
    if piece.deploy == DeployCode.EAST and where not in sources:
        return CATALOGUE.refuse("bad-entry", "17.1.5 B", f"{name} (deployment code 1:E) enters "
                                f"the map at a Soviet supply source on the east edge "
                                f"({listed}); {at} is not one")
    if where in sources:
        return CATALOGUE.refuse("bad-entry", "17.1.5 B" if piece.deploy == DeployCode.EAST
                                else "14.1.2.1 A",
                                f"{name} may not enter at {at}: it is "
                                f"{SIDE_ADJECTIVES[Side(held)]} controlled, and Soviet "
                                "reinforcements enter at a friendly controlled supply source "
                                "on the east edge")
    if game.cities.get(where) != CityClass.MAJOR or game.country.get(where) != Country.SOVIET_UNION:
        what = "a major city outside the Soviet Union" \
            if game.cities.get(where) == CityClass.MAJOR else "not a major city"
        return CATALOGUE.refuse("bad-entry", "14.1.2", f"{name} may not enter at {at}: Soviet "
                                f"reinforcements enter at a friendly controlled supply source "
                                f"on the east edge ({listed}) or at a friendly controlled "
                                f"major city in the Soviet Union, and {at} is {what}")
    if held != Side.SOVIET:
        return CATALOGUE.refuse("bad-entry", "14.1.2.2 A", f"{name} may not enter at {at}: the "
                                "city is Axis controlled, and a reinforcement enters only at "
                                "a friendly controlled major city")
    if state["moved"]:
        return CATALOGUE.refuse("city-entry-late", "14.1.2.2 D", f"{name} may not enter at "
                                f"{at}: reinforcements appearing at major cities must be "
                                "placed before any units move in the phase, and units have "
                                "moved")
    if not city_traces_east(game, state, where):
        return CATALOGUE.refuse("bad-entry", "14.1.2.2 B", f"{name} may not enter at {at}: no "
                                "supply line can be traced from the city to a supply source "
                                "on the east edge (it is encircled), so it is not eligible")
    return CATALOGUE.refuse("bad-entry", "14.1.2", f"{name} may not enter at {at}")


def city_traces_east(game: GameData, state: State, city: Hex) -> bool:
    """14.1.2.2 B: a supply line (8.1) from the city to a friendly supply source on the
    east edge that no enemy unit occupies."""
    sources = frozenset(h for h in east_sources(game)
                        if control_of(game, state, h) == Side.SOVIET
                        and not enemy_in(game, state, Side.SOVIET, h))
    return east_edge_lines(game, state, sources)(city)


def _why_not_west(game: GameData, state: State, name: str, where: Hex, held: str
                  ) -> IllegalOrder:
    """14.1.1 A: "Axis reinforcements enter at any friendly clear or rough hex on the west
    map edge"."""
    at = game.place(where)
    if game.board.grid.to_offset(where)[1] != game.west_edge():
        why = "it is not on the west map edge"
    elif game.board.terrain[where] not in ENTRY_TERRAIN:
        why = f"it is a {game.board.terrain[where]} hex"
    elif held != Side.AXIS:
        why = f"it is {SIDE_ADJECTIVES[Side(held)]} controlled"
    else:
        return CATALOGUE.refuse("bad-entry", "14.1.1 A", f"{name} may not enter at {at}")
    return CATALOGUE.refuse("bad-entry", "14.1.1 A", f"{name} may not enter at {at}: {why}, "
                            "and Axis reinforcements enter at a friendly clear or rough hex "
                            "on the west map edge")


# -- 14.2 replacements -------------------------------------------------------------------------

@dataclass(frozen=True)
class Eliminated:
    id: str
    strength: int
    kind: str  # "infantry" (infantry-type), "tank corps", "tank group"


def check_replacements(taken: Sequence[Eliminated], *, moscow_lost: bool,
                       year_1942: bool = False, why: str = "") -> None:
    """14.2.2, 14.2.4 B, 20.4.2: four infantry-type units plus one tank corps, or three
    plus one tank group; only one unit stronger than four; one infantry-type unit fewer
    while the Axis hold Moscow, two fewer in 1942. `why`: the reason for the Moscow
    penalty, said in the refusal (module 0.3.0)."""
    infantry = sum(1 for u in taken if u.kind == ReplacementKind.INFANTRY)
    corps = sum(1 for u in taken if u.kind == ReplacementKind.TANK_CORPS)
    groups = sum(1 for u in taken if u.kind == ReplacementKind.TANK_GROUP)
    cut = (MOSCOW_PENALTY if moscow_lost else 0) + (WINTER_PENALTY if year_1942 else 0)
    options = [(INFANTRY_PER_TURN - cut, 1, 0), (INFANTRY_PER_TURN - 1 - cut, 0, 1)]
    if not any(infantry <= i and corps <= c and groups <= g for i, c, g in options):
        allowed = " or ".join(f"{i} infantry-type units plus one tank {'corps' if c else 'group'}"
                              for i, c, g in options)
        rule = "14.2.4 B" if moscow_lost else "20.4.2" if year_1942 else "14.2.2 A"
        raise CATALOGUE.refuse("replacements", rule, f"this turn the Soviets may replace "
                               f"{allowed}" + (f", as {why}" if why and moscow_lost else "")
                               + f"; asked: {infantry} infantry-type, {corps} tank corps, "
                               f"{groups} tank groups")
    if sum(1 for u in taken if u.strength > STRONG) > 1:
        raise CATALOGUE.refuse("replacement-strength", "14.2.2 B", "only one replaced unit may "
                               "have a combat strength greater than four")


MOSCOW_HELD = "Moscow (1808) is Axis controlled (14.2.4 B)"
MOSCOW_RETAKEN = ("Moscow (1808) was Axis controlled when this turn's replacements came, and "
                  "the rate returns to normal only on the turns after its recapture (14.2.4 B)")


def judge_replacement_rate(ctx: StepContext) -> None:
    """14.2.4 B (module 0.3.0): "If the Soviets recapture Moscow, the replacement rate
    returns to normal on following turns." The rate of a turn is judged when the Soviet
    First Movement Phase begins, in which the replacements come (14.2.3 A): if Moscow is
    Axis controlled then, the turn's rate stays reduced even if Moscow is retaken before
    the replacements are taken (RULES-ISSUES 57)."""
    state, game = ctx.state, GameData.of(ctx.module)
    if not game.since_0_3 or state["player"] != Side.SOVIET \
            or game.charts.turn(state["turn"]).replacements == NO_REPLACEMENTS:
        return
    if control_of(game, state, game.city(City.MOSCOW)) == Side.AXIS:
        ctx.emit(EventKind.REPLACEMENTS_REDUCED, turn=state["turn"], rule="14.2.4 B",
                 hex=game.board.label(game.city(City.MOSCOW)))


def replacement_kind(game: GameData, unit: str) -> str:
    """14.2.2 A: infantry-type units, tank corps, tank groups."""
    piece = game.pieces[unit]
    if not piece.armor:
        return ReplacementKind.INFANTRY
    return ReplacementKind.TANK_GROUP if piece.size == UnitSize.GROUP \
        else ReplacementKind.TANK_CORPS


def replace(ctx: StepContext, order: Replace) -> None:
    """14.2: from Turn 3 (August 1941) the Soviets return eliminated units to play in the
    Movement Phase of their First Ground Segment, within the turn's allowance, at a
    friendly supply source on the east edge (14.2.3: never at a major city)."""
    state, game = ctx.state, GameData.of(ctx.module)
    unit = order.unit
    piece = game.pieces.get(unit)
    if state["player"] != Side.SOVIET or (state["segment"], state["phase"]) != (
            Segment.FIRST, Phase.MOVEMENT):
        raise CATALOGUE.refuse("not-replacement-phase", "14.2.3 A", "replacements enter in the "
                               "Movement Phase of the Soviet First Ground Segment")
    if game.charts.turn(state["turn"]).replacements == NO_REPLACEMENTS:
        raise CATALOGUE.refuse("no-replacements", "14.2.1", f"the Soviets receive no "
                               f"replacements on Turn {state['turn']} (only from Turn 3, "
                               "August 1941)")
    if piece is None or piece.side != Side.SOVIET or unit not in state["eliminated"] \
            or unit in state["units"]:
        raise CATALOGUE.refuse("not-eliminated", "14.2.2 C", f"{unit!r} is not an eliminated "
                               "Soviet unit")
    taken = [*state.get("replaced", []), unit]
    moscow_axis = control_of(game, state, game.city(City.MOSCOW)) == Side.AXIS
    reduced = game.since_0_3 and state.get("replacements_reduced") == state["turn"]
    check_replacements(
        [Eliminated(u, game.pieces[u].attack, replacement_kind(game, u)) for u in taken],
        moscow_lost=moscow_axis or reduced, year_1942=state["turn"] >= FIRST_1942_TURN,
        why="" if not game.since_0_3 else MOSCOW_HELD if moscow_axis else MOSCOW_RETAKEN
        if reduced else "")
    try:
        where = game.board.hex(order.hex)
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "14.2.3 A", str(exc)) from None
    sources = [h for h, kind in game.supply.items() if kind == SupplySource.SOVIET
               and control_of(game, state, h) == Side.SOVIET]
    if where not in sources:
        allowed = ", ".join(game.board.label(h) for h in sorted(sources))
        if game.since_0_3:
            raise replacement_entry_refusal(game, where, allowed)
        raise CATALOGUE.refuse("bad-entry", "14.2.3 B", f"replacements enter at a friendly "
                               f"supply source on the east edge ({allowed}), not "
                               f"{game.board.label(where)}")
    check_room_at_the_end(game, state, unit, where, moving_on=[where])  # 3.3 A
    # 14.2.3 A: as a reinforcement at the east edge, it pays for its entry hex
    ctx.emit(EventKind.UNIT_REPLACED, unit=unit, hex=game.board.label(where),
             mps=entry_cost(game, state, unit, where))


def replacement_entry_refusal(game: GameData, where: Hex, allowed: str) -> IllegalOrder:
    """14.2.3 (module 0.3.0): why a replacement may not enter at `where`, under the rule
    that says so: never at a major city (B); only at a friendly controlled supply source on
    the east map edge (A)."""
    at = game.place(where)
    if game.cities.get(where) == CityClass.MAJOR:
        return CATALOGUE.refuse("bad-entry", "14.2.3 B", f"Soviet replacements may not enter "
                                f"at major cities such as {at}; they enter at a friendly "
                                f"supply source on the east edge ({allowed})")
    why = "is Axis controlled" if game.supply.get(where) == SupplySource.SOVIET else \
        "is not a supply source on the east edge"
    return CATALOGUE.refuse("bad-entry", "14.2.3 A", f"Soviet replacements enter from the east "
                            f"map edge, at a friendly controlled supply source ({allowed}); "
                            f"{at} {why}")
