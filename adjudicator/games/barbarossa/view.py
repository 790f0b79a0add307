"""What each side of 1941 sees (engine/hidden.py): everything. The game has no hidden
information: both players see the whole board, every roll and every event, so the view
is the kit's open one."""

from __future__ import annotations

from adjudicator.engine.hidden import OpenView

VIEW = OpenView()
