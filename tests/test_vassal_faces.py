"""VASSAL export, as loaded in VASSAL 3.7.26 (issue 11, items 13-15): saved games show
each piece on the face the side's report shows (a reduced step reduced, a revealed
unit tried, an unrevealed one on its untried face), the untried face of the module's
counters gives nothing away, hex boards carry their cities, names and terrain key,
control markers look like markers, and a saved game sets the turn tracker.

The faces are checked against the game's state (the rules' truth), not against the
exporter's own reading of the view; the images by decoding the PNG files the module
holds; the tracker against the state strings VASSAL's TurnTracker and ListTurnLevel
write (TurnTracker.getState, ListTurnLevel.getState, 3.7.26).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter as Multiset
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from PIL import Image

from adjudicator.engine.report import CalendarPosition, Counter
from adjudicator.games import get_game
from adjudicator.games.moscow.data import Game as MoscowGame
from adjudicator.referee.gamedir import load_game
from adjudicator.reports.areamap import SVG_NS
from adjudicator.reports.from_journal import step_report
from adjudicator.reports.games import reporter_for
from adjudicator.reports.hexmap import cities_of, city_labels, draw_hex_map
from adjudicator.reports.projection import project_state
from exporters import vassal
from exporters.vassal.board import hex_board
from exporters.vassal.counters import counter_svg, png
from exporters.vassal.encoding import ESC, decode, parse_piece_text
from exporters.vassal.pieces import PIECE_ID_KEY, catalog
from exporters.vassal.save import commands_of, read_saved_game
from exporters.vassal.turns import TRACKER_ID, read_tracker, tracker_command, tracker_state

ROOT = Path(__file__).resolve().parent.parent
MOSCOW = ROOT / "examples" / "moscow"
BARBAROSSA = ROOT / "examples" / "barbarossa"
SOLITAIRE = ROOT / "examples" / "solitaire"
T = f"{{{SVG_NS}}}"


def field(type_: str, index: int) -> str:
    return decode(type_.partition(";")[2], ";")[index]


def pieces_of(save: bytes) -> list[dict[str, Any]]:
    """Every piece a saved game adds: its pbem_piece, its Layer's state (None without a
    Layer), its board point and its PieceSlot gpid."""
    out = []
    for command in commands_of(read_saved_game(save)):
        if not command.startswith("+/") or decode(command[2:], "/")[1] == "stack":
            continue
        _, traits = parse_piece_text(command)
        marks = {}
        for t in traits:
            if t.type.startswith("mark;"):
                marks.update(zip(decode(t.type[5:], ","), decode(t.state, ","), strict=True))
        layer = next((t.state for t in traits if t.type.startswith("emb2;")), None)
        basic = decode(traits[-1].state, ";")
        out.append({"key": marks[PIECE_ID_KEY], "layer": layer,
                    "x": int(basic[1]), "y": int(basic[2]), "gpid": basic[3]})
    return out


@pytest.fixture(scope="module")
def moscow_vmod() -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(vassal.export_module("moscow")))


def slots(vmod: zipfile.ZipFile) -> dict[str, dict[str, Any]]:
    """gpid -> the PieceSlot's pbem_piece and the images of its faces, in order."""
    build = etree.fromstring(vmod.read("buildFile.xml"))
    found = {}
    for slot in build.iter("VASSAL.build.widget.PieceSlot"):
        _, traits = parse_piece_text(slot.text)
        layer = next((t for t in traits if t.type.startswith("emb2;")), None)
        images = decode(field(layer.type, 15), ",") if layer else [field(traits[-1].type, 2)]
        key = decode(traits[0].state, ",")[0]
        found[slot.get("gpid")] = {"key": key, "images": images, "name": slot.get("entryName")}
    return found


# -- item 13: faces in saved games ---------------------------------------------------------

