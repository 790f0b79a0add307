"""An order-file template for the step a game waits for: the envelope filled in, and
the position in brief (as the side may see it) in a comment. Used by `pbem orders
template` and by the player's page of the service."""

from __future__ import annotations

from adjudicator.errors import PbemError
from adjudicator.referee.gamedir import Game
from adjudicator.reports.games import reporter_for
from adjudicator.reports.projection import project_state
from adjudicator.security.signing import ORDERS_NS


def position_brief(game: Game, side: str) -> list[str]:
    """The position in brief as `side` may see it, as the template's comment gives it."""
    state = project_state(game.package.id, game.state, side)
    return list(reporter_for(game.package.id).order_hints(game.module, state, side))


def order_template(game: Game, side: str) -> str:
    """The template text; `side` must be a side of the game, and the game not over
    (PbemError otherwise: a finished game takes no orders)."""
    game.roster_key(side)
    if game.acting_side is None:
        result = game.package.rules.summary(game.state).get("result")
        level = result.get("level") if isinstance(result, dict) else result
        raise PbemError(f"game {game.game_id} is over{f' ({level})' if level else ''}: it "
                        "takes no more orders, so there is no template to write",
                        code="game-over")
    state = project_state(game.package.id, game.state, side)
    pending = state.get("pending")
    hints = ["your orders here, in the order they are to be carried out"]
    if pending:
        hints = [f"decision {pending['id']}: choose one of {', '.join(pending['options'])}"]
    hints += position_brief(game, side)
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
