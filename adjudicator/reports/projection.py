"""Per-side projection: what one side may see (DESIGN §7).

Every renderer (HTML, SVG, PNG, and whatever mails or exports a report) works
from the projected step, never from the raw one. A game registers how its state
and events look to a side; Barbarossa Solitaire has no hidden information (the
German player sees everything), so its projection is the identity. A game with no
projection registered cannot be rendered: failing closed is better than leaking.

A projection returns a copy and is idempotent (projecting a projected state changes
nothing), so a renderer handed an already projected state may project it again.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

from adjudicator.games.moscow import untried
from adjudicator.reports.model import StepReport

State = dict[str, Any]
StateProjection = Callable[[State, str], State]
EventProjection = Callable[[list[dict[str, Any]], str], list[dict[str, Any]]]


def _identity_state(state: State, side: str) -> State:
    return copy.deepcopy(state)


def _identity_events(events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    return copy.deepcopy(events)


# 1941: Operation Barbarossa hides nothing either: both players see the whole board;
# Moscow '41 hides which counter each untried Soviet token is (12.0)
STATE_PROJECTIONS: dict[str, StateProjection] = {"solitaire": _identity_state,
                                                  "barbarossa": _identity_state,
                                                  "moscow": untried.project_state}
# games whose projection hides nothing: an export needs no stand-ins for unseen units
OPEN_GAMES = frozenset({"solitaire", "barbarossa"})
EVENT_PROJECTIONS: dict[str, EventProjection] = {"solitaire": _identity_events,
                                                  "barbarossa": _identity_events,
                                                  "moscow": untried.project_events}


class NoProjection(LookupError):  # noqa: N818 - names the missing thing
    """The game has no projection registered, so nothing of it may be rendered."""


def project_state(game: str, state: State, side: str) -> State:
    """The state as `side` may see it (a copy; the input is never changed)."""
    try:
        projection = STATE_PROJECTIONS[game]
    except KeyError:
        raise NoProjection(f"no per-side projection is registered for game {game!r}") from None
    return projection(state, side)


def project_events(game: str, events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """The events as `side` may see them (hidden draws masked, say)."""
    try:
        projection = EVENT_PROJECTIONS[game]
    except KeyError:
        raise NoProjection(f"no per-side projection is registered for game {game!r}") from None
    return projection(events, side)


def project_step(step: StepReport) -> StepReport:
    """The step as `step.side` may see it: states, events and decision projected.

    A decision addressed to another side is withheld (only its side sees the options)."""
    decision = step.decision
    if decision is not None and decision.get("side") not in (None, step.side):
        decision = None
    # a game that hides information keeps its seeds until the game is over: with the
    # seed a player could recompute the hidden draws (DESIGN §7)
    hidden = step.game not in OPEN_GAMES and step.state_after.get("phase") != "game-over"
    return dataclasses.replace(
        step,
        server_seed=None if hidden else step.server_seed,
        state_before=project_state(step.game, step.state_before, step.side),
        state_after=project_state(step.game, step.state_after, step.side),
        events=project_events(step.game, step.events, step.side),
        decision=copy.deepcopy(decision),
    )