def expected_faces(seq: int, side: str) -> tuple[Multiset[tuple[str, str, str | None]], int,
                                                   int]:
    """(hex, piece or "untried", Layer state) of every unit after step `seq`, from the
    game's own state: a German unit on its reduced step shows face 2, a revealed Soviet
    unit its tried face 2, an unrevealed one its untried stand-in; also how many were
    reduced and revealed."""
    game = load_game(MOSCOW)
    state = step_report(game, seq, side).state_after  # unprojected: the referee's truth
    pieces = MoscowGame.of(game.module).pieces
    want: Multiset[tuple[str, str, str | None]] = Multiset()
    reduced = revealed = 0
    for unit, label in state["units"].items():
        if unit in state["tokens"]:
            if unit in state["revealed"]:
                revealed += 1
                piece = state["identity"][unit]
                want[(label, piece, "2" if pieces[piece].untried else None)] += 1
            else:
                want[(label, "untried", None)] += 1
        elif pieces[unit].steps == 2:  # a German unit: full or reduced (2.5, 8.9 H)
            step = state["steps"].get(unit, 2)
            reduced += step == 1
            want[(label, unit, "2" if step == 1 else "1")] += 1
        else:
            want[(label, unit, None)] += 1
    return want, reduced, revealed


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_a_moscow_save_shows_every_piece_on_the_face_its_side_sees(side: str) -> None:
    want, reduced, revealed = expected_faces(46, side)
    assert reduced >= 10 and revealed >= 37  # what the issue found shown wrong
    board = hex_board(get_game("moscow").bundled_module)
    got: Multiset[tuple[str, str, str | None]] = Multiset()
    for p in pieces_of(vassal.export_save(MOSCOW, side, 46)):
        where = board.grid.vassal.locate(p["x"], p["y"])
        key = "untried" if p["key"].startswith("hidden:soviet:") else p["key"]
        got[(where, key, p["layer"])] += 1
    assert got == want


def test_the_view_and_the_save_agree_on_faces_in_every_game() -> None:
    """Every counter of every side's view is placed on the face the view gives it, in
    the three example games (Barbarossa Solitaire and 1941 have one face a unit)."""
    for directory, sides, seq in ((MOSCOW, ("german", "soviet"), 30),
                                  (BARBAROSSA, ("axis", "soviet"), 36),
                                  (SOLITAIRE, ("german",), 16)):
        game = load_game(directory)
        package = game.package
        for side in sides:
            projected = project_state(package.id, step_report(game, seq, side).state_after,
                                      side)
            view = reporter_for(package.id).map_view(game.module, projected, side)
            faces = Multiset(str(c.face + 1) if len(c.factors) > 1 and c.piece else None
                             for cs in view.counters.values() for c in cs)
            placed = Multiset(p["layer"] for p in pieces_of(vassal.export_save(
                directory, side, seq)) if not p["key"].startswith("area:"))
            assert placed == faces, (package.id, side)


def test_a_face_a_piece_does_not_have_is_refused() -> None:
    tank = Counter("46", "", "#7c826e", "#ffffff", "", "46th Panzer Corps", piece="GER-46",
                   side="german", symbol="armor", echelon="corps", factors=("6-6", "3-6"))
    kind = catalog([tank], ["german"], [], hides_information=False)[0]
    assert kind.traits("null;0;0;1;0", 1)[1].state == "2"
    with pytest.raises(ValueError, match="2 faces"):
        kind.traits("null;0;0;1;0", 2)


# -- item 14: the untried face ---------------------------------------------------------------

def untried_groups() -> dict[tuple[str, int, bool], list[str]]:
    pieces = MoscowGame.of(get_game("moscow").bundled_module).pieces
    groups: dict[tuple[str, int, bool], list[str]] = {}
    for p in sorted(pieces.values(), key=lambda p: p.id):
        if p.side == "soviet" and p.untried:
            groups.setdefault((p.type, p.movement, p.siberian), []).append(p.id)
    return groups


