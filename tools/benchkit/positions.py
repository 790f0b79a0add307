"""Games to measure: the example games (`examples/*/example.json`), game directories cut
from a journal at any step, and order files built by playing the rules' own listing of
the legal orders (engine/listing.py) with the dice the step will really roll.

Nothing here names a game: what differs between games comes from the registry
(`adjudicator.games`), the example manifests and the journals' headers.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from lxml import etree

from adjudicator.engine.decisions import DecisionPending
from adjudicator.engine.dice import DiceStream, seed_for_test_game
from adjudicator.engine.orders import OrderSpec
from adjudicator.engine.state import State
from adjudicator.engine.step import DiceUnavailable, StepContext, run_step
from adjudicator.errors import IllegalOrder
from adjudicator.games import GAME_IDS, get_game
from adjudicator.referee.gamedir import Game, GameDir, current_game, test_referee_key
from adjudicator.referee.journal import read_lines
from adjudicator.security.keys import load_private_key
from adjudicator.security.signing import ORDERS_NS, sign_orders
from adjudicator.security.xmlsafe import parse_untrusted

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ENTROPY_TAG = "pbem/bench/entropy/v1"


@dataclass(frozen=True)
class Example:
    """An example game with a manifest: its folder, journal header, test seed and the
    players' keys (the demonstration keys committed beside it)."""

    folder: Path
    header: dict[str, Any]
    test_seed: bytes
    public: dict[str, bytes]
    private: dict[str, Ed25519PrivateKey]

    @property
    def game(self) -> str:
        return str(self.header["module"]["id"])

    @property
    def journal(self) -> Path:
        return self.folder / "journal.jsonl"

    def turn_files(self) -> list[Path]:
        return sorted((self.folder / "turns").glob("step-*.xml"))


def examples() -> list[Example]:
    """Every example with a manifest, in the registry's order of games."""
    found = []
    for manifest in sorted(EXAMPLES.glob("*/example.json")):
        folder = manifest.parent
        spec = json.loads(manifest.read_text("utf-8"))
        with (folder / "journal.jsonl").open("rb") as handle:
            header = json.loads(handle.readline())
        players = spec["players"]
        public = {side: (folder / p["key"]).read_bytes() for side, p in players.items()}
        private = {side: load_private_key((folder / p["key"]).with_suffix(".key").read_bytes())
                   for side, p in players.items()}
        found.append(Example(folder, header, hashlib.sha256(spec["seed"].encode()).digest(),
                             public, private))
    order = {game: i for i, game in enumerate(GAME_IDS)}
    return sorted(found, key=lambda e: (order.get(e.game, len(order)), e.folder.name))


def can_list(game: str) -> bool:
    """Whether the game's rules list their legal orders yet."""
    return callable(getattr(get_game(game).rules, "legal_orders", None))


# -- game directories ------------------------------------------------------------------

def cut_game(journal: Path, steps: int, target: Path, test_seed: bytes) -> GameDir:
    """A game directory holding `journal` up to its step `steps` (a test game: its seeds
    and referee key derive from `test_seed`), with its snapshot written, so the next
    submission is adjudicated as it would be in the game at that point."""
    lines = []
    for line in read_lines(journal):
        if line.entry.get("type") == "step" and line.entry["seq"] > steps:
            break
        lines.append(line.raw)
    header = json.loads(lines[0])
    seq = steps + 1
    gamedir = GameDir(target)
    gamedir.create(test_referee_key(test_seed), {
        "seeds": {str(seq): seed_for_test_game(test_seed, header["game_id"], seq).hex()},
        "test_seed": test_seed.hex()})
    gamedir.journal.write_bytes(b"".join(raw + b"\n" for raw in lines))
    current_game(gamedir)  # replays once and writes the snapshot
    return gamedir


def turn_starts(game: Game) -> list[tuple[int, str]]:
    """The steps after which a player turn begins (0: the initial position), each with
    the side it belongs to: the side the game waits for, or the turn, changes there."""
    from adjudicator.engine.events import Event

    rules = game.package.rules
    state = _copy(game.initial)
    before = player_turn(rules, state)
    starts = [(0, str(rules.acting_side(state)))]
    for n, line in enumerate(game.steps, start=1):
        for event in line.entry["events"]:
            rules.apply(state, Event.from_json(event))
        now, side = player_turn(rules, state), rules.acting_side(state)
        if now != before and side is not None:
            starts.append((n, side))
        before = now
    return starts


def player_turn(rules: Any, state: State) -> tuple[Any, ...]:
    """Which player turn a position is in: the turn and whose it is."""
    summary = rules.summary(state)
    return (str(summary.get("turn")), str(summary.get("player", rules.acting_side(state))))


def moment(rules: Any, state: State) -> tuple[Any, ...]:
    """Where the sequence of play stands (a change: a phase has ended)."""
    summary = rules.summary(state)
    return (player_turn(rules, state), str(summary.get("segment")), str(summary.get("phase")),
            rules.acting_side(state))


# -- order files from the listing -------------------------------------------------------

@dataclass
class Built:
    """An order file built by play: its signed bytes and what its step will do."""

    raw: bytes
    orders: list[str]
    outcome: str  # accepted, decision
    attacks: int = 0
    notes: list[str] = field(default_factory=list)


