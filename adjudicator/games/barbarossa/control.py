"""1941 rule 4.0 B, control of territory, at the instant (module 0.3.0 on).

"A side controls a hex when a unit occupies the hex, or a unit exerts an uncontested
zone of control into the hex." 5.4 B judges rail movement "by the map situation at
the instant the unit is moved", and the reinforcement hexes (14.1), the Moscow
penalty (14.2.4 B), the fleets (20.1.4 C-D) and the cities of 18.1 read control
in the middle of a phase as well, so control must be current at every instant, not
only at the end of a phase (RULES-ISSUES 27):

- a moving unit takes each hex it enters, and at each of them the zones of control
  round it are judged afresh (its own and, where it no longer contests them, the
  enemy's): a move given in several orders takes what the same move in one does;
- after every other order (rail, sea and reinforcement moves, each attack with all
  its results), before a decision request stops the step, when a phase begins, and
  at the end of a turn after surrender.

A position file's control is as the file says (4.0 A, the hexes it lists, and the
hexes its units occupy); zones of control take hexes from its first order on.

Under module 0.2.0 uncontested zones took hexes only at the end of each phase
(`rules.end_phase`) and a unit retreating into a hex did not take it; these
functions then do nothing, so the journals of 0.2.0 replay unchanged.
"""

from __future__ import annotations

from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa.game import Game, control_of, zoc_control


def changes(game: Game, state: State) -> list[tuple[str, str]]:
    """4.0 B: the hexes whose control the map situation now gives to the other side:
    those a unit occupies, then those an uncontested zone of control reaches."""
    found: dict[str, str] = {}
    for unit, label in sorted(state["units"].items()):
        side = game.pieces[unit].side
        if label not in found and control_of(game, state, game.board.hex(label)) != side:
            found[label] = side
    return [*sorted(found.items()), *zoc_control(game, state)]


def settle(ctx: StepContext) -> None:
    """4.0 B-C at this instant (module 0.3.0 on): every hex the map situation gives to
    a side becomes that side's. Not before the game begins (the free deployment of 20.6
    keeps 4.0 A's control, "at the start of the game"), nor after it has ended."""
    game = Game.of(ctx.module)
    if not game.since_0_3 or ctx.state["phase"] == "game-over" \
            or ctx.state["segment"] == "deployment":
        return
    for label, side in changes(game, ctx.state):
        ctx.emit("control-changed", hex=label, side=side)


def along_path(game: Game, state: State, unit: str, path: list[str]) -> list[tuple[str, str]]:
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

