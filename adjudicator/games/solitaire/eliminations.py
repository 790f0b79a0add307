"""Eliminated units and their return (Reinforcements): a removed unit returns as a
reinforcement three turns after the turn in which it was removed; an Italian unit that
is removed is taken out of the game and does not return.

Every loss of the game goes through `remove_unit`: an attacker lost (Combat), a unit a
Soviet attack eliminates (Soviet Combat), and the Restrictions' eliminations.
"""

from __future__ import annotations

from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.data import Charts
from adjudicator.games.solitaire.vocabulary import EventKind


def remove_unit(ctx: StepContext, charts: Charts, unit: str, reason: str, rule: str) -> None:
    """Remove a unit, from the map or from the reinforcement queue (area None); it
    returns as a reinforcement three turns later, except an Italian unit, which is
    out of the game (Reinforcements)."""
    state = ctx.state
    turn = charts.turn(state["turn"])
    lost_for_good = charts.nationalities[charts.nationality(unit)].lost_for_good
    back = None if lost_for_good else charts.turn_at(turn.index + charts.return_after)
    ctx.emit(EventKind.UNIT_REMOVED, unit=unit, area=state["units"].get(unit), reason=reason,
             rule=rule, returns=back.id if back else None)
