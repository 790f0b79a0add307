"""Game module data: XML validated by the game's RELAX NG schema (docs/architecture.md, The package
shape)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

from lxml import etree

from adjudicator.engine.board import AreaBoard, Edge
from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import HexGrid, Hexside
from adjudicator.errors import InvalidInput, ModuleError
from adjudicator.security.xmlsafe import parse_untrusted

MODULE_NS = "urn:pbem:module:1"
NS = {"m": MODULE_NS}
MAX_MODULE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class ModuleData:
    """A loaded, schema-valid module: its XML root plus identity and checksum."""

    root: etree._Element
    game: str
    version: str
    sha256: str
    raw: bytes

    def at_least(self, version: str) -> bool:
        """Whether this module is `version` or later: the rules keep the behaviour of
        an earlier version for the journals that name it (docs/architecture.md,
        "Compatibility"). A version that is not dotted numbers counts as the latest.

        >>> ModuleData(etree.Element("m"), "g", "0.10.0", "", b"").at_least("0.9.1")
        True
        """
        mine = version_key(self.version)
        return mine is None or mine >= (version_key(version) or ())

    def find(self, path: str) -> etree._Element:
        """The one element at `path` (XPath with prefix `m:`); ModuleError if absent."""
        found = self.root.xpath(path, namespaces=NS)
        if not found:
            raise ModuleError(f"module {self.game} has no {path}")
        return found[0]  # type: ignore[no-any-return,unused-ignore]

    def findall(self, path: str) -> list[etree._Element]:
        return list(self.root.xpath(path, namespaces=NS))

    def options(self, chosen: dict[str, str]) -> dict[str, str]:
        """Every game option of `<options>` with its value: the chosen one, else the
        default; ModuleError for an option or a value the module does not offer."""
        offered = {o.get("id"): (o.get("default"), o.get("values").split())
                   for o in self.findall("m:options/m:option")}
        resolved = {name: default for name, (default, _) in offered.items()}
        for name, value in chosen.items():
            if name not in offered:
                raise ModuleError(f"{self.root.get('title', self.game)} has no option "
                                  f"{name!r}; its options: {', '.join(sorted(offered)) or 'none'}")
            values = offered[name][1]
            if value not in values:
                allowed = " or ".join(values) if len(values) <= 4 else \
                    f"{values[0]} to {values[-1]}"
                raise ModuleError(f"option {name} takes {allowed}, not {value!r}")
            resolved[name] = value
        return resolved

    def area_board(self) -> AreaBoard:
        """The area graph of the module's map, built once (module/board facts never change)."""
        return self._area_board

    def hex_board(self) -> HexBoard:
        """The board of the module's hex map, built once."""
        return self._hex_board

    @cached_property
    def _area_board(self) -> AreaBoard:
        """The area graph of an area map: land adjacencies plus one typed edge per sea pair;
        a `<water id="ladoga">` with `<shore area=>` children (a lake or bay whose shore
        areas the rules may join across it) adds edges of kind "ladoga" between its shores."""
        areas = [a.get("id") for a in self.findall("m:map/m:area")]
        edges = [Edge(e.get("a"), e.get("b"), "land") for e in self.findall("m:map/m:adjacent")]
        for sea in self.findall("m:map/m:sea"):
            members = sorted(m.get("area") for m in sea.findall(f"{{{MODULE_NS}}}member"))
            edges += [Edge(a, b, "sea") for i, a in enumerate(members) for b in members[i + 1 :]]
        for water in self.findall("m:map/m:water"):
            shores = sorted(m.get("area") for m in water.findall(f"{{{MODULE_NS}}}shore"))
            kind = water.get("id")
            edges += [Edge(a, b, kind) for i, a in enumerate(shores) for b in shores[i + 1 :]]
        try:
            return AreaBoard(areas, edges)
        except ValueError as exc:
            raise ModuleError(f"module {self.game}: {exc}") from None

    @cached_property
    def _hex_board(self) -> HexBoard:
        """The board of a hex map: `<grid>` declares the printed numbering, `<hex
        id="1808" terrain="...">` every hex, `<hexside a= b= features="river road">`
        what is printed on a hexside."""
        grid_el = self.find("m:map/m:grid")
        try:
            grid = HexGrid(grid_el.get("orientation", "flat"), grid_el.get("shifted", "even"),
                           grid_el.get("numbering", "CCRR"), int(grid_el.get("first-row", "1")))
            terrain = {grid.parse(h.get("id")): h.get("terrain")
                       for h in self.findall("m:map/m:hex")}
            sides: dict[Hexside, frozenset[str]] = {}
            for el in self.findall("m:map/m:hexside"):
                side = Hexside.between(grid.parse(el.get("a")), grid.parse(el.get("b")))
                sides[side] = sides.get(side, frozenset()) | frozenset(el.get("features").split())
            return HexBoard(grid, terrain, sides)
        except ValueError as exc:
            raise ModuleError(f"module {self.game}: {exc}") from None


def version_key(version: str) -> tuple[int, ...] | None:
    """A dotted version as numbers, for comparing ("0.10.0" > "0.9.1"); None if it is
    not dotted numbers."""
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return None


def load_module(
    data: bytes, schema: etree.RelaxNG, *, expected_game: str | None = None
) -> ModuleData:
    """Parse module bytes and validate them against a RELAX NG schema.

    Raises:
        ModuleError: not XML, not valid against the schema, or another game's module.
    """
    try:
        root = parse_untrusted(data, max_bytes=MAX_MODULE_BYTES)
    except InvalidInput as exc:
        raise ModuleError(f"module data is not usable XML: {exc.message}") from None
    if not schema.validate(root):
        first = schema.error_log[0]
        raise ModuleError(f"module data does not match its schema at line {first.line}: "
                          f"{first.message}")
    game = root.get("game", "")
    if expected_game is not None and game != expected_game:
        raise ModuleError(f"this module file is for game {game!r}, not {expected_game!r}")
    return ModuleData(root, game, root.get("version", ""), hashlib.sha256(data).hexdigest(), data)
