"""The legal orders of a Moscow '41 position (engine/listing.py): the cup draw and the
set-up placements (1.3), per unit of the acting side where it may move and at what cost
(the kit's search over the Terrain Effects Chart, 4.0-4.8, stopping in enemy zones of
control, 4.7) and what it may overrun (7.0) or attack (8.0), the reinforcements' entry
hexes (14.0), the interdictions (11.3), the answers to an open decision, standing
instructions and the end of the phase. Every candidate is dry-run by the step runner
(`engine.listing.accepted`), so a listed order is one the rules take.

The listing is capped, as a dry run adjudicates an order in full: a few hexes for the
first units still to set up (the front line first, while it needs Soviet infantry, so
that any choice of placements can complete the set-up, 1.3.1 F), the first
`UNITS_MOVED` units that may still move, each to its farthest and its nearest
reachable hex; each attacker alone and all together against each hex (not every
subset). What a random player needs to play whole games is there: every phase can be
ended, every set-up completed, every reinforcement that must enter can.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.listing import AttackOdds, Destination, Listing, UnitOptions, accepted
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import OrderSpec
from adjudicator.engine.search import least_costs
from adjudicator.engine.state import State, state_hash
from adjudicator.games.moscow.air import air_available
from adjudicator.games.moscow.data import Game, unit_facts, units_of
from adjudicator.games.moscow.movement import mover, mps_text
from adjudicator.games.moscow.orders import (
    Answer,
    Attack,
    Draw,
    EndPhase,
    Enter,
    Interdict,
    Move,
    Overrun,
    Place,
    Standing,
)
from adjudicator.games.moscow.reinforcements import entry_facts, reinforcement_hexes
from adjudicator.games.moscow.setupzones import FRONT_LINE_UNITS, SETUP_COLUMN
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.vocabulary import SOVIET_SETUP_STACK, STACKING_LIMIT, other_side
from adjudicator.games.moscow.zoc import EnemyZones

UNITS_PLACED = 2  # units offered set-up hexes in one listing (the first still to place)
PLACEMENTS = 3  # hexes offered to each of them
UNITS_MOVED = 6  # units offered moves in one listing (the first that may still move)
ATTACKED_HEXES = 4  # enemy hexes offered to attack or overrun
ENTRY_HEXES = 2  # hexes offered to each reinforcement (14.1)
INTERDICTED_HEXES = 2  # hexes offered to each air unit (11.3)


def legal_orders(module: ModuleData, state: State, side: str) -> Listing:
    """What `side` may order now; the same position gives the same listing (kept)."""
    game = Game.of(module)
    return game.memo.get(("listing", state_hash(state), side),  # type: ignore[no-any-return]
                         lambda: _listing(module, game, state, side))


def _listing(module: ModuleData, game: Game, state: State, side: str) -> Listing:
    from adjudicator.games.moscow import RULES

    pending = state.get("pending")
    if pending:  # nothing but the answer while a decision waits (protocol §4)
        answers = [Answer(pending["id"], choice) for choice in pending["options"]]
        kept, refused = accepted(RULES, module, state, side, answers) \
            if pending["side"] == side else ([], 0)
        return Listing(side, (), tuple(kept), refused)
    standing = [Standing(loss="retreat"), Standing(retreat="first"), Standing(advance="never")]
    if RULES.acting_side(state) != side:  # a side's own instructions, whoever acts
        kept, refused = accepted(RULES, module, state, side, standing)
        return Listing(side, (), tuple(kept), refused)
    per_unit: dict[str, list[OrderSpec]] = {}
    moves: dict[str, list[Destination]] = {}
    attacks: dict[str, list[str]] = {}
    others: list[OrderSpec] = [EndPhase()]
    phase = state["phase"]
    terrain = Terrain.of(module)
    if phase == "draw":
        others.append(Draw())
    elif phase == "setup":
        others += placements(game, state, side)
    elif phase == "movement":
        for unit, destinations in unit_moves(game, terrain, state, side):
            moves[unit] = destinations
            per_unit[unit] = [Move((unit,), d.path) for d in destinations]
        for label, overrun in overruns(game, state, side):
            attacks.setdefault(overrun.units[0], []).append(label)
            per_unit.setdefault(overrun.units[0], []).append(overrun)
        others += entries(game, state, side)
    elif phase == "combat":
        for label, attack in attack_orders(game, state, side):
            for unit in attack.units:
                attacks.setdefault(unit, []).append(label)
                per_unit.setdefault(unit, []).append(attack)
    elif phase == "interdiction":
        others += interdictions(game, state)
    candidates = [o for orders in per_unit.values() for o in orders] + others + standing
    kept, refused = accepted(RULES, module, state, side, candidates)
    legal = {o.to_xml() for o in kept}
    units = []
    for unit in sorted(per_unit):
        mine = tuple(o for o in per_unit[unit] if o.to_xml() in legal)
        if not mine:
            continue
        units.append(UnitOptions(
            unit, state["units"][unit],
            tuple(d for d in moves.get(unit, ()) if Move((unit,), d.path).to_xml() in legal),
            tuple(dict.fromkeys(h for h in attacks.get(unit, ())
                                if any(_target(o) == h for o in mine))),
            mine))
    actors = movers(game, terrain, state, side) if phase == "movement" else ()
    return Listing(side, tuple(units), tuple(kept), refused, actors)


def _target(order: OrderSpec) -> str | None:
    if isinstance(order, Attack):
        return order.hexes[0]
    if isinstance(order, Overrun):
        return order.hex
    return None


# -- 1.3 set-up ----------------------------------------------------------------------------

def placements(game: Game, state: State, side: str) -> list[OrderSpec]:
    """1.3.1 E-H, 1.3.2 C-D: for the first units still to set up, a few hexes of their
    zone with room. Soviet infantry fills the front line first (two a hex, 1.3.1 F) and
    no Soviet unit goes elsewhere before the infantry left can still fill it."""
    count: dict[str, int] = {}
    for label in state["units"].values():
        count[label] = count.get(label, 0) + 1
    board = game.board
    orders: list[OrderSpec] = []
    if side == "soviet":
        waiting = [t for t, face in sorted(state["tokens"].items())
                   if not face["siberian"] and t not in state["units"]]
        front = [board.label(h) for h in sorted(game.front_line)]
        short = sum(max(0, FRONT_LINE_UNITS - count.get(x, 0)) for x in front)
        infantry = sum(1 for t in waiting if state["tokens"][t]["type"] == "infantry")
        for token in waiting[:UNITS_PLACED]:
            if state["tokens"][token]["type"] == "infantry":
                if short:
                    hexes = [x for x in front if count.get(x, 0) < FRONT_LINE_UNITS]
                else:
                    hexes = _zone(game, "soviet", count, SOVIET_SETUP_STACK,
                                  lambda column: column <= SETUP_COLUMN)
            elif infantry > short:
                hexes = _zone(game, "soviet", count, SOVIET_SETUP_STACK,
                              lambda column: column > SETUP_COLUMN)
            else:
                hexes = []  # the front line needs every infantry unit left: they go first
            orders += [Place(token, x) for x in _spread(hexes)]
    else:
        waiting = list(state["unplaced"])
        hexes = _zone(game, "german", count, STACKING_LIMIT, lambda column: True,
                      next_to_enemy=True) \
            or _zone(game, "german", count, STACKING_LIMIT, lambda column: True)
        for unit in waiting[:UNITS_PLACED]:
            orders += [Place(unit, x) for x in _spread(hexes)]
    return orders


def _zone(game: Game, side: str, count: dict[str, int], limit: int, column_ok: object,
          *, next_to_enemy: bool = False) -> list[str]:
    """The hexes on `side`'s side of the starting front line with room, off the Soviet
    front line, whose column passes `column_ok`; the German's next to the front."""
    board, found = game.board, []
    for h in sorted(game.side_of):
        if game.side_of[h] != side or h in game.front_line or h not in board:
            continue
        label = board.label(h)
        if count.get(label, 0) >= limit or not column_ok(  # type: ignore[operator]
                board.grid.to_offset(h)[0]):
            continue
        if next_to_enemy and not any(game.side_of.get(n) == other_side(side)
                                     for n in board.neighbours(h)):
            continue
        found.append(label)
    return found


