"""The map generators' shared geometry (adjudicator/mapgen): every grid layout the engine
knows laid out in the frame consistently with the engine's own adjacency, projections
that invert, and hexside routing that follows a line."""

from __future__ import annotations

import itertools
import math

import pytest

from adjudicator.engine.hexgrid import HexGrid
from adjudicator.mapgen.frame import HEX_RADIUS, HexFrame
from adjudicator.mapgen.geojson import box_pieces, lines, rings
from adjudicator.mapgen.geometry import Polyline, clip_polyline, densify, point_in_polygon
from adjudicator.mapgen.projection import Anchored, Fitted, LambertConic
from adjudicator.mapgen.routing import route_line, vertex_graph

LAYOUTS = [HexGrid(o, s, n, 1) for o, s, n in itertools.product(
    ("flat", "pointy"), ("even", "odd"), ("CCRR", "LN"))]


@pytest.mark.parametrize("grid", LAYOUTS, ids=lambda g: f"{g.orientation}-{g.shifted}-"
                         f"{g.numbering}")
def test_the_frame_agrees_with_the_engines_grid(grid: HexGrid) -> None:
    frame = HexFrame(grid, range(1, 9), range(1, 7))
    labels = frame.labels()
    assert len(labels) == len(set(labels)) == 48
    for col, row in frame:
        label = frame.label(col, row)
        assert frame.offset(label) == (col, row)
        cx, cy = frame.centre(col, row)
        assert frame.hex_at(cx + 0.2, cy - 0.1) == (col, row)
        for n in frame.neighbours(label):
            # adjacent hexes are one hex apart, and share exactly two corners
            assert math.isclose(math.dist((cx, cy), frame.centre_of(n)), 1.0)
            (ax, ay), (bx, by) = frame.hexside_segment(label, n)
            assert math.isclose(math.dist((ax, ay), (bx, by)), HEX_RADIUS)
        corners = frame.corners(col, row)
        assert all(math.isclose(math.dist(c, (cx, cy)), HEX_RADIUS) for c in corners)


def test_projections_invert_and_fit() -> None:
    lcc = LambertConic(lon0=33.5, lat0=55.5, par1=52.0, par2=58.0)
    for lon, lat in ((30.3, 59.9), (37.6, 55.75), (24.9, 50.0)):
        back = lcc.inverse(*lcc.forward(lon, lat))
        assert math.isclose(back[0], lon) and math.isclose(back[1], lat)
    anchored = Anchored(lcc, (37.6176, 55.7520), (24.25, 8.0), 32.19)
    assert anchored.to_frame(37.6176, 55.7520) == (24.25, 8.0)
    x, y = anchored.to_frame(30.0, 54.0)
    assert all(math.isclose(a, b) for a, b in zip(anchored.to_lonlat(x, y), (30.0, 54.0),
                                                  strict=True))
    cities = {"a": ((37.6, 55.75), (15.6, 8.0)), "b": ((30.3, 59.9), (6.1, 12.5)),
              "c": ((24.9, 60.2), (3.5, 16.0))}
    fit = Fitted.through(LambertConic(32.0, 55.0, 48.0, 60.0), cities)
    assert 40 < fit.km_per_hex < 90
    for lonlat, frame_point in cities.values():
        assert math.dist(fit.to_frame(*lonlat), frame_point) < 1.5


def test_a_river_is_routed_along_the_hexsides_it_follows() -> None:
    frame = HexFrame(HexGrid("flat", "odd", "CCRR"), range(1, 11), range(1, 9))
    graph = vertex_graph(frame, frame.labels())
    y = frame.centre(5, 4)[1] + 0.5  # between rows 04 and 05 of the even columns
    line = Polyline([(frame.centre(2, 4)[0], y), (frame.centre(8, 4)[0], y)])
    chain = route_line(frame, line, graph, set())
    assert chain and all(frame.neighbours(a).count(b) == 1 for a, b in chain)
    for a, b in chain:
        (ax, ay), (bx, by) = frame.hexside_segment(a, b)
        assert line.distance(((ax + bx) / 2, (ay + by) / 2)) < 0.6


