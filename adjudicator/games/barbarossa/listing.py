"""The legal orders of a 1941 position (engine/listing.py): per unit of the acting side
where it may move (the kit's search with the walker's own rules, `movement.reachable`)
and what it may attack, and every other order the phase allows: entries (14.1),
replacements (14.2), rail moves (5.4), air orders (10.4, 20.1.4, 20.3, 20.5), partisans
(20.2), set-up placements (20.6), the answers to an open decision, standing
instructions and the end of the phase. Every candidate is dry-run by the step runner
(`engine.listing.accepted`), so a listed order is one the rules take.

A dry run adjudicates the order in full (control is judged at every hex a unit enters,
4.0 B), so the listing is capped: the first `UNITS_MOVED` units that have not moved,
each to its farthest and its nearest reachable hex (not every hex, not every path);
each attacker alone and all together against each hex (not every subset); a few hexes
per entering unit. What a random player needs to play the game through its phases is
there: every phase can be ended, every reinforcement that must enter can.
"""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.listing import AttackOdds, Destination, Listing, UnitOptions, accepted
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import OrderSpec
from adjudicator.engine.state import State, state_hash
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.movement import reachable
from adjudicator.games.barbarossa.naval import naval_attacker, neutralized_bases
from adjudicator.games.barbarossa.optional import option
from adjudicator.games.barbarossa.orders import (
    AirSupply,
    Answer,
    Attack,
    BombRail,
    Deploy,
    Disband,
    EndPhase,
    Enter,
    Move,
    Negate,
    Neutralize,
    Partisans,
    Rail,
    Replace,
    Standing,
)
from adjudicator.games.barbarossa.reinforcements import east_sources, entry_hexes
from adjudicator.games.barbarossa.vocabulary import (
    Feature,
    Nationality,
    Option,
    Phase,
    RetreatChoice,
    Segment,
    Side,
)

UNITS_MOVED = 6  # units offered moves in one listing (the first that have not moved)
ENTRY_HEXES = 2  # hexes offered to each reinforcement or replacement
ATTACKED_HEXES = 4  # enemy hexes offered to attack
PLACEMENTS = 4  # set-up placements offered (20.6)
LISTINGS_KEPT = 64  # listings remembered per position (the same position lists the same)


def legal_orders(module: ModuleData, state: State, side: str) -> Listing:
    """What `side` may order now; the same position gives the same listing (kept)."""
    game = GameData.of(module)
    return game.remembered(("listing", state_hash(state), side),  # type: ignore[no-any-return]
                           lambda: _listing(module, game, state, side))


def attack_odds(module: ModuleData, state: State, side: str, attackers: tuple[str, ...],
                target: str) -> AttackOdds | None:
    """7.4-7.6, 9.1: the strengths, the terrain and armor shifts and the CRT column of an
    attack, by the combat code's own `odds` (air points, 10.2, shift it further)."""
    from adjudicator.games.barbarossa.combat import odds

    game = GameData.of(module)
    try:
        label = game.board.label(game.board.hex(target))
        defenders = sorted(u for u, x in state["units"].items() if x == label)
        if not defenders or not attackers or any(u not in state["units"] for u in attackers):
            return None
        carried = [u for u in attackers if naval_attacker(game, state, u, game.board.hex(label))]
        attack, defence, terrain, armor, column = odds(
            game, state, label, list(attackers), defenders, carried[0] if carried else None, 0)
    except (ValueError, KeyError, IllegalOrder):
        return None
    shifts = [(f"terrain {terrain:+d}", "7.6 B")] if terrain else []
    shifts += [("armor +1", "9.1")] if armor else []
    return AttackOdds(f"{attack}-{defence}: column {game.charts.crt.ladder.name(column)}",
                      tuple(shifts), "air points: each of yours one column right, each of "
                      "the defender's one left (10.2)")


