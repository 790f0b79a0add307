"""A Moscow '41 game started from a position file (docs/position-files.md): a referee
rebuilding a disputed position, a conformance case (RULES-ISSUES 5).

The referee names every counter, the untried ones too: each Soviet unit the file lists
becomes an untried token (`U01`, `U02`, ... in the order the file lists them; a
Siberian division due later `SIB` and its turn), its counter hidden from both players'
views as in a game set up from the cup (12.0). The file itself stays with the referee
(in the journal, released when the game is over), so the commitments' salts are derived
from it: `HMAC-SHA256(key = SHA-256(the position's canonical XML), msg = token)`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from lxml import etree

from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.errors import InvalidInput, ModuleError
from adjudicator.games.moscow.data import Game
from adjudicator.games.moscow.flow import SEQUENCE
from adjudicator.games.moscow.setup import scenario_state
from adjudicator.games.moscow.untried import commitment, salt_for
from adjudicator.games.moscow.vocabulary import STACKING_LIMIT, WEATHERS

POSITION_NS = "{urn:pbem:position:1}"


def position_state(module: ModuleData, root: etree._Element, options: dict[str, str]) -> State:
    """The state a position file describes; InvalidInput saying what is wrong."""
    try:
        return _position_state(module, root, options)
    except (ModuleError, ValueError, KeyError) as exc:
        raise InvalidInput(f"position file: {exc}") from None


def _position_state(module: ModuleData, root: etree._Element,
                    options: dict[str, str]) -> State:
    game = Game.of(module)
    state = scenario_state(module, root.get("scenario", "campaign"), options)
    turn = int(root.get("turn", "0")) if (root.get("turn") or "").isdigit() else 0
    if not 1 <= turn <= state["last_turn"]:
        raise ValueError(f"turn is 1 to {state['last_turn']}, not {root.get('turn')!r}")
    player, _, phase = root.get("phase", "german.movement").partition(".")
    if (player, phase) not in SEQUENCE:
        raise ValueError(f"phase {root.get('phase')!r} is none of "
                         f"{', '.join(f'{p}.{f}' for p, f in SEQUENCE)}")
    secret = hashlib.sha256(etree.tostring(root, method="c14n")).digest()
    state.update(turn=turn, player=player, phase=phase, unplaced=[], cup=[],
                 siberian_cup=[], arriving={})
    soviet_count, seen = 0, set()

    def token_for(piece_id: str, due: str | None = None) -> str:
        nonlocal soviet_count
        piece = game.pieces[piece_id]
        if piece.siberian and due:
            token = f"SIB{due}"
        else:
            soviet_count += 1
            token = f"U{soviet_count:02d}"
        salt = salt_for(secret, token)
        state["tokens"][token] = {
            "type": piece.type, "movement": piece.movement, "siberian": piece.siberian,
            "commitment": commitment(token, piece.id, piece.attack, piece.defense, salt)}
        state["identity"][token] = piece.id
        state["salts"][token] = salt
        return token

    def piece_id(text: str | None) -> str:
        if text not in game.pieces or game.pieces[text].type == "air":
            raise ValueError(f"there is no combat unit {text!r} in Moscow '41")
        if text in seen:
            raise ValueError(f"{text} is named twice")
        seen.add(text)
        return text

    revealed: list[str] = []
    for el in root:
        if not isinstance(el.tag, str):
            continue
        tag, name = etree.QName(el).localname, el.get("name")
        if tag == "unit":
            unit = piece_id(el.get("id"))
            label = game.board.label(game.board.hex(el.get("at")))
            if game.pieces[unit].side == "soviet":
                unit = token_for(unit)
            elif el.get("steps") == "1":
                state["steps"][unit] = 1  # 8.9 H: reduced
            state["units"][unit] = label
        elif tag == "pool" and name in ("cup", "eliminated", "reinforcements"):
            for entry in el.iter(f"{POSITION_NS}unit"):
                unit = piece_id(entry.get("id"))
                if name == "cup":
                    state["cup"].append(unit)
                elif name == "eliminated":
                    state["eliminated"].append(unit)
                else:
                    due = entry.get("due") or str(turn)
                    state["arriving"].setdefault(due, []).append(token_for(unit, due))
        elif tag == "value" and name == "revealed":
            revealed.append(el.get("value"))
        elif tag == "value" and name == "weather" and el.get("value") in WEATHERS:
            state["weather"] = el.get("value")
        elif tag == "value" and name == "air-used":
            if game.pieces.get(el.get("value")) is None:
                raise ValueError(f"there is no air unit {el.get('value')!r}")
            state["air_used"] = sorted({*state["air_used"], el.get("value")})
        elif tag == "marker" and el.get("kind") == "interdiction":
            label = game.board.label(game.board.hex(el.get("at")))
            state["interdicted"][label] = state["interdicted"].get(label, 0) + 1
        elif tag == "control" and el.get("side") in ("german", "soviet"):
            label = game.board.label(game.board.hex(el.get("area")))
            state["last_occupied"][label] = el.get("side")  # 9.4
        else:
            raise ValueError(f"line {el.sourceline}: a Moscow '41 position has no <{tag}"
                             f"{f' name={name!r}' if name else ''}>")
    by_piece = {piece: token for token, piece in state["identity"].items()}
    for piece in revealed:
        if piece not in by_piece:
            raise ValueError(f"{piece} is not a Soviet unit of the position to reveal")
        state["revealed"].append(by_piece[piece])
    state["revealed"].sort()
    _check(game, state)
    return state


def _check(game: Game, state: dict[str, Any]) -> None:
    """What the rules could never have produced: two sides in a hex (4.4), a stack over
    the limit (4.6 A), three air units on a hex (11.0 D)."""
    sides: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for unit, label in state["units"].items():
        side = "soviet" if unit in state["tokens"] else game.pieces[unit].side
        sides.setdefault(label, set()).add(side)
        counts[label] = counts.get(label, 0) + 1
    both = sorted(label for label, s in sides.items() if len(s) > 1)
    if both:
        raise ValueError(f"units of both sides stand in {', '.join(both)} (4.4)")
    full = sorted(label for label, n in counts.items() if n > STACKING_LIMIT)
    if full:
        raise ValueError(f"more than four units stand in {', '.join(full)} (4.6 A)")
    if any(n > 2 for n in state["interdicted"].values()):
        raise ValueError("at most two air units interdict a hex (11.0 D)")