def test_the_untried_faces_of_same_type_counters_are_the_same_image(
        moscow_vmod: zipfile.ZipFile) -> None:
    pieces = MoscowGame.of(get_game("moscow").bundled_module).pieces
    by_piece = {s["key"]: s for s in slots(moscow_vmod).values()}
    compared = 0
    for (kind, movement, siberian), ids in untried_groups().items():
        faces = [moscow_vmod.read("images/" + by_piece[i]["images"][0]) for i in ids]
        tried = [moscow_vmod.read("images/" + by_piece[i]["images"][1]) for i in ids]
        assert len(set(faces)) == 1, (kind, movement, siberian)
        pixels = {Image.open(io.BytesIO(f)).convert("RGBA").tobytes() for f in faces}
        assert len(pixels) == 1
        assert faces[0] not in tried  # the tried face shows more
        # counters that differ in designation and strengths: the face shows neither
        a, b = ids[0], next((i for i in ids if pieces[i].name != pieces[ids[0]].name
                             and (pieces[i].attack, pieces[i].defense)
                             != (pieces[ids[0]].attack, pieces[ids[0]].defense)), ids[0])
        compared += a != b
    assert compared >= 3


def pixels(data: bytes) -> tuple[tuple[int, int], bytes]:
    """What a PNG shows, whoever encoded it."""
    image = Image.open(io.BytesIO(data)).convert("RGBA")
    return image.size, image.tobytes()


def test_the_untried_face_is_a_nameless_counter_of_its_type(
        moscow_vmod: zipfile.ZipFile) -> None:
    """The face is exactly what a counter with no designation, no text and no name
    looks like, and its drawing holds no text but the untried factors."""
    module = get_game("moscow").bundled_module
    pieces = MoscowGame.of(module).pieces
    mix = {c.piece: c for c in reporter_for("moscow").counter_mix(module)}
    by_piece = {s["key"]: s for s in slots(moscow_vmod).values()}
    for ids in untried_groups().values():
        c = mix[ids[0]]
        image = moscow_vmod.read("images/" + by_piece[ids[0]]["images"][0])
        for band in ("?", "XYZ"):  # a band of the side's colour, its text never drawn
            nameless = Counter("", band, c.fill, c.ink, c.band_fill, "", side=c.side,
                               symbol=c.symbol, factors=(c.factors[0],), concealed=1)
            assert pixels(image) == pixels(png(counter_svg(nameless)))
        svg = etree.fromstring(counter_svg(c, 0).encode())
        words = [t.text for t in svg.iter(T + "text", T + "title")]
        assert [w for w in words if w] == [f"soviet {c.symbol} U-{pieces[ids[0]].movement}",
                                           f"U-{pieces[ids[0]].movement}"]


@pytest.mark.parametrize("game", ["moscow", "barbarossa"])
def test_a_counter_face_prints_its_factors_once_and_nothing_beside_the_symbol(
        game: str) -> None:
    """The designation is on the band, the size over the box, the face's factors under
    it; no strength beside the box (it ran over the symbol), no other face's factors,
    and the reduced stripe only on a reduced face, never on a tried one."""
    for c in reporter_for(game).counter_mix(get_game(game).bundled_module):
        for step, factors in enumerate(c.factors):
            svg = etree.fromstring(counter_svg(c, step).encode())
            words = [t.text for t in svg.iter(T + "text")]
            if step < c.concealed:
                assert words == [factors]
            else:
                assert words == [c.band, "XX" if game == "moscow" else words[1], factors]
            stripes = [r for r in svg.iter(T + "rect") if r.get("fill-opacity")]
            assert len(stripes) == (1 if step > c.concealed else 0), (c.piece, step)