def unit_options(module: ModuleData, state: State, side: str, unit: str) -> UnitOptions | None:
    """What one unit may do now (a click on it in the order builder): in a Movement
    Phase every hex it may reach, each by its least-cost path, dry-run like the rest;
    else its entry of the whole listing. Kept per position like the listing."""
    game = GameData.of(module)
    return game.remembered(  # type: ignore[no-any-return]
        ("unit", state_hash(state), side, unit),
        lambda: _unit_options(module, game, state, side, unit))


def _unit_options(module: ModuleData, game: GameData, state: State, side: str,
                  unit: str) -> UnitOptions | None:
    from adjudicator.games.barbarossa.rules import RULES

    listed = legal_orders(module, state, side).for_unit(unit)
    movable = (state["phase"] == Phase.MOVEMENT and not state.get("pending")
               and RULES.acting_side(state) == side and unit in state["units"]
               and game.pieces[unit].side == side and unit not in state["moved"]
               and unit not in state.get("carried", {}))
    if not movable:
        return listed
    reached = reachable(game, state, unit)
    ends = sorted((h for h, cost in reached.cost.items() if cost > 0),
                  key=lambda h: (reached.cost[h], game.label(h)))
    destinations = [Destination(game.label(h), tuple(game.label(x) for x in reached.path(h)),
                                str(reached.cost[h])) for h in ends]
    moves = [Move(unit, d.path) for d in destinations]
    kept, _ = accepted(RULES, module, state, side, moves)
    legal = {o.to_xml() for o in kept}
    others = tuple(o for o in (listed.orders if listed else ()) if not isinstance(o, Move))
    return UnitOptions(unit, state["units"][unit],
                       tuple(d for d, m in zip(destinations, moves, strict=True)
                             if m.to_xml() in legal),
                       listed.attacks if listed else (), tuple(kept) + others)


def _listing(module: ModuleData, game: GameData, state: State, side: str) -> Listing:
    from adjudicator.games.barbarossa.rules import RULES

    pending = state.get("pending")
    if pending:  # nothing but the answer while a decision waits (protocol §4)
        answers = [Answer(pending["id"], choice) for choice in pending["options"]]
        kept, refused = accepted(RULES, module, state, side, answers) \
            if pending["side"] == side else ([], 0)
        return Listing(side, (), tuple(kept), refused)
    standing = [Standing(retreat=RetreatChoice.FIRST.value), Standing(defensive_air="0")]
    if RULES.acting_side(state) != side:  # a side's own instructions, whoever acts
        kept, refused = accepted(RULES, module, state, side, standing)
        return Listing(side, (), tuple(kept), refused)
    per_unit: dict[str, list[OrderSpec]] = {}
    moves: dict[str, list[Destination]] = {}
    attacks: dict[str, list[str]] = {}
    others: list[OrderSpec] = [EndPhase()]
    phase = state["phase"]
    if phase == Phase.AIR:
        others += air_orders(game, state, side)
    elif phase == Phase.MOVEMENT:
        for unit, destinations in unit_moves(game, state, side):
            moves[unit] = destinations
            per_unit[unit] = [Move(unit, d.path) for d in destinations]
        others += arrivals(game, state, side) + rail_moves(game, state, side) \
            + disbands(game, state, side)
    elif phase == Phase.COMBAT:
        for hex_label, attack in attack_orders(game, state, side):
            for unit in attack.units:
                attacks.setdefault(unit, []).append(hex_label)
                per_unit.setdefault(unit, []).append(attack)
            if len(attack.units) > 1:
                others.append(attack)
    elif state["segment"] == Segment.DEPLOYMENT:
        others += placements(game, state, side)
    if side == Side.SOVIET and option(state, Option.PARTISANS):
        others.append(Partisans())
    candidates = [o for orders in per_unit.values() for o in orders] + others + standing
    kept, refused = accepted(RULES, module, state, side, candidates)
    legal = {o.to_xml() for o in kept}
    units = []
    for unit in sorted(set(per_unit)):
        mine = tuple(o for o in per_unit[unit] if o.to_xml() in legal)
        if not mine:
            continue
        units.append(UnitOptions(
            unit, state["units"][unit],
            tuple(d for d in moves.get(unit, ()) if Move(unit, d.path).to_xml() in legal),
            tuple(h for h in attacks.get(unit, ())
                  if any(isinstance(o, Attack) and o.hex == h for o in mine)),
            mine))
    actors = movers(game, state, side) if phase == Phase.MOVEMENT else ()
    return Listing(side, tuple(units), tuple(kept), refused, actors)


