"""Moscow '41 rule 9.0, Supply (with 11.3 A-B, interdicted Soviet lines): the sources
(9.4), the road series joined to one (9.0 D), a line of at most 5 MPs at the rates of
9.0 F, blocked by enemy units and their zones unless a friendly unit is there (9.3),
and the supply network of a side, computed once per position (issue 13).

The readings where the rulebook leaves room are in RULES-ISSUES.md (the road series
and the rates of a supply line, 31-32; sources lost and regained, 33)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.search import least_costs, least_costs_to
from adjudicator.engine.state import State
from adjudicator.games.moscow.air import interdiction, interdiction_factor
from adjudicator.games.moscow.data import Game, unit_facts, units_of
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.vocabulary import SOVIET, SUPPLY_LINE_MPS, other_side
from adjudicator.games.moscow.zoc import EnemyZones

# (from, to, armor rate) -> MPs to enter `to` from `from`, None if it may not be entered
Cost = Callable[[Hex, Hex, bool], "Fraction | None"]


def supply_sources(places: Mapping[Hex, str], side: str,
                   last_occupied: Mapping[Hex, str]) -> frozenset[Hex]:
    """9.4.1-9.4.2: every town and city on the side's side of the starting front line
    (`places`: each town or city hex -> the side it lies on, map.xml `supply=`), unless an
    enemy unit was the last to occupy it (`last_occupied`: hex -> side, for the hexes
    that have been occupied). A friendly unit occupying it again makes it a source again
    (RULES-ISSUES 33).

    >>> smolensk, yelnya = Hex(15, 4), Hex(18, 3)
    >>> places = {smolensk: "german", yelnya: "soviet"}
    >>> sorted(supply_sources(places, "german", {}))
    [Hex(q=15, r=4)]
    >>> sorted(supply_sources(places, "german", {smolensk: "soviet"}))
    []
    >>> sorted(supply_sources(places, "soviet", {yelnya: "soviet"}))
    [Hex(q=18, r=3)]
    """
    enemy = other_side(side)
    return frozenset(h for h, owner in places.items()
                     if owner == side and last_occupied.get(h) != enemy)


@dataclass(frozen=True)
class SupplyLines:
    """What a line of supply of one side must know (9.0, 9.3, 11.3)."""

    side: str  # german or soviet: whose lines
    sources: frozenset[Hex]  # 9.4, from `supply_sources`
    cities: frozenset[Hex]  # 9.0 F: the city hexes (not towns)
    enemy: frozenset[Hex]  # hexes enemy units occupy
    enemy_zoc: frozenset[Hex]  # hexes in an enemy ZOC
    friendly: frozenset[Hex]  # hexes friendly units occupy (they cancel an EZOC, 9.3)
    interdicted: Mapping[Hex, int] = field(default_factory=dict)  # hex -> air units (11.3)

    def open(self, h: Hex) -> bool:
        """9.3: a supply line may use the hex: no enemy unit in it, and in no EZOC unless a
        friendly unit occupies it."""
        return h not in self.enemy and (h not in self.enemy_zoc or h in self.friendly)


def supply_roads(board: HexBoard, lines: SupplyLines) -> frozenset[Hex]:
    """9.0 D: the sources and every hex joined to one by an uninterrupted series of road
    hexes: from hex to hex across road hexsides, each hex open to a supply line (9.3;
    RULES-ISSUES 31)."""
    starts = [s for s in lines.sources if s in board and lines.open(s)]
    reached = board.trace(starts, lambda a, b: "road" in board.features(a, b) and lines.open(b))
    return frozenset(reached)


def supply_step(board: HexBoard, lines: SupplyLines, cost: Cost, a: Hex, b: Hex
                ) -> Fraction | None:
    """9.0 F, 9.3, 11.3 A-B: the MPs a supply line spends entering `b` from `a`, or None
    if it may not: the infantry rate, the Armor/Mech rate along a road or into a city;
    doubled or quadrupled in an interdicted hex for Soviet lines (RULES-ISSUES 32)."""
    if not lines.open(b):
        return None
    armor = "road" in board.features(a, b) or b in lines.cities
    spent = cost(a, b, armor)
    if spent is None:
        return None
    if lines.side == SOVIET:
        spent = spent * interdiction_factor(lines.interdicted.get(b, 0))
    return Fraction(spent)


def supply_line(board: HexBoard, unit_hex: Hex, lines: SupplyLines, cost: Cost, *,
                roads: Collection[Hex] | None = None) -> tuple[Hex, ...] | None:
    """9.0 A, D-F, 9.3: the cheapest line of supply of at most 5 MPs from the unit's hex to a
    source or to a road hex joined to one (`roads`, from `supply_roads`, computed when not
    given), as the hexes from the unit's to the last; None if there is none. The unit's
    own hex costs nothing. Ties are broken by hex order, so the line is always the same."""
    goals = supply_roads(board, lines) if roads is None else roads
    reached = least_costs([unit_hex], board.neighbours,
                          lambda a, b: supply_step(board, lines, cost, a, b),
                          zero=Fraction(0), budget=SUPPLY_LINE_MPS, goals=goals.__contains__)
    return None if reached.found is None else tuple(reached.path(reached.found))


@dataclass(frozen=True, eq=False)
class SupplyRates:
    """9.0 F: what a line of supply spends entering a hex from a neighbour before 9.3 and
    11.3 (the infantry rate, the Armor/Mech rate along a road or into a city), in whole
    `1/scale` MPs so that a search adds integers (`scale`: a multiple of every
    denominator of the chart, `Terrain.mp_scale`). Kept once asked: the board and the
    chart never change within a module."""

    board: HexBoard
    cities: frozenset[Hex]
    cost: Cost
    scale: int
    known: dict[tuple[Hex, Hex], int | None] = field(default_factory=dict)

    def rate(self, a: Hex, b: Hex) -> int | None:
        """The cost of entering `b` from `a`, None where the chart forbids it."""
        try:
            return self.known[a, b]
        except KeyError:
            pass
        spent = self.cost(a, b, "road" in self.board.features(a, b) or b in self.cities)
        scaled = None if spent is None else spent * self.scale
        if scaled is not None and Fraction(scaled).denominator != 1:
            raise ValueError(f"{spent} MPs is not a whole number of 1/{self.scale} MPs")
        self.known[a, b] = result = None if scaled is None else int(scaled)
        return result


def supply_step_rates(lines: SupplyLines, rates: SupplyRates
                      ) -> Callable[[Hex, Hex], int | None]:
    """`supply_step` in whole `1/scale` MPs from the module's rates (9.0 F, 9.3, 11.3)."""
    rate = rates.rate
    soviet = lines.side == SOVIET

    def step(a: Hex, b: Hex) -> int | None:
        if not lines.open(b):
            return None
        spent = rate(a, b)
        if spent is None:
            return None
        air = lines.interdicted.get(b) if soviet else None
        return spent * interdiction_factor(air) if air else spent

    return step


