"""The comment block of a 1941 order-file template (`pbem orders template`): the position
in brief, where the reinforcements due this turn may enter (14.1.3 A, C), and a selection
of what the side can order now, all from the rules' own listing of legal orders
(listing.py: every suggestion is dry-run by the step runner, so the template never
suggests an order the rules refuse)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.module import ModuleData
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.listing import entry_listing, legal_orders

SUGGESTED = 24  # orders of the listing a template shows (the listing itself is a selection)


def entry_hints(module: ModuleData, state: dict[str, Any], side: str) -> list[str]:
    """The reinforcements due this turn and their entry hexes, in a player's lines."""
    game = GameData.of(module)
    lines = []
    for unit, hexes in entry_listing(module, state, side).items():
        name = game.pieces[unit].name
        where = f"at one of: {', '.join(hexes)}" if hexes else \
            "nowhere: it is eliminated when the phase ends (14.1.3 D)"
        lines.append(f"  {unit} ({name}) must enter in the Movement Phase of the First "
                     f"Ground Segment (14.1.3 A, C), <enter unit=\"{unit}\" hex=\"HEX\"/> {where}")
    return lines


def listed_orders(module: ModuleData, state: dict[str, Any], side: str) -> list[str]:
    """A selection of the side's legal orders now, each as it is written in the file."""
    listing = legal_orders(module, state, side)
    if not listing.orders:
        return []
    shown = [f"  {order.to_xml()}" for order in listing.orders[:SUGGESTED]]
    more = len(listing.orders) - len(shown)
    return ["What the rules take now (a selection, each order checked alone on this "
            "position):", *shown] + ([f"  ... and {more} more"] if more > 0 else [])