def step_entropy(game_id: str, seq: int) -> bytes:
    return hashlib.sha256(f"{ENTROPY_TAG}\x00{game_id}\x00{seq}".encode()).digest()


def build_step(game: Game, test_seed: bytes, key: Ed25519PrivateKey, *, scope: str = "turn",
               unit_orders: int = 999, max_orders: int = 200, seed: int = 1) -> Built:
    """The next step's file for the side the game waits for, played order by order from
    the listing with the dice this step will roll (a test game's seed, fixed entropy):
    each unit at most one order per phase (up to `unit_orders` units a phase), then the
    other orders the phase allows, those that do not end it first. It runs to the end of
    the player turn (`scope="turn"`) or of the phase (`"phase"`), or to a decision."""
    rules, module = game.package.rules, game.module
    side = rules.acting_side(game.state)
    if side is None:
        raise ValueError("the game is over")
    seq = game.next_seq
    entropy = step_entropy(game.game_id, seq)
    dice = DiceStream(seed_for_test_game(test_seed, game.game_id, seq), game.game_id, seq,
                      entropy)
    ctx = StepContext(rules, module, _copy(game.state), dice, side, base=game.state)
    pick = random.Random(f"{game.game_id}/{seq}/{seed}")
    start_turn, start = player_turn(rules, ctx.state), moment(rules, ctx.state)
    chosen: list[OrderSpec] = []
    outcome, attacks = "accepted", 0
    phase, tried, done, ordered = start, set[str](), set[tuple[str, str]](), 0
    while len(chosen) < max_orders:
        spec = _next_order(rules, module, ctx, side, pick, tried, done,
                           ordered < unit_orders)
        if spec is None:
            break
        tried.add(spec.to_xml())
        checkpoint = ctx.checkpoint()
        is_unit = any(f.name in ("unit", "units") for f in _fields(spec))
        try:
            rules.execute(ctx, spec.to_order(len(chosen)))
        except IllegalOrder:
            ctx.restore(checkpoint)
            continue
        except DecisionPending:
            chosen.append(spec)
            outcome = "decision"
            break
        except DiceUnavailable:  # pragma: no cover - the dice are given
            raise
        if is_unit and rules.stacking_problems(module, ctx.state):
            ctx.restore(checkpoint)  # the limits hold when the phase ends: stay inside them
            continue
        chosen.append(spec)
        attacks += spec.KIND == "attack"
        ordered += is_unit
        done |= {(spec.KIND, unit) for unit in _unit_words(spec.to_xml())}
        now = moment(rules, ctx.state)
        if now != phase:
            phase, tried, done, ordered = now, set(), set(), 0
            if scope == "phase" or player_turn(rules, ctx.state) != start_turn \
                    or now[3] != side:
                break
    root = etree.fromstring(
        f'<orders xmlns="{ORDERS_NS}" game="{game.game_id}" module="{game.package.id}" '
        f'side="{side}" seq="{seq}" prev="{game.state_hash}" '
        f'commit="{game.current_commit}"><entropy/>'
        f'{"".join(s.to_xml() for s in chosen)}</orders>'.encode())
    return Built(sign_orders(root, key, entropy=entropy), [s.to_xml() for s in chosen],
                 outcome, attacks)


def _next_order(rules: Any, module: Any, ctx: StepContext, side: str, pick: random.Random,
                tried: set[str], done: set[tuple[str, str]],
                more_units: bool) -> OrderSpec | None:
    """A unit's order, a unit not yet given one of its kind this phase; else another order, one that
    does not end the phase before one that does; None when nothing is left."""
    if rules.acting_side(ctx.state) != side:
        return None
    listing = rules.legal_orders(module, ctx.state, side)
    fresh = [o for o in listing.orders if o.to_xml() not in tried]
    units = [o for o in fresh if _unit_words(o.to_xml()) and not any(
        (o.KIND, w) in done for w in _unit_words(o.to_xml()))]
    on_map = rules.positions(ctx.state)
    arriving = [o for o in units if not _unit_words(o.to_xml()) & set(on_map)]
    if arriving:  # reinforcements before the moves that might fill their entry hexes
        return pick.choice(arriving)
    if units and more_units:
        return pick.choice(units)
    others = [o for o in fresh if not _unit_words(o.to_xml()) and o.KIND != "standing"]
    if not others:
        return None
    here = moment(rules, ctx.state)
    pick.shuffle(others)
    for spec in others:  # an entry, an allocation before the end of the phase
        trial = run_step(rules, module, ctx.state, [spec.to_order()], side, None)
        if trial.rejection is None and trial.decision is None \
                and moment(rules, trial.state) == here:
            return spec
    return others[0]


def _unit_words(xml: str) -> set[str]:
    root = etree.fromstring(xml.encode())
    return set((root.get("unit") or "").split()) | set((root.get("units") or "").split())


def _fields(spec: OrderSpec) -> Iterator[Any]:
    from dataclasses import fields

    yield from fields(spec)  # type: ignore[arg-type]


def _copy(state: State) -> State:
    from adjudicator.engine.state import copy_state

    return copy_state(state)


def floor_of(raw: bytes, public_key: Any) -> None:
    """What no submission can avoid: the hardened parser, C14N 2.0 and Ed25519 verify."""
    from adjudicator.security.signing import verify_orders

    verify_orders(parse_untrusted(raw), public_key)
