"""Moscow '41 rule 12.0, Soviet untried units, as hidden information (engine/hidden.py).

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
`salt = HMAC-SHA256(key = secret, msg = token)[:16]` (hex): the kit's `commitment` and
`salt_for`. The reveal event names the piece, its strengths and the salt; anyone
recomputes the hash (`hidden.Reveal`). After the game the journal (seeds included) is
released and every draw verifies too. What each side sees is in view.py.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import hidden
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.moscow.data import Game

COMMIT_LABEL = b"pbem/untried/v1"


def commitment(token: str, piece: str, attack: int, defense: int, salt: str) -> str:
    """The published hash of what an untried token hides.

    >>> commitment("U01", "SOV-XX-174", 2, 3, "00" * 16)[:16]
    '9fa7a145b2eda5d7'
    """
    return hidden.commitment(COMMIT_LABEL, token, piece, attack, defense, salt)


def salt_for(secret: bytes, token: str) -> str:
    return hidden.salt_for(secret, token)


def revealed(data: dict[str, Any], token_commitment: str) -> hidden.Reveal:
    """An `untried-revealed` event as the kit's reveal of the commitment published when
    the token was drawn (`matches` checks it)."""
    return hidden.Reveal(token_commitment, (data["token"], data["piece"], data["attack"],
                                            data["defense"]), data["salt"])


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
