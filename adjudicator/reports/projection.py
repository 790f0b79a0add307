"""Per-side projection: what one side may see (docs/architecture.md, Hidden information).

Every renderer (HTML, SVG, PNG, and whatever mails or exports a report) works from
the projected step, never from the raw one. Each game's definition carries its view
(engine/hidden.py): a game that hides nothing has an open view; a game that has no
view cannot be rendered at all, failing closed rather than leaking.

A projection returns a copy and is idempotent (projecting a projected state changes
nothing), so a renderer handed an already projected state may project it again.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from adjudicator.engine.hidden import View
from adjudicator.engine.report import StepReport
from adjudicator.errors import PbemError
from adjudicator.games import get_game

State = dict[str, Any]


class NoProjection(LookupError):  # noqa: N818 - names the missing thing
    """The game has no per-side view, so nothing of it may be rendered."""


def view_of(game: str) -> View:
    try:
        return get_game(game).view
    except PbemError:
        raise NoProjection(f"no per-side projection is registered for game {game!r}") from None


def hides_information(game: str) -> bool:
    """Whether the game keeps something from a side (then its seeds, journal and exports
    wait for the end of the game)."""
    return bool(view_of(game).hides_information)


def project_state(game: str, state: State, side: str) -> State:
    """The state as `side` may see it (a copy; the input is never changed)."""
    return view_of(game).project_state(state, side)


def project_events(game: str, events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """The events as `side` may see them (hidden draws masked, say)."""
    return view_of(game).project_events(events, side)


def project_step(step: StepReport) -> StepReport:
    """The step as `step.side` may see it: states, events and decision projected.

    A decision addressed to another side is withheld (only its side sees the options)."""
    decision = step.decision
    if decision is not None and decision.get("side") not in (None, step.side):
        decision = None
    # a game that hides information keeps its seeds until the game is over: with the
    # seed a player could recompute the hidden draws (docs/architecture.md, Hidden information)
    hidden = hides_information(step.game) and step.state_after.get("phase") != "game-over"
    return dataclasses.replace(
        step,
        server_seed=None if hidden else step.server_seed,
        state_before=project_state(step.game, step.state_before, step.side),
        state_after=project_state(step.game, step.state_after, step.side),
        events=project_events(step.game, step.events, step.side),
        decision=copy.deepcopy(decision),
    )
