"""What each side of Moscow '41 may see (engine/hidden.py): the counter behind an untried
token, its salt and the cup's contents are hidden from both players until the token is
revealed (12.1-12.2), and so is what a secret draw chose. The journals of modules 0.1.0
and 0.2.0 predate the kit's `"hidden": true` mark on a roll, so the game names its own
secret rolls by their purpose (the cup draws and the salts' secret), as the kit allows
(`mask_events(secret_roll=...)`)."""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.engine.hidden import EventJSON, marked_secret, mask_events
from adjudicator.engine.state import State

SECRET_PURPOSES = ("untried draw", "secret")  # untried.draw_tokens, StepContext.draw_secret


def project_state(state: State, side: str) -> State:
    """Neither side sees which counter an unrevealed token is, nor its salt (RULES-ISSUES
    2)."""
    view = copy.deepcopy(state)
    hidden = [t for t in view.get("identity", {}) if t not in view.get("revealed", [])]
    for token in hidden:
        view["identity"].pop(token, None)
        view["salts"].pop(token, None)
    # the cup (8.9 I) may hold a counter no one saw: its contents are secret too
    view["cup"] = [] if view.get("cup") else view.get("cup", [])
    return view


def secret_roll(event: EventJSON) -> bool:
    """A roll no side may see the result of: marked by the kit, or one of the game's own
    secret draws by its purpose."""
    return marked_secret(event) or str(event.get("purpose", "")).startswith(SECRET_PURPOSES)


def project_events(events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """Draws show the token's untried face and commitment, never the counter; the rolls
    that drew them show neither the choice nor the cup's contents."""
    return mask_events(events, secret_roll=secret_roll)


class UntriedView:
    """12.1: what each side sees, the untried tokens' counters hidden from both."""

    hides_information = True

    def project_state(self, state: State, side: str) -> State:
        return project_state(state, side)

    def project_events(self, events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
        return project_events(events, side)
