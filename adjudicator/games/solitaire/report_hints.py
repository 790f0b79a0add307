"""The comment block of a Barbarossa Solitaire order-file template (`pbem orders
template`): the position in brief, and what the German player can order now, built from
the rules' own listing of legal orders (listing.py: every suggestion is dry-run by the
step runner, so the template never suggests an order the rules refuse: no attack
across the Romanian line by Romanians alone, no move into a front-line area that is
not next to the unit's own)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.listing import Listing
from adjudicator.engine.module import ModuleData
from adjudicator.games.solitaire.listing import legal_orders
from adjudicator.games.solitaire.orders import Attack, Garrison, Place, Reinforce
from adjudicator.games.solitaire.report_lexicon import PHASES, Lexicon
from adjudicator.games.solitaire.report_map import front_line, units_by_area
from adjudicator.games.solitaire.vocabulary import Phase


def order_hints(module: ModuleData, state: dict[str, Any], side: str) -> list[str]:
    """Lines for the template's comment block, with the ids orders are written with."""
    lex = Lexicon.of(module)
    line = set(front_line(lex, state))
    hints = [f"{lex.turn(state.get('turn'))}, {PHASES.get(state['phase'], state['phase'])}"
             " phase. Orders: docs/solitaire-orders.md"]
    stacks = units_by_area(lex, state)
    for area, units in sorted(stacks.items()):
        where = f"{area} (front line)" if area in line else area
        hints.append(f"  in {where}: {', '.join(units)}")
    if state.get("garrisons"):
        hints.append(f"  garrisons (they cannot move): {', '.join(state['garrisons'])}")
    if state.get("queue"):
        hints.append("  reinforcements waiting: " + ", ".join(
            f"{q['unit']} (due {q['due']})" for q in state["queue"]))
    listing = legal_orders(module, state, side)
    if listing.orders:
        hints.append("What the rules take now (each order checked alone on this position):")
        hints += suggestions(listing, state)
    return hints


def suggestions(listing: Listing, state: dict[str, Any]) -> list[str]:
    """The listing in a player's lines: the placements still to make, the moves, the
    attacks from each area, the garrisons and the reinforcements' entry areas."""
    orders = listing.orders
    lines: list[str] = []
    if state["phase"] == Phase.SETUP and state.get("unplaced"):
        lines.append(f"  still to place: {', '.join(state['unplaced'])}")
    placed: dict[str, list[str]] = {}
    for order in orders:
        if isinstance(order, Place):
            placed.setdefault(order.unit, []).append(order.area)
    for unit, areas in placed.items():
        lines.append(f"  {unit} may be placed in: {', '.join(areas)}")
    for unit in listing.units:
        moves = [d.place for d in unit.moves]
        if moves:
            lines.append(f"  {unit.unit} (in {unit.at}) may move to: {', '.join(moves)}")
    by_origin: dict[str, set[str]] = {}
    for order in orders:
        if isinstance(order, Attack):
            for unit in order.units:
                by_origin.setdefault(state["units"][unit], set()).add(order.target)
    for area, targets in sorted(by_origin.items()):
        lines.append(f"  from {area} you can attack: {', '.join(sorted(targets))}")
    garrisons = [o.area for o in orders if isinstance(o, Garrison)]
    if garrisons:
        lines.append(f"  a garrison may be placed in: {', '.join(garrisons)}")
    entries: dict[str, list[str]] = {}
    for order in orders:
        if isinstance(order, Reinforce):
            entries.setdefault(order.unit, []).append(order.area)
    for unit, areas in entries.items():
        lines.append(f"  reinforcement {unit} may enter at: {', '.join(areas)}")
    if any(o.KIND == "end-turn" for o in orders):
        lines.append("  <end-turn/> ends the turn (the Soviet attacks follow)")
    return lines
