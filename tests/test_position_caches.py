"""What is computed once per position must answer as the per-question computation it
replaces (docs/architecture.md, "Performance"): the 1941 supply network traced backwards
once per side (8.1 A-B, 8.0 B) against a line traced from each hex, and the kit's
backwards trace against the forward one, on every position of the example game, and the
kit's breadth-first trace against the least-cost search it stands in for."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.events import Event
from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, HexGrid
from adjudicator.engine.search import least_costs, reachable
from adjudicator.engine.state import copy_state
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.supply import (
    in_supply,
    rail_supplied,
    sources_of,
    supply_map,
    supply_network,
)
from adjudicator.games.barbarossa.vocabulary import Side
from adjudicator.referee.gamedir import load_game

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "barbarossa" / "journal.jsonl"


def positions(every: int) -> list[tuple[GameData, dict]]:
    game = load_game(EXAMPLE)
    state = copy_state(game.initial)
    found = [(GameData.of(game.module), copy_state(state))]
    for n, line in enumerate(game.steps, start=1):
        for event in line.entry["events"]:
            game.package.rules.apply(state, Event.from_json(event))
        if n % every == 0:
            found.append((GameData.of(game.module), copy_state(state)))
    return found


@pytest.mark.parametrize("side", [Side.AXIS, Side.SOVIET])
@pytest.mark.parametrize("through_zoc", [False, True])
def test_8_1_the_supply_network_is_the_line_traced_from_every_hex(side: Side,
                                                                through_zoc: bool) -> None:
    for game, state in positions(every=6):
        terrain = supply_map(game, state, side, sources_of(game, state, side, side))
        railheads = rail_supplied(game.board, terrain)
        for length in (1, 3):
            network = supply_network(game.board, terrain, railheads, length=length,
                                     through_zoc=through_zoc)
            for h in game.board:
                assert (h in network) == in_supply(
                    game.board, h, terrain, railheads, length=length,
                    through_zoc=through_zoc), (state["turn"], state["phase"], h, length)


def test_a_trace_backwards_from_the_goals_reaches_what_the_forward_traces_do() -> None:
    grid = HexGrid(orientation="flat", shifted="even", numbering="CCRR")
    board = HexBoard(grid, {grid.parse(f"{c:02d}{r:02d}"): "clear"
                            for c in range(1, 7) for r in range(1, 6)})
    cells = sorted(board)
    goals = {cells[0], cells[7]}

    def passable(a: Hex, b: Hex) -> bool:  # one way only: never towards a smaller hex
        return b >= a or b in goals

    back = board.trace_to(goals, passable, max_length=3)
    for h in cells:
        forward = board.trace([h], passable, max_length=3)
        assert (h in back) == any(g in forward for g in goals), h
        if h in back:
            assert back[h] == min(forward[g] for g in goals if g in forward)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(edges=st.sets(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=40),
       blocked=st.sets(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=10),
       starts=st.lists(st.integers(0, 11), min_size=1, max_size=3),
       limit=st.one_of(st.none(), st.integers(0, 4)))
def test_the_breadth_first_trace_is_the_unit_cost_least_cost_search(
        edges: set[tuple[int, int]], blocked: set[tuple[int, int]], starts: list[int],
        limit: int | None) -> None:
    graph: dict[int, list[int]] = {n: [] for n in range(12)}
    for a, b in sorted(edges):
        graph[a].append(b)

    def passable(a: int, b: int) -> bool:
        return (a, b) not in blocked

    fast = reachable(starts, graph.__getitem__, passable, max_steps=limit)
    slow = least_costs(starts, graph.__getitem__, lambda a, b: 1 if passable(a, b) else None,
                       budget=limit, ties="fifo")
    assert list(fast.cost.items()) == list(slow.cost.items())
    assert list(fast.came_from.items()) == list(slow.came_from.items())


def test_4_0_a_side_s_territory_is_every_hex_it_controls() -> None:
    from adjudicator.games.barbarossa.control import control_of, territory

    for game, state in positions(every=3):
        for side in (Side.AXIS, Side.SOVIET):
            assert territory(game, state, side) == frozenset(
                h for h in game.board if control_of(game, state, h) == side)
