"""What each side may see (engine/hidden.py): Barbarossa Solitaire hides nothing; the
Soviet units never appear on the map and every roll is public."""

from __future__ import annotations

from adjudicator.engine.hidden import OpenView

VIEW = OpenView()
