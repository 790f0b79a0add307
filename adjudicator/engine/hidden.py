"""Hidden information as a kit (docs/architecture.md, Hidden information; docs/architecture.md,
"The game kit").

- Commitments: a salted SHA-256 over a label and the hidden facts (a counter's identity
  and strengths, a stack's contents, a block's identity and step), published when the
  fact is hidden and checked when it is revealed (`commitment`, `Reveal.matches`).
- Salts come from a secret drawn from the committed dice stream (`StepContext.
  draw_secret`), one per hidden item (`salt_for`), so nobody can pick them.
- One per-side view: a game's `View` says what each side may see of a state and of a
  step's events; every output (reports, pages, mails, exports) is built from it.
- Secret draws are marked on the roll event itself (`"hidden": true`); the view masks
  what such a roll chose. A game whose journals predate the mark names its own secret
  rolls (`View.secret_roll`).

>>> c = commitment(b"pbem/untried/v1", "U01", "SOV-XX-174", 2, 3, "00" * 16)
>>> c[:16]
'9fa7a145b2eda5d7'
>>> Reveal(c, ("U01", "SOV-XX-174", 2, 3), "00" * 16).matches(b"pbem/untried/v1")
True
"""

from __future__ import annotations

import copy
import hashlib
import hmac
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

State = dict[str, Any]
EventJSON = dict[str, Any]
ROLL_CHOICES = ("choice", "candidates", "value", "values", "words")  # what a roll chose


def commitment(label: bytes, *facts: object) -> str:
    """SHA-256 (hex) of `label`, then each fact as UTF-8 text, joined by NUL bytes; the
    salt is the last fact."""
    parts = [label, *(str(x).encode("utf-8") for x in facts)]
    return hashlib.sha256(b"\x00".join(parts)).hexdigest()


def salt_for(secret: bytes, name: str) -> str:
    """The salt of one hidden item: HMAC-SHA256(secret, name), its first 16 bytes (hex)."""
    return hmac.new(secret, name.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


@dataclass(frozen=True)
class Reveal:
    """A hidden fact made known: the commitment published before, the facts and salt
    shown now."""

    commitment: str
    facts: tuple[object, ...]
    salt: str

    def matches(self, label: bytes) -> bool:
        return commitment(label, *self.facts, self.salt) == self.commitment


class View(Protocol):
    """What each side may see: every output is built from this, never the raw state."""

    hides_information: bool

    def project_state(self, state: State, side: str) -> State:
        """A copy of the state as `side` may see it (idempotent)."""
        ...

    def project_events(self, events: list[EventJSON], side: str) -> list[EventJSON]:
        """Copies of a step's events as `side` may see them."""
        ...


def marked_secret(event: EventJSON) -> bool:
    """A roll the kit drew in secret: it carries `"hidden": true`."""
    return bool(event.get("hidden"))


@dataclass(frozen=True)
class OpenView:
    """The view of a game that hides nothing: both sides see everything."""

    hides_information: bool = False

    def project_state(self, state: State, side: str) -> State:
        return copy.deepcopy(state)

    def project_events(self, events: list[EventJSON], side: str) -> list[EventJSON]:
        return copy.deepcopy(events)


def mask_events(events: Iterable[EventJSON], *,
                secret_roll: Callable[[EventJSON], bool] = marked_secret,
                private: tuple[str, ...] = ("secret",)) -> list[EventJSON]:
    """Copies of `events` without their `private` fields, and with what every secret
    roll chose removed (the purpose, the die and the number of sides stay)."""
    out = []
    for event in copy.deepcopy(list(events)):
        for key in private:
            event.pop(key, None)
        if event.get("kind") == "roll" and secret_roll(event):
            for key in ROLL_CHOICES:
                event.pop(key, None)
        out.append(event)
    return out
