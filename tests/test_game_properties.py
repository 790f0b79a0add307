"""Properties of every registered game (docs/architecture.md, Testing), played by a random player
who picks
each order from the rules' own listing of the legal orders (engine/listing.py):

- every listed order is accepted when it is played (or stops for a decision);
- replay is deterministic: the same orders with the same seeds give the same events and
  state hashes, in this process and in one with another PYTHONHASHSEED, and applying the
  recorded events (read back from JSON, as the journal does) reproduces every state;
- the state hash changes exactly when the canonical state does;
- no unit is ever in two places (on the map and in a pool, or in two pools);
- the stacking limits hold whenever a phase has ended;
- random and mutated orders never raise anything but the project's own errors.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.dice import DiceStream
from adjudicator.engine.events import Event
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State, canonical_json, copy_state, state_hash
from adjudicator.engine.step import run_step
from adjudicator.errors import PbemError
from adjudicator.games import GAME_IDS, get_game

ROOT = Path(__file__).resolve().parent.parent
PLAY = settings(max_examples=6, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
ORDERS_PER_GAME = 40


def moment(state: State) -> tuple[Any, ...]:
    """Where the sequence of play stands: a change means a phase has ended."""
    return tuple(state.get(key) for key in ("turn", "player", "segment", "phase"))


def check_invariants(game: str, state: State) -> None:
    rules = get_game(game).rules
    seen: Counter[str] = Counter(list(rules.positions(state)))  # the units, each once
    where: dict[str, list[str]] = {u: ["map"] for u in seen}
    for pool, units in rules.pools(state).items():
        for unit in units:
            seen[unit] += 1
            where.setdefault(unit, []).append(pool)
    twice = {u: where[u] for u, n in seen.items() if n > 1}
    assert not twice, f"{game}: units in two places at once: {twice}"


def play(game: str, choices: Any, *, orders: int = ORDERS_PER_GAME,
         seed: bytes = b"\x07" * 32, start: State | None = None) -> list[dict[str, Any]]:
    """A random game: each step one legal order of the acting side, chosen by `choices`
    (an index into the listing, or a function of its length), from the scenario's start
    or from `start`. Returns the steps: the order, the events and the state hash after
    it."""
    package = get_game(game)
    rules, module = package.rules, package.bundled_module
    scenario = package.scenarios()[0][0]
    state = rules.initial_state(module, scenario, {}) if start is None else copy_state(start)
    steps: list[dict[str, Any]] = []
    for seq in range(1, orders + 1):
        side = rules.acting_side(state)
        if side is None:
            break
        listing = rules.legal_orders(module, state, side)
        assert listing.orders, f"{game}: no legal order for {side} at {moment(state)}"
        pick = choices(len(listing.orders))
        order = listing.orders[pick]
        dice = DiceStream(seed, f"prop-{game}", seq, b"entropy")
        before = moment(state)
        result = run_step(rules, module, state, [order.to_order()], side, dice)
        assert result.rejection is None, \
            f"{game}: the listed {order.to_xml()} was refused: {result.rejection.as_record()}"
        replayed = copy_state(state)
        for event in result.events:
            rules.apply(replayed, Event.from_json(json.loads(json.dumps(event.to_json()))))
        assert state_hash(replayed) == state_hash(result.state)
        state = result.state
        check_invariants(game, state)
        if moment(state) != before:
            problems = rules.stacking_problems(module, state)
            assert not problems, f"{game}: stacking at {moment(state)}: {problems}"
        steps.append({"order": order.to_xml(), "events": [e.to_json() for e in result.events],
                      "hash": state_hash(state)})
    return steps


def with_units_on_the_map(game: str, *, orders: int = 10) -> State:
    """The scenario's start, or, for a game whose set-up begins with an empty map, the
    position after the first listed orders that put units on it."""
    package = get_game(game)
    rules, module = package.rules, package.bundled_module
    state = rules.initial_state(module, package.scenarios()[0][0], {})
    for seq in range(1, orders + 1):
        side = rules.acting_side(state)
        if rules.positions(state) or side is None:
            break
        order = rules.legal_orders(module, state, side).orders[0]
        dice = DiceStream(b"\x07" * 32, f"units-{game}", seq, b"entropy")
        state = run_step(rules, module, state, [order.to_order()], side, dice).state
    return state


@pytest.mark.parametrize("game", GAME_IDS)
@PLAY
@given(data=st.data())
def test_random_play_by_the_listed_orders(game: str, data: st.DataObject) -> None:
    def choose(n: int) -> int:
        return data.draw(st.integers(0, n - 1))
    first = play(game, choose)
    assert first


def in_progress(game: str) -> State:
    """The position half-way through the game's example (examples/), rebuilt from the
    events its journal records: a game well past its set-up and not over."""
    package = get_game(game)
    rules = package.rules
    for journal in sorted((ROOT / "examples").glob("*/journal.jsonl")):
        header, *lines = [json.loads(x) for x in journal.read_text("utf-8").splitlines()]
        if header["module"]["id"] != game or header.get("position"):
            continue
        state = rules.initial_state(package.bundled_module, header["scenario"],
                                    header["options"])
        steps = [x for x in lines if x.get("type") == "step"]
        for line in steps[:len(steps) // 2]:
            for event in line["events"]:
                rules.apply(state, Event.from_json(event))
        return state
    pytest.skip(f"{game} has no example game")


@pytest.mark.parametrize("game", GAME_IDS)
def test_random_play_by_the_listed_orders_from_a_game_in_progress(game: str) -> None:
    rng = random.Random(game)
    steps = play(game, lambda n: rng.randrange(n), start=in_progress(game))
    assert steps


@pytest.mark.parametrize("game", GAME_IDS)
def test_replay_is_deterministic_in_this_process_and_with_another_hash_seed(game: str) -> None:
    def choose(n: int) -> int:
        return (n * 7 + 3) % n
    once, twice = play(game, choose), play(game, choose)
    assert once == twice
    digest = hashlib.sha256(canonical_json(once)).hexdigest()
    code = ("import hashlib, sys; sys.path.insert(0, '.');"
            "from tests.test_game_properties import play;"
            "from adjudicator.engine.state import canonical_json;"
            f"steps = play({game!r}, lambda n: (n * 7 + 3) % n);"
            "print(hashlib.sha256(canonical_json(steps)).hexdigest())")
    runs = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONHASHSEED": hash_seed})
            for hash_seed in ("1", "4242")]  # side by side: the two replays are independent
    for run in runs:
        out, err = run.communicate()
        assert run.returncode == 0, err
        assert out.strip() == digest, err


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_state_hash_changes_exactly_when_the_state_does(game: str) -> None:
    state = with_units_on_the_map(game)
    same = json.loads(json.dumps(state, sort_keys=False))
    reordered = dict(reversed(list(same.items())))
    assert state_hash(reordered) == state_hash(state) == state_hash(copy.deepcopy(state))
    units = get_game(game).rules.positions(state)
    assert units, f"{game}: nothing on the map"
    moved = copy_state(state)
    unit = sorted(units)[0]
    moved["units"][unit] = f"{moved['units'][unit]}-elsewhere"
    assert state_hash(moved) != state_hash(state)


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_orders_raise_only_the_projects_own_errors(game: str,
                                                          data: st.DataObject) -> None:
    package = get_game(game)
    rules, module = package.rules, package.bundled_module
    state = rules.initial_state(module, package.scenarios()[0][0], {})
    side = rules.acting_side(state) or rules.sides[0]
    listing = rules.legal_orders(module, state, side)
    words = sorted({w for o in listing.orders for v in o.attributes().values()
                    for w in v.split()} | {"", "-1", "0", "999999", "x" * 300, "\u202e", "a b"})
    kinds = sorted({o.KIND for o in listing.orders} | {"answer", "standing", "nonsense"})
    orders = []
    for index in range(data.draw(st.integers(1, 4))):
        base = data.draw(st.sampled_from(listing.orders)) if listing.orders else None
        attrs = dict(base.attributes()) if base is not None else {}
        for name in list(attrs) + data.draw(st.lists(st.sampled_from(
                ["unit", "units", "path", "to", "hex", "hexes", "area", "target", "choice",
                 "decision", "air", "advance", "lose", "loss"]), max_size=3)):
            if data.draw(st.booleans()):
                attrs[name] = data.draw(st.sampled_from(words))
        kind = data.draw(st.sampled_from(kinds)) if data.draw(st.booleans()) else \
            (base.KIND if base is not None else "nonsense")
        orders.append(Order(kind, attrs, index=index, line=index + 2))
    dice = DiceStream(b"\x05" * 32, f"fuzz-{game}", 1, b"entropy")
    try:
        result = run_step(rules, module, state, orders, side, dice)
    except PbemError:
        return
    check_invariants(game, result.state)