def supply_network(board: HexBoard, lines: SupplyLines, rates: SupplyRates, *,
                   roads: Collection[Hex] | None = None) -> frozenset[Hex]:
    """9.0 A, D-F, 9.3, 11.3: every hex from which a line of supply of at most 5 MPs reaches
    a source or a road hex joined to one: the hexes where a unit is in supply. One search
    from the roads outward (the kit's `least_costs_to`) answers for every hex at once; a
    hex is in it exactly when `supply_line` finds a line from it (the same costs as
    `supply_step`, scaled to integers; ties do not change which hexes are reached)."""
    goals = supply_roads(board, lines) if roads is None else roads
    reached = least_costs_to(sorted(goals), board.neighbours, supply_step_rates(lines, rates),
                             budget=int(SUPPLY_LINE_MPS * rates.scale), ties="fifo")
    return frozenset(reached.cost)


@dataclass(eq=False)
class SupplyNetwork:
    """9.0, 9.3-9.4, 11.3: the supply lines of one side in one position: what a line may
    use (`lines`), the sources and the road hexes joined to them (`roads`, one search from
    the sources), and each hex's answer once asked. A unit's line is traced from its hex
    and stops at the first road hex it reaches (most units stand near one); `hexes` is
    the whole network, one search from the roads outward, for a question about every
    hex."""

    board: HexBoard
    lines: SupplyLines
    rates: SupplyRates
    roads: frozenset[Hex]
    known: dict[Hex, bool] = field(default_factory=dict)
    everywhere: frozenset[Hex] | None = None

    def supplies(self, h: Hex) -> bool:
        """9.0 A: a unit in `h` can trace a line of supply."""
        if self.everywhere is not None:
            return h in self.everywhere
        if h not in self.known:
            reached = least_costs([h], self.board.neighbours,
                                  supply_step_rates(self.lines, self.rates),
                                  budget=int(SUPPLY_LINE_MPS * self.rates.scale),
                                  goals=self.roads.__contains__, ties="fifo")
            self.known[h] = reached.found is not None
        return self.known[h]

    def hexes(self) -> frozenset[Hex]:
        if self.everywhere is None:
            self.everywhere = supply_network(self.board, self.lines, self.rates,
                                             roads=self.roads)
        return self.everywhere


