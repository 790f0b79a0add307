"""A game's map style: the colour of each terrain and the stroke of each hexside feature,
in the order of the terrain key, from the game's `data/style.xml` (validated by
`engine/schemas/style.rng`). Presentation only: the rules never read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from lxml import etree

from adjudicator.errors import ModuleError, PbemError
from adjudicator.games import ENGINE_SCHEMAS, get_game
from adjudicator.security.xmlsafe import parse_trusted_file

STYLE_NS = "urn:pbem:style:1"
UNKNOWN_TERRAIN = "#e4e2dc"


@dataclass(frozen=True)
class MapStyle:
    terrain: dict[str, str] = field(default_factory=dict)  # terrain -> fill, in key order
    hexsides: dict[str, tuple[str, float]] = field(default_factory=dict)  # feature -> stroke

    def fill(self, terrain: str) -> str:
        return self.terrain.get(terrain, UNKNOWN_TERRAIN)


@lru_cache(maxsize=16)
def style_of(game: str) -> MapStyle:
    """The map style of `game` (an empty one for a game with no style file, or a module
    of no registered game)."""
    try:
        path = get_game(game).data_dir / "style.xml"
    except PbemError:
        return MapStyle()
    if not path.is_file():
        return MapStyle()
    root = parse_trusted_file(path)
    schema = etree.RelaxNG(file=str(ENGINE_SCHEMAS / "style.rng"))
    if not schema.validate(root):
        raise ModuleError(f"{path}: {schema.error_log[0].message}")
    ns = f"{{{STYLE_NS}}}"
    return MapStyle(
        {t.get("id"): t.get("fill") for t in root.iterfind(f"{ns}terrain")},
        {h.get("feature"): (h.get("stroke"), float(h.get("width")))
         for h in root.iterfind(f"{ns}hexside")})