def test_plane_geometry_and_geojson() -> None:
    square = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]
    assert point_in_polygon((1, 1), square) and not point_in_polygon((3, 1), square)
    assert len(densify(square, 0.5)) == 16
    parts = clip_polyline([(-1, 1), (1, 1), (3, 1)], (0, 0, 2, 2))
    assert [p[0] for p in parts] == [[(0.0, 1.0), (1.0, 1.0), (2.0, 1.0)]]
    assert lines({"type": "LineString", "coordinates": [[0, 0], [1, 1]]}) == [[(0, 0), (1, 1)]]
    assert rings({"type": "Point", "coordinates": [0, 0]}) == []
    assert box_pieces([(0, 0), (1, 1), (5, 5), (1, 1), (1, 2)], (0, 0, 2, 2)) == \
        [[(0, 0), (1, 1)], [(1, 1), (1, 2)]]


def test_a_fit_without_the_mirror_serves_numbers_running_westward() -> None:
    """A map numbered from the east edge westward with rows lettered southward is a
    rotation of the projection, not a mirror (Blitzkrieg '41's grid)."""
    lcc = LambertConic(32.0, 52.0, 47.0, 57.0)
    cities = {"a": ((30.3, 59.9), (9.5, 1.73)), "b": ((24.1, 56.95), (16.0, 3.46)),
              "c": ((30.5, 50.45), (15.0, 13.86)), "d": ((33.5, 44.6), (15.0, 24.25))}
    fit = Fitted.through(lcc, cities, mirror=False)
    assert not fit.mirror and 65 < fit.km_per_hex < 80
    for lonlat, frame_point in cities.values():
        assert math.dist(fit.to_frame(*lonlat), frame_point) < 1.0
        back = fit.to_lonlat(*fit.to_frame(*lonlat))
        assert math.isclose(back[0], lonlat[0]) and math.isclose(back[1], lonlat[1])
    mirrored = Fitted.through(lcc, cities)
    assert sum(math.dist(mirrored.to_frame(*ll), fp) for ll, fp in cities.values()) > 4


def test_a_region_counts_points_inside_its_rings() -> None:
    from adjudicator.mapgen.geometry import Region

    ring = [(0.0, 0.0), (3.0, 0.0), (3.0, 3.0), (0.0, 3.0)]
    hole = [(1.0, 1.0), (2.0, 1.0), (2.0, 2.0), (1.0, 2.0)]
    region = Region([ring, hole])
    assert region.contains((0.5, 2.5)) and not region.contains((1.5, 1.5))
    assert region.share([(0.5, 0.5), (1.5, 1.5), (4.0, 4.0), (2.5, 0.2)]) == 0.5


def test_the_equidistant_conic_window_keeps_its_golden_values() -> None:
    """Barbarossa Solitaire's projection (its area map was drawn in this window): the
    values its own code computed before it moved onto the kit."""
    from adjudicator.mapgen.projection import EquidistantConic, Window

    ec = EquidistantConic(lon0=37.0, par1=45.0, par2=62.0)
    x, y = ec.forward(37.0, 55.0)
    assert x == 0.0 and math.isclose(y, -40.585159, abs_tol=1e-6)
    # along the central meridian a degree of latitude is a degree of arc
    assert math.isclose(ec.forward(37.0, 56.0)[1] - y, 1.0)
    window = Window(ec, -16.6, -28.5, 1600 / 31.8)
    assert [round(v, 3) for v in window.to_frame(37.6, 55.75)] == [852.03, 570.252]
    assert ec.describe() == ("equidistant conic, standard parallels 45N and 62N, central "
                             "meridian 37E")