def in_supply(board: HexBoard, unit_hex: Hex, lines: SupplyLines, cost: Cost, *,
              roads: Collection[Hex] | None = None) -> bool:
    """9.0 A: the unit can trace a line of supply (`supply_line`)."""
    return supply_line(board, unit_hex, lines, cost, roads=roads) is not None


def unsupplied(board: HexBoard, units: Mapping[str, Hex], lines: SupplyLines,
               cost: Cost) -> list[str]:
    """9.0 B-C: the side's units (unit -> hex) that cannot trace a line of supply, sorted."""
    roads = supply_roads(board, lines)
    return sorted(u for u, h in units.items()
                  if not in_supply(board, h, lines, cost, roads=roads))


def supply_lines(game: Game, terrain: Terrain, state: State, side: str) -> SupplyLines:
    """9.3-9.4 and 11.3: what a supply line of `side` may use now."""
    enemies = units_of(game, state, other_side(side))
    sides = {h: game.side_of[h] for h in game.places}  # 9.4: the side each lies on
    occupied = {game.board.hex(x): s for x, s in state["last_occupied"].items()}
    return SupplyLines(
        side, supply_sources(sides, side, occupied),
        frozenset(h for h, (_, kind) in game.places.items() if kind == "city"),
        frozenset(u.hex for u in enemies), EnemyZones.of(terrain, enemies).zoc,
        frozenset(u.hex for u in units_of(game, state, side)),
        interdiction(game, state, side))


def is_supplied(game: Game, terrain: Terrain, state: State, unit: str) -> bool:
    """9.0 A-F: a line of at most 5 MPs to a supply source or a road leading to one."""
    side, _, _, _ = unit_facts(game, state, unit)
    network = network_of(game, terrain, state, side)
    return network.supplies(game.board.hex(state["units"][unit]))


def supplied_hexes(game: Game, terrain: Terrain, state: State, side: str) -> frozenset[Hex]:
    """9.0 A-F: every hex where a unit of `side` would be in supply now."""
    return network_of(game, terrain, state, side).hexes()


def network_of(game: Game, terrain: Terrain, state: State, side: str) -> SupplyNetwork:
    """The supply network of `side` in this position, built once for the facts it depends
    on and kept until an event changes one of them: the hexes enemy units occupy and
    their zones (9.3), the friendly units in those zones (they cancel an EZOC, 9.3;
    friendly units elsewhere change nothing), who last occupied each town and city (9.4)
    and the interdicted hexes (11.3)."""
    enemy = EnemyZones.of(terrain, units_of(game, state, other_side(side)))
    friendly = {game.board.hex(x) for u, x in state["units"].items()
                if unit_facts(game, state, u)[0] == side}
    places = game.memo.get("place-labels", lambda: frozenset(
        game.board.label(h) for h in game.places))
    key = ("supply", side, enemy.occupied, frozenset(friendly & enemy.zoc),
           frozenset((x, s) for x, s in state["last_occupied"].items() if x in places),
           frozenset(state["interdicted"].items()) if side == SOVIET else None)
    rates = game.memo.get("supply-rates", lambda: SupplyRates(
        game.board, frozenset(h for h, (_, kind) in game.places.items() if kind == "city"),
        terrain.enter_cost, terrain.mp_scale))

    def build() -> SupplyNetwork:
        lines = supply_lines(game, terrain, state, side)
        return SupplyNetwork(game.board, lines, rates, supply_roads(game.board, lines))

    return game.memo.get(key, build)  # type: ignore[no-any-return]
