"""Moscow '41 rule 14.0, Soviet Reinforcements (with 1.3.1 I, the Siberian divisions):
the draw from the cup of eliminated infantry (14.0 A-D), the entry hexes along the east
edge's roads and, when all are blocked, the nearest free edge hex (14.1-14.2), no holding
back (14.3) and none while a German unit holds Moscow (14.4).

The readings where the rulebook leaves room are in RULES-ISSUES.md (the entry hexes and
their cost, 34-35; the Moscow penalty, 11 and 36) and data/RULES-NOTES.md (22)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, hex_distance
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.moscow.air import interdiction_factor
from adjudicator.games.moscow.data import Game, unit_facts, units_of
from adjudicator.games.moscow.movement import movement_allowance
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.supply import Cost
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.untried import draw_tokens
from adjudicator.games.moscow.victory import german_in_moscow
from adjudicator.games.moscow.vocabulary import RULES_0_2_0, STACKING_LIMIT
from adjudicator.games.moscow.zoc import EnemyZones

RECYCLED_TYPES = frozenset({"infantry"})  # 8.9 I, 14.0 B (RULES-NOTES 22)


def enters_cup(unit_type: str, *, siberian: bool) -> bool:
    """8.9 I, 14.0 B: an eliminated Soviet infantry unit goes into the cup; the four
    Siberian divisions never do, nor do cavalry, armor or mechanized units (RULES-NOTES 22).
    """
    return unit_type in RECYCLED_TYPES and not siberian


def draw_from_cup(cup: Sequence[str], pick: Callable[[Sequence[str]], str], *,
                       moscow_held: bool) -> str | None:
    """14.0 B-D, 14.3 C, 14.4: the one reinforcement of the turn, drawn at random from the
    cup of eliminated infantry (`pick`, e.g. `DiceStream.pick`); None if the cup is empty
    (14.0 D) or a German land unit occupies Moscow (14.4: nothing is drawn)."""
    if moscow_held or not cup:
        return None
    return pick(cup)


def open_entry_hexes(entries: Collection[Hex], german: Collection[Hex],
                     soviet_units: Mapping[Hex, int]) -> list[Hex]:
    """14.1 B-C, 14.2: the east-edge road entry hexes a reinforcement may use: no German
    unit in it and fewer than four Soviet units; an EZOC does not matter (14.1 C)."""
    return sorted(h for h in entries
                  if h not in german and soviet_units.get(h, 0) < STACKING_LIMIT)


def road_hex(board: HexBoard, h: Hex) -> bool:
    """A hex a road runs through: one of its hexsides is a road hexside."""
    return any("road" in board.features(h, n) for n in board.neighbours(h))


def east_edge(board: HexBoard) -> list[Hex]:
    """The hexes of the map's east edge, its last column."""
    last = max(board.grid.to_offset(h)[0] for h in board)
    return [h for h in board if board.grid.to_offset(h)[0] == last]


def blocked_entry_hexes(board: HexBoard, entries: Collection[Hex],
                        occupied: Collection[Hex]) -> list[Hex]:
    """14.2: when no entry hex is open, the unoccupied non-road hexes of the east edge
    nearest (in hexes) to an entry hex; the Soviet player picks one (RULES-ISSUES 35).
    Empty: none left. `occupied`: the hexes units of either side occupy."""
    if not entries:
        return []
    candidates = [h for h in east_edge(board) if h not in occupied and not road_hex(board, h)]
    if not candidates:
        return []

    def distance(h: Hex) -> int:
        return min(hex_distance(h, e) for e in entries)

    nearest = min(distance(h) for h in candidates)
    return sorted(h for h in candidates if distance(h) == nearest)


def reinforcement_hexes(board: HexBoard, entries: Collection[Hex], german: Collection[Hex],
                        soviet_units: Mapping[Hex, int]) -> tuple[list[Hex], bool]:
    """14.1 B, 14.2, 14.3 B: where this turn's reinforcement may enter, and whether it is
    by the blocked-entry rule. No hex at all: the reinforcement is lost forever (14.3 B).
    `german`: hexes German units occupy; `soviet_units`: hex -> Soviet units in it."""
    hexes = open_entry_hexes(entries, german, soviet_units)
    if hexes:
        return hexes, False
    occupied = set(german) | {h for h, n in soviet_units.items() if n > 0}
    return blocked_entry_hexes(board, entries, occupied), True


