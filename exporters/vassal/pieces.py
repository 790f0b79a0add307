"""The pieces of an exported module: one kind per counter of the game's counter mix,
stand-ins for units a view does not identify, and one marker per area colour of the
map legend (who holds an area, on a board printed once).

A stand-in is one of a counter's concealed faces (an untried face: type and
factors only), one kind per distinct drawing, so a unit the view does not identify
shows the face the side sees and nothing more; a game that hides units without such
faces gets a bare "?" stand-in per side.

Every kind becomes a trait chain (FORMAT.md §3): our piece id in a Marker trait
(`pbem_piece`), the faces of a multi-face unit as a Layer the player flips with
Ctrl+F, the side-and-class prototype, and the BasicPiece with its image and name.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from adjudicator.engine.report import Counter, LegendItem
from exporters.vassal.counters import control_marker_svg, counter_svg, marker_svg
from exporters.vassal.encoding import Trait, encode

PIECE_ID_KEY = "pbem_piece"
SIDE_KEY = "pbem_side"
CLASS_KEY = "pbem_class"
HIDDEN = "hidden"
CTRL = 130  # InputEvent.CTRL_DOWN_MASK | CTRL_MASK, as the VASSAL editor writes it
FLIP_KEY = f"70,{CTRL}"  # Ctrl+F
DELETE_KEY = f"68,{CTRL}"  # Ctrl+D


@dataclass(frozen=True)
class PieceKind:
    key: str  # what `pbem_piece` says: the module's piece id, "hidden:<side>", "area:<label>"
    gpid: int
    name: str
    side: str
    unit_class: str  # "infantry", "armor", ..., "hidden" or "marker"
    svgs: tuple[str, ...]  # one drawing per step
    fill: str = ""  # for an area-colour marker: the area colour it stands for

    @property
    def images(self) -> list[str]:
        stem = re.sub(r"[^A-Za-z0-9_-]", "_", self.key)
        return [f"{stem}-{self.gpid}-{i + 1}.png" for i in range(len(self.svgs))]

    @property
    def prototype(self) -> str:
        return prototype_name(self.side, self.unit_class)

    def traits(self, basic_state: str, face: int = 0) -> list[Trait]:
        """The piece showing its face `face` (0-based): the Layer's state is its active
        level, 1-based (Embellishment.mySetState; negative would mean inactive)."""
        if not 0 <= face < len(self.svgs):
            raise ValueError(f"{self.name} has {len(self.svgs)} faces, not a face {face + 1}")
        traits = [marker([PIECE_ID_KEY], [self.key])]
        if len(self.svgs) > 1:
            traits.append(Trait(layer_type(self.images), str(face + 1)))
        traits.append(Trait("prototype;" + encode([self.prototype], ";")))
        traits.append(basic_piece(self.images[0], self.name, basic_state))
        return traits


def concealed_key(side: str, svg: str) -> str:
    """The stand-in of a concealed face: named by its drawing, which is the same for
    every counter with that face, so the key says no more than the face does."""
    return f"{HIDDEN}:{side}:{hashlib.sha256(svg.encode('utf-8')).hexdigest()[:12]}"


def kind_key(counter: Counter) -> str:
    """The piece kind a view's counter is placed as: its own, the stand-in of the face
    it shows when the view does not identify it, or its side's "?" stand-in."""
    if counter.piece:
        return counter.piece
    if counter.face < min(counter.concealed, len(counter.factors)):
        return concealed_key(counter.side, counter_svg(counter, counter.face))
    return f"{HIDDEN}:{counter.side}"


def prototype_name(side: str, unit_class: str) -> str:
    """"German infantry", "German marker", "Common marker"."""
    return f"{side.capitalize() or 'Common'} {unit_class}"


def marker(keys: list[str], values: list[str]) -> Trait:
    """`mark;k1,k2` with state `v1,v2` (Marker.java)."""
    return Trait("mark;" + encode(keys, ","), encode(values, ","))


def basic_piece(image: str, name: str, state: str) -> Trait:
    """`piece;cloneKey;deleteKey;image;name` (BasicPiece.java:173-197)."""
    return Trait("piece;" + encode(["", "", image, name], ";"), state)


def delete_trait() -> Trait:
    return Trait("delete;" + encode(["Delete", DELETE_KEY, ""], ";"))


def layer_type(images: list[str]) -> str:
    """A Layer (`emb2;`, Embellishment.java:204-260, version 1) that is always active and
    steps through `images` with Ctrl+F, looping."""
    fields = ["", str(CTRL), "", "Flip", str(CTRL), "", "", str(CTRL), "", "", "", "1",
              "false", "0", "0", encode(images, ","), encode([""] * len(images), ","),
              "true", "Step", "", "", "false", "", "1", "1", "true", "", FLIP_KEY, "",
              "Steps", "1.0", "", "true"]
    return "emb2;" + encode(fields, ";")


def prototype_traits(side: str, unit_class: str) -> list[Trait]:
    """What every piece of a side and class shares: its side and class as properties,
    and Delete."""
    return [marker([SIDE_KEY, CLASS_KEY], [side, unit_class]), delete_trait(),
            basic_piece("", "", "null;0;0;;0")]


def catalog(counters: list[Counter], sides: list[str], legend: list[LegendItem],
            hides_information: bool) -> list[PieceKind]:
    """Every piece kind of the module, gpids from 1 in palette order."""
    kinds: list[PieceKind] = []

    def add(key: str, name: str, side: str, unit_class: str, svgs: tuple[str, ...],
            fill: str = "") -> None:
        kinds.append(PieceKind(key, len(kinds) + 1, name, side, unit_class, svgs, fill))

    for c in counters:
        steps = max(1, len(c.factors))
        add(c.piece, c.title, c.side, c.symbol or "marker",
            tuple(counter_svg(c, step) for step in range(steps)))
    # the stand-ins: every distinct concealed face, in counter-mix order
    faces: dict[str, tuple[str, str, str]] = {}  # key -> (side, name, drawing)
    for c in counters:
        for step in range(min(c.concealed, len(c.factors))):
            svg = counter_svg(c, step)
            faces.setdefault(concealed_key(c.side, svg), (
                c.side, f"{c.side.capitalize()} {c.symbol} {c.factors[step]}", svg))
    named: dict[str, int] = {}
    for key, (side, name, svg) in faces.items():
        named[name] = named.get(name, 0) + 1  # the same words in other colours
        add(key, name + (f" ({named[name]})" if named[name] > 1 else ""), side, "hidden",
            (svg,))
    if hides_information:
        for side in sides:
            sample = next((c for c in counters if c.side == side and not c.marker), None)
            if sample is not None:
                add(f"{HIDDEN}:{side}", f"Unidentified {side.capitalize()} unit", side,
                    "hidden", (marker_svg("?", sample.fill, sample.ink, "unidentified"),))
    for item in legend:
        if item.kind == "area" and item.fill:
            add(f"area:{item.label}", item.label, "", "marker",
                (control_marker_svg(item.mark or item.label[:3], item.fill, item.label),),
                item.fill)
    return kinds
