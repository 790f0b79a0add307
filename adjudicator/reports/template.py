"""An order-file template for the step a game waits for: the envelope filled in, and
the position in brief (as the side may see it) in a comment. Used by `pbem orders
template` and by the player's page of the service."""

from __future__ import annotations

from adjudicator.referee.gamedir import Game
from adjudicator.reports.games import reporter_for
from adjudicator.reports.projection import project_state
from adjudicator.security.signing import ORDERS_NS


def order_template(game: Game, side: str) -> str:
    """The template text; `side` must be a side of the game (PbemError otherwise)."""
    game.roster_key(side)
    state = project_state(game.package.id, game.state, side)
    pending = state.get("pending")
    hints = ["your orders here, in the order they are to be carried out"]
    if pending:
        hints = [f"decision {pending['id']}: choose one of {', '.join(pending['options'])}"]
    hints += reporter_for(game.package.id).order_hints(game.module, state, side)
    comment = "\n".join(f"       {h}" for h in hints).lstrip()
    # a choice the player must write in: "CHOOSE" is refused, never taken by default
    answer = (f'  <answer decision="{pending["id"]}" choice="CHOOSE"/>\n' if pending else "")
    # The start tag stays on one line, as `pbem sign` writes it, so that line numbers
    # in `pbem check` and in the adjudication agree.
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<orders xmlns="{ORDERS_NS}" game="{game.game_id}" module="{game.package.id}" '
        f'side="{side}" seq="{game.next_seq}" prev="{game.state_hash}" '
        f'commit="{game.current_commit}">\n'
        "  <entropy></entropy>\n"
        f"  <!-- {comment.replace('--', '- -')}\n  -->\n"
        f"{answer}"
        "</orders>\n"
    )