def check_reinforcement_entry(board: HexBoard, where: Hex | None, entries: Collection[Hex],
                              german: Collection[Hex], soviet_units: Mapping[Hex, int]) -> None:
    """14.1 B, 14.2, 14.3 A: the hex the Soviet player enters the reinforcement at (None:
    he holds it back, which he may not while it can enter)."""
    hexes, blocked = reinforcement_hexes(board, entries, german, soviet_units)
    allowed = ", ".join(board.label(h) for h in hexes)
    if where is None:
        if hexes:
            raise CATALOGUE.refuse("reinforcement-held", "14.3 A",
                f"the reinforcement may not be held back; it can "
                f"enter at {allowed}")
        return
    if where in hexes:
        return
    label = board.label(where) if where in board else str(where)
    if blocked:
        rule = "14.2"
        why = (f"every entry hex is held by German units or full; the reinforcement enters at "
               f"the nearest unoccupied non-road hex of the east edge: {allowed or 'none'}")
    else:
        rule = "14.1 B"
        why = (f"a reinforcement enters on the east edge along a road hexside free of German "
               f"units: {allowed}")
    raise CATALOGUE.refuse("reinforcement-entry", rule, f"it may not enter at {label}; {why}")


def entry_cost(board: HexBoard, cost: Cost, where: Hex, armor: bool, *,
               interdicting: int = 0) -> Fraction:
    """14.1 A: the MPs a reinforcement spends entering the map at `where`; 11.3 A-B:
    doubled or quadrupled in an interdicted hex.

    At a road entry hex the unit comes along the road leading off the map (14.1 B), so it
    pays the road rate: the cost of entering the hex across one of its road hexsides
    (4.2 D; the road beyond the edge is not a hexside in the data; RULES-ISSUES 34).
    Elsewhere (14.2) it pays the hex's own terrain: `cost` is asked for the step from the
    off-map hex east of it, across a hexside with nothing printed on it."""
    factor = interdiction_factor(interdicting)
    if road_hex(board, where):
        steps = [cost(n, where, armor) for n in board.neighbours(where)
                 if "road" in board.features(n, where)]
    else:
        outside = sorted((n for n in board.grid.neighbours(where) if n not in board),
                         key=lambda n: (-n.q, n.r))
        steps = [cost(outside[0], where, armor)] if outside else []
    known = [s for s in steps if s is not None]
    if not known:
        raise CATALOGUE.refuse("reinforcement-entry", "14.1 A",
            f"a reinforcement cannot enter the map at "
            f"{board.label(where)}")
    return Fraction(min(known)) * factor


def draw_reinforcement(ctx: StepContext) -> None:
    """14.0 A-D, 14.3 C, 14.4: as the Soviet Movement Phase begins, one unit is drawn at
    random from the cup of eliminated infantry, untried face up; none while a German land
    unit occupies Moscow or when the cup is empty (RULES-ISSUES 10-11)."""
    state, game = ctx.state, Game.of(ctx.module)
    if german_in_moscow(game, state) or not state["cup"]:
        return
    token = f"U{sum(1 for t in state['tokens'] if t.startswith('U')) + 1:02d}"
    draw_tokens(ctx, [token], state["cup"], f"the reinforcement of Turn {state['turn']}")
    ctx.emit("reinforcement-drawn", token=token, turn=str(state["turn"]))


def entry_facts(game: Game, state: State) -> tuple[list[Any], dict[Any, int]]:
    german = [game.board.hex(x) for u, x in state["units"].items()
              if unit_facts(game, state, u)[0] == "german"]
    soviet: dict[Any, int] = {}
    for u, x in state["units"].items():
        if unit_facts(game, state, u)[0] == "soviet":
            h = game.board.hex(x)
            soviet[h] = soviet.get(h, 0) + 1
    return german, soviet