def _spread(labels: list[str]) -> list[str]:
    """`PLACEMENTS` of the labels spread over the list (not the first few only)."""
    if len(labels) <= PLACEMENTS:
        return labels
    step = len(labels) / PLACEMENTS
    return list(dict.fromkeys(labels[int(i * step)] for i in range(PLACEMENTS)))


# -- 4.0-7.0 movement and overrun, 14.0 reinforcements -------------------------------------

def unit_moves(game: Game, terrain: Terrain, state: State,
               side: str) -> Iterable[tuple[str, list[Destination]]]:
    """4.0-4.8: for the first units of the side that may still move, their farthest and
    their nearest reachable hexes (`reach`)."""
    enemy = EnemyZones.of(terrain, units_of(game, state, other_side(side)))
    offered = 0
    for unit, _ in movers(game, terrain, state, side):
        if offered >= UNITS_MOVED:
            return
        reached = reach(game, terrain, state, unit, enemy)
        chosen = list(dict.fromkeys(reached[:1] + reached[-1:]))
        if chosen:
            offered += 1
            yield unit, chosen


def movers(game: Game, terrain: Terrain, state: State,
           side: str) -> tuple[tuple[str, str], ...]:
    """4.0, 3.1.1 A, 4.3: every ground unit of the side that may still move (not done,
    its movement not finished or ended by a rule), where it stands."""
    done = set(state["done"])
    found = []
    for unit, at in sorted(state["units"].items()):
        kind = unit_facts(game, state, unit)
        if kind[0] != side or kind[1] == "air" or unit in done:
            continue
        m = mover(game, terrain, state, unit)
        if not (m.finished or m.halted):
            found.append((unit, at))
    return tuple(found)


