"""Moscow '41 behind the fighting: 9.0-9.4 supply lines (with 11.3 A-B, interdicted Soviet
lines), 14.0-14.4 Soviet reinforcements, 15.0 the weather roll and 16.0-16.4 victory, as
procedures over plain facts.

Nothing here reads or writes a game state. The caller says who stands where, which hexes
are in enemy zones of control, what a step costs (`cost(a, b, armor)`, the Terrain
Effects Chart, written elsewhere), and gets back an answer or an `IllegalOrder` in plain
words. Only the chart readers (`turn_record`, `VictorySchedule.of`) look at the module.

The readings these procedures take where the rulebook leaves room are in RULES-ISSUES.md
(the road series and the rates of a supply line, 31-32; sources lost and regained, 33;
the entry hexes and their cost, 34-35; the Moscow penalty, 11 and 36; victory, 12-13 and
37) and data/RULES-NOTES.md (towns and cities, 12-14).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, hex_distance
from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.engine.search import least_costs, least_costs_to
from adjudicator.errors import ModuleError
from adjudicator.games.moscow.rejections import CATALOGUE

M = f"{{{MODULE_NS}}}"
GERMAN, SOVIET = "german", "soviet"

# (from, to, armor rate) -> MPs to enter `to` from `from`, None if it may not be entered
Cost = Callable[[Hex, Hex, bool], "Fraction | None"]

SUPPLY_LINE_MPS = Fraction(5)  # 9.0 E
INTERDICTION_FACTOR = {0: 1, 1: 2, 2: 4}  # 11.3 A-B
MAX_INTERDICTING = 2  # 11.0 D
STACKING_LIMIT = 4  # 4.6 A
SOVIET_SETUP_STACK = 2  # 1.3.1 E, 3.2 B: two Soviet units a hex until normal stacking
FIRST_WEATHER_TURN = 2  # 15.0 A
DIE = range(1, 7)
RECYCLED_TYPES = frozenset({"infantry"})  # 8.9 I, 14.0 B (RULES-NOTES 22)


def other(side: str) -> str:
    return SOVIET if side == GERMAN else GERMAN


# -- 9.0-9.4 supply ------------------------------------------------------------------------

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
    enemy = other(side)
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


def interdiction_factor(air_units: int) -> int:
    """11.3 A-B: an interdicted hex costs double, quadruple with two air units; 11.0 D:
    at most two air units interdict one hex."""
    if air_units < 0 or air_units > MAX_INTERDICTING:
        raise CATALOGUE.refuse("interdiction-limit", "11.0 D",
            f"at most two air units may interdict a single hex, not "
            f"{air_units}")
    return INTERDICTION_FACTOR[air_units]


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


def supply_network(board: HexBoard, lines: SupplyLines, rates: SupplyRates) -> frozenset[Hex]:
    """9.0 A, D-F, 9.3, 11.3: every hex from which a line of supply of at most 5 MPs reaches
    a source or a road hex joined to one: the hexes where a unit is in supply. One search
    from the roads outward (the kit's `least_costs_to`) answers for every unit of the
    side at once; a hex is in it exactly when `supply_line` finds a line from it (the
    same costs as `supply_step`, scaled to integers)."""
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

    reached = least_costs_to(supply_roads(board, lines), board.neighbours, step,
                             budget=int(SUPPLY_LINE_MPS * rates.scale))
    return frozenset(reached.cost)


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


# -- 14.0-14.4 Soviet reinforcements ---------------------------------------------------------

def enters_cup(unit_type: str, *, siberian: bool) -> bool:
    """8.9 I, 14.0 B: an eliminated Soviet infantry unit goes into the cup; the four
    Siberian divisions never do, nor do cavalry, armor or mechanized units (RULES-NOTES 22).
    """
    return unit_type in RECYCLED_TYPES and not siberian


def draw_reinforcement(cup: Sequence[str], pick: Callable[[Sequence[str]], str], *,
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


# -- 15.0 weather ---------------------------------------------------------------------------

@dataclass(frozen=True)
class TurnWeather:
    """One box of the Turn Record Track (15.0): the die rolls that bring rasputitsa or
    snow (all six: it comes automatically), and whether a Siberian division arrives."""

    turn: int
    roll: bool  # 15.0 A: the Soviet player rolls this turn
    rasputitsa: frozenset[int]
    snow: frozenset[int]
    siberian: bool = False

    @property
    def automatic(self) -> str | None:
        """15.0 B: the weather that comes whatever the die, if any."""
        for name, faces in (("rasputitsa", self.rasputitsa), ("snow", self.snow)):
            if faces >= frozenset(DIE):
                return name
        return None

    @property
    def needs_roll(self) -> bool:
        """15.0 A-B: a die is rolled from Turn 2, except on a turn of automatic weather."""
        return self.roll and self.automatic is None


def die_faces(text: str | None) -> frozenset[int]:
    """A Turn Record Track range: "1-4", "6", "1-2 5", "all" (automatic), or nothing.

    >>> sorted(die_faces("1-4")), sorted(die_faces("6")), len(die_faces("all"))
    ([1, 2, 3, 4], [6], 6)
    """
    if not text:
        return frozenset()
    if text.strip() == "all":
        return frozenset(DIE)
    faces: set[int] = set()
    for part in text.split():
        low, _, high = part.partition("-")
        try:
            faces.update(range(int(low), int(high or low) + 1))
        except ValueError:
            raise ModuleError(f"the Turn Record Track has a bad die range {text!r}") from None
    if not faces <= set(DIE):
        raise ModuleError(f"the Turn Record Track range {text!r} is not on one die")
    return frozenset(faces)


def turn_record(module: ModuleData) -> dict[int, TurnWeather]:
    """The Turn Record Track of charts.xml: turn -> its weather ranges and Siberian box."""
    track: dict[int, TurnWeather] = {}
    for el in module.findall("m:charts/m:turn-record/m:turn"):
        weather = el.find(f"{M}weather")
        if weather is None:
            raise ModuleError(f"Turn {el.get('number')} of the Turn Record Track has no weather")
        entry = TurnWeather(int(el.get("number")), weather.get("roll") == "yes",
                            die_faces(weather.get("rasputitsa")), die_faces(weather.get("snow")),
                            el.get("siberian") == "yes")
        if entry.rasputitsa & entry.snow:
            raise ModuleError(f"Turn {entry.turn}: rasputitsa and snow share a die face")
        track[entry.turn] = entry
    if not track:
        raise ModuleError("the charts have no Turn Record Track")
    return track


def weather_for(turn: int, roll: int | None, track: Mapping[int, TurnWeather]) -> str:
    """15.0: the weather of a turn, "clear", "rasputitsa" or "snow". No roll on Turn 1
    (15.0 A) nor on a turn whose weather is automatic (15.0 B): `roll` is then None; on
    any other turn it is the Soviet player's die. ValueError for a roll where none is
    made, or a missing one.

    >>> track = {1: TurnWeather(1, False, frozenset(), frozenset()),
    ...          3: TurnWeather(3, True, die_faces("all"), frozenset()),
    ...          6: TurnWeather(6, True, die_faces("1-2"), die_faces("6"))}
    >>> weather_for(1, None, track), weather_for(3, None, track)
    ('clear', 'rasputitsa')
    >>> [weather_for(6, roll, track) for roll in range(1, 7)]
    ['rasputitsa', 'rasputitsa', 'clear', 'clear', 'clear', 'snow']
    """
    box = track.get(turn)
    if box is None:
        raise ValueError(f"the Turn Record Track has no Turn {turn}")
    if not box.needs_roll:
        if roll is not None:
            raise ValueError(f"no weather die is rolled on Turn {turn} (15.0)")
        return box.automatic or "clear"
    if roll not in DIE:
        raise ValueError(f"the weather on Turn {turn} needs one die roll, 1 to 6 (15.0 A)")
    if roll in box.rasputitsa:
        return "rasputitsa"
    if roll in box.snow:
        return "snow"
    return "clear"


# -- 16.0-16.4 victory ------------------------------------------------------------------------

@dataclass(frozen=True)
class Level:
    name: str
    side: str
    low: int | None  # None: no lower bound
    high: int | None


@dataclass(frozen=True)
class VictorySchedule:
    """16.1-16.3 as printed: Soviet VPs per reduced and eliminated German unit by type,
    German VPs per hex adjacent to Moscow, the levels on German minus Soviet VPs."""

    casualties: Mapping[str, tuple[int, int]]  # type -> (reduced, eliminated)
    per_adjacent_hex: int
    levels: tuple[Level, ...]
    automatic: str  # 16.0 A

    @classmethod
    def rulebook(cls) -> VictorySchedule:
        """The tables as the rulebook's text prints them (16.0 A, 16.1-16.3)."""
        return cls({"infantry": (1, 3), "mechanized": (4, 12), "armor": (5, 15)}, 30,
                   (Level("German Strategic", GERMAN, 31, None),
                    Level("German Tactical", GERMAN, 1, 30),
                    Level("Soviet Tactical", SOVIET, -20, 0),
                    Level("Soviet Strategic", SOVIET, None, -21)), "German Strategic")

    @classmethod
    def of(cls, module: ModuleData) -> VictorySchedule:
        """The schedule of charts.xml's `<victory>`."""
        root = module.find("m:charts/m:victory")

        def number(text: str | None) -> int | None:
            return None if text is None else int(text)

        casualties = {el.get("type"): (int(el.get("reduced")), int(el.get("eliminated")))
                      for el in root.iter(f"{M}vp")}
        points = root.find(f"{M}moscow-points")
        auto = root.find(f"{M}automatic-victory")
        if points is None or auto is None:
            raise ModuleError("the victory chart lacks the Moscow points or 16.0 A")
        levels = tuple(Level(el.get("name"), el.get("side"), number(el.get("min")),
                             number(el.get("max"))) for el in root.iter(f"{M}level"))
        return cls(casualties, int(points.get("per-adjacent-hex")), levels, auto.get("level"))


@dataclass(frozen=True)
class GermanLoss:
    """16.1: a German unit that ends the game reduced, or was eliminated."""

    type: str  # infantry, mechanized, armor
    eliminated: bool


def german_holds_moscow(moscow: Hex, german_land_hexes: Collection[Hex]) -> bool:
    """16.0 A (checked at the end of every turn), 14.4: a German land unit occupies Moscow."""
    return moscow in german_land_hexes


def casualty_points(losses: Iterable[GermanLoss], schedule: VictorySchedule) -> int:
    """16.1: the Soviet VPs for reduced and eliminated German units at the end.

    >>> rules = VictorySchedule.rulebook()
    >>> casualty_points([GermanLoss("infantry", False), GermanLoss("infantry", True),
    ...                  GermanLoss("mechanized", False), GermanLoss("armor", True)], rules)
    23
    """
    total = 0
    for loss in losses:
        if loss.type not in schedule.casualties:
            raise ValueError(f"16.1 scores no German {loss.type} units")
        reduced, eliminated = schedule.casualties[loss.type]
        total += eliminated if loss.eliminated else reduced
    return total


def moscow_points(board: HexBoard, moscow: Hex, german_hexes: Mapping[Hex, bool],
                  schedule: VictorySchedule) -> int:
    """16.2: the German VPs, 30 for each hex adjacent to Moscow occupied by German land
    units in supply (`german_hexes`: hex German land units occupy -> in supply;
    RULES-ISSUES 37)."""
    return schedule.per_adjacent_hex * sum(
        1 for h in board.neighbours(moscow) if german_hexes.get(h, False))


def victory_level(difference: int, schedule: VictorySchedule) -> str:
    """16.3: the level for German VPs minus Soviet VPs.

    >>> rules = VictorySchedule.rulebook()
    >>> for difference in (31, 30, 1, 0, -20, -21):
    ...     print(difference, victory_level(difference, rules))
    31 German Strategic
    30 German Tactical
    1 German Tactical
    0 Soviet Tactical
    -20 Soviet Tactical
    -21 Soviet Strategic
    """
    for level in schedule.levels:
        if (level.low is None or difference >= level.low) and \
                (level.high is None or difference <= level.high):
            return level.name
    raise ModuleError(f"the victory schedule has no level for a difference of {difference}")


def play_balance(bids: Mapping[str, int]) -> tuple[str, int]:
    """16.4: both players wish to play the German side, so each writes down a VP bid; the
    higher bid plays the Germans, and that many VPs go to the Soviet player when the game
    ends. Returns (the player who plays the Germans, the VPs). A bid is a whole number,
    zero or more; the rule does not settle a tie, so a tie is refused and both bid again
    (RULES-ISSUES 13).

    >>> play_balance({"anna": 12, "boris": 20})
    ('boris', 20)
    """
    if len(bids) != 2:
        raise CATALOGUE.refuse("bid", "16.4", "both players write down a bid")
    for player, bid in bids.items():
        if isinstance(bid, bool) or not isinstance(bid, int) or bid < 0:
            raise CATALOGUE.refuse("bid", "16.4",
                f"a bid is a number of VPs, zero or more; {player} "
                f"bid {bid!r}")
    (first, a), (second, b) = sorted(bids.items(), key=lambda kv: -kv[1])
    if a == b:
        raise CATALOGUE.refuse("bid-tie", "16.4",
            f"both players bid {a} VPs; the winning bid must be the "
            "higher number, so both bid again")
    return first, a


@dataclass(frozen=True)
class Outcome:
    level: str
    german_points: int
    soviet_points: int
    difference: int
    automatic: bool  # 16.0 A


def game_result(schedule: VictorySchedule, *, german_in_moscow: bool, german_points: int,
                soviet_points: int, bid: int = 0) -> Outcome:
    """16.0 A-D, 16.4: the automatic German victory for holding Moscow at the end of a
    turn; otherwise, after Turn 13, the level for the difference, the 16.4 bid counted
    with the Soviet VPs.

    >>> rules = VictorySchedule.rulebook()
    >>> game_result(rules, german_in_moscow=False, german_points=60, soviet_points=29).level
    'German Strategic'
    >>> game_result(rules, german_in_moscow=False, german_points=60, soviet_points=29,
    ...             bid=10).level
    'German Tactical'
    """
    soviet = soviet_points + bid
    difference = german_points - soviet
    if german_in_moscow:
        return Outcome(schedule.automatic, german_points, soviet, difference, True)
    return Outcome(victory_level(difference, schedule), german_points, soviet, difference,
                   False)
