"""Property tests of the engine and Barbarossa Solitaire (docs/architecture.md, Testing).

A random German player builds each step's orders from what the rules accept
(every candidate order is tried on the position the kept orders lead to, with
the step's own committed dice), now and then slips in an order the rules
refuse, answers decisions with a random option or plays with standing
instructions. Over those games:

- replay is deterministic: adjudicating the same files with the same seeds
  gives the same events and state hashes (also in a process with another
  PYTHONHASHSEED), and applying the recorded events reproduces every state;
- the state hash changes exactly when the canonical state does, and an event
  read back from JSON (as the journal does) changes the state the same way;
- no unit is ever in two places, and every unit of the module is somewhere;
- at the end of every order the control and stacking invariants hold;
- a whole game always ends in `game-over` with a level from the victory table.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.dice import DiceStream
from adjudicator.engine.events import Event
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State, canonical_json, copy_state, state_hash
from adjudicator.engine.step import StepResult, run_step
from adjudicator.games import get_game
from adjudicator.games.solitaire.control import compute_control, is_front_line
from adjudicator.games.solitaire.data import charts_of
from adjudicator.games.solitaire.victory import german_controlled_count
from adjudicator.games.solitaire.vocabulary import Side

GERMAN, SOVIET = Side.GERMAN, Side.SOVIET

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = get_game("solitaire")
RULES = PACKAGE.rules
MODULE = PACKAGE.bundled_module
CHARTS = charts_of(MODULE)
SIDE = "german"
GAME_ID = "prop-game"
AREAS = sorted(CHARTS.board.areas)
PIECES = sorted(CHARTS.pieces)
SCENARIOS = [s for s, _ in PACKAGE.scenarios()]
OPTIONS = {key: values for key, (_, values, _) in CHARTS.option_specs.items()}
LEVELS = [level.name for level in CHARTS.victory_levels]

COMMON = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                  print_blob=True)


# -- the invariants ---------------------------------------------------------------


def turn_index(turn: str) -> int:
    return CHARTS.turn(turn).index


def check_places(state: State, *, mid_order: bool = False) -> None:
    """No unit is in two places, and every unit of the module is somewhere.

    The places are the map (`units`), the reinforcement `queue`, `out` (lost for
    good) and `unplaced` (free placement). `schedule` is not a place but a list of
    future arrivals: a unit that is in none of the places must be due there in a
    later turn than the current one. In the middle of an order (between the
    `turn-began` event and the `reinforcement-due` events after it) it may also be
    due in the current turn.
    """
    queue = [entry["unit"] for entry in state["queue"]]
    places = {
        "map": list(state["units"]),
        "queue": queue,
        "out": list(state["out"]),
        "unplaced": list(state["unplaced"]),
    }
    seen: Counter[str] = Counter()
    where: dict[str, list[str]] = {}
    for place, units in places.items():
        for unit in units:
            seen[unit] += 1
            where.setdefault(unit, []).append(place)
    twice = {u: where[u] for u, n in seen.items() if n > 1}
    assert not twice, f"units in two places at once: {twice}"
    unknown = sorted(set(seen) - set(PIECES))
    assert not unknown, f"units that are no piece of the module: {unknown}"
    now = turn_index(state["turn"])
    for unit in PIECES:
        if seen[unit]:
            continue
        due = [d for u, d in state["schedule"]
               if u == unit and turn_index(d) > now - mid_order]
        assert due, f"{unit} is nowhere: not on the map, queued, out, unplaced or due later"
    for unit, area in state["units"].items():
        assert area in CHARTS.board, f"{unit} stands in unknown area {area!r}"


def control_is_current(state: State) -> bool:
    """Control is what the position says it is: recomputing it changes nothing."""
    return compute_control(CHARTS, state, state["control"]) == state["control"]


def check_end_of_order(state: State) -> None:
    """What must hold whenever an order is finished (or stopped for a decision)."""
    check_places(state)
    unit_areas = set(state["units"].values())
    garrisons = list(state["garrisons"])
    assert len(garrisons) == len(set(garrisons)), f"a garrison twice: {garrisons}"
    assert set(state["control"]) == set(AREAS)
    assert set(state["control"].values()) <= {GERMAN, SOVIET}
    for area in sorted(unit_areas | set(garrisons)):
        assert state["control"][area] == GERMAN, \
            f"{area} holds German-side forces but is {state['control'][area]}-controlled"
    assert control_is_current(state), "control is not what the position makes it"
    shared = sorted(unit_areas & set(garrisons))
    assert not shared, f"a garrison and units share {shared}"
    by_area: dict[str, set[str]] = {}
    for unit, area in state["units"].items():
        nat = CHARTS.pieces[unit].nationality
        by_area.setdefault(area, set()).add(nat)
        if nat == "romanian":
            assert area in CHARTS.romanian_allowed, f"Romanian {unit} north of the line in {area}"
    for area, nats in sorted(by_area.items()):
        assert not {"romanian", "hungarian"} <= nats, \
            f"Romanian and Hungarian units stacked in {area}"


# -- a random German player ------------------------------------------------------


def full_standing(rng: random.Random) -> dict[str, str]:
    """Standing instructions that settle every choice: no decision can ever open."""
    pieces, areas = list(PIECES), list(AREAS)
    rng.shuffle(pieces)
    rng.shuffle(areas)
    return {"loss-priority": " ".join(pieces),
            "on-retreat-or-eliminate": rng.choice(["retreat", "eliminate"]),
            "retreat-priority": " ".join(areas)}


JUNK: list[tuple[str, dict[str, str]]] = [
    ("move", {"unit": "GER-99", "to": "warsaw"}),
    ("move", {"unit": "GER-6", "to": "atlantis"}),
    ("attack", {"target": "moscow", "units": "GER-6 GER-6"}),
    ("attack", {"target": "berlin", "units": "GER-9"}),
    ("reinforce", {"unit": "GER-6", "area": "berlin"}),
    ("garrison", {"area": "moscow"}),
    ("place", {"unit": "GER-6", "area": "berlin"}),
    ("answer", {"decision": "D99", "choice": "eliminate:GER-6"}),
    ("standing", {"on-retreat-or-eliminate": "surrender"}),
    ("parade", {"through": "moscow"}),
]


@dataclass
class Player:
    """Proposes orders at random, weighted towards the ones the rules may accept."""

    rng: random.Random
    standing_mode: bool = False
    junk_rate: float = 0.03

    def propose(self, state: State) -> tuple[str, dict[str, str]]:
        rng = self.rng
        pending = state.get("pending")
        if pending:
            if rng.random() < 0.05:
                return "answer", {"decision": pending["id"], "choice": "eliminate:NOBODY"}
            return "answer", {"decision": pending["id"], "choice": rng.choice(pending["options"])}
        if rng.random() < self.junk_rate:
            return rng.choice(JUNK)
        if not self.standing_mode and rng.random() < 0.03:
            return "standing", self.partial_standing()
        if state["phase"] == "setup":
            return self.setup_order(state)
        kind = rng.choices(["move", "garrison", "attack", "reinforce", "end-turn"],
                           weights=[5, 1, 4, 2, 1])[0]
        return getattr(self, f"propose_{kind.replace('-', '_')}")(state)

    def partial_standing(self) -> dict[str, str]:
        rng = self.rng
        attrs = {"loss-priority": " ".join(rng.sample(PIECES, rng.randint(1, 4))),
                 "retreat-priority": " ".join(rng.sample(AREAS, rng.randint(1, 6)))}
        if rng.random() < 0.5:
            attrs["on-retreat-or-eliminate"] = rng.choice(["retreat", "eliminate"])
        return attrs

    def setup_order(self, state: State) -> tuple[str, dict[str, str]]:
        rng = self.rng
        grey = [a for a in AREAS if CHARTS.start_side[a] == GERMAN]
        if state["unplaced"] and rng.random() < 0.9:
            return "place", {"unit": rng.choice(state["unplaced"]), "area": rng.choice(grey)}
        if rng.random() < 0.5:
            return "garrison", {"area": rng.choice(grey)}
        return "end-turn", {}

    def propose_move(self, state: State) -> tuple[str, dict[str, str]]:
        units = sorted(state["units"])
        if not units:
            return "end-turn", {}
        unit = self.rng.choice(units)
        here = state["units"][unit]
        near = CHARTS.board.neighbours(here)
        german = [a for a in AREAS if state["control"][a] == GERMAN]
        pool = near if near and self.rng.random() < 0.6 else german or AREAS
        return "move", {"unit": unit, "to": self.rng.choice(pool)}

    def propose_garrison(self, state: State) -> tuple[str, dict[str, str]]:
        pool = list(state["vacated"]) or AREAS
        return "garrison", {"area": self.rng.choice(pool)}

    def propose_attack(self, state: State) -> tuple[str, dict[str, str]]:
        rng = self.rng
        targets: dict[str, list[str]] = {}
        for unit, area in sorted(state["units"].items()):
            if unit in state["attacked"] or not is_front_line(CHARTS, state, area):
                continue
            for t in CHARTS.board.neighbours(area):
                if state["control"][t] == SOVIET:
                    targets.setdefault(t, []).append(unit)
        if not targets:
            return "end-turn", {}
        target = rng.choice(sorted(targets))
        units = rng.sample(targets[target], rng.randint(1, min(4, len(targets[target]))))
        attrs = {"target": target, "units": " ".join(units)}
        if rng.random() < 0.5:
            attrs["lose"] = rng.choice(units)
        return "attack", attrs

    def propose_reinforce(self, state: State) -> tuple[str, dict[str, str]]:
        if not state["queue"]:
            return "end-turn", {}
        unit = self.rng.choice(sorted(e["unit"] for e in state["queue"]))
        nat = CHARTS.nationalities[CHARTS.pieces[unit].nationality]
        return "reinforce", {"unit": unit, "area": self.rng.choice(sorted(nat.enters))}

    def propose_end_turn(self, state: State) -> tuple[str, dict[str, str]]:
        return "end-turn", {}


def skip_words(stream: DiceStream, words: int) -> DiceStream:
    """Advance a fresh stream by `words` words: uniform(2**32) takes exactly one."""
    for _ in range(words):
        stream.uniform(1 << 32)
    return stream


@dataclass
class StepRecord:
    seq: int
    seed: bytes
    entropy: bytes
    orders: list[Order]
    before: State
    result: StepResult
    order_states: list[State] = field(default_factory=list)


def must_be_accepted(state: State, kind: str, attrs: dict[str, str]) -> bool:
    """Orders the rules can never refuse: a listed answer to the open decision, and
    ending the turn when no decision is open and the set-up is done."""
    pending = state.get("pending")
    if kind == "answer":
        return bool(pending) and attrs.get("decision") == pending["id"] \
            and attrs.get("choice") in pending["options"]
    if kind == "end-turn":
        return not pending and state["phase"] not in ("setup", "game-over")
    return False


def build_step(player: Player, state: State, seq: int, seed: bytes, entropy: bytes,
               max_tries: int, force_end: bool) -> StepRecord:
    """The orders of one step: each candidate is tried, with the step's dice continuing
    where the kept orders left them, and kept if the rules accept it. Sometimes the
    step ends with an order the rules refuse; then the step stops there. The end of
    every order is checked (check_end_of_order)."""
    rng = player.rng
    orders: list[Order] = []
    events: list[Event] = []
    order_states: list[State] = []
    current, words = state, 0
    rejection = decision = None
    tries = 0
    while True:
        tries += 1
        if tries > max_tries:
            if not force_end or current.get("pending") or current["phase"] == "game-over":
                break
            kind, attrs = "end-turn", {}
        else:
            kind, attrs = player.propose(current)
        order = Order(kind, dict(attrs), index=len(orders), line=len(orders) + 3)
        dice = skip_words(DiceStream(seed, GAME_ID, seq, entropy), words)
        result = run_step(RULES, MODULE, current, [order], SIDE, dice)
        if result.rejection is not None:
            assert not must_be_accepted(current, kind, attrs), \
                f"<{kind} {attrs}> refused: {result.rejection.as_record()}"
            if kind == "end-turn" and tries > max_tries:
                break  # cannot end the turn yet (set-up not finished): stop here
            if rng.random() < 0.05:  # keep it: the step stops at a refused order
                orders.append(order)
                rejection = result.rejection
                break
            continue
        assert result.dry_run_stopped_at is None
        orders.append(order)
        events += result.events
        current, words = result.state, dice.words_used
        order_states.append(current)
        check_end_of_order(current)
        if result.decision is not None:
            decision = result.decision
            assert decision.options, "a decision with nothing to choose from"
            assert current["pending"] == decision.to_json()
            break
        if current["phase"] == "game-over":
            break
        if kind == "end-turn" and rng.random() < 0.85:
            break
    return StepRecord(seq, seed, entropy, orders, state,
                      StepResult(current, events, len(orders) - (rejection is not None),
                                 rejection=rejection, decision=decision),
                      order_states)


def adjudicate_step(state: State, rec: StepRecord) -> StepResult:
    """The real thing: the whole file at once, from a fresh committed stream."""
    return run_step(RULES, MODULE, state, rec.orders, SIDE,
                    DiceStream(rec.seed, GAME_ID, rec.seq, rec.entropy))


def seeds_for(master: int, seq: int) -> tuple[bytes, bytes]:
    h = hashlib.sha256(f"{master}/{seq}".encode()).digest()
    return h, hashlib.sha256(h).digest()[: 16 + master % 17]


def play(initial: State, rng_seed: int, *, max_steps: int, standing_mode: bool = False,
         force_end: bool = False, max_tries: int = 14) -> list[StepRecord]:
    """Play up to `max_steps` steps (or to the end of the game)."""
    player = Player(random.Random(rng_seed), standing_mode=standing_mode,
                    junk_rate=0.0 if force_end else 0.03)
    state = initial
    steps: list[StepRecord] = []
    for seq in range(1, max_steps + 1):
        if RULES.acting_side(state) is None:
            break
        seed, entropy = seeds_for(rng_seed, seq)
        rec = build_step(player, state, seq, seed, entropy, max_tries, force_end)
        steps.append(rec)
        state = rec.result.state
    return steps


def initial_state(scenario: str, options: dict[str, str]) -> State:
    return RULES.initial_state(MODULE, scenario, options)


options_strategy = st.fixed_dictionaries(
    {}, optional={key: st.sampled_from(values) for key, values in sorted(OPTIONS.items())})


# -- replay determinism ------------------------------------------------------------


def event_json(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]


@settings(COMMON, max_examples=60)
@given(scenario=st.sampled_from(SCENARIOS), options=options_strategy,
       rng_seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 10))
def test_replay_is_deterministic(scenario: str, options: dict[str, str], rng_seed: int,
                                 steps: int) -> None:
    initial = initial_state(scenario, options)
    records = play(initial, rng_seed, max_steps=steps)
    state = initial
    for rec in records:
        first = adjudicate_step(state, rec)
        second = adjudicate_step(copy_state(state), rec)
        # the whole file at once = the orders one by one, with the dice carried on
        assert event_json(first.events) == event_json(rec.result.events)
        assert first.applied == rec.result.applied
        assert (first.rejection.as_record() if first.rejection else None) == \
            (rec.result.rejection.as_record() if rec.result.rejection else None)
        assert first.decision == rec.result.decision
        # twice the same
        assert event_json(first.events) == event_json(second.events)
        assert state_hash(first.state) == state_hash(second.state) == \
            state_hash(rec.result.state)
        # the step's events, applied to the position before it, give the position after
        replayed = copy_state(state)
        for event in first.events:
            RULES.apply(replayed, event)
        assert canonical_json(replayed) == canonical_json(first.state)
        state = first.state
    # all the events of the game, applied to the initial position, give the final one
    final = copy_state(initial)
    for rec in records:
        for event in rec.result.events:
            RULES.apply(final, Event.from_json(json.loads(json.dumps(event.to_json()))))
    assert final == state


def transcript_digest(rng_seed: int, scenario: str, max_steps: int) -> str:
    """SHA-256 over every event and state hash of a seeded game (used across processes)."""
    digest = hashlib.sha256()
    for rec in play(initial_state(scenario, {"soviet": "random"}), rng_seed,
                    max_steps=max_steps):
        digest.update(canonical_json(event_json(rec.result.events)))
        digest.update(state_hash(rec.result.state).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("hash_seed", ["0", "1", "4242"])
def test_replay_does_not_depend_on_the_hash_seed(hash_seed: str) -> None:
    """Set and dict order must not leak into events: another PYTHONHASHSEED, same game."""
    here = transcript_digest(7, "campaign", 12)
    code = ("import sys; from tests.test_properties import transcript_digest; "
            "print(transcript_digest(7, 'campaign', 12))")
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == here


# -- the state hash ------------------------------------------------------------------


@settings(COMMON, max_examples=60)
@given(scenario=st.sampled_from(SCENARIOS), options=options_strategy,
       rng_seed=st.integers(0, 2**32 - 1))
def test_state_hash_changes_exactly_when_the_state_does(
        scenario: str, options: dict[str, str], rng_seed: int) -> None:
    initial = initial_state(scenario, options)
    records = play(initial, rng_seed, max_steps=5)
    state = copy_state(initial)
    from_journal = copy_state(initial)
    for rec in records:
        for event in rec.result.events:
            before_bytes, before_hash = canonical_json(state), state_hash(state)
            RULES.apply(state, event)
            after_bytes, after_hash = canonical_json(state), state_hash(state)
            assert (before_hash == after_hash) == (before_bytes == after_bytes)
            if event.kind == "roll":
                assert before_bytes == after_bytes, "a roll by itself changes nothing"
            # the journal stores events as JSON: read back, they change the state the same
            RULES.apply(from_journal,
                        Event.from_json(json.loads(canonical_json(event.to_json()))))
            assert canonical_json(from_journal) == after_bytes
            # the hash does not depend on the order keys were inserted in
            shuffled = json.loads(after_bytes, object_pairs_hook=lambda p: dict(reversed(p)))
            assert state_hash(shuffled) == after_hash
            check_places(state, mid_order=True)


# -- no unit in two places; control and stacking ------------------------------------------


@settings(COMMON, max_examples=60)
@given(scenario=st.sampled_from(SCENARIOS), options=options_strategy,
       rng_seed=st.integers(0, 2**32 - 1))
def test_no_unit_is_ever_in_two_places(scenario: str, options: dict[str, str],
                                       rng_seed: int) -> None:
    """After every single event (build_step checks the end of every order too)."""
    initial = initial_state(scenario, options)
    check_places(initial)
    state = copy_state(initial)
    for rec in play(initial, rng_seed, max_steps=8):
        for event in rec.result.events:
            RULES.apply(state, event)
            check_places(state, mid_order=True)


@settings(COMMON, max_examples=80)
@given(scenario=st.sampled_from(SCENARIOS), options=options_strategy,
       rng_seed=st.integers(0, 2**32 - 1))
def test_control_and_stacking_hold_at_the_end_of_every_order(
        scenario: str, options: dict[str, str], rng_seed: int) -> None:
    """build_step checks the end of every order the player gives (check_end_of_order)."""
    initial = initial_state(scenario, options)
    check_end_of_order(initial)
    records = play(initial, rng_seed, max_steps=8)
    assert [len(rec.order_states) for rec in records] == [rec.result.applied for rec in records]


# -- whole games ----------------------------------------------------------------------


def check_game_over(initial: State, records: list[StepRecord]) -> State:
    final = records[-1].result.state
    assert final["phase"] == "game-over", f"still {final['turn']} {final['phase']}"
    assert RULES.acting_side(final) is None
    assert final["turn"] == final["end"]
    last = records[-1].result.events[-1]
    assert last.kind == "game-ended"
    result = final["result"]
    assert result["level"] in LEVELS
    only_soviet = final["options"]["victory-count"] == "soviet-areas"
    count = german_controlled_count(CHARTS, final, only_soviet)
    assert result["areas"] == count == last["areas"]
    assert result["level"] == CHARTS.victory_level(count)
    turns = [e["turn"] for rec in records for e in rec.result.events if e.kind == "turn-began"]
    start = turn_index(initial["turn"])
    assert turns == [t.id for t in CHARTS.turns[start + 1: turn_index(final["end"]) + 1]]
    # nothing more is accepted
    late = run_step(RULES, MODULE, final, [Order("end-turn")], SIDE, None)
    assert late.rejection is not None and late.rejection.code == "game-over"
    return final


@settings(COMMON, max_examples=60)
@given(scenario=st.sampled_from(SCENARIOS), options=options_strategy,
       rng_seed=st.integers(0, 2**32 - 1))
def test_a_game_with_standing_instructions_runs_to_its_end(
        scenario: str, options: dict[str, str], rng_seed: int) -> None:
    """Standing instructions that cover every choice: no decision ever blocks the game."""
    initial = initial_state(scenario, options)
    rng = random.Random(rng_seed)
    std = run_step(RULES, MODULE, initial, [Order("standing", full_standing(rng))], SIDE, None)
    assert std.outcome == "accepted"
    records = play(std.state, rng_seed, max_steps=80, standing_mode=True, force_end=True,
                   max_tries=8)
    kinds = {e.kind for rec in records for e in rec.result.events}
    assert "decision-requested" not in kinds
    check_game_over(std.state, records)


@settings(COMMON, max_examples=60)
@given(scenario=st.sampled_from(SCENARIOS), options=options_strategy,
       rng_seed=st.integers(0, 2**32 - 1))
def test_a_game_answering_decisions_at_random_runs_to_its_end(
        scenario: str, options: dict[str, str], rng_seed: int) -> None:
    initial = initial_state(scenario, options)
    records = play(initial, rng_seed, max_steps=250, force_end=True, max_tries=8)
    check_game_over(initial, records)
    # and the whole game replays from its files to the same final position
    state = initial
    for rec in records:
        result = adjudicate_step(state, rec)
        assert state_hash(result.state) == state_hash(rec.result.state)
        state = result.state


def test_the_players_games_are_not_trivial() -> None:
    """The random player really exercises the rules: attacks, Soviet attacks, decisions,
    retreats, reinforcements, refused orders (a guard against a vacuous property)."""
    kinds: Counter[str] = Counter()
    rejected = 0
    for seed in range(6):
        records = play(initial_state("campaign", {"soviet": "hard"}), seed, max_steps=40,
                       max_tries=20)
        for rec in records:
            kinds.update(e.kind for e in rec.result.events)
            rejected += rec.result.rejection is not None
    for kind in ("moved", "attacked", "advanced", "unit-removed", "soviet-attack-target",
                 "decision-requested", "decision-answered", "reinforcement-placed",
                 "control-changed", "turn-began", "retreated"):
        assert kinds[kind] > 0, f"no {kind} event in the sample games"
    assert rejected > 0


def test_copying_a_state_is_deep() -> None:
    state = initial_state("campaign", {})
    twin = copy.deepcopy(state)
    RULES.apply(twin, Event("moved", {"unit": "GER-9", "from": "warsaw", "to": "konigsberg",
                                      "route": ["warsaw", "konigsberg"]}))
    assert state == initial_state("campaign", {})
    assert state_hash(state) != state_hash(twin)


# -- regressions for what these properties found ------------------------------------------


class FixedDice:
    """Dice that return given values in order (value v means uniform(n) = v - 1)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def uniform(self, n: int) -> int:
        value = self.values.pop(0)
        assert 1 <= value <= n
        return value - 1