def reach(game: Game, terrain: Terrain, state: State, unit: str,
          enemy: EnemyZones) -> list[Destination]:
    """4.0-4.8: every hex the unit may reach with the MPs it has left, farthest first, by
    the least-cost path over the TEC, stopping in enemy zones of control (4.7) and never
    into enemy units (4.4); the rules judge the rest (disengagement, interdiction, the
    minimum move)."""
    board = game.board
    m = mover(game, terrain, state, unit)
    left = Fraction(m.allowance) - m.spent
    armor = m.unit.moves_as_armor

    def cost(a: Hex, b: Hex) -> Fraction | None:
        return None if b in enemy.occupied else terrain.enter_cost(a, b, armor)

    reached = least_costs([m.hex], board.neighbours, cost, zero=Fraction(0), budget=left,
                          expand=lambda h: h not in enemy.zoc)
    ends = sorted((h for h, spent in reached.cost.items() if spent > 0),
                  key=lambda h: (-reached.cost[h], h))
    return [Destination(board.label(h), tuple(board.label(x) for x in reached.path(h)),
                        mps_text(reached.cost[h])) for h in ends]


def unit_options(module: ModuleData, state: State, side: str, unit: str) -> UnitOptions | None:
    """What one unit may do now (a click on it in the order builder): in a Movement Phase
    every hex it may reach (`reach`), dry-run like the rest, with its overruns; else its
    entry of the whole listing. Kept per position like the listing."""
    game = Game.of(module)
    return game.memo.get(("unit", state_hash(state), side, unit),  # type: ignore[no-any-return]
                         lambda: _unit_options(module, game, state, side, unit))


def _unit_options(module: ModuleData, game: Game, state: State, side: str,
                  unit: str) -> UnitOptions | None:
    from adjudicator.games.moscow import RULES

    listed = legal_orders(module, state, side).for_unit(unit)
    terrain = Terrain.of(module)
    if (state["phase"] != "movement" or state.get("pending")
            or RULES.acting_side(state) != side
            or unit not in dict(movers(game, terrain, state, side))):
        return listed
    enemy = EnemyZones.of(terrain, units_of(game, state, other_side(side)))
    destinations = reach(game, terrain, state, unit, enemy)
    board = game.board
    enemies = {board.hex(x) for u, x in state["units"].items()
               if unit_facts(game, state, u)[0] != side}
    targets = [board.label(n) for n in board.neighbours(board.hex(state["units"][unit]))
               if n in enemies]
    moves = [Move((unit,), d.path) for d in destinations]
    kept, _ = accepted(RULES, module, state, side, [*moves, *(Overrun((unit,), t)
                                                             for t in targets)])
    legal = {o.to_xml() for o in kept}
    others = tuple(o for o in (listed.orders if listed else ())
                   if not isinstance(o, (Move, Overrun)))
    return UnitOptions(unit, state["units"][unit],
                       tuple(d for d, m in zip(destinations, moves, strict=True)
                             if m.to_xml() in legal),
                       tuple(t for t in targets if Overrun((unit,), t).to_xml() in legal),
                       tuple(kept) + others)


def overruns(game: Game, state: State, side: str) -> list[tuple[str, Overrun]]:
    """7.0, 7.5 A: each unit of the side that may still move against each adjacent enemy
    hex, alone (the rules judge the MPs, 7.3, and the lake hexsides, 7.5 C)."""
    board = game.board
    enemy = {board.hex(x) for u, x in state["units"].items()
             if unit_facts(game, state, u)[0] != side}
    done = set(state["done"])
    found: list[tuple[str, Overrun]] = []
    for unit, label in sorted(state["units"].items()):
        kind = unit_facts(game, state, unit)
        if kind[0] != side or kind[1] == "air" or unit in done:
            continue
        for n in board.neighbours(board.hex(label)):
            if n in enemy and len(found) < ATTACKED_HEXES:
                found.append((board.label(n), Overrun((unit,), board.label(n))))
    return found


