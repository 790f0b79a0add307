"""Moscow '41 movement (adjudicator/games/moscow/movement.py) on the real module: the
reconstructed map and TEC and the counters of pieces.xml. Rule numbers are in the test
names; the rulebook's examples of 4.5, 6.0, 6.3 and 6.4 are worked hex by hex."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.module import ModuleData, load_module
from adjudicator.errors import IllegalOrder
from adjudicator.games.moscow.data import Unit
from adjudicator.games.moscow.movement import (
    Mover,
    check_stack_move,
    disengagement_cost,
    movement_allowance,
)
from adjudicator.games.moscow.overrun import Overrun, overrun_cost
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.zoc import EnemyZones, zone_of_control, zones_of_control

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "moscow" / "data"
NOBODY: list[Unit] = []
# German infantry divisions of pieces.xml standing in for the 6.0 / 6.3 examples' units
INFANTRY = ("GER-XX-45", "GER-XX-95", "GER-XX-134", "GER-XX-167")
# 6.0 / 6.4: the Soviet units the examples imply, next to 2416, 2415 and 2417
SOVIET_LINE = ("2514", "2515", "2516")


@pytest.fixture(scope="module")
def module() -> ModuleData:
    schema = etree.RelaxNG(file=str(DATA / "module.rng"))
    return load_module((DATA / "module.xml").read_bytes(), schema, expected_game="moscow")


@pytest.fixture(scope="module")
def terrain(module: ModuleData) -> Terrain:
    return Terrain.of(module)


@pytest.fixture(scope="module")
def pieces(module: ModuleData) -> dict[str, dict[str, str]]:
    return {el.get("id"): dict(el.attrib) for el in module.findall("m:pieces/m:piece")}


def at(terrain: Terrain, label: str) -> Hex:
    return terrain.board.hex(label)


def path(terrain: Terrain, *labels: str) -> list[Hex]:
    return [at(terrain, x) for x in labels]


def enter(terrain: Terrain, a: str, b: str, armor: bool) -> Fraction | None:
    """The TEC cost of entering `b` from `a` (Armor/Mech column if `armor`)."""
    return terrain.enter_cost(at(terrain, a), at(terrain, b), armor)


def unit(terrain: Terrain, pieces: dict[str, dict[str, str]], uid: str, label: str) -> Unit:
    p = pieces[uid]
    return Unit(uid, p["side"], p["type"], at(terrain, label))


def mover(terrain: Terrain, pieces: dict[str, dict[str, str]], uid: str, label: str, *,
          allowance: int | None = None) -> Mover:
    """A unit at the start of its Movement Phase with its printed MA (clear weather,
    supplied) unless `allowance` says otherwise."""
    u = unit(terrain, pieces, uid, label)
    return Mover.at_start(u, int(pieces[uid]["movement"]) if allowance is None else allowance)


def enemies(terrain: Terrain, side: str, *labels: str, type_: str = "infantry") -> EnemyZones:
    return EnemyZones.of(terrain, [Unit(f"{side}-{i}", side, type_, at(terrain, x))
                                   for i, x in enumerate(labels)])


def labels(terrain: Terrain, hexes: Iterable[Hex]) -> list[str]:
    return sorted(terrain.board.label(h) for h in hexes)


def refused(call: Callable[..., object], *args: object, **kwargs: object) -> IllegalOrder:
    with pytest.raises(IllegalOrder) as caught:
        call(*args, **kwargs)
    return caught.value


F = Fraction


# -- 2.2, 4.2, 4.8: the Terrain Effects Chart on the map --------------------------------------
def test_terrain_is_read_once_per_module(module: ModuleData, terrain: Terrain) -> None:
    assert Terrain.of(module) is terrain


def test_4_2_B_2_2_hex_terrain_costs(terrain: Terrain) -> None:
    assert enter(terrain, "2416", "2417", False) == 1  # clear
    assert enter(terrain, "2416", "2417", True) == 1
    assert enter(terrain, "1510", "1611", False) == 2  # light woods, 2.2 errata
    assert enter(terrain, "1510", "1611", True) == 2
    assert enter(terrain, "2416", "2316", False) == 2  # woods
    assert enter(terrain, "2416", "2316", True) == 3
    board = terrain.board
    marsh = next((a, b) for a in board for b in board.neighbours(a)
                 if board.terrain[b] == "marsh" and not board.features(a, b)
                 and b not in terrain.places)
    assert (terrain.enter_cost(*marsh, False), terrain.enter_cost(*marsh, True)) == (3, 4)


def test_4_2_D_road_hexside_replaces_the_hex_cost(terrain: Terrain) -> None:
    # 2605 -> 2606: woods through a road hexside; 2605 -> 2705: woods, no road
    assert enter(terrain, "2605", "2606", False) == 1
    assert enter(terrain, "2605", "2606", True) == F(1, 2)
    assert enter(terrain, "2605", "2705", False) == 2
    assert enter(terrain, "2605", "2705", True) == 3
    # "a road has absolutely no effect ... through a non-road hexside": 1611 has roads on
    # other hexsides, entered from 1510 it is plain light woods
    assert enter(terrain, "1510", "1611", True) == 2


def test_4_8_B_river_adds_its_cost_unless_a_road_bridges_it(terrain: Terrain) -> None:
    assert enter(terrain, "2416", "2315", False) == 3  # woods 2 + river 1
    assert enter(terrain, "2416", "2315", True) == 4  # woods 3 + river 1
    assert enter(terrain, "2504", "2505", False) == 1  # river and road: road rate
    assert enter(terrain, "2504", "2505", True) == F(1, 2)


def test_city_replaces_the_terrain_and_a_town_does_not(terrain: Terrain) -> None:
    assert terrain.places[at(terrain, "2116")] == "city"  # Bryansk, in woods
    assert enter(terrain, "2117", "2116", False) == 1
    assert enter(terrain, "2117", "2116", True) == F(1, 2)
    assert enter(terrain, "2216", "2116", True) == F(3, 2)  # city + river
    assert terrain.places[at(terrain, "1710")] == "town"  # Yartsevo, light woods
    assert enter(terrain, "1611", "1710", False) == 2


def test_4_8_D_lake_hexside_only_along_a_road(terrain: Terrain, pieces) -> None:
    assert enter(terrain, "2505", "2605", False) == 1  # the Leningrad highway causeway
    assert enter(terrain, "2505", "2605", True) == F(1, 2)
    assert enter(terrain, "2605", "2704", False) is None  # lake, no road
    assert enter(terrain, "2604", "2605", True) is None  # lake and river, no road
    for allowance in (6, 1):  # 4.3 is no way round it: no minimum move across a lake
        m = mover(terrain, pieces, "GER-XX-12", "2605", allowance=allowance)
        err = refused(check_stack_move, terrain, [m], path(terrain, "2605", "2704"),
                      enemies(terrain, "soviet"), turn=2)
        assert (err.rule, err.code) == ("4.8 D", "lake")
    leg = check_stack_move(terrain, [mover(terrain, pieces, "GER-XX-1Pz", "2505")],
                           path(terrain, "2505", "2605", "2606"), enemies(terrain, "soviet"),
                           turn=2)
    assert leg.costs("GER-XX-1Pz") == [F(1, 2), F(1, 2)]


def test_4_8_A_a_unit_may_not_leave_the_map(terrain: Terrain, pieces) -> None:
    m = mover(terrain, pieces, "GER-XX-12", "0110")
    off = terrain.board.grid.parse("0010")
    assert off not in terrain.board
    err = refused(check_stack_move, terrain, [m], [m.hex, off], enemies(terrain, "soviet"),
                  turn=2)
    assert (err.rule, err.code) == ("4.8 A", "off-map")


# -- 5.0: zones of control -----------------------------------------------------------------
def test_5_0_A_six_adjacent_hexes(terrain: Terrain) -> None:
    zone = zone_of_control(terrain.board, at(terrain, "2416"), blocked=terrain.blocks_zoc)
    assert labels(terrain, zone) == ["2315", "2316", "2415", "2417", "2515", "2516"]


def test_5_0_C_no_zoc_across_a_lake_hexside_except_where_a_road_crosses(terrain) -> None:
    zone = zone_of_control(terrain.board, at(terrain, "2605"), blocked=terrain.blocks_zoc)
    assert labels(terrain, zone) == ["2504", "2505", "2606", "2705"]  # not 2604, 2704


def test_5_0_D_zones_add_nothing(terrain: Terrain) -> None:
    units = [Unit("a", "soviet", "infantry", at(terrain, "2515")),
             Unit("b", "soviet", "armor", at(terrain, "2515")),
             Unit("c", "soviet", "infantry", at(terrain, "2516"))]
    together = zones_of_control(terrain.board, units, blocked=terrain.blocks_zoc)
    assert "2416" in labels(terrain, together) and len(together) == 10
    zones = EnemyZones.of(terrain, units)
    assert zones.zoc == together
    assert at(terrain, "2415") not in zones.zoc_without(at(terrain, "2515"))


# -- 2.7, 9.1 A, 15.1 A, 15.2 A: movement allowance -----------------------------------------
def test_2_7_printed_ma_in_clear_weather(pieces) -> None:
    assert movement_allowance(int(pieces["GER-XX-12"]["movement"]), german=True) == 6


def test_15_1_A_rasputitsa_halves_german_ma_rounding_up(pieces) -> None:
    assert movement_allowance(6, german=True, weather="rasputitsa") == 3
    assert movement_allowance(int(pieces["GER-XX-18Pz"]["movement"]), german=True,
                              weather="rasputitsa") == 4
    assert movement_allowance(5, german=True, weather="rasputitsa") == 3  # 2 1/2 -> 3
    assert movement_allowance(5, german=False, weather="rasputitsa") == 5  # Soviets not


def test_15_2_A_snow_minus_one_except_the_siberians(pieces) -> None:
    assert pieces["SOV-XX-32"]["marking"] == "siberian"
    assert movement_allowance(6, german=True, weather="snow") == 5
    assert movement_allowance(8, german=True, weather="snow") == 7
    assert movement_allowance(5, german=False, weather="snow") == 4
    assert movement_allowance(int(pieces["SOV-XX-32"]["movement"]), german=False,
                              siberian=True, weather="snow") == 5


def test_9_1_A_unsupplied_halved_dropping_fractions_after_the_weather() -> None:
    assert movement_allowance(6, german=True, supplied=False) == 3
    assert movement_allowance(7, german=False, supplied=False) == 3
    assert movement_allowance(5, german=False, supplied=False) == 2
    # weather on the printed MA first, then 9.1 A on the turn's MA
    assert movement_allowance(6, german=True, supplied=False, weather="rasputitsa") == 1
    assert movement_allowance(6, german=True, supplied=False, weather="snow") == 2
    assert movement_allowance(5, german=False, siberian=True, supplied=False,
                              weather="snow") == 2


def test_unknown_weather_is_an_error() -> None:
    with pytest.raises(ValueError):
        movement_allowance(6, german=True, weather="mud")


# -- 4.5: stack movement, the rulebook example ------------------------------------------------
def test_4_5_example_12th_and_251st_divisions(terrain: Terrain, pieces) -> None:
    """1510 -> 1611 as a stack for 2 MPs; the 12th on to 1710 and 1810 for 4 more (6);
    the 251st to 1711 and 1812, also all of its MA."""
    assert pieces["GER-XX-12"]["movement"] == pieces["GER-XX-251"]["movement"] == "6"
    nobody = EnemyZones.of(terrain, NOBODY)
    stack = [mover(terrain, pieces, "GER-XX-12", "1510"),
             mover(terrain, pieces, "GER-XX-251", "1510")]
    leg = check_stack_move(terrain, stack, path(terrain, "1510", "1611"), nobody, turn=2)
    assert leg.costs("GER-XX-12") == leg.costs("GER-XX-251") == [2]
    twelfth, two_fifty_first = leg.movers
    alone = check_stack_move(terrain, [twelfth], path(terrain, "1611", "1710", "1810"),
                             nobody, turn=2, left_behind=1)
    assert alone.costs("GER-XX-12") == [2, 2] and alone.spent("GER-XX-12") == 6
    rest = check_stack_move(terrain, [two_fifty_first], path(terrain, "1611", "1711", "1812"),
                            nobody, turn=2)
    assert rest.costs("GER-XX-251") == [2, 2] and rest.spent("GER-XX-251") == 6
    # all of its MA: not one hex more (4.1 A), and no minimum move after moving (4.3)
    err = refused(check_stack_move, terrain, rest.movers, path(terrain, "1812", "1813"),
                  nobody, turn=2)
    assert (err.rule, err.code) == ("4.1 A", "too-far")


def test_4_5_A_at_most_four_units_that_began_together(terrain: Terrain, pieces) -> None:
    nobody = EnemyZones.of(terrain, NOBODY)
    five = [mover(terrain, pieces, uid, "1510")
            for uid in ("GER-XX-5", "GER-XX-6", "GER-XX-7", "GER-XX-8", "GER-XX-12")]
    err = refused(check_stack_move, terrain, five, path(terrain, "1510", "1611"), nobody,
                  turn=2)
    assert (err.rule, err.code) == ("4.5 A", "stack")
    check_stack_move(terrain, five[:4], path(terrain, "1510", "1611"), nobody, turn=2)
    # the 251st came into 1510 during the phase: it did not begin there with the 12th
    late = Mover(unit(terrain, pieces, "GER-XX-251", "1510"), 6, at(terrain, "1410"),
                 spent=F(2))
    err = refused(check_stack_move, terrain, [five[4], late], path(terrain, "1510", "1611"),
                  nobody, turn=2)
    assert err.rule == "4.5 A" and "did not begin" in err.message


def test_4_5_B_a_stack_moves_at_the_rate_of_its_slowest_unit(terrain: Terrain, pieces) -> None:
    nobody = EnemyZones.of(terrain, NOBODY)
    stack = [mover(terrain, pieces, "GER-XX-12", "1510"),
             mover(terrain, pieces, "GER-XX-1Pz", "1510")]
    leg = check_stack_move(terrain, stack, path(terrain, "1510", "1611", "1711", "1812"),
                           nobody, turn=2)
    assert leg.spent("GER-XX-12") == 6 and leg.spent("GER-XX-1Pz") == 6
    err = refused(check_stack_move, terrain, stack,
                  path(terrain, "1510", "1611", "1711", "1812", "1813"), nobody, turn=2)
    assert err.rule == "4.5 B" and "GER-XX-12" in err.message
    # 4.5 C-D: the panzer division splits off and goes on with its own MPs
    panzer = leg.movers[1]
    on = check_stack_move(terrain, [panzer], path(terrain, "1812", "1711"), nobody, turn=2,
                          left_behind=1)
    assert on.costs("GER-XX-1Pz") == [2] and on.spent("GER-XX-1Pz") == 8


def test_4_5_each_unit_pays_its_own_tec_column(terrain: Terrain, pieces) -> None:
    nobody = EnemyZones.of(terrain, NOBODY)
    stack = [mover(terrain, pieces, "GER-XX-12", "1510"),
             mover(terrain, pieces, "GER-XX-1Pz", "1510")]
    leg = check_stack_move(terrain, stack, path(terrain, "1510", "1511", "1611"), nobody,
                           turn=2)  # both by road
    assert leg.costs("GER-XX-12") == [1, 1]
    assert leg.costs("GER-XX-1Pz") == [F(1, 2), F(1, 2)]


# -- 4.1, 4.3, 4.4 ---------------------------------------------------------------------------
def test_4_4_never_into_an_enemy_hex(terrain: Terrain, pieces) -> None:
    m = mover(terrain, pieces, "GER-XX-12", "1510", allowance=1)
    err = refused(check_stack_move, terrain, [m], path(terrain, "1510", "1611"),
                  enemies(terrain, "soviet", "1611"), turn=2)
    assert (err.rule, err.code) == ("4.4", "enemy-hex")


def test_4_3_minimum_move_one_hex_for_all_mps(terrain: Terrain, pieces) -> None:
    ma = movement_allowance(6, german=True, supplied=False, weather="rasputitsa")
    assert ma == 1
    m = mover(terrain, pieces, "GER-XX-12", "1510", allowance=ma)
    nobody = EnemyZones.of(terrain, NOBODY)
    leg = check_stack_move(terrain, [m], path(terrain, "1510", "1611"), nobody, turn=2)
    assert leg.costs("GER-XX-12") == [1] and leg.steps[0].minimum_move
    assert leg.movers[0].finished and leg.spent("GER-XX-12") == 1
    # one hex only
    err = refused(check_stack_move, terrain, [m], path(terrain, "1510", "1611", "1711"),
                  nobody, turn=2)
    assert (err.rule, err.code) == ("4.3", "minimum-move")
    # only as the first move from the start hex: it has ended the unit's movement
    err = refused(check_stack_move, terrain, leg.movers, path(terrain, "1611", "1711"),
                  nobody, turn=2)
    assert (err.rule, err.code) == ("4.3", "finished")
    moved = Mover(unit(terrain, pieces, "GER-XX-251", "1510"), 3, at(terrain, "1410"),
                  spent=F(2))
    err = refused(check_stack_move, terrain, [moved], path(terrain, "1510", "1611"), nobody,
                  turn=2)
    assert (err.rule, err.code) == ("4.1 A", "too-far")


def test_4_3_no_minimum_move_to_disengage(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    m = mover(terrain, pieces, INFANTRY[0], "2416", allowance=1)
    for turn in (1, 2):  # even on Turn 1, when the disengagement itself is free (3.2 D)
        err = refused(check_stack_move, terrain, [m], path(terrain, "2416", "2316"), soviets,
                      turn=turn, left_behind=1)
        assert (err.rule, err.code) == ("4.1 A", "too-far")


# -- 4.7: zones of control in movement ---------------------------------------------------------
def test_4_7_A_B_must_stop_on_entering_an_ezoc(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    m = mover(terrain, pieces, INFANTRY[0], "2316")
    err = refused(check_stack_move, terrain, [m], path(terrain, "2316", "2416", "2417"),
                  soviets, turn=2)
    assert (err.rule, err.code) == ("4.7 B", "zoc-stop")
    leg = check_stack_move(terrain, [m], path(terrain, "2316", "2416"), soviets, turn=2)
    assert leg.movers[0].halted
    # 4.7 D, 6.1: German infantry disengages only from its start hex
    err = refused(check_stack_move, terrain, leg.movers, path(terrain, "2416", "2316"),
                  soviets, turn=2, left_behind=1)
    assert (err.rule, err.code) == ("6.1", "disengagement")


def test_4_7_C_friendly_units_do_not_negate_an_ezoc(terrain: Terrain, pieces) -> None:
    """German units already in 2416 change nothing for a unit entering it: the enemy
    zones are built from the enemy units alone."""
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    m = mover(terrain, pieces, INFANTRY[0], "2316")
    err = refused(check_stack_move, terrain, [m], path(terrain, "2316", "2416", "2417"),
                  soviets, turn=2, left_behind=3)
    assert err.rule == "4.7 B"


# -- 6.0-6.4: disengagement ---------------------------------------------------------------------
def four_in_2416(terrain: Terrain, pieces) -> list[Mover]:
    return [mover(terrain, pieces, uid, "2416") for uid in INFANTRY]


def test_6_0_example_disengaging_from_2416(terrain: Terrain, pieces) -> None:
    """Four German units in 2416, Soviet units in 2514-2516: three may leave as a stack
    for +3 MPs into 2315 or 2316, not directly into 2415 or 2417."""
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    assert all(at(terrain, x) in soviets.zoc for x in ("2415", "2416", "2417"))
    assert at(terrain, "2315") not in soviets.zoc and at(terrain, "2316") not in soviets.zoc
    three = four_in_2416(terrain, pieces)[:3]
    to_2315 = check_stack_move(terrain, three, path(terrain, "2416", "2315"), soviets, turn=2,
                               left_behind=1)
    assert to_2315.steps[0].disengagement
    assert all(c == [2 + 1 + 3] for c in map(to_2315.costs, INFANTRY[:3]))  # woods, river, +3
    to_2316 = check_stack_move(terrain, three, path(terrain, "2416", "2316"), soviets, turn=2,
                               left_behind=1)
    assert to_2316.costs(INFANTRY[0]) == [2 + 3]
    for there in ("2415", "2417"):
        err = refused(check_stack_move, terrain, three, path(terrain, "2416", there), soviets,
                      turn=2, left_behind=1)
        assert (err.rule, err.code) == ("6.4", "zoc-to-zoc")
    # "individually if desired"
    one = check_stack_move(terrain, three[:1], path(terrain, "2416", "2316"), soviets,
                           turn=2, left_behind=3)
    assert one.costs(INFANTRY[0]) == [5]


def test_6_0_example_then_on_into_2415(terrain: Terrain, pieces) -> None:
    """Once in 2315 the units may re-enter an EZOC: 2315 -> 2415 costs its terrain only
    (clear 1 + river 1); the +3 is paid once ("a total cost of 3 MPs" of extra cost).

    The reconstructed terrain makes this too dear for German infantry (MA 6): 2315 is
    woods behind a river, so 2416 -> 2315 already takes 6 MPs. The route works on Turn 1
    (no disengagement cost, 3.2 D) and for panzer divisions (+2, 6.2)."""
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    three = four_in_2416(terrain, pieces)[:3]
    first = check_stack_move(terrain, three, path(terrain, "2416", "2315"), soviets, turn=2,
                             left_behind=1)
    assert first.spent(INFANTRY[0]) == 6
    err = refused(check_stack_move, terrain, first.movers, path(terrain, "2315", "2415"),
                  soviets, turn=2)
    assert (err.rule, err.code) == ("4.5 B", "too-far")
    # Turn 1
    first = check_stack_move(terrain, three, path(terrain, "2416", "2315"), soviets, turn=1,
                             left_behind=1)
    then = check_stack_move(terrain, first.movers, path(terrain, "2315", "2415"), soviets,
                            turn=1)
    assert then.costs(INFANTRY[0]) == [2] and then.spent(INFANTRY[0]) == 5
    assert not then.steps[0].disengagement and all(m.halted for m in then.movers)
    # panzer divisions, in one leg: the +2 once, on leaving 2416
    panzers = [mover(terrain, pieces, uid, "2416") for uid in ("GER-XX-3Pz", "GER-XX-9Pz")]
    leg = check_stack_move(terrain, panzers, path(terrain, "2416", "2315", "2415"), soviets,
                           turn=2, left_behind=1)
    assert leg.costs("GER-XX-3Pz") == [3 + 1 + 2, 1 + 1] and leg.spent("GER-XX-9Pz") == 8


def test_6_0_B_a_friendly_unit_must_remain(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    err = refused(check_stack_move, terrain, four_in_2416(terrain, pieces),
                  path(terrain, "2416", "2315"), soviets, turn=2, left_behind=0)
    assert (err.rule, err.code) == ("6.0 B", "no-detachment")


def test_6_3_example_detachment_left_in_contact(terrain: Terrain, pieces) -> None:
    """Disengage two units of a three-unit stack, move another unit into the hex, then
    disengage the third."""
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    a, b, c = four_in_2416(terrain, pieces)[:3]
    check_stack_move(terrain, [a, b], path(terrain, "2416", "2316"), soviets, turn=2,
                     left_behind=1)
    err = refused(check_stack_move, terrain, [c], path(terrain, "2416", "2316"), soviets,
                  turn=2, left_behind=0)
    assert err.rule == "6.0 B"
    came = check_stack_move(terrain, [mover(terrain, pieces, INFANTRY[3], "2316")],
                            path(terrain, "2316", "2416"), soviets, turn=2)
    assert came.movers[0].halted and came.spent(INFANTRY[3]) == 1
    leg = check_stack_move(terrain, [c], path(terrain, "2416", "2316"), soviets, turn=2,
                           left_behind=1)
    assert leg.costs(INFANTRY[2]) == [5]


def test_6_1_soviet_units_pay_3_and_only_from_their_start_hex(terrain: Terrain, pieces) -> None:
    germans = enemies(terrain, "german", "2515", "2516", type_="armor")
    tank = mover(terrain, pieces, "SOV-X-4T", "2416")
    rifle = mover(terrain, pieces, "SOV-XX-178", "2416")
    assert disengagement_cost(rifle.unit, turn=1) == 3  # 3.2 D is for German units only
    leg = check_stack_move(terrain, [rifle], path(terrain, "2416", "2316"), germans, turn=2,
                           left_behind=1)
    assert leg.costs("SOV-XX-178") == [2 + 3]
    assert tank.unit.type == "armor" and disengagement_cost(tank.unit, turn=2) == 3
    # 4.7 D, 6.1: having moved into an EZOC hex, it may not leave it
    into = check_stack_move(terrain, [mover(terrain, pieces, "SOV-XX-178", "2316")],
                            path(terrain, "2316", "2416"), germans, turn=2)
    err = refused(check_stack_move, terrain, into.movers, path(terrain, "2416", "2316"),
                  germans, turn=2, left_behind=1)
    assert err.rule == "6.1"


def test_6_2_panzers_pay_2_any_time_each_time(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    pz = mover(terrain, pieces, "GER-XX-18Pz", "2316")
    into = check_stack_move(terrain, [pz], path(terrain, "2316", "2416"), soviets, turn=2)
    assert into.movers[0].halted and into.spent("GER-XX-18Pz") == 1
    out = check_stack_move(terrain, into.movers, path(terrain, "2416", "2316"), soviets,
                           turn=2, left_behind=1)
    assert out.costs("GER-XX-18Pz") == [3 + 2] and out.spent("GER-XX-18Pz") == 6
    back = check_stack_move(terrain, out.movers, path(terrain, "2316", "2416"), soviets,
                            turn=2)
    assert back.spent("GER-XX-18Pz") == 7 and back.movers[0].halted
    # a second disengagement would cost 2 + 2 more than the 1 MP it has left
    err = refused(check_stack_move, terrain, back.movers, path(terrain, "2416", "2316"),
                  soviets, turn=2, left_behind=1)
    assert err.rule == "4.1 A"


def test_3_2_D_no_german_disengagement_cost_on_turn_1(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    three = four_in_2416(terrain, pieces)[:3]
    leg = check_stack_move(terrain, three, path(terrain, "2416", "2315"), soviets, turn=1,
                           left_behind=1)
    assert leg.costs(INFANTRY[0]) == [3]
    # the other disengagement rules still hold on Turn 1
    assert refused(check_stack_move, terrain, three, path(terrain, "2416", "2415"), soviets,
                   turn=1, left_behind=1).rule == "6.4"
    assert refused(check_stack_move, terrain, four_in_2416(terrain, pieces),
                   path(terrain, "2416", "2315"), soviets, turn=1).rule == "6.0 B"


# -- 11.3: air interdiction --------------------------------------------------------------------
def test_11_3_A_B_interdiction_doubles_or_quadruples_soviet_costs(terrain, pieces) -> None:
    nobody = EnemyZones.of(terrain, NOBODY)
    rifle = mover(terrain, pieces, "SOV-XX-178", "2417")
    route = path(terrain, "2417", "2418", "2318")
    plain = check_stack_move(terrain, [rifle], route, nobody, turn=2)
    assert plain.costs("SOV-XX-178") == [1, 1]
    one = check_stack_move(terrain, [rifle], route, nobody, turn=2,
                           interdiction={at(terrain, "2418"): 1})
    assert one.costs("SOV-XX-178") == [2, 1]
    two = check_stack_move(terrain, [rifle], route, nobody, turn=2,
                           interdiction={at(terrain, "2418"): 2})
    assert two.costs("SOV-XX-178") == [4, 1]
    # German units are not affected
    german = mover(terrain, pieces, "GER-XX-12", "2417")
    leg = check_stack_move(terrain, [german], route, nobody, turn=2,
                           interdiction={at(terrain, "2418"): 2})
    assert leg.costs("GER-XX-12") == [1, 1]


def test_11_3_C_starting_in_an_interdicted_hex(terrain: Terrain, pieces) -> None:
    nobody = EnemyZones.of(terrain, NOBODY)
    rifle = mover(terrain, pieces, "SOV-XX-178", "2417")
    route = path(terrain, "2417", "2418", "2318")
    leg = check_stack_move(terrain, [rifle], route, nobody, turn=2,
                           interdiction={at(terrain, "2417"): 1})
    assert leg.costs("SOV-XX-178") == [2, 1]
    leg = check_stack_move(terrain, [rifle], route, nobody, turn=2,
                           interdiction={at(terrain, "2417"): 2})
    assert leg.costs("SOV-XX-178") == [4, 1]
    # both: they compound (RULES-ISSUES 26), 1 x 2 x 2; module 0.1.0 took the higher
    both = {at(terrain, "2417"): 1, at(terrain, "2418"): 1}
    leg = check_stack_move(terrain, [rifle], route, nobody, turn=2, interdiction=both)
    assert leg.costs("SOV-XX-178") == [4, 1]
    leg = check_stack_move(terrain, [rifle], route, nobody, turn=2, interdiction=both,
                           revised=False)
    assert leg.costs("SOV-XX-178") == [2, 1]
    # only the first hex of the phase: a later leg pays the plain cost
    later = check_stack_move(terrain, [rifle], route[:2], nobody, turn=2)
    again = check_stack_move(terrain, later.movers, [route[1], at(terrain, "2417")], nobody,
                             turn=2, interdiction={at(terrain, "2418"): 1})
    assert again.costs("SOV-XX-178") == [1]


def test_11_3_interdiction_does_not_double_the_disengagement_cost(terrain, pieces) -> None:
    germans = enemies(terrain, "german", "2516")
    rifle = mover(terrain, pieces, "SOV-XX-178", "2417")
    assert at(terrain, "2418") not in germans.zoc
    leg = check_stack_move(terrain, [rifle], path(terrain, "2417", "2418"), germans, turn=2,
                           left_behind=1, interdiction={at(terrain, "2418"): 1})
    assert leg.costs("SOV-XX-178") == [1 * 2 + 3]


# -- 7.0-7.5: overrun --------------------------------------------------------------------------
def test_7_3_overrun_costs_2_plus_the_defenders_terrain(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", "2515")
    pz = mover(terrain, pieces, "GER-XX-18Pz", "2416")
    o = overrun_cost(terrain, [pz], at(terrain, "2515"), soviets, turn=2)
    assert o.costs["GER-XX-18Pz"] == 2 + 1 and o.enough and not o.disengagement
    inf = mover(terrain, pieces, INFANTRY[0], "2416")
    woods = overrun_cost(terrain, [inf], at(terrain, "2316"),
                         enemies(terrain, "soviet", "2316"), turn=2)
    assert woods.costs[INFANTRY[0]] == 2 + 2


def test_3_2_C_turn_1_german_overrun_costs_1_plus_terrain(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", "2515")
    pz = mover(terrain, pieces, "GER-XX-18Pz", "2416")
    assert overrun_cost(terrain, [pz], at(terrain, "2515"), soviets,
                        turn=1).costs["GER-XX-18Pz"] == 1 + 1
    germans = enemies(terrain, "german", "2515")
    rifle = mover(terrain, pieces, "SOV-XX-178", "2416")
    assert overrun_cost(terrain, [rifle], at(terrain, "2515"), germans,
                        turn=1).costs["SOV-XX-178"] == 2 + 1


def test_6_4_example_overrun_into_an_ezoc_hex(terrain: Terrain, pieces) -> None:
    """The 18th and 20th Panzer Divisions overrun 2515 (Soviet units also in 2514 and
    2516); one advances into 2515 and cannot move further that phase."""
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    force = [mover(terrain, pieces, uid, "2416") for uid in ("GER-XX-18Pz", "GER-XX-20Pz")]
    o = overrun_cost(terrain, force, at(terrain, "2515"), soviets, turn=2)
    assert o.disengagement and o.into_ezoc and o.enough
    assert dict(o.costs) == {"GER-XX-18Pz": 2 + 1 + 2, "GER-XX-20Pz": 2 + 1 + 2}
    after = o.after(force, advanced={"GER-XX-18Pz"})
    assert [labels(terrain, [m.hex]) for m in after] == [["2515"], ["2416"]]
    assert all(m.finished for m in after) and all(m.spent == 5 for m in after)
    err = refused(check_stack_move, terrain, after[:1], path(terrain, "2515", "2415"),
                  soviets, turn=2)
    assert (err.rule, err.code) == ("6.4", "finished")
    # the one that stayed in 2416 is part of the overrunning force too
    err = refused(check_stack_move, terrain, after[1:], path(terrain, "2416", "2316"),
                  soviets, turn=2, left_behind=0)
    assert (err.rule, err.code) == ("6.4", "finished")
    # 6.0 B is about disengaging: both may advance (RULES-ISSUES 18)
    both = o.after(force, advanced={"GER-XX-18Pz", "GER-XX-20Pz"})
    assert [labels(terrain, [m.hex]) for m in both] == [["2515"], ["2515"]]
    # module 0.1.0 read 6.0 B into the overrun: 2416 may not be left empty
    old = overrun_cost(terrain, force, at(terrain, "2515"), soviets, turn=2, revised=False)
    err = refused(old.after, force, advanced={"GER-XX-18Pz", "GER-XX-20Pz"})
    assert err.rule == "6.0 B"
    assert not any(m.ended for m in old.after(force, advanced={"GER-XX-18Pz"}))
    # on Turn 1: 1 + terrain, and no disengagement cost (3.2 C-D)
    t1 = overrun_cost(terrain, force, at(terrain, "2515"), soviets, turn=1)
    assert t1.costs["GER-XX-18Pz"] == 1 + 1


def test_4_7_d_a_lone_unit_overruns_out_of_an_ezoc_with_nothing_left_behind(
        terrain, pieces) -> None:
    """4.7 D: overrun is a way of leaving an EZOC of its own; it pays the disengagement
    cost (7.0 D) but needs no detachment (6.0 B; RULES-ISSUES 18)."""
    soviets = enemies(terrain, "soviet", *SOVIET_LINE)
    pz = mover(terrain, pieces, "GER-XX-18Pz", "2416")
    o = overrun_cost(terrain, [pz], at(terrain, "2515"), soviets, turn=2)
    assert o.enough and o.disengagement and o.costs["GER-XX-18Pz"] == 2 + 1 + 2
    after = o.after([pz], advanced={"GER-XX-18Pz"})[0]
    assert after.finished and after.ended == "6.4"
    # module 0.1.0 refused it (6.0 B) unless a friendly unit stayed behind
    err = refused(overrun_cost, terrain, [pz], at(terrain, "2515"), soviets, turn=2,
                  revised=False)
    assert err.rule == "6.0 B"
    o = overrun_cost(terrain, [pz], at(terrain, "2515"), soviets, turn=2, left_behind=1,
                     revised=False)
    assert o.after([pz], advanced={"GER-XX-18Pz"})[0].finished
    # German infantry disengages by overrun only from its start hex (6.1)
    inf = Mover(unit(terrain, pieces, INFANTRY[0], "2416"), 6, at(terrain, "2316"),
                spent=F(1), halted=True)
    err = refused(overrun_cost, terrain, [inf], at(terrain, "2515"), soviets, turn=2,
                  left_behind=1)
    assert (err.rule, err.code) == ("6.1", "disengagement")


def test_7_4_c_after_the_overrun_a_unit_halted_in_a_cleared_hex_goes_on(
        terrain, pieces) -> None:
    """7.0 B, 7.4 C: a stack that stopped in the defender's ZOC overruns and clears the
    hex; the unit that stayed behind is no longer in any EZOC and may move on
    (RULES-ISSUES 19); a unit whose advance of two hexes ends next to an enemy stops."""
    soviets = enemies(terrain, "soviet", "2515")
    force = [mover(terrain, pieces, uid, "2316") for uid in ("GER-XX-18Pz", "GER-XX-20Pz")]
    into = check_stack_move(terrain, force, path(terrain, "2316", "2416"), soviets, turn=2)
    assert all(m.halted for m in into.movers)
    o = overrun_cost(terrain, into.movers, at(terrain, "2515"), soviets, turn=2)
    cleared: frozenset[Hex] = frozenset()
    after = o.after(into.movers, advanced={"GER-XX-18Pz"}, zoc=cleared)
    assert [m.halted for m in after] == [False, False]
    old = overrun_cost(terrain, into.movers, at(terrain, "2515"), soviets, turn=2,
                       revised=False)
    assert [m.halted for m in old.after(into.movers, advanced={"GER-XX-18Pz"},
                                        zoc=cleared)] == [False, True]
    # two hexes: the 18th ends in 2615, next to a Soviet unit that retreated to 2715
    beyond = EnemyZones.of(terrain, [unit(terrain, pieces, "SOV-XX-174", "2715")]).zoc
    two = o.after(into.movers, advanced={"GER-XX-18Pz"}, zoc=beyond,
                  ends={"GER-XX-18Pz": at(terrain, "2615")})
    assert labels(terrain, [two[0].hex]) == ["2615"] and two[0].halted
    assert not two[1].halted


def test_7_3_overrun_from_a_halted_hex_without_disengaging(terrain, pieces) -> None:
    """4.7 D: a unit that stopped on entering the defender's ZOC may still overrun it."""
    soviets = enemies(terrain, "soviet", "2515")
    m = mover(terrain, pieces, INFANTRY[0], "2316")
    into = check_stack_move(terrain, [m], path(terrain, "2316", "2416"), soviets, turn=2)
    o = overrun_cost(terrain, into.movers, at(terrain, "2515"), soviets, turn=2)
    assert o.enough and not o.disengagement and o.costs[INFANTRY[0]] == 3
    after = o.after(into.movers, advanced={INFANTRY[0]})
    assert after[0].spent == 4 and not after[0].halted and not after[0].finished