def orders(*specs: tuple[str, dict[str, str]]) -> list[Order]:
    return [Order(kind, attrs, index=i, line=i + 3) for i, (kind, attrs) in enumerate(specs)]


def test_a_retreat_into_a_garrisoned_area_removes_the_garrison() -> None:
    """RULES-ISSUES.md #26 (found by check_end_of_order: units and a garrison shared)."""
    from adjudicator.referee.gamedir import parse_position

    position = parse_position(
        b'<position xmlns="urn:pbem:position:1" game="solitaire" turn="1941-autumn">'
        b'<unit id="GER-16" at="konigsberg"/><marker kind="garrison" at="silesia"/>'
        b'</position>', "solitaire")
    state = RULES.position_state(MODULE, position, {"soviet": "hard"})  # one Soviet attack
    result = run_step(RULES, MODULE, state, orders(
        ("standing", {"on-retreat-or-eliminate": "retreat", "retreat-priority": "silesia"}),
        ("end-turn", {})), SIDE, FixedDice(2, 3))  # Gorky/Minsk: Konigsberg; D3 = 2
    assert any(e.kind == "retreated" and e["to"] == "silesia" for e in result.events)
    assert result.state["units"] == {"GER-16": "silesia"}
    assert "silesia" not in result.state["garrisons"]


