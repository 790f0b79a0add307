"""The .vmod archive: `buildFile.xml` (the component tree, every tag a fully-qualified
VASSAL class, nested as VASSAL casts its parents), `moduledata`, `images/`, and one
saved game per predefined setup at the archive root (FORMAT.md §1, §2, §7)."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field

from lxml import etree

from exporters.vassal.board import Board, board_attributes
from exporters.vassal.counters import pngs
from exporters.vassal.encoding import encode, java_int, piece_text
from exporters.vassal.pieces import PieceKind, prototype_name, prototype_traits
from exporters.vassal.save import VASSAL_VERSION
from exporters.vassal.turns import tracker_element

B = "VASSAL.build."
MAP = B + "module.map."
MAP_NAME = "Main Map"
STANDARD_MAP_CHILDREN = ("StackMetrics", "PieceMover", "KeyBufferer", "MenuDisplayer",
                         "ForwardToKeyBuffer", "StackExpander", "Scroller", "ForwardToChatter",
                         "MapCenterer", "Zoomer", "CounterDetailViewer", "HighlightLastMoved",
                         "SelectionHighlighters", "HidePiecesButton", "ImageSaver")


@dataclass
class Setup:
    name: str
    file: str  # archive entry name
    data: bytes  # the .vsav


@dataclass
class ModulePlan:
    name: str
    version: str
    description: str
    sides: list[str]
    board: Board
    kinds: list[PieceKind]
    turns: list[str]
    phases: list[str]
    setups: list[Setup] = field(default_factory=list)


def _sub(parent: etree._Element, cls: str, attrs: dict[str, str] | None = None,
         text: str | None = None) -> etree._Element:
    el = etree.SubElement(parent, cls, attrs or {})
    if text is not None:
        el.text = text
    return el


def build_file(plan: ModulePlan) -> bytes:
    """buildFile.xml."""
    root = etree.Element(B + "GameModule", {
        "name": plan.name, "version": plan.version, "VassalVersion": VASSAL_VERSION,
        "description": plan.description, "ModuleOther1": "", "ModuleOther2": "",
        "nextPieceSlotId": java_int(max((k.gpid for k in plan.kinds), default=0) + 1)})
    _sub(root, B + "module.BasicCommandEncoder")
    _sub(root, B + "module.Documentation")
    roster = _sub(root, B + "module.PlayerRoster", {"buttonText": "Retire",
                                                    "buttonToolTip": "Switch sides"})
    for side in plan.sides:
        _sub(roster, "entry", text=side.capitalize())
    _sub(root, B + "module.GlobalOptions", {"autoReport": "Always", "markMoved": "Always",
                                             "nonOwnerUnmaskable": "Never",
                                             "playerIdFormat": "$PlayerName$"})
    _sub(root, B + "module.Chatter")

    game_map = _sub(root, B + "module.Map", {
        "mapName": MAP_NAME, "markMoved": "Always", "allowMultiple": "false",
        "backgroundcolor": "255,255,255", "buttonName": "", "edgeWidth": "0",
        "edgeHeight": "0", "launch": "false"})
    picker = _sub(game_map, MAP + "BoardPicker", {"title": "Choose board", "slotWidth": "350",
                                                  "slotHeight": "125", "slotScale": "0.2",
                                                  "maxColumns": "0"})
    board_el = _sub(picker, MAP + "boardPicker.Board", board_attributes(plan.board))
    plan.board.grid_element(board_el)
    for child in STANDARD_MAP_CHILDREN:
        _sub(game_map, MAP + child)

    window = _sub(root, B + "module.PieceWindow", {"name": "Counters", "text": "Counters",
                                                   "tooltip": "Counters", "hidden": "false",
                                                   "scale": "1.0"})
    tabs = _sub(window, B + "widget.TabWidget", {"entryName": "Counters"})
    panels: dict[str, etree._Element] = {}
    for kind in plan.kinds:
        title = kind.side.capitalize() if kind.side else "Markers"
        if title not in panels:
            panels[title] = _sub(tabs, B + "widget.PanelWidget", {
                "entryName": title, "fixed": "false", "nColumns": "7", "vert": "false",
                "scale": "1.0"})
        state = encode(["null", "0", "0", str(kind.gpid), "0"], ";")
        _sub(panels[title], B + "widget.PieceSlot",
             {"entryName": kind.name, "gpid": str(kind.gpid), "width": "64", "height": "64"},
             piece_text(kind.traits(state)))

    prototypes = _sub(root, B + "module.PrototypesContainer")
    for side, unit_class in sorted({(k.side, k.unit_class) for k in plan.kinds}):
        _sub(prototypes, B + "module.PrototypeDefinition",
             {"name": prototype_name(side, unit_class), "description": ""},
             piece_text(prototype_traits(side, unit_class)))

    _sub(root, B + "module.DiceButton", {
        "name": "1d6", "text": "1d6", "tooltip": "Roll one six-sided die (casual play: "
        "adjudicated games roll with the referee's committed dice)", "nDice": "1",
        "nSides": "6", "plus": "0", "addToTotal": "0", "reportTotal": "false",
        "prompt": "false", "hotkey": "", "icon": ""})
    tracker_element(root, plan.turns, plan.phases)
    for setup in plan.setups:
        _sub(root, B + "module.PredefinedSetup", {"name": setup.name, "file": setup.file,
                                                  "useFile": "true", "isMenu": "false",
                                                  "description": ""})
    return bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8",
                                standalone=False, pretty_print=True))


def write_vmod(plan: ModulePlan, moduledata: bytes) -> bytes:
    """The module archive (DEFLATED: Java's ZipFile reads nothing else)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", build_file(plan))
        z.writestr("moduledata", moduledata)
        z.writestr(f"images/{plan.board.image}", plan.board.png)
        images = [(image, svg) for kind in plan.kinds
                  for image, svg in zip(kind.images, kind.svgs, strict=True)]
        for (image, _), data in zip(images, pngs([svg for _, svg in images]), strict=True):
            z.writestr(f"images/{image}", data)
        for setup in plan.setups:
            z.writestr(setup.file, setup.data)
    return out.getvalue()
