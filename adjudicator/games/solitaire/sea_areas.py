"""Sea Areas: areas marked with a circle of the same colour are connected by a sea area
(they need not be adjacent). A sea area has two effects:

- a unit that is ordered to retreat may retreat to another German-controlled area of
  the same sea area (`retreat_neighbours`);
- a Soviet-controlled area in the same sea area as an area that can be traced to the
  Soviet sources does not become German-controlled (`sea_linked`, read by control.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.games.solitaire.data import Charts
from adjudicator.games.solitaire.vocabulary import Rule, Via


def sea_linked(charts: Charts, traced: Iterable[str]) -> set[str]:
    """Every area that shares a sea area with one of the `traced` areas."""
    traced = set(traced)
    return {area for members in charts.seas.values() if traced.intersection(members)
            for area in members}


def retreat_neighbours(charts: Charts, area: str) -> list[str]:
    """The areas a retreat from `area` may end in, before control and the Restrictions:
    the adjacent ones and those of its sea areas, sorted."""
    return charts.board.neighbours(area, (Via.LAND, Via.SEA))


def retreat_via(charts: Charts, source: str, dest: str) -> tuple[Via, Rule]:
    """How a retreat goes, and the rule that lets it: over land (Effects of Soviet
    Attack), else by sea (Sea Areas)."""
    if charts.board.adjacent(source, dest):
        return Via.LAND, Rule.SOVIET_EFFECTS
    return Via.SEA, Rule.SEA_AREAS
