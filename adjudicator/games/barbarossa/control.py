"""1941 rule 4.0 Control of Territory.

"A side controls a hex when a unit occupies the hex, or a unit exerts an uncontested
zone of control into the hex." From module 0.3.0 control is current at every instant,
not only at the end of a phase (RULES-ISSUES 27): 5.4 B judges rail movement "by the
map situation at the instant the unit is moved", and the reinforcement hexes (14.1), the
Moscow penalty (14.2.4 B), the fleets (20.1.4 C-D) and the cities of 18.1 read control
in the middle of a phase as well. So:

- a moving unit takes each hex it enters, and at each of them the zones of control
  round it are judged afresh (its own and, where it no longer contests them, the
  enemy's): a move given in several orders takes what the same move in one does;
- after every other order (rail, sea and reinforcement moves, each attack with all
  its results), before a decision request stops the step, when a phase begins, and
  at the end of a turn after surrender.

A position file's control is as the file says (4.0 A, the hexes it lists, and the
hexes its units occupy); zones of control take hexes from its first order on.

Under module 0.2.0 uncontested zones took hexes only at the end of each phase
(`flow.end_phase`) and a unit retreating into a hex did not take it; `settle` and
`along_path` then do nothing, so the journals of 0.2.0 replay unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.procedure import Context, ask
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.vocabulary import EventKind, Phase, Segment, Side
from adjudicator.games.barbarossa.zoc import zone_hexes, zones_key


def control_of(game: GameData, state: State, h: Hex) -> str:
    """4.0 A-C: who controls a hex: as the state records it, else as at the start."""
    label = game.label(h)
    held = state["control"].get(label)
    return str(held if held is not None else game.start_sides.get(label) or game.start_side(h))


def territory(game: GameData, state: State, side: str) -> frozenset[Hex]:
    """4.0: every hex `side` controls, as `control_of` judges each: the hexes it holds at
    the start that the state does not record, and those the state records as its own
    (the state records only the hexes that changed hands, so this reads those, not
    every hex of the map: supply lines run through friendly territory, 8.1 C)."""
    start = game.start_territory(side)
    control = state["control"]
    if not control:
        return start
    recorded = {game.hexes.get(label) or game.hex(label): held
                for label, held in control.items()}
    return frozenset({h for h in start if h not in recorded}
                     | {h for h, held in recorded.items() if held == side})


def zoc_control(game: GameData, state: State) -> list[tuple[str, str]]:
    """4.0 B: the land hexes a side's units control by an uncontested zone of control
    (no unit occupies them, no enemy zone reaches them) that the other side holds.
    Read after every order and at every hex a unit enters, so the hexes each side's
    zones alone reach are kept per position of the units (`GameData.remembered`); only
    who holds them is read each time."""
    keys = tuple(zones_key(game, state, side.enemy) for side in (Side.AXIS, Side.SOVIET))
    reached = game.remembered(("uncontested", keys), lambda: uncontested(game, state, keys))
    control, starts = state["control"], game.start_sides
    changes = []
    for label, side in reached:
        held = control.get(label)
        if (held if held is not None else starts[label]) != side:
            changes.append((label, side))
    return changes


def uncontested(game: GameData, state: State, keys: tuple[Any, ...]) -> list[tuple[str, str]]:
    """The empty land hexes in the zone of one side's units and of no enemy unit, each
    with that side: the Axis's in hex order, then the Soviets'. `keys`: the `zones_key`
    of the Soviets' enemy zones (those of the Axis's units), then the Axis's."""
    occupied = set(state["units"].values())
    zones = {Side.AXIS: zone_hexes(game, keys[0]), Side.SOVIET: zone_hexes(game, keys[1])}
    labels = game.labels
    found = []
    for side in (Side.AXIS, Side.SOVIET):
        for h in sorted(zones[side] - zones[side.enemy]):
            label = labels.get(h) or game.label(h)
            if label not in occupied and not game.is_water(h):
                found.append((label, str(side)))
    return found


def changes(game: GameData, state: State) -> list[tuple[str, str]]:
    """4.0 B: the hexes whose control the map situation now gives to the other side:
    those a unit occupies, then those an uncontested zone of control reaches."""
    found: dict[str, str] = {}
    control, pieces, starts = state["control"], game.pieces, game.start_sides
    for unit, label in state["units"].items():
        side = pieces[unit].side
        if label in found:
            continue
        held = control.get(label)
        if (held if held is not None else starts.get(label) or
                game.start_side(game.hex(label))) != side:
            found[label] = side
    # in any order of the units: of two sides' units in one hex only the side that does
    # not hold it can take it, so the result is the same as in the units' id order
    return [*sorted(found.items()), *zoc_control(game, state)]


def settle(ctx: StepContext) -> None:
    """4.0 B-C at this instant (module 0.3.0 on): every hex the map situation gives to
    a side becomes that side's. Not before the game begins (the free deployment of 20.6
    keeps 4.0 A's control, "at the start of the game"), nor after it has ended."""
    game = GameData.of(ctx.module)
    if not game.since_0_3 or ctx.state["phase"] == Phase.GAME_OVER \
            or ctx.state["segment"] == Segment.DEPLOYMENT:
        return
    for label, side in changes(game, ctx.state):
        ctx.emit(EventKind.CONTROL_CHANGED, hex=label, side=side)


def along_path(game: GameData, state: State, unit: str, path: list[str]) -> list[tuple[str, str]]:
    """4.0 B for a unit moving hex by hex (module 0.3.0 on): the control changes at each
    hex it enters, in order, as if it stood there (the position is not changed)."""
    scratch = {**state, "units": dict(state["units"]), "control": dict(state["control"])}
    found: list[tuple[str, str]] = []
    for label in path[1:]:
        scratch["units"][unit] = label
        for hex_label, side in changes(game, scratch):
            scratch["control"][hex_label] = side
            found.append((hex_label, side))
    return found


def taken_by_entering(game: GameData, state: State, unit: str, path: list[str]
                      ) -> list[tuple[str, str]]:
    """4.0 B for a move overland: from module 0.3.0 the hexes taken at each hex entered
    (`along_path`); under module 0.2.0 only the hexes it occupied, each once."""
    if game.since_0_3:
        return along_path(game, state, unit, path)
    side = game.pieces[unit].side
    return list(dict.fromkeys((label, side) for label in path[1:]
                              if control_of(game, state, game.hex(label)) != side))


def ask_after_settling(ctx: StepContext, side: str, kind: str, rule: str,
                       options: Sequence[str], context: Context) -> None:
    """Stop for a decision (engine/procedure.py `ask`), with control as the map stands so
    far (4.0 B, module 0.3.0): the step may end here."""
    settle(ctx)
    ask(ctx, side, kind, rule, options, context)
