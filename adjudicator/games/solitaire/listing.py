"""The German player's legal orders in a position (engine/listing.py): per unit on the
map where it may move (every area its route reaches, with the route) and what it may
attack; the placements of the set-up, the garrisons, the reinforcements, the answers
to the open decision, standing instructions and the end of the turn. Every candidate
is dry-run by the rules (`accepted`), so a listed order is never refused.

Attacks are not every subset of the units that could take part: each unit alone, each
area's units together and all of them together.
"""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.engine.listing import AttackOdds, Destination, Listing, UnitOptions, accepted
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import OrderSpec
from adjudicator.engine.rules import GameRules
from adjudicator.engine.state import State
from adjudicator.games.solitaire.control import german_area, soviet_neighbours
from adjudicator.games.solitaire.data import Charts, charts_of
from adjudicator.games.solitaire.flow import not_over
from adjudicator.games.solitaire.movement import routes
from adjudicator.games.solitaire.orders import (
    Answer,
    Attack,
    EndTurn,
    Garrison,
    Move,
    Place,
    Reinforce,
    Standing,
)
from adjudicator.games.solitaire.reinforcements import entry_areas, units_due
from adjudicator.games.solitaire.vocabulary import Choice, Phase, Rule, Side

GARRISON_PHASES = (Phase.MOVEMENT, Phase.ATTACK)  # garrisons where units left (Movement)


def legal_orders(module: ModuleData, state: State, side: str) -> Listing:
    """What the German player may order now; nothing for another side or after the
    game."""
    from adjudicator.games.solitaire.rules import RULES  # the rules list through this

    return listing_by(RULES, module, state, side)


def listing_by(rules: GameRules, module: ModuleData, state: State, side: str) -> Listing:
    if side != Side.GERMAN or rules.acting_side(state) != side:
        return Listing(side)
    charts = charts_of(module)
    pending = state.get("pending")
    if pending:
        candidates: list[OrderSpec] = [Answer(pending["id"], option)
                                       for option in pending["options"]]
    else:
        candidates = [*moves(charts, state), *attacks(charts, state),
                      *garrisons(charts, state), *placements(charts, state),
                      *reinforcements(charts, state), *standing(charts, state), EndTurn()]
    kept, refused = accepted(rules, module, state, side, candidates)
    return Listing(side, units_of(charts, state, kept), tuple(kept), refused)


def moves(charts: Charts, state: State) -> Iterable[Move]:
    """Movement: each unit that has not moved, to each German-controlled area its route
    reaches."""
    if not not_over(state, Phase.MOVEMENT):
        return
    for unit, here in sorted(state["units"].items()):
        if unit in state["moved"]:
            continue
        reached = routes(charts, state, unit, here)
        for area in sorted(reached.cost):
            if area != here:
                yield Move(unit, area)


def attacks(charts: Charts, state: State) -> Iterable[Attack]:
    """Combat: against each Soviet-controlled area next to units that have not attacked,
    each of them alone, each area's together, and all together."""
    if not not_over(state, Phase.ATTACK):
        return
    free = {u: a for u, a in state["units"].items() if u not in state["attacked"]}
    targets = sorted({t for a in set(free.values()) for t in soviet_neighbours(charts, state, a)})
    for target in targets:
        near = sorted(u for u, a in free.items() if charts.board.adjacent(a, target))
        groups = [[u] for u in near]
        for area in sorted({free[u] for u in near}):
            groups.append([u for u in near if free[u] == area])
        groups.append(near)
        seen: set[tuple[str, ...]] = set()
        for group in groups:
            if tuple(group) not in seen:
                seen.add(tuple(group))
                yield Attack(target, tuple(group))


def garrisons(charts: Charts, state: State) -> Iterable[Garrison]:
    """Movement: a garrison where all units left this turn; at the set-up of Free
    placement, in each German-side area."""
    if state["phase"] == Phase.SETUP:
        yield from (Garrison(a) for a in sorted(charts.board)
                    if charts.start_side[a] == Side.GERMAN)
    elif state["phase"] in GARRISON_PHASES:
        yield from (Garrison(a) for a in state["vacated"])


def placements(charts: Charts, state: State) -> Iterable[Place]:
    """Free placement: each unit still to place, in each German-side area."""
    if state["phase"] != Phase.SETUP:
        return
    areas = [a for a in sorted(charts.board) if charts.start_side[a] == Side.GERMAN]
    for unit in state["unplaced"]:
        yield from (Place(unit, a) for a in areas)


def reinforcements(charts: Charts, state: State) -> Iterable[Reinforce]:
    """Reinforcements: each unit due, at each of its entry areas."""
    if not not_over(state, Phase.REINFORCEMENT):
        return
    for unit in units_due(charts, state)[0]:
        yield from (Reinforce(unit, a) for a in entry_areas(charts, unit))


def standing(charts: Charts, state: State) -> Iterable[Standing]:
    """Standing instructions: none (every choice asked), or a full set: lose the
    non-German units first, retreat to the first German-controlled area."""
    yield Standing()
    units = sorted(state["units"], key=lambda u: (charts.is_german(u), u))
    areas = [a for a in sorted(charts.board) if german_area(state, a)]
    yield Standing(tuple(units), Choice.RETREAT, tuple(areas))


def units_of(charts: Charts, state: State, orders: list[OrderSpec]) -> tuple[UnitOptions, ...]:
    """The legal orders of each unit on the map, its moves with their routes and the
    areas it may attack."""
    out = []
    for unit, here in sorted(state["units"].items()):
        mine = [o for o in orders if (isinstance(o, Move) and o.unit == unit)
                or (isinstance(o, Attack) and unit in o.units)]
        destinations: tuple[Destination, ...] = ()
        if any(isinstance(o, Move) for o in mine):
            reached = routes(charts, state, unit, here)
            destinations = tuple(
                Destination(o.to, tuple(reached.path(o.to)), str(reached.cost[o.to]))
                for o in mine if isinstance(o, Move))
        targets = tuple(sorted({o.target for o in mine if isinstance(o, Attack)}))
        out.append(UnitOptions(unit, here, destinations, targets, tuple(mine)))
    return tuple(out)


def attack_odds(module: ModuleData, state: State, side: str, attackers: tuple[str, ...],
                target: str) -> AttackOdds | None:
    """Combat: the Attack Chart's row (the number of attacking units) and the die
    modifier of the year, with or without German units (`Charts.year_modifier`, what the
    attack rolls with)."""
    charts = charts_of(module)
    if target not in charts.board or not attackers:
        return None
    year = charts.turn(state["turn"]).year
    german = any(charts.is_german(u) for u in attackers)
    modifier = charts.year_modifier(year, german)
    taking = "with a German unit taking part" if german else "no German unit taking part"
    return AttackOdds(f"{len(attackers)} unit{'s' if len(attackers) > 1 else ''} attacking",
                      ((f"die modifier {modifier:+d}: {year}, {taking}", Rule.COMBAT),))