def movers(game: GameData, state: State, side: str) -> tuple[tuple[str, str], ...]:
    """5.0: every unit of the side on the map that has not moved (not carried by sea,
    20.1.1), where it stands: the units a click may ask the hexes of (`unit_options`)."""
    carried = state.get("carried", {})
    return tuple((unit, at) for unit, at in sorted(state["units"].items())
                 if game.pieces[unit].side == side and unit not in state["moved"]
                 and unit not in carried)


def unit_moves(game: GameData, state: State, side: str) -> Iterable[tuple[str, list[Destination]]]:
    """5.0: for the first units of the side that have not moved, their farthest and their
    nearest reachable hexes, each by its least-cost path (`movement.reachable`)."""
    carried = state.get("carried", {})
    offered = 0
    for unit in sorted(state["units"]):
        if offered >= UNITS_MOVED:
            return
        if game.pieces[unit].side != side or unit in state["moved"] or unit in carried:
            continue
        reached = reachable(game, state, unit)
        ends = sorted((h for h, cost in reached.cost.items() if cost > 0),
                      key=lambda h: (-reached.cost[h], h))
        chosen = list(dict.fromkeys(ends[:1] + ends[-1:]))
        if not chosen:
            continue
        offered += 1
        yield unit, [Destination(game.label(h), tuple(game.label(x) for x in reached.path(h)),
                                 str(reached.cost[h])) for h in chosen]


def arrivals(game: GameData, state: State, side: str) -> list[OrderSpec]:
    """14.1: the reinforcements of this turn at their entry hexes; 14.2: the eliminated
    Soviet units at the east edge's sources (First Movement Phase only)."""
    if state["segment"] != Segment.FIRST:
        return []
    orders: list[OrderSpec] = []
    for unit in state["arriving"].get(str(state["turn"]), []):
        if game.pieces[unit].side == side:
            orders += [Enter(unit, game.label(h)) for h in entry_hexes(game, state, unit)
                       [:ENTRY_HEXES]]
    if side == Side.SOVIET:
        sources = [game.label(h) for h in east_sources(game)][:ENTRY_HEXES]
        orders += [Replace(unit, label) for unit in state["eliminated"][:ENTRY_HEXES]
                   for label in sources]
    return orders


def rail_moves(game: GameData, state: State, side: str) -> list[OrderSpec]:
    """5.4: a unit that has not moved, one railroad hex on (the rules judge the rest)."""
    orders: list[OrderSpec] = []
    for unit, label in sorted(state["units"].items()):
        if game.pieces[unit].side != side or unit in state["moved"]:
            continue
        here = game.hex(label)
        along = [n for n in game.board.neighbours(here)
                 if Feature.RAIL in game.board.features(here, n)]
        if along:
            orders.append(Rail(unit, (label, game.label(along[0]))))
        if len(orders) >= ENTRY_HEXES:
            break
    return orders


def disbands(game: GameData, state: State, side: str) -> list[OrderSpec]:
    """20.1.1 B: the units in a neutralized fleet's hex."""
    bases = set(neutralized_bases(game, state))
    return [Disband(u) for u, x in sorted(state["units"].items())
            if x in bases and game.pieces[u].side == side]


