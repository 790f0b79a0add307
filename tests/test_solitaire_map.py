"""The generator of the reconstructed Barbarossa Solitaire area map
(adjudicator/games/solitaire/tools/gen_map.py, on the map kit adjudicator/mapgen) writes
the committed data/map.xml byte for byte, and its --extract writer the committed
extracts. A development tool: it needs shapely, scipy and numpy (the `dev` extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "solitaire"
# computed by the generator's own equidistant conic before it moved onto the kit
MOSCOW_PX, BERLIN_PX = (852.03, 570.252), (132.976, 616.949)


def test_the_generator_reproduces_map_xml_byte_for_byte() -> None:
    pytest.importorskip("shapely")
    pytest.importorskip("scipy")
    from adjudicator.games.solitaire.tools import gen_map, output

    assert output.render(gen_map.generate()).encode("utf-8") == \
        (PACKAGE / "data" / "map.xml").read_bytes()


@pytest.mark.parametrize("name", ["land", "lakes", "rivers", "seas", "cities"])
def test_the_extract_writer_keeps_the_committed_geodata(name: str, tmp_path: Path) -> None:
    """Read back and written again with the kit's writer, each extract comes out byte for
    byte (city points keep four decimals, the rest three)."""
    pytest.importorskip("shapely")
    from shapely.geometry import shape

    from adjudicator.games.solitaire.tools import gen_map
    from adjudicator.games.solitaire.tools.regions import GEO_DIR
    from adjudicator.mapgen.geojson import load_features

    src = GEO_DIR / f"{name}.geojson"
    gen_map._write_fc(tmp_path / src.name, [(f["properties"], shape(f["geometry"]))
                                           for f in load_features(src)],
                      nd=4 if name == "cities" else 3)
    assert (tmp_path / src.name).read_bytes() == src.read_bytes()


def test_the_projection_is_the_kits_equidistant_conic() -> None:
    """Golden values of the window the map was drawn in: Moscow and Berlin in pixels."""
    from adjudicator.games.solitaire.tools import geography

    assert geography.WIDTH == 1600 and geography.HEIGHT == 1414
    mx, my = geography.project(37.6, 55.75)
    assert (round(mx, 3), round(my, 3)) == (MOSCOW_PX[0], MOSCOW_PX[1])
    bx, by = geography.project(13.4, 52.5)
    assert (round(bx, 3), round(by, 3)) == (BERLIN_PX[0], BERLIN_PX[1])
