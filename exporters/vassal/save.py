"""Saved games (.vsav), which are also the files of predefined setups (FORMAT.md §4):
a zip with `savedGame` (the ESC-separated command stream from `begin_save` to
`end_save`, obfuscated as VASSAL writes it), `savedata` and a copy of the module's
`moduledata`, so VASSAL neither prompts nor warns on loading.

Pieces come from a map view: the counters the game's reporter shows in each
location, for the side the view was projected for, each on the face the view shows
(its Layer level). A counter the view does not identify becomes the stand-in of the
face it shows (or its side's "?"), so a per-side file never names what the side may
not see, and an area whose colour differs from the printed board gets the legend's
marker for its colour. The turn tracker's state follows the pieces.
"""

from __future__ import annotations

import io
import time
import zipfile
from dataclasses import dataclass

from lxml import etree

from adjudicator.engine.report import MapView
from adjudicator.errors import PbemError
from exporters.vassal.board import Board, Location
from exporters.vassal.encoding import ESC, decode, deobfuscate, encode, obfuscate, piece_text
from exporters.vassal.pieces import PieceKind, kind_key

VASSAL_VERSION = "3.7.26"


class ExportError(PbemError):
    """The data cannot be exported as asked (an unknown location or piece)."""


@dataclass(frozen=True)
class Placed:
    kind: PieceKind
    location: str
    point: tuple[int, int]
    face: int = 0  # the face (Layer level, 0-based) the piece shows


def placements(view: MapView, board: Board, kinds: list[PieceKind]) -> list[list[Placed]]:
    """The stacks a view puts on the board: each location's counters in the view's
    order, and the area-colour marker where an area's colour differs from the board
    image (in its own pile beside them, or under them where the area is small)."""
    by_key = {k.key: k for k in kinds}
    by_fill = {k.fill: k for k in kinds if k.fill}
    stacks: dict[tuple[int, int], list[Placed]] = {}
    for location_id, counters in sorted(view.counters.items()):
        location = _location(board, location_id)
        for counter in counters:
            key = kind_key(counter)
            if key not in by_key:
                raise ExportError(f"the view shows {counter.title!r} ({key}), which is not "
                                  "among the module's pieces")
            # a stand-in has the one face it stands for
            face = counter.face if counter.piece else 0
            if face >= len(by_key[key].svgs):
                raise ExportError(f"the view shows {counter.title!r} on face {face + 1}, "
                                  f"which its piece does not have")
            stacks.setdefault(location.stack, []).append(
                Placed(by_key[key], location_id, location.stack, face))
    for location_id, fill in sorted(view.area_fill.items()):
        if fill == board.base_fill.get(location_id):
            continue
        if fill not in by_fill:
            raise ExportError(f"area {location_id} has colour {fill}, which no legend entry "
                              "explains, so no marker can show it")
        location = _location(board, location_id)
        point = location.marker or location.stack
        stacks.setdefault(point, []).insert(0, Placed(by_fill[fill], location_id, point))
    return list(stacks.values())


def _location(board: Board, location_id: str) -> Location:
    try:
        return board.locations[location_id]
    except KeyError:
        raise ExportError(f"the view places pieces in {location_id!r}, which is not a "
                          "location of the board") from None


def saved_game_text(stacks: list[list[Placed]], map_name: str,
                    others: list[str] | None = None) -> str:
    """The command stream: one AddPiece per piece (ids p1, p2, ... that say nothing
    about the piece) showing its face, then one Stack per location holding its pieces
    in order, then `others` (the turn tracker's state), as GameState writes them."""
    commands = ["begin_save"]
    stack_commands = []
    n = 0
    for s, stack in enumerate(stacks, start=1):
        ids = []
        for placed in stack:
            n += 1
            x, y = placed.point
            state = encode([map_name, str(x), str(y), str(placed.kind.gpid), "0"], ";")
            commands.append(piece_text(placed.kind.traits(state, placed.face), f"p{n}"))
            ids.append(f"p{n}")
        x, y = stack[0].point
        stack_state = encode([map_name, str(x), str(y), *ids, "@@0"], ";")
        stack_commands.append("+/" + encode([f"s{s}", "stack", stack_state], "/"))
    return encode([*commands, *stack_commands, *(others or []), "end_save"], ESC)


def commands_of(text: str) -> list[str]:
    """The top-level commands of a saved game's text."""
    return decode(text, ESC)


def metadata_xml(fields: list[tuple[str, str]]) -> bytes:
    """`<data version="1">` with one element per field (AbstractMetaData.save)."""
    root = etree.Element("data", version="1")
    for tag, text in fields:
        etree.SubElement(root, tag).text = text
    return bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8",
                                standalone=False))


def module_metadata(name: str, version: str, description: str) -> bytes:
    return metadata_xml([("version", version), ("extra1", ""), ("extra2", ""),
                         ("VassalVersion", VASSAL_VERSION), ("dateSaved", _now_ms()),
                         ("description", description), ("name", name)])


def _now_ms() -> str:
    return str(int(time.time() * 1000))


def saved_game(text: str, moduledata: bytes, version: str, description: str) -> bytes:
    """The .vsav zip (DEFLATED: Java reads nothing else)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", obfuscate(text))
        z.writestr("savedata", metadata_xml([
            ("version", version), ("extra1", ""), ("extra2", ""),
            ("VassalVersion", VASSAL_VERSION), ("dateSaved", _now_ms()),
            ("description", description)]))
        z.writestr("moduledata", moduledata)
    return out.getvalue()


def read_saved_game(data: bytes) -> str:
    """The command text of a .vsav (for tests and for checking what we wrote)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return deobfuscate(z.read("savedGame"))