def entries(game: Game, state: State, side: str) -> list[OrderSpec]:
    """14.1-14.3: this turn's reinforcements at the hexes they may enter."""
    waiting = state["arriving"].get(str(state["turn"]), [])
    if side != "soviet" or not waiting:
        return []
    german, soviet = entry_facts(game, state)
    hexes, _ = reinforcement_hexes(game.board, game.entries, german, soviet)
    return [Enter(unit, game.board.label(h)) for unit in waiting for h in hexes[:ENTRY_HEXES]]


# -- 8.0 combat, 11.0 air power --------------------------------------------------------------

def attack_orders(game: Game, state: State, side: str) -> list[tuple[str, Attack]]:
    """8.0-8.1: against each enemy hex next to units that have not attacked, each of
    them alone and all of them together, without air units."""
    board = game.board
    done = set(state.get("attacked", []))
    mine: dict[Hex, list[str]] = {}
    for unit, label in sorted(state["units"].items()):
        kind = unit_facts(game, state, unit)
        if kind[0] == side and kind[1] != "air" and unit not in done:
            mine.setdefault(board.hex(label), []).append(unit)
    targets = sorted({label for u, label in state["units"].items()
                      if unit_facts(game, state, u)[0] != side})
    found: list[tuple[str, Attack]] = []
    for target in targets:
        if len(found) >= 2 * ATTACKED_HEXES:
            break
        t = board.hex(target)
        attackers = sorted(u for h in board.neighbours(t) for u in mine.get(h, []))
        if not attackers:
            continue
        found += [(target, Attack((u,), (target,))) for u in attackers[:1]]
        if len(attackers) > 1:
            found.append((target, Attack(tuple(attackers), (target,))))
    return found


def interdictions(game: Game, state: State) -> list[OrderSpec]:
    """11.0 C-D: each air unit not used this turn on the hexes of a few Soviet units."""
    soviet = sorted({x for u, x in state["units"].items()
                     if unit_facts(game, state, u)[0] == "soviet"})
    return [Interdict(air, label) for air in air_available(game, state)
            for label in _spread(soviet)[:INTERDICTED_HEXES]]


def attack_odds(module: ModuleData, state: State, side: str, attackers: tuple[str, ...],
                target: str) -> AttackOdds | None:
    """8.5 (7.1 for an overrun): the strengths, the column shifts and the final column of
    the attack, by the combat code's own `combat_odds`, before any German air unit on
    it (11.0). An untried unit's strengths are hidden until it is revealed (8.6 D, 12.2):
    then only that is said."""
    from adjudicator.errors import IllegalOrder
    from adjudicator.games.moscow.aftermath import combatant
    from adjudicator.games.moscow.charts import CombatCharts, CombatMap
    from adjudicator.games.moscow.combat_odds import Combat, combat_odds
    from adjudicator.games.moscow.supply import is_supplied

    game, terrain = Game.of(module), Terrain.of(module)
    defenders = sorted(u for u, x in state["units"].items()
                       if x == target and unit_facts(game, state, u)[0] != side)
    if not defenders or not attackers or any(u not in state["units"] for u in attackers):
        return None
    overrun = state["phase"] == "movement"
    hidden = [u for u in (*attackers, *defenders)
              if u in state["identity"] and u not in state.get("revealed", ())]
    if hidden:
        return AttackOdds("hidden", (), f"{', '.join(hidden)} untried: its strengths show "
                          f"when it is revealed ({'12.2' if overrun else '8.6 D'})")
    retreated = set(state.get("retreated", []))
    try:
        combat = Combat(
            tuple(combatant(game, state, u, is_supplied(game, terrain, state, u),
                            u in retreated) for u in attackers),
            tuple(combatant(game, state, u, is_supplied(game, terrain, state, u),
                            u in retreated) for u in defenders),
            (game.board.hex(target),), overrun=overrun, turn=state["turn"],
            weather=state["weather"])
        odds = combat_odds(CombatCharts.of(module), CombatMap.of(module), combat)
    except (IllegalOrder, ValueError, KeyError):
        return None
    return AttackOdds(f"{odds.attack}-{odds.defense} ({odds.initial}): column {odds.final}",
                      tuple((f"{s.name} {s.columns:+d}", s.rule) for s in odds.shifts),
                      "German air units placed on it shift it further (11.0)")