def test_the_cheapest_chain_takes_a_penalty_and_avoids_blocked_hexsides() -> None:
    from adjudicator.mapgen.routing import cheapest_chain, side

    frame = HexFrame(HexGrid("flat", "odd", "CCRR"), range(1, 11), range(1, 9))
    graph = vertex_graph(frame, frame.labels())
    y = frame.centre(5, 4)[1] + 0.5
    line = Polyline([(frame.centre(2, 4)[0], y), (frame.centre(8, 4)[0], y)])
    start = min(graph, key=lambda v: (math.dist(frame.vertex_point(v), line.coords[0]), v))
    goal = min(graph, key=lambda v: (math.dist(frame.vertex_point(v), line.coords[-1]), v))
    plain = cheapest_chain(frame, graph, start, goal, line.distance)
    assert plain and plain == route_line(frame, line, graph, set(), stretch=100.0)
    # a hexside made dear (or blocked) is walked round, and the chain still joins up
    dear = plain[len(plain) // 2]
    for chain in (cheapest_chain(frame, graph, start, goal, line.distance,
                                 penalty=lambda sd: 5.0 if sd == dear else 0.0),
                  cheapest_chain(frame, graph, start, goal, line.distance, {dear})):
        assert dear not in chain and chain != plain
        ends = [set(frame.hexside_ends(*sd)) for sd in chain]
        assert all(e & f for e, f in zip(ends, ends[1:], strict=False))
    assert cheapest_chain(frame, graph, start, goal, line.distance,
                          {side(a, b) for a, b in graph_sides(graph)}) == []


def graph_sides(graph: dict) -> set:
    return {sd for edges in graph.values() for _, sd in edges}


def test_a_hex_chain_hugs_its_line_and_takes_only_passable_steps() -> None:
    from adjudicator.mapgen.geometry import seg_distance
    from adjudicator.mapgen.routing import hex_chain

    frame = HexFrame(HexGrid("flat", "even", "CCRR"), range(1, 11), range(1, 9))
    a, b = frame.centre_of("0204"), frame.centre_of("0904")
    chain = hex_chain(frame, "0204", "0904", lambda h, n: True,
                      lambda p: seg_distance(p, a, b))
    assert chain[0] == "0204" and chain[-1] == "0904" and len(chain) == 8
    assert all(n in frame.neighbours(h) for h, n in zip(chain, chain[1:], strict=False))
    walled = {f"05{r:02d}" for r in range(1, 9)}
    assert hex_chain(frame, "0204", "0904", lambda h, n: n not in walled,
                     lambda p: 0.0) == []
    detour = hex_chain(frame, "0204", "0904", lambda h, n: n not in walled - {"0508"},
                       lambda p: seg_distance(p, a, b))
    assert "0508" in detour and not walled - {"0508"} & set(detour)
    # a dear step is walked round where a way round costs less
    dear = hex_chain(frame, "0204", "0904", lambda h, n: True, lambda p: seg_distance(p, a, b),
                     penalty=lambda h, n: 10.0 if n == chain[3] else 0.0)
    assert chain[3] not in dear and dear[0] == "0204" and dear[-1] == "0904"


def test_extracts_are_rounded_and_credited(tmp_path) -> None:
    import json

    from adjudicator.mapgen.geojson import round_coords, write_features

    assert round_coords([(1.23456, 2.5), [3.00001]], 3) == [[1.235, 2.5], [3.0]]
    write_features(tmp_path / "x.geojson", [({"name": "a"}, {"type": "Point",
                                                             "coordinates": [1.0, 2.0]})],
                   "tools/x.py", credit="Natural Earth (public domain)")
    data = json.loads((tmp_path / "x.geojson").read_text(encoding="utf-8"))
    assert data["credit"] == ("Natural Earth (public domain); clipped and simplified by "
                              "tools/x.py")
    assert data["features"][0]["properties"] == {"name": "a"}


def test_shapely_geometry_is_carried_into_the_frame() -> None:
    pytest.importorskip("shapely")
    from shapely.geometry import LineString, MultiLineString, Polygon, box

    from adjudicator.mapgen.shapes import drop_degenerate, line_parts, polygons, to_frame

    square = box(0, 0, 2, 1)
    moved = to_frame(square, lambda x, y: (x * 2, y + 1))
    assert moved.bounds == (0.0, 1.0, 4.0, 2.0)
    dense = to_frame(LineString([(0, 0), (1, 0)]), lambda x, y: (x, y), segment=0.25)
    assert len(dense.coords) == 5
    two = square.union(box(5, 5, 6, 6))
    assert [p.area for p in polygons(two)] == [2.0, 1.0] and polygons(Polygon()) == []
    lines = MultiLineString([[(0, 0), (1, 1)], [(2, 2), (2, 2)]])
    assert len(drop_degenerate(lines).geoms) == 1 and len(line_parts(lines)) == 1
