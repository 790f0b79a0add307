"""VASSAL export (issue: VASSAL export; formats per FORMAT.md, VASSAL 3.7.26).

Structure of the .vmod (zip layout, moduledata, buildFile nesting and numbers,
images), piece definitions decoding back into the same trait chain, every setup
placing every piece of its scenario inside its area, saved games of adjudicated
positions found back at their areas, hex grids numbered as printed, and no
identity of a piece the view hides in a per-side saved game.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter as Multiset
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from adjudicator.cli import main
from adjudicator.engine.hexgrid import HexGrid, hex_distance
from adjudicator.engine.module import ModuleData
from adjudicator.engine.report import Counter
from adjudicator.games import get_game
from adjudicator.reports.games import reporter_for
from exporters import vassal
from exporters.vassal.board import hex_board, inside
from exporters.vassal.encoding import (
    ESC,
    Trait,
    chain,
    decode,
    deobfuscate,
    encode,
    obfuscate,
    parse_piece_text,
    piece_text,
    unchain,
)
from exporters.vassal.grid import place_grid
from exporters.vassal.pieces import PIECE_ID_KEY, catalog
from exporters.vassal.save import commands_of, placements, read_saved_game, saved_game_text
from exporters.vassal.vmod import MAP_NAME, ModulePlan, build_file

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "solitaire"
INT_ATTRIBUTES = {"nextPieceSlotId", "x0", "y0", "width", "height", "gpid", "hOff", "vOff",
                  "hLeading", "vLeading", "edgeWidth", "edgeHeight", "nDice", "nSides",
                  "plus", "addToTotal", "nColumns", "slotWidth", "slotHeight", "maxColumns",
                  "fontSize", "rotateText", "hDrawOff", "vDrawOff"}
DOUBLE_ATTRIBUTES = {"dx", "dy", "scale", "slotScale"}
JAVA_INT = re.compile(r"-?\d+")
JAVA_DOUBLE = re.compile(r"-?\d+\.\d+(E-?\d+)?")


@pytest.fixture(scope="module")
def vmod() -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(vassal.export_module("solitaire")))


@pytest.fixture(scope="module")
def build(vmod: zipfile.ZipFile) -> etree._Element:
    return etree.fromstring(vmod.read("buildFile.xml"))


def traits_of(text: str) -> list[Trait]:
    return parse_piece_text(text)[1]


def field(trait: Trait, index: int) -> str:
    return decode(trait.type.partition(";")[2], ";")[index]


def marker_values(traits: list[Trait]) -> dict[str, str]:
    values: dict[str, str] = {}
    for t in traits:
        if t.type.startswith("mark;"):
            values.update(zip(decode(t.type[5:], ","), decode(t.state, ","), strict=True))
    return values


def zones(build: etree._Element) -> dict[str, list[tuple[int, int]]]:
    return {z.get("name"): [tuple(map(int, p.split(","))) for p in z.get("path").split(";")]
            for z in build.iter("VASSAL.build.module.map.boardPicker.board.mapgrid.Zone")}


def zone_at(build: etree._Element, x: int, y: int) -> list[str]:
    return [name for name, ring in zones(build).items() if inside((x, y), ring)]


def placed_pieces(save: bytes) -> list[tuple[dict[str, str], str, int, int]]:
    """(marker properties, map, x, y) of every piece a saved game adds."""
    out = []
    for command in commands_of(read_saved_game(save)):
        if command.startswith("+/") and decode(command[2:], "/")[1] != "stack":
            traits = traits_of(command)
            state = decode(traits[-1].state, ";")
            out.append((marker_values(traits), state[0], int(state[1]), int(state[2])))
    return out


# -- encodings -------------------------------------------------------------------------

def test_sequence_encoder_matches_vassal_examples() -> None:
    # FORMAT.md §3.1: escaped delimiters, quoting of a leading backslash, empty tokens
    assert encode(["a", "b;c", ""], ";") == "a;b\\;c;"
    assert decode("a;", ";") == ["a", ""]
    assert decode("", ";") == [""]
    assert encode(["\\x", "'q'"], ";") == "'\\x';''q''"
    assert decode("'\\x';''q''", ";") == ["\\x", "'q'"]
    # each nesting level adds one backslash before the inner delimiters
    assert chain([Trait("a;1", "s1"), Trait("b;2", "s2"), Trait("piece;;;i.png;N", "x")]) == \
        ("a;1\tb;2\\\tpiece;;;i.png;N", "s1\ts2\\\tx")


tokens = st.lists(st.text(alphabet=st.sampled_from("ab;,\t/'\\ "), max_size=6)
                  .filter(lambda t: not t.endswith("\\")), min_size=1, max_size=5)


@given(tokens, st.sampled_from([";", ",", "\t", "/", ESC]))
def test_sequence_encoder_round_trips(values: list[str], delimiter: str) -> None:
    assert decode(encode(values, delimiter), delimiter) == values


@given(st.lists(st.tuples(st.text(alphabet="ab;,/'", min_size=1, max_size=5)
                          .map(lambda s: "mark;" + s),
                          st.text(alphabet="ab;,/'", max_size=5)), max_size=4))
def test_trait_chains_decode_back_into_the_same_traits(levels: list[tuple[str, str]]) -> None:
    traits = [Trait(t, s) for t, s in levels] + [Trait("piece;;;a.png;A/B", "null;0;0;3;0")]
    assert unchain(*chain(traits)) == traits
    assert parse_piece_text(piece_text(traits, "p1")) == ("p1", traits)


def test_a_state_missing_a_level_is_refused_like_vassal_does() -> None:
    type_, _ = chain([Trait("mark;k", "v"), Trait("piece;;;a.png;A", "null;0;0;;0")])
    with pytest.raises(ValueError, match="no state for trait"):
        unchain(type_, "v")


def test_saved_game_obfuscation_round_trips_and_plain_text_is_read_too() -> None:
    text = "begin_save\x1b+/p1/piece;;;a.png;Ä\\/x/null;0;0;;0\x1bend_save"
    data = obfuscate(text, key=0x3C)
    assert data.startswith(b"!VCSK3c") and b"begin" not in data
    assert deobfuscate(data) == text
    assert deobfuscate(data.upper().replace(b"!VCSK", b"!VCSK")) == text
    assert deobfuscate(text.encode()) == text


# -- the module archive ----------------------------------------------------------------

def test_archive_layout_and_compression(vmod: zipfile.ZipFile) -> None:
    names = vmod.namelist()
    assert {"buildFile.xml", "moduledata", "images/board.png"} <= set(names)
    assert all(i.compress_type in (zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED)
               for i in vmod.infolist())
    assert all("\\" not in n and not n.startswith("/") for n in names)
    assert {n for n in names if n.endswith(".vsav")} == {
        "setup-campaign.vsav", "setup-blau.vsav", "setup-uranus.vsav"}


def test_moduledata_agrees_with_the_build_file(vmod: zipfile.ZipFile,
                                                build: etree._Element) -> None:
    data = etree.fromstring(vmod.read("moduledata"))
    assert data.tag == "data" and data.get("version") == "1"
    assert data.findtext("name") == build.get("name") == "Barbarossa Solitaire"
    assert data.findtext("version") == build.get("version") == \
        get_game("solitaire").bundled_module.version  # the module's own version
    assert data.findtext("VassalVersion") == build.get("VassalVersion") == "3.7.26"
    assert JAVA_INT.fullmatch(data.findtext("dateSaved"))


def test_build_file_tags_are_fully_qualified_classes_with_java_numbers(
        build: etree._Element) -> None:
    assert build.tag == "VASSAL.build.GameModule"
    for el in build.iter():
        assert isinstance(el.tag, str), "no comments or processing instructions"
        parent = el.getparent()
        if parent is not None and parent.tag == "VASSAL.build.module.PlayerRoster":
            continue  # side names: any tag
        assert el.tag.startswith("VASSAL."), el.tag
        for key, value in el.attrib.items():
            if key in INT_ATTRIBUTES:
                assert JAVA_INT.fullmatch(value), (el.tag, key, value)
            if key in DOUBLE_ATTRIBUTES:
                assert JAVA_DOUBLE.fullmatch(value), (el.tag, key, value)
    assert b"CDATA" not in etree.tostring(build)


def test_build_file_nesting(build: etree._Element) -> None:
    b = "VASSAL.build."
    parents = {
        b + "module.map.BoardPicker": b + "module.Map",
        b + "module.map.boardPicker.Board": b + "module.map.BoardPicker",
        b + "module.map.boardPicker.board.ZonedGrid": b + "module.map.boardPicker.Board",
        b + "module.map.boardPicker.board.mapgrid.Zone": b + "module.map.boardPicker.board"
                                                         ".ZonedGrid",
        b + "widget.TabWidget": b + "module.PieceWindow",
        b + "widget.PanelWidget": b + "widget.TabWidget",
        b + "widget.PieceSlot": b + "widget.PanelWidget",
        b + "module.PrototypeDefinition": b + "module.PrototypesContainer",
        b + "module.turn.ListTurnLevel": (b + "module.turn.TurnTracker",
                                          b + "module.turn.ListTurnLevel"),
    }
    for tag, parent in parents.items():
        found = list(build.iter(tag))
        assert found, tag
        for el in found:
            assert el.getparent().tag in (parent if isinstance(parent, tuple) else (parent,))
    game_map = build.find(b + "module.Map")
    children = {c.tag.rsplit(".", 1)[1] for c in game_map}
    assert {"BoardPicker", "StackMetrics", "PieceMover", "KeyBufferer", "MenuDisplayer",
            "ForwardToKeyBuffer", "StackExpander", "Scroller", "ForwardToChatter",
            "MapCenterer", "Zoomer", "CounterDetailViewer"} <= children
    assert len(build.findall(b + "module.Map")) == 1 and game_map.get("mapName") == MAP_NAME
    dice = build.find(b + "module.DiceButton")
    assert (dice.get("nDice"), dice.get("nSides")) == ("1", "6")


def test_every_area_is_a_named_zone(build: etree._Element) -> None:
    module = get_game("solitaire").bundled_module
    names = {a.get("name") for a in module.findall("m:map/m:area")}
    assert set(zones(build)) == names
    assert all(len(ring) >= 3 for ring in zones(build).values())


def test_turn_tracker_has_every_turn_and_phase(build: etree._Element) -> None:
    levels = list(build.iter("VASSAL.build.module.turn.ListTurnLevel"))
    turns = decode(levels[0].get("list"), ",")
    assert turns[0] == "Summer 1941" and turns[-1] == "Summer 1945" and len(turns) == 13
    assert decode(levels[1].get("list"), ",") == ["Movement", "Attack", "Reinforcement",
                                                  "Soviet combat"]


def test_piece_slots_decode_into_their_trait_chains(vmod: zipfile.ZipFile,
                                                    build: etree._Element) -> None:
    slots = list(build.iter("VASSAL.build.widget.PieceSlot"))
    prototypes = {p.get("name"): p.text for p in
                  build.iter("VASSAL.build.module.PrototypeDefinition")}
    gpids = [int(s.get("gpid")) for s in slots]
    assert len(set(gpids)) == len(gpids) and int(build.get("nextPieceSlotId")) > max(gpids)
    ids = set()
    for slot in slots:
        piece_id, traits = parse_piece_text(slot.text)
        assert piece_id == "null" and piece_text(traits) == slot.text
        assert traits[-1].type.startswith("piece;")
        assert decode(traits[-1].state, ";") == ["null", "0", "0", slot.get("gpid"), "0"]
        used = [decode(t.type, ";")[1] for t in traits if t.type.startswith("prototype;")]
        assert used and all(name in prototypes for name in used)
        ids.add(marker_values(traits)[PIECE_ID_KEY])
    module = get_game("solitaire").bundled_module
    assert {p.get("id") for p in module.findall("m:pieces/m:piece")} | {"garrison"} <= ids
    for text in prototypes.values():
        traits = traits_of(text)
        assert marker_values(traits).keys() == {"pbem_side", "pbem_class"}


def test_every_referenced_image_is_in_the_archive(vmod: zipfile.ZipFile,
                                                  build: etree._Element) -> None:
    names = set(vmod.namelist())
    referenced = {b.get("image") for b in build.iter("VASSAL.build.module.map.boardPicker"
                                                      ".Board")}
    for slot in build.iter("VASSAL.build.widget.PieceSlot"):
        for t in traits_of(slot.text):
            if t.type.startswith("piece;"):
                referenced.add(field(t, 2))
            if t.type.startswith("emb2;"):
                referenced.update(decode(field(t, 15), ","))
    referenced.discard("")
    assert referenced and {f"images/{r}" for r in referenced} <= names
    board = vmod.read("images/board.png")
    assert board.startswith(b"\x89PNG")


def scenario_counts(scenario: str) -> Multiset[str]:
    package = get_game("solitaire")
    module = package.bundled_module
    state = package.rules.initial_state(module, scenario, {})
    view = reporter_for("solitaire").map_view(module, state, "german")
    names = {a.get("id"): a.get("name") for a in module.findall("m:map/m:area")}
    return Multiset(f"{c.piece}@{names[a]}" for a, cs in view.counters.items() for c in cs)


@pytest.mark.parametrize("scenario", ["campaign", "blau", "uranus"])
def test_each_setup_places_every_piece_of_its_scenario_in_its_area(
        vmod: zipfile.ZipFile, build: etree._Element, scenario: str) -> None:
    setup = next(s for s in build.iter("VASSAL.build.module.PredefinedSetup")
                 if s.get("file") == f"setup-{scenario}.vsav")
    assert setup.get("useFile") == "true"
    save = vmod.read(setup.get("file"))
    commands = commands_of(read_saved_game(save))
    assert commands[0] == "begin_save" and commands[-1] == "end_save"
    found: Multiset[str] = Multiset()
    for props, map_name, x, y in placed_pieces(save):
        assert map_name == MAP_NAME
        where = zone_at(build, x, y)
        assert len(where) == 1, (props, x, y)
        if not props[PIECE_ID_KEY].startswith("area:"):
            found[f"{props[PIECE_ID_KEY]}@{where[0]}"] += 1
    assert found == scenario_counts(scenario)
    with zipfile.ZipFile(io.BytesIO(save)) as z:
        assert etree.fromstring(z.read("moduledata")).findtext("name") == build.get("name")


def test_control_that_differs_from_the_board_gets_a_marker(vmod: zipfile.ZipFile,
                                                           build: etree._Element) -> None:
    # Blau starts with German-held areas the printed map shows as Soviet
    package = get_game("solitaire")
    state = package.rules.initial_state(package.bundled_module, "blau", {})
    markers = {zone_at(build, x, y)[0] for props, _, x, y in
               placed_pieces(vmod.read("setup-blau.vsav"))
               if props[PIECE_ID_KEY] == "area:German-controlled"}
    module = package.bundled_module
    start = {a.get("id"): a.get("start-side") for a in module.findall("m:map/m:area")}
    names = {a.get("id"): a.get("name") for a in module.findall("m:map/m:area")}
    expected = {names[a] for a, side in state["control"].items()
                if side == "german" and start[a] != "german"}
    assert markers == expected and expected


# -- saved games of adjudicated positions ----------------------------------------------

@pytest.mark.parametrize("seq", [0, 7, 16])
def test_saved_game_puts_every_unit_of_the_step_in_its_area(build: etree._Element,
                                                            seq: int) -> None:
    from adjudicator.referee.gamedir import load_game
    from adjudicator.reports.from_journal import step_report

    save = vassal.export_save(EXAMPLE, "german", seq)
    game = load_game(EXAMPLE)
    state = step_report(game, seq, "german").state_after
    names = {a.get("id"): a.get("name") for a in game.module.findall("m:map/m:area")}
    expected = Multiset(f"{u}@{names[a]}" for u, a in state["units"].items())
    expected.update(f"garrison@{names[a]}" for a in state.get("garrisons", []))
    found: Multiset[str] = Multiset()
    for props, _, x, y in placed_pieces(save):
        if not props[PIECE_ID_KEY].startswith("area:"):
            found[f"{props[PIECE_ID_KEY]}@{zone_at(build, x, y)[0]}"] += 1
    assert found == expected


def test_saved_game_of_a_side_never_names_what_its_view_hides(monkeypatch: Any) -> None:
    """A view that does not identify GER-16 (as a fog-of-war game's projection would not)
    yields a stand-in piece: the file holds neither its id, its name nor its image."""
    real = reporter_for("solitaire")

    class Fogged:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def map_view(self, module: ModuleData, state: dict[str, Any], side: str,
                     caption: str | None = None) -> Any:
            view = real.map_view(module, state, side, caption)
            for counters in view.counters.values():
                for i, c in enumerate(counters):
                    if c.piece == "GER-16":
                        counters[i] = Counter("?", "", "#777777", "#ffffff", "",
                                              "German unit", side="german")
            return view

    monkeypatch.setattr(vassal, "reporter_for", lambda game: Fogged())
    monkeypatch.setattr(vassal, "hides_information", lambda game: True)
    save = vassal.export_save(EXAMPLE, "german", 3)
    text = read_saved_game(save)
    raw = b"".join(zipfile.ZipFile(io.BytesIO(save)).read(n)
                   for n in ("savedGame", "savedata", "moduledata"))
    for secret in ("GER-16", "16th Army", "GER-16-"):
        assert secret not in text and secret.encode() not in raw
    ids = [props[PIECE_ID_KEY] for props, *_ in placed_pieces(save)]
    assert ids.count("hidden:german") == 1


def test_saved_game_metadata_names_the_step_and_side() -> None:
    save = zipfile.ZipFile(io.BytesIO(vassal.export_save(EXAMPLE, "german", 2)))
    description = etree.fromstring(save.read("savedata")).findtext("description")
    assert "after step 2" in description and "german side" in description
    assert etree.fromstring(save.read("moduledata")).findtext("name") == "Barbarossa Solitaire"


# -- hex grids -------------------------------------------------------------------------

FLAVOURS = [(o, s, n, first) for o in ("flat", "pointy") for s in ("even", "odd")
            for n, first in (("CCRR", 1), ("LN", 1), ("LN", 4))]


@pytest.mark.parametrize(("orientation", "shifted", "numbering", "first_row"), FLAVOURS)
def test_vassal_grid_numbering_equals_the_printed_labels(orientation: str, shifted: str,
                                                         numbering: str,
                                                         first_row: int) -> None:
    grid = HexGrid(orientation, shifted, numbering, first_row)
    hexes = [grid.from_offset(c, r) for c in range(3, 15) for r in range(first_row,
                                                                         first_row + 11)]
    placement = place_grid(grid, hexes)
    for h in hexes:
        x, y = placement.centre(h)
        for dx, dy in ((0, 0), (9, 6), (-9, -6), (14, 0), (0, -15)):
            assert placement.vassal.locate(x + dx, y + dy) == grid.label(h)
        for other in hexes:  # VASSAL's geometry has our adjacency
            if hex_distance(h, other) == 1:
                ox, oy = placement.centre(other)
                assert abs(((ox - x) ** 2 + (oy - y) ** 2) ** 0.5 - placement.vassal.dy) < 2


def test_1941_rule_6_2_and_15_2_2_adjacencies_hold_on_the_vassal_grid() -> None:
    grid = HexGrid("flat", "even", "CCRR")
    labels = ["2621", "2522", "2620", "2720", "0707", "0708", "0808", "0809", "0910", "1808"]
    placement = place_grid(grid, [grid.parse(x) for x in labels])

    def touching(a: str, b: str) -> bool:
        (ax, ay), (bx, by) = placement.centre(grid.parse(a)), placement.centre(grid.parse(b))
        return abs(((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 - placement.vassal.dy) < 2

    assert touching("2621", "2522") and touching("2621", "2620")
    assert touching("2620", "2720") and not touching("2621", "2720")
    x, y = placement.centre(grid.parse("1808"))
    assert placement.vassal.locate(x, y) == "1808"


HEX_MODULE = b"""<module xmlns="urn:pbem:module:1" game="toy" version="2.1">
  <map kind="hexes"><grid orientation="flat" shifted="even" numbering="CCRR"/>
    <hex id="1807" terrain="clear"/><hex id="1808" terrain="city"/>
    <hex id="1907" terrain="forest"/><hex id="1908" terrain="swamp"/>
    <hex id="1707" terrain="clear"/><hex id="1708" terrain="lake"/>
    <hexside a="1808" b="1908" features="river"/>
  </map></module>"""


def test_a_hex_map_exports_with_its_grid_and_two_step_counters_as_layers() -> None:
    import hashlib

    root = etree.fromstring(HEX_MODULE)
    module = ModuleData(root, "toy", "2.1", hashlib.sha256(HEX_MODULE).hexdigest(), HEX_MODULE)
    board = hex_board(module)
    tank = Counter("46", "", "#7c826e", "#ffffff", "", "46th Panzer Corps", piece="GER-46",
                   side="german", symbol="armor", echelon="corps", factors=("6-6", "3-6"))
    rifle = Counter("11", "", "#c23b22", "#ffffff", "", "11th Army", piece="SOV-11",
                    side="soviet", symbol="infantry", echelon="army", factors=("4-3",))
    kinds = catalog([tank, rifle], ["german", "soviet"], [], hides_information=True)
    plan = ModulePlan("Toy", "2.1", "", ["german", "soviet"], board, kinds, ["1"], [])
    build = etree.fromstring(build_file(plan))
    grid = next(build.iter("VASSAL.build.module.map.boardPicker.board.HexGrid"))
    assert grid.getparent().tag == "VASSAL.build.module.map.boardPicker.Board"
    numbering = grid[0]
    assert numbering.tag.endswith("mapgrid.HexGridNumbering")
    assert (numbering.get("first"), numbering.get("hType"), numbering.get("vType"),
            numbering.get("stagger")) == ("H", "N", "N", "false")
    assert JAVA_INT.fullmatch(grid.get("x0")) and JAVA_DOUBLE.fullmatch(grid.get("dx"))
    slot = next(s for s in build.iter("VASSAL.build.widget.PieceSlot")
                if "GER-46" in s.text)
    layer = next(t for t in traits_of(slot.text) if t.type.startswith("emb2;"))
    assert len(decode(field(layer, 15), ",")) == 2 and layer.state == "1"
    assert {k.key for k in kinds} == {"GER-46", "SOV-11", "hidden:german", "hidden:soviet"}

    from adjudicator.engine.report import MapView
    view = MapView("", "", {}, {}, [], set(), {"1808": [tank], "1907": [rifle]}, [])
    text = saved_game_text(placements(view, board, kinds), MAP_NAME)
    pieces = placed_pieces(vassal.saved_game(text, b"<data/>", "2.1", ""))
    where = {props[PIECE_ID_KEY]: board.grid.vassal.locate(x, y)
             for props, _, x, y in pieces}
    assert where == {"GER-46": "1808", "SOV-11": "1907"}


# -- the command line --------------------------------------------------------------------

def test_cli_exports_a_module_and_a_saved_game(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "solitaire.vmod"
    result = runner.invoke(main, ["export", "vassal", "solitaire", "--scenario", "blau",
                                  "-o", str(out)])
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as z:
        assert [n for n in z.namelist() if n.endswith(".vsav")] == ["setup-blau.vsav"]
    save = tmp_path / "step4.vsav"
    result = runner.invoke(main, ["export", "vassal-save", str(EXAMPLE), "--step", "4",
                                  "--side", "german", "-o", str(save)])
    assert result.exit_code == 0, result.output
    assert zipfile.ZipFile(save).namelist() == ["savedGame", "savedata", "moduledata"]
    result = runner.invoke(main, ["export", "vassal", "solitaire", "--scenario", "typhoon",
                                  "-o", str(out)])
    assert result.exit_code == 1 and "no scenario 'typhoon'" in result.output


def test_cli_exports_into_a_folder_that_does_not_exist_yet(tmp_path: Path) -> None:
    runner = CliRunner()
    save = tmp_path / "saves" / "german" / "step-2.vsav"
    result = runner.invoke(main, ["export", "vassal-save", str(EXAMPLE), "--step", "2",
                                  "--side", "german", "-o", str(save)])
    assert result.exit_code == 0, result.output
    assert zipfile.ZipFile(save).namelist() == ["savedGame", "savedata", "moduledata"]
    module = tmp_path / "modules" / "solitaire.vmod"
    result = runner.invoke(main, ["export", "vassal", "solitaire", "--scenario", "blau",
                                  "-o", str(module)])
    assert result.exit_code == 0, result.output
    assert "buildFile.xml" in zipfile.ZipFile(module).namelist()


def test_cli_creates_no_folder_when_the_export_fails(tmp_path: Path) -> None:
    out = tmp_path / "nowhere" / "x.vmod"
    result = CliRunner().invoke(main, ["export", "vassal", "solitaire", "--scenario",
                                       "typhoon", "-o", str(out)])
    assert result.exit_code == 1 and not out.parent.exists()