def attack_orders(game: GameData, state: State, side: str) -> list[tuple[str, Attack]]:
    """7.1-7.2: against each enemy hex next to units that have not attacked, each of
    them alone and all of them together, without air points."""
    done = set(state.get("attacked_by", []))
    mine: dict[Hex, list[str]] = {}
    for unit, label in sorted(state["units"].items()):
        if game.pieces[unit].side == side and unit not in done:
            mine.setdefault(game.hex(label), []).append(unit)
    targets = sorted({label for u, label in state["units"].items()
                      if game.pieces[u].side != side})
    found: list[tuple[str, Attack]] = []
    for target in targets:
        t = game.hex(target)
        attackers = sorted(u for h in game.board.neighbours(t) for u in mine.get(h, []))
        if not attackers:
            continue
        found += [(target, Attack(target, (u,))) for u in attackers]
        if len(attackers) > 1:
            found.append((target, Attack(target, tuple(attackers))))
        if len({h for h, _ in found}) >= ATTACKED_HEXES:
            break
    return found


def air_orders(game: GameData, state: State, side: str) -> list[OrderSpec]:
    """10.4 negation; and the German optional air orders: 20.1.4 A, 20.3, 20.5."""
    mine, theirs = state["air"][side], state["air"][Side(side).enemy]
    orders: list[OrderSpec] = [Negate(str(n)) for n in range(1, min(mine, theirs) + 1)]
    if side == Side.AXIS:
        if option(state, Option.NAVAL):
            orders += [Neutralize(fleet) for fleet in sorted(game.fleets)]
        if option(state, Option.RAIL_BOMBING):
            orders += [BombRail(str(n)) for n in range(1, mine + 1)]
        if option(state, Option.AIR_SUPPLY):
            orders += [AirSupply(u) for u in sorted(state["units"])
                       if game.pieces[u].nationality == Nationality.GERMAN][:ENTRY_HEXES]
    return orders


def placements(game: GameData, state: State, side: str) -> list[OrderSpec]:
    """20.6: a few units of the side each placed in an empty hex of their country."""
    occupied = set(state["units"].values())
    orders: list[OrderSpec] = []
    for unit, label in sorted(state["units"].items()):
        if game.pieces[unit].side != side or len(orders) >= PLACEMENTS:
            continue
        country = game.country.get(game.hex(label))
        near = [n for n in game.board.neighbours(game.hex(label))
                if game.country.get(n) == country and game.label(n) not in occupied]
        if near:
            orders.append(Deploy(unit, game.label(near[0])))
    return orders


def entry_listing(module: ModuleData, state: State, side: str) -> dict[str, list[str]]:
    """14.1.3 A, C: each reinforcement of `side` due this turn and every hex where the
    rules take its `<enter>` (each dry-run alone, as `accepted` does) in the Movement
    Phase of the First Ground Segment: now, or, from the Air Phase, once it is ended. What
    a template says of the entries; {} when the side has no entry to make this turn."""
    from adjudicator.engine.step import run_step
    from adjudicator.games.barbarossa.rules import RULES

    game = GameData.of(module)
    if state.get("pending") or state["player"] != side \
            or state["segment"] not in (Segment.AIR, Segment.FIRST) \
            or (state["segment"], state["phase"]) == (Segment.FIRST, Phase.COMBAT):
        return {}
    if state["segment"] == Segment.AIR:  # the entries come when the Air Phase is over
        ended = run_step(RULES, module, state, [EndPhase().to_order()], side, None)
        if ended.rejection is not None or ended.dry_run_stopped_at is not None:
            return {}
        state = ended.state
    due = sorted(u for u in state["arriving"].get(str(state["turn"]), [])
                 if game.pieces[u].side == side)
    return {unit: [o.hex for o in accepted(RULES, module, state, side, [
                Enter(unit, game.label(h)) for h in entry_hexes(game, state, unit)])[0]
                if isinstance(o, Enter)]
            for unit in due}