def test_free_placement_updates_control() -> None:
    """Found by check_end_of_order: placed units left their areas Soviet-controlled, so a
    German unit could attack (and advance into) an area German units held."""
    state = initial_state("campaign", {"free-placement": "yes"})
    where = {u: "bucharest" if u.startswith("RUM") else
             "warsaw" if u in ("GER-2", "GER-9") else "slovakia" for u in state["unplaced"]}
    placed = run_step(RULES, MODULE, state, orders(
        *(("place", {"unit": u, "area": a}) for u, a in sorted(where.items()))), SIDE, None)
    assert placed.outcome == "accepted"
    attack = run_step(RULES, MODULE, placed.state, orders(
        ("attack", {"target": "warsaw", "units": "GER-6"})), SIDE, FixedDice(1))
    assert attack.rejection is not None, "GER-6 attacked Warsaw, held by GER-2 and GER-9"


def test_free_placement_on_a_garrison_removes_it() -> None:
    """RULES-ISSUES.md #26 (found by check_end_of_order)."""
    state = initial_state("campaign", {"free-placement": "yes"})
    placed = run_step(RULES, MODULE, state, orders(
        ("place", {"unit": "GER-6", "area": "berlin"})), SIDE, None)
    assert placed.outcome == "accepted"
    assert "berlin" not in placed.state["garrisons"]
