"""Moscow '41 rule 12.0, Soviet untried units, as hidden information (DESIGN §7).

An untried unit is on the map as a token (`U01`, `U02`, ...; the Siberian divisions'
`SIB3` to `SIB6` by their turn box): both players see its type and movement allowance,
as on the counter's untried face, and neither sees which counter it is, so neither
knows its strengths (12.1 A). The counter behind a token is drawn from the cup with the
committed-seed dice (1.3.1 C-D, 14.0 C) and kept in the state's `identity`, which no
side's view shows until the token is revealed (12.2).

So that a reveal can be checked by both players during the game, each draw publishes a
commitment to the counter and its strengths:

    commitment = SHA-256( "pbem/untried/v1" NUL token NUL piece NUL attack NUL defense
                          NUL salt )                                     (hex, UTF-8)

where `salt` is 32 hex digits derived from a secret drawn with the step's dice:
`salt = HMAC-SHA256(key = secret, msg = token)[:16]` (hex). The reveal event names the
piece, its strengths and the salt; anyone recomputes the hash. After the game the
journal (seeds included) is released and every draw verifies too.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
from typing import Any

from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.moscow.game import Game

COMMIT_LABEL = b"pbem/untried/v1"


def commitment(token: str, piece: str, attack: int, defense: int, salt: str) -> str:
    """The published hash of what an untried token hides.

    >>> commitment("U01", "SOV-XX-174", 2, 3, "00" * 16)[:16]
    '9fa7a145b2eda5d7'
    """
    parts = [COMMIT_LABEL, *(str(x).encode() for x in (token, piece, attack, defense, salt))]
    return hashlib.sha256(b"\x00".join(parts)).hexdigest()


def salt_for(secret: bytes, token: str) -> str:
    return hmac.new(secret, token.encode(), hashlib.sha256).hexdigest()[:32]


def draw_tokens(ctx: StepContext, tokens: list[str], cup: list[str], purpose: str) -> None:
    """1.3.1 C-D, 14.0 C: one counter drawn at random from the cup for each token, its
    untried face shown, its identity committed and kept secret."""
    game = Game.of(ctx.module)
    secret = ctx.draw_secret(f"{purpose}: the salts of the commitments")
    remaining = list(cup)
    for token in tokens:
        piece_id = ctx.pick(remaining, f"untried draw: {purpose} ({token})")
        remaining.remove(piece_id)
        piece = game.pieces[piece_id]
        salt = salt_for(secret, token)
        ctx.emit("untried-drawn", token=token, type=piece.type, movement=piece.movement,
                 siberian=piece.siberian,
                 commitment=commitment(token, piece_id, piece.attack, piece.defense, salt),
                 secret={"piece": piece_id, "salt": salt})


def reveal(ctx: StepContext, tokens: list[str], rule: str) -> None:
    """12.2, 8.6 D: the strengths of untried tokens become known to both players."""
    state, game = ctx.state, Game.of(ctx.module)
    for token in sorted(set(tokens)):
        if token not in state["identity"] or token in state["revealed"]:
            continue
        piece = game.pieces[state["identity"][token]]
        ctx.emit("untried-revealed", token=token, piece=piece.id, attack=piece.attack,
                 defense=piece.defense, salt=state["salts"][token], rule=rule)


def piece_of(state: State, unit: str) -> str:
    """The counter a unit is: itself, or the one behind an untried token."""
    return str(state.get("identity", {}).get(unit, unit))


# -- events -----------------------------------------------------------------------------

def apply_drawn(state: State, data: dict[str, Any]) -> None:
    token = data["token"]
    state["tokens"][token] = {"type": data["type"], "movement": data["movement"],
                              "siberian": data["siberian"], "commitment": data["commitment"]}
    state["identity"][token] = data["secret"]["piece"]
    state["salts"][token] = data["secret"]["salt"]
    state["cup"] = [p for p in state["cup"] if p != data["secret"]["piece"]]


def apply_revealed(state: State, data: dict[str, Any]) -> None:
    state["revealed"] = sorted({*state["revealed"], data["token"]})


# -- what a side may see (DESIGN §7) -----------------------------------------------------

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


def project_events(events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """Draws show the token's untried face and commitment, never the counter; the rolls
    that drew them show neither the choice nor the cup's contents."""
    out = []
    for event in copy.deepcopy(events):
        event.pop("secret", None)
        if event.get("kind") == "roll" and str(event.get("purpose", "")).startswith(
                ("untried draw", "secret")):
            for key in ("choice", "candidates", "value", "words"):
                event.pop(key, None)
        out.append(event)
    return out


class UntriedView:
    """12.1: what each side sees, the untried tokens' counters hidden from both."""

    hides_information = True

    def project_state(self, state: State, side: str) -> State:
        return project_state(state, side)

    def project_events(self, events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
        return project_events(events, side)
