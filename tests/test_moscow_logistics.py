"""Moscow '41 behind the fighting (games/moscow: setupzones.py, supply.py,
reinforcements.py, weather.py, victory.py): set-up zones (1.3), supply (9.0-9.4,
11.3), Soviet reinforcements (14.0-14.4), weather (15.0) and victory (16.0-16.4), on the
real module (module.xml: the reconstructed map, counters and charts).

Movement costs come from `tec_cost` below: a small reader of charts.xml's Terrain Effects
Chart (hex terrain, city replacing the terrain, road replacing the hex cost, river +1
except along a road, lake only along a road). It stands in for the movement module's TEC
reader, which these tests do not import.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, HexGrid, Hexside
from adjudicator.engine.module import MODULE_NS, ModuleData, load_module
from adjudicator.errors import IllegalOrder
from adjudicator.games.moscow.data import turn_record
from adjudicator.games.moscow.reinforcements import (
    blocked_entry_hexes,
    check_reinforcement_entry,
    enters_cup,
    entry_cost,
    open_entry_hexes,
    reinforcement_hexes,
)
from adjudicator.games.moscow.reinforcements import draw_from_cup as draw_reinforcement
from adjudicator.games.moscow.setupzones import (
    check_german_placement,
    check_german_setup,
    check_soviet_placement,
    check_soviet_setup,
)
from adjudicator.games.moscow.supply import (
    Cost,
    SupplyLines,
    in_supply,
    supply_line,
    supply_roads,
    supply_sources,
    unsupplied,
)
from adjudicator.games.moscow.victory import (
    GermanLoss,
    VictorySchedule,
    casualty_points,
    game_result,
    german_holds_moscow,
    moscow_points,
    play_balance,
    victory_level,
)
from adjudicator.games.moscow.weather import weather_for

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "moscow" / "data"
M = f"{{{MODULE_NS}}}"


# -- the real module -----------------------------------------------------------------------
@dataclass(frozen=True)
class MapFacts:
    board: HexBoard
    side_of: dict[Hex, str]
    front_line: frozenset[Hex]
    places: dict[Hex, str]  # town or city -> the side whose supply source it is
    cities: frozenset[Hex]
    entries: frozenset[Hex]
    moscow: Hex


@dataclass(frozen=True)
class Piece:
    id: str
    side: str
    type: str
    setup: str
    siberian: bool


@pytest.fixture(scope="module")
def module() -> ModuleData:
    return load_module((DATA / "module.xml").read_bytes(),
                       etree.RelaxNG(file=str(DATA / "module.rng")), expected_game="moscow")


@pytest.fixture(scope="module")
def facts(module: ModuleData) -> MapFacts:
    board = module.hex_board()
    side_of, front, places, cities, entries = {}, set(), {}, set(), set()
    moscow = None
    for el in module.findall("m:map/m:hex"):
        h = board.hex(el.get("id"))
        side_of[h] = el.get("side")
        if el.get("front-line") == "yes":
            front.add(h)
        if el.get("supply"):
            places[h] = el.get("supply")
        if el.get("city-class") == "city":
            cities.add(h)
        if el.get("entry") == "soviet":
            entries.add(h)
        if el.get("city") == "Moscow":
            moscow = h
    assert moscow is not None
    return MapFacts(board, side_of, frozenset(front), places, frozenset(cities),
                    frozenset(entries), moscow)


@pytest.fixture(scope="module")
def board(facts: MapFacts) -> HexBoard:
    return facts.board


@pytest.fixture(scope="module")
def pieces(module: ModuleData) -> dict[str, Piece]:
    return {el.get("id"): Piece(el.get("id"), el.get("side"), el.get("type"), el.get("setup"),
                                el.get("marking") == "siberian")
            for el in module.findall("m:pieces/m:piece")}


def tec_cost(module: ModuleData, board: HexBoard, cities: frozenset[Hex]) -> Cost:
    """The TEC of charts.xml as a step cost (see the module docstring)."""
    effects = module.find("m:charts/m:terrain-effects")

    def rates(el: etree._Element) -> dict[bool, str]:
        move = el.find(f"{M}movement")
        return {False: move.get("infantry"), True: move.get("armor")}

    terrain = {el.get("name"): rates(el) for el in effects.iter(f"{M}hex-terrain")}
    sides = {el.get("name"): rates(el) for el in effects.iter(f"{M}hexside-feature")}
    city = next(rates(el) for el in effects.iter(f"{M}hex-feature") if el.get("name") == "city")

    def cost(a: Hex, b: Hex, armor: bool) -> Fraction | None:
        features = board.features(a, b)
        if "road" in features:
            return Fraction(sides["road"][armor])
        if "lake" in features:
            return None
        spent = Fraction((city if b in cities else terrain[board.terrain[b]])[armor])
        if "river" in features:
            spent += Fraction(sides["river"][armor])
        return spent

    return cost


@pytest.fixture(scope="module")
def cost(module: ModuleData, facts: MapFacts) -> Cost:
    return tec_cost(module, facts.board, facts.cities)


def hexes(board: HexBoard, *labels: str) -> frozenset[Hex]:
    return frozenset(board.hex(x) for x in labels)


def zoc(board: HexBoard, units: frozenset[Hex]) -> frozenset[Hex]:
    """5.0 A: the six hexes round each unit (there is no lake hexside near these tests)."""
    return frozenset(n for h in units for n in board.neighbours(h))


def labels(board: HexBoard, hs) -> list[str]:
    return [board.label(h) for h in hs]


# -- 9.4 supply sources --------------------------------------------------------------------
def test_9_4_sources_are_the_towns_and_cities_on_each_side_of_the_front_line(facts) -> None:
    board = facts.board
    german = supply_sources(facts.places, "german", {})
    soviet = supply_sources(facts.places, "soviet", {})
    assert hexes(board, "1511", "1610") <= german  # Smolensk, Dukhovshchina
    assert hexes(board, "2808", "1710", "2010") <= soviet  # Moscow, Yartsevo, Vyazma
    assert not german & soviet
    assert all(facts.side_of[h] == "german" for h in german)
    assert (len(german), len(soviet)) == (38, 84)  # MAP-README.md


def test_9_4_a_source_last_occupied_by_the_enemy_is_lost_until_retaken(facts) -> None:
    board = facts.board
    smolensk, vyazma = board.hex("1511"), board.hex("2010")
    assert smolensk not in supply_sources(facts.places, "german", {smolensk: "soviet"})
    assert smolensk in supply_sources(facts.places, "german", {smolensk: "german"})
    assert vyazma not in supply_sources(facts.places, "soviet", {vyazma: "german"})
    # a German unit in a Soviet town does not make it a German source
    assert vyazma not in supply_sources(facts.places, "german", {vyazma: "german"})


# -- 9.3 the rulebook's examples on the real map ---------------------------------------------
# The 197th stands in 2009, next to 1909. Soviet units in 1908, 2108 and 2110 put every hex
# round it in their ZOC; the 252nd in 1909 cancels the EZOC there. From 1909 the line runs
# to 1910, a road hex on the Vyazma - Dorogobuzh - Yartsevo - Dukhovshchina road, whose
# German town Dukhovshchina (1610) is a source: 2 + 2 MPs of light woods.
UNIT_197, UNIT_252 = "2009", "1909"
SOVIET_RING = ("1908", "2108", "2110")


def nine_three(facts, *, with_252nd: bool, soviets=SOVIET_RING, **extra) -> SupplyLines:
    board = facts.board
    enemy = hexes(board, *soviets)
    friendly = hexes(board, UNIT_197, *([UNIT_252] if with_252nd else []))
    return SupplyLines("german", supply_sources(facts.places, "german", {}), facts.cities,
                       enemy, zoc(board, enemy), friendly, **extra)


def test_9_3_the_example_position_is_on_the_map(facts) -> None:
    board = facts.board
    ring = zoc(board, hexes(board, *SOVIET_RING)) | hexes(board, *SOVIET_RING)
    around = board.neighbours(board.hex(UNIT_197))
    assert board.hex("1909") in around
    assert all(h in ring for h in around), "the 197th is surrounded by EZOC"


def test_9_3_the_197th_surrounded_by_ezoc_is_out_of_supply(facts, cost) -> None:
    board = facts.board
    lines = nine_three(facts, with_252nd=False)
    assert not in_supply(board, board.hex(UNIT_197), lines, cost)
    assert unsupplied(board, {"GER-XX-197": board.hex(UNIT_197)}, lines, cost) == ["GER-XX-197"]


def test_9_3_the_252nd_in_1909_cancels_the_ezoc_and_the_197th_is_in_supply(facts, cost) -> None:
    board = facts.board
    lines = nine_three(facts, with_252nd=True)
    line = supply_line(board, board.hex(UNIT_197), lines, cost)
    assert line is not None
    assert labels(board, line) == ["2009", "1909", "1910"]
    assert board.hex("1910") in supply_roads(board, lines)
    assert unsupplied(board, {"GER-XX-197": board.hex(UNIT_197),
                              "GER-XX-252": board.hex(UNIT_252)}, lines, cost) == []


def test_9_0_D_9_3_an_ezoc_interrupts_the_road_series(facts, cost) -> None:
    """A Soviet unit in 2011 puts 1910 and 2010 in its ZOC: the road from Dukhovshchina
    no longer reaches 1910, and the 197th is cut off again."""
    board = facts.board
    lines = nine_three(facts, with_252nd=True, soviets=SOVIET_RING + ("2011",))
    assert board.hex("1910") not in supply_roads(board, lines)
    assert board.hex("1811") in supply_roads(board, lines)  # still joined to 1610
    assert not in_supply(board, board.hex(UNIT_197), lines, cost)


def test_9_4_the_road_series_needs_a_live_source(facts, cost) -> None:
    """With Dukhovshchina (1610) the only German source, the 197th is supplied through it;
    once a Soviet unit was the last in 1610, it is not."""
    board = facts.board
    only = {board.hex("1610"): "german"}
    lines = nine_three(facts, with_252nd=True)
    for last, supplied in (({}, True), ({board.hex("1610"): "soviet"}, False)):
        sources = supply_sources(only, "german", last)
        single = SupplyLines("german", sources, facts.cities, lines.enemy, lines.enemy_zoc,
                             lines.friendly)
        assert (board.hex("1910") in supply_roads(board, single)) is supplied
        assert in_supply(board, board.hex(UNIT_197), single, cost) is supplied


# -- 9.0 E-F, 11.3 on a small test board ------------------------------------------------------
# A straight line of eight clear hexes, Hex(1, 0) .. Hex(8, 0); the source is at the east
# end, Hex(8, 0).
GRID = HexGrid("flat", "odd", "CCRR")


def strip(roads=(), cities=()) -> tuple[HexBoard, Cost, frozenset[Hex]]:
    row = [Hex(q, 0) for q in range(1, 9)]  # a straight line of hexes, west to east
    sides = {Hexside.between(Hex(a, 0), Hex(b, 0)): frozenset({"road"}) for a, b in roads}
    board = HexBoard(GRID, {h: "clear" for h in row}, sides)
    city_hexes = frozenset(Hex(q, 0) for q in cities)

    def cost(a: Hex, b: Hex, armor: bool) -> Fraction | None:
        if "road" in board.features(a, b):
            return Fraction(1, 2) if armor else Fraction(1)
        if b in city_hexes:
            return Fraction(1, 2) if armor else Fraction(1)
        return Fraction(1)

    return board, cost, city_hexes


def lines_on_strip(side="german", cities=frozenset(), **extra) -> SupplyLines:
    return SupplyLines(side, frozenset({Hex(8, 0)}), cities, frozenset(), frozenset(),
                       frozenset(), **extra)


def test_9_0_E_a_supply_line_is_at_most_5_mps_long() -> None:
    board, cost, _ = strip()
    lines = lines_on_strip()
    assert in_supply(board, Hex(3, 0), lines, cost)  # 5 clear hexes
    assert not in_supply(board, Hex(2, 0), lines, cost)  # 6


def test_9_0_F_along_a_road_or_through_a_city_at_the_armor_mech_rate() -> None:
    # a road 0201-0301-0401 not joined to the source: two steps at 1/2
    board, cost, _ = strip(roads=[(2, 3), (3, 4)])
    assert in_supply(board, Hex(2, 0), lines_on_strip(), cost)  # 1/2 + 1/2 + 4
    assert not in_supply(board, Hex(1, 0), lines_on_strip(), cost)  # 1 + 5
    # two cities that are not sources (retaken by the enemy, say)
    board, cost, cities = strip(cities=[4, 5])
    assert in_supply(board, Hex(2, 0), lines_on_strip(cities=cities), cost)
    assert not in_supply(board, Hex(2, 0), lines_on_strip(), cost)


def test_9_0_D_a_road_hex_joined_to_a_source_ends_the_line() -> None:
    board, cost, _ = strip(roads=[(3, 4), (4, 5), (5, 6), (6, 7), (7, 8)])
    lines = lines_on_strip()
    assert supply_roads(board, lines) == frozenset(Hex(q, 0) for q in range(3, 9))
    assert supply_line(board, Hex(1, 0), lines, cost) == (Hex(1, 0), Hex(2, 0), Hex(3, 0))


def test_9_3_an_enemy_unit_blocks_and_an_ezoc_blocks_unless_a_friend_is_there() -> None:
    board, cost, _ = strip()
    blocked = SupplyLines("german", frozenset({Hex(8, 0)}), frozenset(), frozenset({Hex(5, 0)}),
                          frozenset(), frozenset())
    assert not in_supply(board, Hex(4, 0), blocked, cost)
    zoc_only = SupplyLines("german", frozenset({Hex(8, 0)}), frozenset(), frozenset(),
                           frozenset({Hex(6, 0)}), frozenset())
    assert not in_supply(board, Hex(4, 0), zoc_only, cost)
    covered = SupplyLines("german", frozenset({Hex(8, 0)}), frozenset(), frozenset(),
                          frozenset({Hex(6, 0)}), frozenset({Hex(6, 0)}))
    assert in_supply(board, Hex(4, 0), covered, cost)


def test_11_3_A_B_interdiction_doubles_or_quadruples_soviet_supply_lines() -> None:
    board, cost, _ = strip()
    unit = Hex(5, 0)  # three clear hexes: 3 MPs
    assert in_supply(board, unit, lines_on_strip("soviet"), cost)
    assert in_supply(board, unit, lines_on_strip("soviet", interdicted={Hex(6, 0): 1}), cost)
    assert not in_supply(board, unit, lines_on_strip("soviet", interdicted={Hex(6, 0): 2}),
                         cost)  # 4 + 1 + 1
    # German lines are not interdicted (11.3 A names Soviet supply lines only)
    assert in_supply(board, unit, lines_on_strip("german", interdicted={Hex(6, 0): 2}), cost)
    with pytest.raises(IllegalOrder) as refused:
        in_supply(board, unit, lines_on_strip("soviet", interdicted={Hex(6, 0): 3}), cost)
    assert refused.value.rule == "11.0 D"


# -- 14.0-14.4 Soviet reinforcements ----------------------------------------------------------
def test_14_0_B_8_9_I_siberians_never_go_in_the_cup(pieces) -> None:
    siberians = [p for p in pieces.values() if p.siberian]
    assert len(siberians) == 4
    assert not any(enters_cup(p.type, siberian=True) for p in siberians)
    assert enters_cup("infantry", siberian=False)
    assert not enters_cup("cavalry", siberian=False)
    assert not enters_cup("armor", siberian=False)


def test_14_0_C_D_one_unit_a_turn_drawn_at_random_none_from_an_empty_cup() -> None:
    cup = ["SOV-XX-174", "SOV-XX-50"]
    assert draw_reinforcement(cup, lambda c: sorted(c)[-1], moscow_held=False) == "SOV-XX-50"
    assert draw_reinforcement([], lambda c: c[0], moscow_held=False) is None


def test_14_4_no_reinforcement_while_a_german_land_unit_occupies_moscow(facts) -> None:
    def never(cup):
        raise AssertionError("nothing is drawn under 14.4")

    assert german_holds_moscow(facts.moscow, {facts.moscow})
    assert draw_reinforcement(["SOV-XX-174"], never, moscow_held=True) is None


def test_14_1_B_C_entry_along_an_east_edge_road_free_of_german_units(facts) -> None:
    board = facts.board
    assert labels(board, sorted(facts.entries)) == ["3406", "3412", "3419"]
    open_hexes = open_entry_hexes(facts.entries, hexes(board, "3406"),
                                  {board.hex("3412"): 4})
    assert labels(board, open_hexes) == ["3419"]  # 3406 German, 3412 full
    # an enemy ZOC does not keep a reinforcement out (14.1 C): it is not even asked
    hexes_, blocked = reinforcement_hexes(board, facts.entries, hexes(board, "3307"), {})
    assert labels(board, hexes_) == ["3406", "3412", "3419"] and not blocked
    check_reinforcement_entry(board, board.hex("3419"), facts.entries, hexes(board, "3406"), {})
    with pytest.raises(IllegalOrder) as refused:
        check_reinforcement_entry(board, board.hex("3406"), facts.entries,
                                  hexes(board, "3406"), {})
    assert refused.value.rule == "14.1 B"
    with pytest.raises(IllegalOrder) as refused:
        check_reinforcement_entry(board, board.hex("3413"), facts.entries, frozenset(), {})
    assert refused.value.rule == "14.1 B"


def test_14_2_blocked_entry_the_nearest_unoccupied_non_road_east_edge_hex(facts) -> None:
    board = facts.board
    german = hexes(board, "3406", "3412")
    soviet = {board.hex("3419"): 4}
    where, blocked = reinforcement_hexes(board, facts.entries, german, soviet)
    assert blocked
    assert labels(board, where) == ["3405", "3407", "3411", "3413", "3418", "3420"]
    # the next ring when those are occupied
    occupied = german | hexes(board, "3419", "3405", "3407", "3411", "3413", "3418", "3420")
    assert labels(board, blocked_entry_hexes(board, facts.entries, occupied)) == [
        "3404", "3408", "3410", "3414", "3417", "3421"]
    check_reinforcement_entry(board, board.hex("3420"), facts.entries, german, soviet)
    with pytest.raises(IllegalOrder) as refused:
        check_reinforcement_entry(board, board.hex("3415"), facts.entries, german, soviet)
    assert refused.value.rule == "14.2"


def test_14_3_no_holding_back_and_lost_when_it_cannot_enter(facts) -> None:
    board = facts.board
    with pytest.raises(IllegalOrder) as refused:
        check_reinforcement_entry(board, None, facts.entries, frozenset(), {})
    assert refused.value.rule == "14.3 A"
    edge = frozenset(h for h in board if board.label(h).startswith("34"))
    where, blocked = reinforcement_hexes(board, facts.entries, edge, {})
    assert where == [] and blocked  # 14.3 B: lost forever
    check_reinforcement_entry(board, None, facts.entries, edge, {})


def test_14_1_A_entry_pays_the_first_hex(facts, cost) -> None:
    board = facts.board
    assert entry_cost(board, cost, board.hex("3406"), False) == 1  # along the road
    assert entry_cost(board, cost, board.hex("3406"), True) == Fraction(1, 2)
    assert entry_cost(board, cost, board.hex("3407"), False) == 2  # woods (14.2)
    assert entry_cost(board, cost, board.hex("3408"), True) == 4  # marsh
    assert entry_cost(board, cost, board.hex("3412"), False, interdicting=2) == 4  # 11.3


# -- 15.0 weather ---------------------------------------------------------------------------------
def test_15_0_the_turn_record_track_and_its_automatic_turns(module) -> None:
    track = turn_record(module)
    assert sorted(track) == list(range(1, 14))  # 3.1.3 A
    assert [t for t, box in track.items() if box.siberian] == [3, 4, 5, 6]  # 1.3.1 I
    assert {t: box.automatic for t, box in track.items() if box.automatic} == {
        3: "rasputitsa", 4: "rasputitsa", 10: "snow", 11: "snow", 12: "snow", 13: "snow"}
    assert [t for t, box in track.items() if box.needs_roll] == [2, 5, 6, 7, 8, 9]


def test_15_0_A_no_roll_on_turn_1_and_automatic_turns_need_none(module) -> None:
    track = turn_record(module)
    assert weather_for(1, None, track) == "clear"
    assert weather_for(3, None, track) == "rasputitsa"
    assert weather_for(12, None, track) == "snow"
    with pytest.raises(ValueError):
        weather_for(1, 4, track)
    with pytest.raises(ValueError):
        weather_for(4, 1, track)  # automatic: the die is not rolled
    with pytest.raises(ValueError):
        weather_for(2, None, track)
    with pytest.raises(ValueError):
        weather_for(14, None, track)


def test_15_0_B_the_die_against_the_ranges(module) -> None:
    track = turn_record(module)
    assert [weather_for(2, r, track) for r in range(1, 7)] == ["rasputitsa"] * 4 + ["clear"] * 2
    assert [weather_for(6, r, track) for r in range(1, 7)] == [
        "rasputitsa", "rasputitsa", "clear", "clear", "clear", "snow"]
    assert [weather_for(9, r, track) for r in range(1, 7)] == ["snow"] * 4 + ["clear"] * 2


# -- 16.0-16.4 victory ----------------------------------------------------------------------------
def test_16_1_16_3_the_charts_schedule_is_the_rulebooks(module) -> None:
    assert VictorySchedule.of(module) == VictorySchedule.rulebook()


@pytest.mark.parametrize("difference, level", [
    (100, "German Strategic"), (31, "German Strategic"), (30, "German Tactical"),
    (1, "German Tactical"), (0, "Soviet Tactical"), (-20, "Soviet Tactical"),
    (-21, "Soviet Strategic"), (-200, "Soviet Strategic")])
def test_16_3_thresholds(module, difference: int, level: str) -> None:
    assert victory_level(difference, VictorySchedule.of(module)) == level


def test_16_0_A_a_german_unit_in_moscow_at_the_end_of_a_turn_wins(module, facts) -> None:
    schedule = VictorySchedule.of(module)
    assert german_holds_moscow(facts.moscow, hexes(facts.board, "2808", "1511"))
    assert not german_holds_moscow(facts.moscow, hexes(facts.board, "2708"))
    won = game_result(schedule, german_in_moscow=True, german_points=0, soviet_points=90)
    assert (won.level, won.automatic) == ("German Strategic", True)


def test_16_1_casualty_points(module) -> None:
    schedule = VictorySchedule.of(module)
    losses = ([GermanLoss("infantry", False)] * 3 + [GermanLoss("infantry", True)] * 2
              + [GermanLoss("mechanized", False), GermanLoss("mechanized", True),
                 GermanLoss("armor", False), GermanLoss("armor", True)])
    assert casualty_points(losses, schedule) == 3 + 6 + 4 + 12 + 5 + 15
    with pytest.raises(ValueError):
        casualty_points([GermanLoss("cavalry", True)], schedule)


def test_16_2_thirty_vps_per_supplied_hex_adjacent_to_moscow(module, facts) -> None:
    board, schedule = facts.board, VictorySchedule.of(module)
    around = labels(board, board.neighbours(facts.moscow))
    assert sorted(around) == ["2707", "2708", "2807", "2809", "2907", "2908"]
    held = {board.hex("2707"): True, board.hex("2708"): True, board.hex("2809"): False,
            board.hex("2706"): True}  # 2809 out of supply; 2706 is not adjacent
    assert moscow_points(board, facts.moscow, held, schedule) == 60


def test_16_4_the_higher_bid_plays_the_germans_and_the_bid_goes_to_the_soviets(module) -> None:
    schedule = VictorySchedule.of(module)
    assert play_balance({"anna": 15, "boris": 25}) == ("boris", 25)
    result = game_result(schedule, german_in_moscow=False, german_points=60, soviet_points=30,
                         bid=25)
    assert (result.soviet_points, result.difference, result.level) == (55, 5, "German Tactical")
    with pytest.raises(IllegalOrder) as refused:
        play_balance({"anna": 20, "boris": 20})
    assert refused.value.code == "bid-tie"
    with pytest.raises(IllegalOrder):
        play_balance({"anna": -5, "boris": 0})


# -- 1.3 set-up zones -----------------------------------------------------------------------------
def test_1_3_1_G_infantry_in_the_front_line_or_up_to_column_20(facts) -> None:
    board = facts.board
    for label in ("2121", "2010", "1909", "1605"):  # 2121: a front-line hex in column 21
        check_soviet_placement(facts, "infantry", board.hex(label), 0)
    for label in ("2110", "2808"):
        with pytest.raises(IllegalOrder) as refused:
            check_soviet_placement(facts, "infantry", board.hex(label), 0)
        assert refused.value.rule == "1.3.1 G"
    with pytest.raises(IllegalOrder) as refused:
        check_soviet_placement(facts, "infantry", board.hex("1511"), 0)  # German side
    assert refused.value.code == "bad-setup-hex"


def test_1_3_1_H_armor_mech_cavalry_east_of_column_20_never_in_the_front_line(facts) -> None:
    board = facts.board
    for kind in ("armor", "mechanized", "cavalry"):
        check_soviet_placement(facts, kind, board.hex("2808"), 0)
        for label in ("2121", "2010", "1710"):
            with pytest.raises(IllegalOrder) as refused:
                check_soviet_placement(facts, kind, board.hex(label), 0)
            assert refused.value.rule == "1.3.1 H"


def test_1_3_1_E_I_two_units_a_hex_and_no_siberian_on_the_map(facts) -> None:
    board = facts.board
    check_soviet_placement(facts, "infantry", board.hex("1909"), 1)
    with pytest.raises(IllegalOrder) as refused:
        check_soviet_placement(facts, "infantry", board.hex("1909"), 2)
    assert refused.value.rule == "1.3.1 E"
    with pytest.raises(IllegalOrder) as refused:
        check_soviet_placement(facts, "infantry", board.hex("1909"), 0, siberian=True)
    assert refused.value.rule == "1.3.1 I"


def soviet_setup(facts, pieces) -> dict[str, Hex]:
    """A legal Soviet set-up: two infantry in each front-line hex, the rest of the
    infantry one a hex up to column 20, the others one a hex east of it."""
    board = facts.board
    infantry = sorted(u for u, p in pieces.items() if p.setup == "infantry-zone")
    others = sorted(u for u, p in pieces.items() if p.setup == "east-of-20")
    front = sorted(facts.front_line)
    behind = [h for h in board if facts.side_of[h] == "soviet" and h not in facts.front_line
              and board.grid.to_offset(h)[0] <= 20]
    east = [h for h in board if facts.side_of[h] == "soviet" and h not in facts.front_line
            and board.grid.to_offset(h)[0] > 20]
    spots = [h for h in front for _ in range(2)] + behind
    placed = dict(zip(infantry, spots, strict=False))
    placed.update(zip(others, east, strict=False))
    return placed


def soviets(pieces) -> dict[str, Piece]:
    return {u: p for u, p in pieces.items() if p.side == "soviet"}


def test_1_3_1_a_complete_soviet_set_up_passes(facts, pieces) -> None:
    check_soviet_setup(facts, soviets(pieces), soviet_setup(facts, pieces))


def test_1_3_1_F_every_front_line_hex_holds_exactly_two(facts, pieces) -> None:
    placed = soviet_setup(facts, pieces)
    board = facts.board
    # move one unit out of a front-line hex to a hex behind it
    unit = next(u for u, h in placed.items() if h in facts.front_line)
    left = placed[unit]
    placed[unit] = next(h for h in board if facts.side_of[h] == "soviet"
                        and h not in placed.values() and board.grid.to_offset(h)[0] <= 20
                        and h not in facts.front_line)
    with pytest.raises(IllegalOrder) as refused:
        check_soviet_setup(facts, soviets(pieces), placed)
    assert refused.value.rule == "1.3.1 F" and board.label(left) in refused.value.message


def test_1_3_1_C_every_soviet_unit_but_the_siberians_is_placed(facts, pieces) -> None:
    placed = soviet_setup(facts, pieces)
    del placed[sorted(placed)[0]]
    with pytest.raises(IllegalOrder) as refused:
        check_soviet_setup(facts, soviets(pieces), placed)
    assert refused.value.rule == "1.3.1 C"


def german_setup(facts, pieces) -> dict[str, Hex]:
    land = sorted(u for u, p in pieces.items() if p.side == "german" and p.type != "air")
    west = [h for h in facts.board if facts.side_of[h] == "german"]
    return dict(zip(land, west, strict=False))


def germans(pieces) -> dict[str, Piece]:
    return {u: p for u, p in pieces.items() if p.side == "german"}


def test_1_3_2_german_set_up_west_of_the_front_line_within_stacking(facts, pieces) -> None:
    board = facts.board
    check_german_setup(facts, germans(pieces), german_setup(facts, pieces))
    check_german_placement(facts, "armor", board.hex("1610"), 3)
    with pytest.raises(IllegalOrder) as refused:
        check_german_placement(facts, "armor", board.hex("1610"), 4)
    assert refused.value.rule == "1.3.2 D"
    with pytest.raises(IllegalOrder) as refused:
        check_german_placement(facts, "infantry", board.hex("1710"), 0)  # Yartsevo, Soviet
    assert refused.value.rule == "1.3.2 C"
    with pytest.raises(IllegalOrder) as refused:
        check_german_placement(facts, "air", board.hex("1610"), 0)
    assert refused.value.rule == "1.3.2 E"


def test_1_3_2_B_every_german_land_unit_begins_on_the_map(facts, pieces) -> None:
    placed = german_setup(facts, pieces)
    del placed["GER-XX-197"]
    with pytest.raises(IllegalOrder) as refused:
        check_german_setup(facts, germans(pieces), placed)
    assert refused.value.rule == "1.3.2 B" and "GER-XX-197" in refused.value.message


def test_9_0_the_supply_network_is_every_hex_a_supply_line_leaves_from() -> None:
    """Issue 13: one search from the roads outward (`supply_network`) gives the same
    answer as one supply line traced from each hex, in the example game's last position,
    for both sides, with Soviet hexes interdicted by one and two air units (11.3)."""
    from adjudicator.games.moscow.data import Game
    from adjudicator.games.moscow.supply import (
        SupplyRates,
        supplied_hexes,
        supply_lines,
        supply_network,
        supply_roads,
    )
    from adjudicator.games.moscow.terrain import Terrain
    from adjudicator.referee.gamedir import load_game

    game_dir = Path(__file__).resolve().parent.parent / "examples" / "moscow"
    loaded = load_game(game_dir / "journal.jsonl")
    state, module = loaded.state, loaded.module
    game, terrain = Game.of(module), Terrain.of(module)
    soviet_hexes = sorted({x for u, x in state["units"].items() if u not in game.pieces
                           or game.pieces[u].side == "soviet"})
    state["interdicted"] = {soviet_hexes[0]: 1, soviet_hexes[1]: 2}
    for side in ("german", "soviet"):
        lines = supply_lines(game, terrain, state, side)
        roads = supply_roads(game.board, lines)
        traced = {h for h in game.board
                  if supply_line(game.board, h, lines, terrain.enter_cost, roads=roads)}
        rates = SupplyRates(game.board, lines.cities, terrain.enter_cost, terrain.mp_scale)
        network = supply_network(game.board, lines, rates)
        assert network == traced
        assert supplied_hexes(game, terrain, state, side) == network
        assert 0 < len(network) < len(list(game.board))