def test_7_4_stack_overrun(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", "2515")
    five = [mover(terrain, pieces, uid, "2416") for uid in
            (*INFANTRY, "GER-XX-18Pz")]
    err = refused(overrun_cost, terrain, five, at(terrain, "2515"), soviets, turn=2)
    assert err.rule == "7.4 B" and err.code == "stack"
    four = overrun_cost(terrain, five[:4], at(terrain, "2515"), soviets, turn=2)
    assert four.enough and len(four.costs) == 4
    late = Mover(unit(terrain, pieces, "GER-XX-18Pz", "2416"), 8, at(terrain, "2316"),
                 spent=F(1))
    err = refused(overrun_cost, terrain, [five[0], late], at(terrain, "2515"), soviets,
                  turn=2)
    assert err.rule == "7.4 B"


def test_7_5_C_no_overrun_across_a_lake_even_by_road(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", "2605")
    pz = mover(terrain, pieces, "GER-XX-1Pz", "2505")
    assert at(terrain, "2505") in soviets.zoc  # the road carries the ZOC across
    err = refused(overrun_cost, terrain, [pz], at(terrain, "2605"), soviets, turn=2)
    assert (err.rule, err.code) == ("7.5 C", "lake")


def test_7_0_C_7_5_A_target_adjacent_and_occupied(terrain: Terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", "2515")
    pz = mover(terrain, pieces, "GER-XX-18Pz", "2416")
    assert refused(overrun_cost, terrain, [pz], at(terrain, "2614"), soviets,
                   turn=2).rule == "7.0 C"
    assert refused(overrun_cost, terrain, [pz], at(terrain, "2417"), soviets,
                   turn=2).rule == "7.5 A"


def test_4_3_minimum_move_applies_to_an_overrun_into_the_first_hex(terrain, pieces) -> None:
    soviets = enemies(terrain, "soviet", "2515")
    weak = mover(terrain, pieces, INFANTRY[0], "2416", allowance=1)
    o = overrun_cost(terrain, [weak], at(terrain, "2515"), soviets, turn=2)
    assert o.enough and o.minimum_move and o.costs[INFANTRY[0]] == 1
    assert o.after([weak], advanced={INFANTRY[0]})[0].spent == 1
    # not after moving
    moved = Mover(weak.unit, 2, at(terrain, "2316"), spent=F(1), halted=True)
    late = overrun_cost(terrain, [moved], at(terrain, "2515"), soviets, turn=2)
    assert not late.enough and late.short == (INFANTRY[0],)
    # not when the overrun disengages
    line = enemies(terrain, "soviet", *SOVIET_LINE)
    dis = overrun_cost(terrain, [weak], at(terrain, "2515"), line, turn=2, left_behind=1)
    assert dis.disengagement and not dis.enough and not dis.minimum_move


def test_11_3_interdiction_on_a_soviet_overrun(terrain: Terrain, pieces) -> None:
    germans = enemies(terrain, "german", "2316")
    tank = mover(terrain, pieces, "SOV-X-4T", "2416")  # MA 7
    o = overrun_cost(terrain, [tank], at(terrain, "2316"), germans, turn=2,
                     interdiction={at(terrain, "2316"): 1})
    assert o.costs["SOV-X-4T"] == 2 + 3 * 2 - 1 and o.enough and o.minimum_move
    rifle = mover(terrain, pieces, "SOV-XX-178", "2416")
    o = overrun_cost(terrain, [rifle], at(terrain, "2417"), enemies(terrain, "german", "2417"),
                     turn=2, interdiction={at(terrain, "2417"): 2})
    assert o.costs["SOV-XX-178"] == 5 and o.minimum_move  # 2 + 4 x 1 = 6: all its 5 MPs
    o = overrun_cost(terrain, [rifle], at(terrain, "2417"), enemies(terrain, "german", "2417"),
                     turn=2, interdiction={at(terrain, "2417"): 1})
    assert o.costs["SOV-XX-178"] == 2 + 2 * 1 and not o.minimum_move


def test_overrun_result_type(terrain: Terrain, pieces) -> None:
    o = overrun_cost(terrain, [mover(terrain, pieces, "GER-XX-18Pz", "2416")],
                     at(terrain, "2515"), enemies(terrain, "soviet", "2515"), turn=2)
    assert isinstance(o, Overrun) and o.target == at(terrain, "2515")