def test_an_unrevealed_unit_in_a_side_save_shows_its_untried_face_and_no_more(
        moscow_vmod: zipfile.ZipFile) -> None:
    game = load_game(MOSCOW)
    state = step_report(game, 46, "german").state_after
    pieces = MoscowGame.of(game.module).pieces
    hidden = {t: state["identity"][t] for t in state["tokens"]
              if t in state["units"] and t not in state["revealed"]}
    assert hidden
    board = hex_board(game.module)
    by_gpid = slots(moscow_vmod)
    by_piece = {s["key"]: s for s in by_gpid.values()}
    at = {}
    for side in ("german", "soviet"):
        save = vassal.export_save(MOSCOW, side, 46)
        for p in pieces_of(save):
            if p["key"].startswith("hidden:"):
                at.setdefault(board.grid.vassal.locate(p["x"], p["y"]), []).append(p)
        raw = read_saved_game(save)
        words = [re.escape(x) for piece in hidden.values() for x in (piece,
                                                                     pieces[piece].name)]
        assert not re.search(r"(?<![\w-])(" + "|".join(words) + r")(?![\w-])", raw)
    for token, piece in hidden.items():
        # every stand-in in the token's hex is some untried face; the token's own
        # counter's untried face is among them, image for image
        stand_ins = at[state["units"][token]]
        images = {moscow_vmod.read("images/" + by_gpid[p["gpid"]]["images"][0])
                  for p in stand_ins}
        assert moscow_vmod.read("images/" + by_piece[piece]["images"][0]) in images
        assert all(p["layer"] is None and by_gpid[p["gpid"]]["key"] == p["key"]
                   for p in stand_ins)


# -- item 15: cities, names, the terrain key, control markers, the turn tracker ----------

@pytest.mark.parametrize(("game", "named"), [
    ("moscow", {"2808": "Moscow", "1511": "Smolensk"}),
    ("barbarossa", {"1808": "Moscow", "0712": "Leningrad", "0416": "Helsinki"})])
def test_a_hex_board_shows_its_cities_by_name_and_a_terrain_key(game: str,
                                                                 named: dict[str, str]) -> None:
    module = get_game(game).bundled_module
    board = hex_board(module)
    svg = etree.fromstring(board.svg.encode())
    assert (int(svg.get("width")), int(svg.get("height"))) == (board.width, board.height)
    image = Image.open(io.BytesIO(board.png))
    assert image.size == (board.width, board.height)
    texts: dict[str, list[tuple[float, float]]] = {}
    for t in svg.iter(T + "text"):
        if t.text and t.get("fill") != "none":  # the halo copy is not the text
            texts.setdefault(t.text, []).append((float(t.get("x")), float(t.get("y"))))
    grid = board.grid
    for label, name in named.items():
        assert name in texts, name
        x, y = texts[name][0]
        assert grid.vassal.locate(round(x), round(y)) == label  # written in its own hex
    cities = cities_of(module, module.hex_board())
    assert {c.name for c in cities} <= set(texts) and len(cities) > 100
    # the key, under the hexes
    key = {"Clear", "River", "Town" if game == "moscow" else "Major city"}
    assert key <= set(texts)
    assert all(y > grid.height for k in key for _, y in texts[k])
    assert board.height > grid.height


@pytest.mark.parametrize("game", ["moscow", "barbarossa"])
def test_city_names_are_legible_and_not_written_over_each_other(game: str) -> None:
    module = get_game(game).bundled_module
    hexes = module.hex_board()
    placement = hex_board(module).grid
    cities = cities_of(module, hexes)
    for size, centre in ((placement.hex_size, placement.centre), (21.0, None)):
        if centre is None:
            from adjudicator.reports.hexmap import report_layout
            centre = report_layout(hexes)[0]
        labels = city_labels(cities, centre, size)
        assert min(label.size for label in labels) >= 6.0
        boxes = [label.box for label in labels]
        clashes = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                   if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
        assert clashes == []
        # no name over another city's symbol
        for label in labels:
            left, top, right, bottom = label.box
            for other in cities:
                if other != label.city:
                    x, y = centre(other.hex)
                    assert not (left < x < right and top < y < bottom), (label.city, other)


def test_the_report_map_gains_the_cities_and_the_key_too() -> None:
    game = load_game(MOSCOW)
    state = step_report(game, 46, "german").state_after
    view = reporter_for("moscow").map_view(game.module, project_state("moscow", state,
                                                                      "german"), "german")
    svg = etree.fromstring(draw_hex_map(game.module, view).encode())
    texts = {t.text for t in svg.iter(T + "text")}
    assert {"Moscow", "Kalinin", "Tula", "Light woods", "Moscow ring", "City",
            "Town"} <= texts
    assert svg.find(f".//{T}g[@class='cities']") is not None