def enter(ctx: StepContext, order: Order) -> None:
    """14.1-14.2: a reinforcement of this turn enters on the east edge along a road free of
    German units (or, all blocked, at the nearest free non-road edge hex), paying the
    entry hex's MPs, and may move on with the rest (14.0 E: it enters in supply).

    14.1 C lets it enter within an EZOC; it has entered that hex, so it stops there
    (4.7 B), and it cannot disengage: it began the phase off the map (6.1; RULES-ISSUES
    25). Module 0.1.0 let it move on as from a hex it began the phase in."""
    state, game = ctx.state, Game.of(ctx.module)
    unit = order.get("unit")
    if (state["player"], state["phase"]) != ("soviet", "movement"):
        raise CATALOGUE.refuse("not-movement", "14.0 A",
            "Soviet reinforcements enter in the Soviet Movement "
            "Phase")
    if unit not in state["arriving"].get(str(state["turn"]), []):
        raise CATALOGUE.refuse("not-arriving", "14.0 B",
            f"{unit!r} is not a reinforcement of Turn "
            f"{state['turn']}")
    if german_in_moscow(game, state):
        raise CATALOGUE.refuse("moscow-penalty", "14.4",
            "no Soviet reinforcement enters while a German land unit "
            "occupies Moscow")
    try:
        where = game.board.hex(order.get("hex"))
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "14.1 B", str(exc)) from None
    german, soviet = entry_facts(game, state)
    check_reinforcement_entry(game.board, where, game.entries, german, soviet)
    face = state["tokens"][unit]
    terrain = Terrain.of(ctx.module)
    cost = entry_cost(game.board, terrain.enter_cost, where,
                      face["type"] in ("armor", "mechanized"),
                      interdicting=state["interdicted"].get(game.board.label(where), 0))
    allowance = movement_allowance(face["movement"], german=False, siberian=face["siberian"],
                                   weather=state["weather"])  # 14.0 E: in supply
    stop: dict[str, bool] = {}
    if ctx.module.at_least(RULES_0_2_0):
        zoc = EnemyZones.of(terrain, units_of(game, state, "german")).zoc
        stop["halted"] = where in zoc
    ctx.emit("reinforcement-entered", unit=unit, hex=game.board.label(where),
             turn=str(state["turn"]), mps=str(cost), movement=allowance, **stop)


def missing_reinforcements(ctx: StepContext) -> None:
    """14.3: a reinforcement that can enter must (none is held back); one that cannot
    is lost forever, a Siberian division due while a German land unit holds Moscow
    included (14.4; RULES-ISSUES 36)."""
    state, game = ctx.state, Game.of(ctx.module)
    waiting = list(state["arriving"].get(str(state["turn"]), []))
    if not waiting:
        return
    german, soviet = entry_facts(game, state)
    hexes, _ = reinforcement_hexes(game.board, game.entries, german, soviet)
    if hexes and not german_in_moscow(game, state):
        raise CATALOGUE.refuse("reinforcement-due", "14.3 A",
            f"{', '.join(waiting)} must enter this turn (at "
            f"{', '.join(game.board.label(h) for h in hexes)}); reinforcements "
            "may not be held back")
    for unit in waiting:
        ctx.emit("reinforcement-lost", unit=unit, turn=str(state["turn"]),
                 rule="14.4" if german_in_moscow(game, state) else "14.3 B")


def apply_reinforcement_drawn(state: State, data: dict[str, Any]) -> None:
    state["arriving"].setdefault(data["turn"], []).append(data["token"])


def apply_reinforcement_entered(state: State, data: dict[str, Any]) -> None:
    state["arriving"][data["turn"]].remove(data["unit"])
    state["units"][data["unit"]] = data["hex"]
    state["movers"][data["unit"]] = {"allowance": data["movement"], "start": data["hex"],
                                     "spent": data["mps"],
                                     "halted": data.get("halted", False), "finished": False}


def apply_reinforcement_lost(state: State, data: dict[str, Any]) -> None:
    state["arriving"][data["turn"]].remove(data["unit"])
