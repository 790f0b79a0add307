"""The legal orders of a 1941 position (engine/listing.py), placeholder."""
from __future__ import annotations

from adjudicator.engine.listing import Listing
from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State


def legal_orders(module: ModuleData, state: State, side: str) -> Listing:
    return Listing(side)