def test_control_markers_are_round_with_the_side_named() -> None:
    vmod = zipfile.ZipFile(io.BytesIO(vassal.export_module("barbarossa", ["campaign"])))
    markers = [s for s in slots(vmod).values() if s["key"].startswith("area:")]
    assert {s["name"] for s in markers} == {"Taken by the Germans", "Retaken by the Soviets"}
    kinds = catalog([], ["axis", "soviet"], reporter_for("barbarossa").map_view(
        get_game("barbarossa").bundled_module, get_game("barbarossa").rules.initial_state(
            get_game("barbarossa").bundled_module, "campaign", {}), "axis").legend,
        hides_information=False)
    labels = {k.name: [t.text for t in etree.fromstring(k.svgs[0].encode()).iter(T + "text")]
              for k in kinds}
    assert labels == {"Taken by the Germans": ["German"], "Retaken by the Soviets": ["Soviet"]}
    for s in markers:
        image = Image.open(io.BytesIO(vmod.read("images/" + s["images"][0]))).convert("RGBA")
        w, h = image.size
        assert image.getpixel((1, 1))[3] == 0 and image.getpixel((w - 2, h - 2))[3] == 0
        assert image.getpixel((w // 2, 3))[3] == 255  # a disc, not a square counter


def test_the_tracker_state_is_what_vassal_writes() -> None:
    # TurnTracker.getState: "|"-joined current level and level states; ListTurnLevel:
    # ";"-joined current, current sub-level, first, active flags, sub-level states
    assert tracker_state(["a", "b", "c"], ["x", "y"], CalendarPosition(1, 1)) == \
        "0|1;0;0;true,true,true;1\\;0\\;0\\;true,true"
    assert tracker_state(["a", "b"], [], CalendarPosition(0, 0)) == "0|0;0;0;true,true"
    assert tracker_command(["a"], [], CalendarPosition(0, 0)) == \
        f"TURN{TRACKER_ID}\t0|0;0;0;true"
    with pytest.raises(ValueError):
        tracker_state(["a"], ["x"], CalendarPosition(1, 0))


@pytest.mark.parametrize(("directory", "side", "seq", "turn", "phase"), [
    (MOSCOW, "soviet", 46, "Turn 3 (1941-10-15 to 1941-10-21)", "German Movement Phase"),
    (MOSCOW, "german", 30, "Turn 2 (1941-10-08 to 1941-10-14)", "German Combat Phase"),
    (BARBAROSSA, "axis", 20, "July 1941", "German First Ground Segment combat"),
    (SOLITAIRE, "german", 7, "Autumn 1942", "Movement"),
    (SOLITAIRE, "german", 16, "Summer 1945", "Soviet combat")])  # game over: the end
def test_a_saved_game_sets_the_turn_tracker(directory: Path, side: str, seq: int,
                                            turn: str, phase: str) -> None:
    game = load_game(directory)
    reporter = reporter_for(game.package.id)
    projected = project_state(game.package.id, step_report(game, seq, side).state_after,
                              side)
    calendar = reporter.calendar(game.module)
    commands = commands_of(read_saved_game(vassal.export_save(directory, side, seq)))
    tracker = [c for c in commands if c.startswith("TURN")]
    assert len(tracker) == 1 and commands[-1] == "end_save"
    assert read_tracker(tracker[0], calendar.turns, calendar.phases) == (turn, phase)
    # the turn the side's report names
    assert reporter.status(game.module, projected).turn.startswith(turn)


def test_a_setup_sets_the_turn_tracker_to_its_scenario_start() -> None:
    vmod = zipfile.ZipFile(io.BytesIO(vassal.export_module("solitaire", ["blau"])))
    commands = decode(read_saved_game(vmod.read("setup-blau.vsav")), ESC)
    tracker = next(c for c in commands if c.startswith("TURN"))
    calendar = reporter_for("solitaire").calendar(get_game("solitaire").bundled_module)
    assert read_tracker(tracker, calendar.turns, calendar.phases) == ("Summer 1942",
                                                                     "Movement")
