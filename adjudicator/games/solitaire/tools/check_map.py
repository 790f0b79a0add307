"""Validate the Barbarossa Solitaire map (map.xml) and check its graph facts.

    python3 -m adjudicator.games.solitaire.tools.check_map [path/to/map.xml]

Validates against data/map.rng (lxml RelaxNG), prints the area count and the
adjacency list per area, and checks: every area the rulebook names exists;
ids are lowercase ascii with hyphens; adjacency pairs are sorted, unique, known
and not self-loops; every area has a neighbour; the map is connected and the
Soviet start areas are one piece containing the five supply sources; the sea
areas are exactly the rules' lists; the specific facts the reconstruction
promises (Leningrad on Lake Ladoga and next to Arkangel, the Crimea reached only
over Perekop, ...).  Exit status 1 on any failure.  Needs only lxml and the kit's
search.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from lxml import etree

from adjudicator.engine.search import reachable

DATA = Path(__file__).resolve().parent.parent / "data"
NS = {"m": "urn:pbem:module:1"}

# Every area the rulebook names (barbarossa-solitaire.txt), in map spelling.
RULES_AREAS = {
    "konigsberg", "warsaw", "slovakia", "bucharest", "silesia", "budapest", "belgrade",
    "prague", "berlin", "arkangel", "siberia", "gorky", "stalingrad", "astrakhan",
    "demyansk", "minsk", "kharkov", "grozny", "odessa", "slovenia", "kurland",
    "leningrad", "sevastopol", "baku", "velikje-luki", "smolensk", "kursk", "izyum",
    "don", "rostov",
}
GERMAN_START = {"berlin", "prague", "silesia", "konigsberg", "warsaw", "slovakia",
                "budapest", "slovenia", "belgrade", "bucharest"}
SUPPLY = {"arkangel", "siberia", "gorky", "stalingrad", "astrakhan"}
SEAS = {  # rules: Sea Areas
    "baltic": {"leningrad", "kurland", "konigsberg", "silesia"},
    "ladoga": {"leningrad", "arkangel"},
    "black-sea": {"bucharest", "odessa", "sevastopol", "baku"},
    "caspian": {"baku", "astrakhan"},
}
ROMANIAN_TRUE = {"belgrade", "bucharest", "slovenia", "odessa", "sevastopol",
                 "dnepropetrovsk", "izyum", "kharkov", "rostov", "don", "stalingrad",
                 "grozny", "astrakhan", "baku"}
ROMANIAN_FALSE = {"kiev", "lvov", "budapest", "slovakia", "kursk", "voronezh", "berlin",
                  "prague", "silesia", "konigsberg", "warsaw", "moscow", "leningrad"}
MUST_ADJ = [
    ("leningrad", "arkangel"), ("konigsberg", "kurland"), ("konigsberg", "warsaw"),
    ("stalingrad", "don"), ("stalingrad", "astrakhan"), ("siberia", "arkangel"),
    ("siberia", "vologda"), ("siberia", "kazan"), ("siberia", "kuibyshev"),
    ("bucharest", "odessa"), ("bucharest", "budapest"), ("bucharest", "belgrade"),
    ("bucharest", "lvov"),
]
MUST_NOT_ADJ = [("sevastopol", "odessa"), ("sevastopol", "rostov"), ("sevastopol", "maikop")]
ID_RE = re.compile(r"^[a-z]+(-[a-z]+)*$")
NUM = r"-?\d+(?:\.\d+)?"


def subpaths(d: str) -> list[list[tuple[float, float]]]:
    """Rings / polylines of the generator's path subset (M, L, Z)."""
    out: list[list[tuple[float, float]]] = []
    for chunk in re.split(r"(?=M)", d):
        nums = [float(v) for v in re.findall(NUM, chunk)]
        if nums:
            out.append(list(zip(nums[0::2], nums[1::2], strict=True)))
    return out


def point_in(d: str, x: float, y: float) -> bool:
    """Even-odd point-in-polygon over all subpaths (holes count as holes)."""
    inside = False
    for ring in subpaths(d):
        n = len(ring)
        for i in range(n):
            (x0, y0), (x1, y1) = ring[i], ring[(i + 1) % n]
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                inside = not inside
    return inside


def min_vertex_distance(d1: str, d2: str) -> float:
    a = [p for r in subpaths(d1) for p in r]
    b = [p for r in subpaths(d2) for p in r]
    return min(((x0 - x1) ** 2 + (y0 - y1) ** 2) ** 0.5 for x0, y0 in a for x1, y1 in b)


def connected(nodes: set[str], adj: dict[str, set[str]]) -> bool:
    """Every one of `nodes` reached from any of them through `nodes` only."""
    if not nodes:
        return True
    start = min(nodes)
    return set(reachable([start], lambda a: sorted(adj[a] & nodes), lambda a, b: True).cost) \
        == nodes


def check(path: Path, verbose: bool = True) -> list[str]:
    errors: list[str] = []
    doc = etree.parse(str(path))
    schema = etree.RelaxNG(file=str(DATA / "map.rng"))
    if not schema.validate(doc):
        errors.extend(f"schema: line {e.line}: {e.message}" for e in schema.error_log)
    root = doc.getroot()
    areas = {a.get("id"): a for a in root.iterfind("m:area", NS)}
    ids = [a.get("id") for a in root.iterfind("m:area", NS)]
    if ids != sorted(ids) or len(ids) != len(set(ids)):
        errors.append("areas not sorted by id or ids repeated")
    errors.extend(f"bad id {i!r}" for i in ids if not ID_RE.match(i))
    errors.extend(f"rules area missing: {a}" for a in sorted(RULES_AREAS - set(areas)))

    adj: dict[str, set[str]] = {a: set() for a in areas}
    pairs = []
    for el in root.iterfind("m:adjacent", NS):
        a, b = el.get("a"), el.get("b")
        pairs.append((a, b))
        if a == b:
            errors.append(f"self-loop {a}")
        elif a > b:
            errors.append(f"pair not sorted: {a} {b}")
        if a not in areas or b not in areas:
            errors.append(f"unknown area in pair {a} {b}")
            continue
        adj[a].add(b)
        adj[b].add(a)
    if pairs != sorted(set(pairs)):
        errors.append("adjacency pairs not sorted or repeated")
    errors.extend(f"{a} has no neighbour" for a in sorted(areas) if not adj[a])
    if not connected(set(areas), adj):
        errors.append("map graph is not connected")
    soviet = {a for a, el in areas.items() if el.get("start-side") == "soviet"}
    german = {a for a, el in areas.items() if el.get("start-side") == "german"}
    if german != GERMAN_START:
        errors.append(f"German start areas differ: {sorted(german ^ GERMAN_START)}")
    if not connected(soviet, adj):
        errors.append("Soviet start areas are not one piece")
    errors.extend(f"supply source {s} missing/not Soviet" for s in sorted(SUPPLY - soviet))
    for a, b in MUST_ADJ:
        if b not in adj.get(a, set()):
            errors.append(f"{a} must border {b}")
    for a, b in MUST_NOT_ADJ:
        if b in adj.get(a, set()):
            errors.append(f"{a} must not border {b}")
    if adj.get("sevastopol") and len(adj["sevastopol"]) != 1:
        errors.append(f"the Crimea must be reached over Perekop only: {adj['sevastopol']}")
    for start in ("konigsberg", "warsaw", "slovakia", "bucharest"):
        if not adj.get(start, set()) & soviet:
            errors.append(f"{start} (initial German/Romanian units) is not a front-line area")
    for a in sorted(areas):
        flag = areas[a].get("romanian-allowed")
        if a in ROMANIAN_TRUE and flag != "true":
            errors.append(f"{a} should be romanian-allowed")
        if a in ROMANIAN_FALSE and flag != "false":
            errors.append(f"{a} should not be romanian-allowed")

    seas = {s.get("id"): s for s in root.iterfind("m:sea", NS)}
    if set(seas) != set(SEAS):
        errors.append(f"seas differ from the rules: {sorted(set(seas) ^ set(SEAS))}")
    for sid, members in SEAS.items():
        if sid not in seas:
            continue
        got = {m.get("area"): m for m in seas[sid].iterfind("m:member", NS)}
        if set(got) != members:
            errors.append(f"sea {sid} members {sorted(got)} != rules {sorted(members)}")
        for aid, m in got.items():
            if aid in areas:
                d = areas[aid].find("m:shape", NS).get("d")
                if not point_in(d, float(m.get("x")), float(m.get("y"))):
                    errors.append(f"sea {sid}: marker of {aid} is outside the area")

    waters = {w.get("name"): w.get("d") for w in root.iterfind("m:backdrop/m:water", NS)}
    if "Lake Ladoga" not in waters:
        errors.append("Lake Ladoga is not drawn")
    else:
        for aid in ("leningrad", "arkangel"):
            d = areas[aid].find("m:shape", NS).get("d")
            if min_vertex_distance(d, waters["Lake Ladoga"]) > 1.5:
                errors.append(f"{aid} does not touch Lake Ladoga")

    width, height = float(root.get("width")), float(root.get("height"))
    for aid, el in areas.items():
        lx, ly = float(el.get("label-x")), float(el.get("label-y"))
        if not (0 <= lx <= width and 0 <= ly <= height):
            errors.append(f"label of {aid} outside the map")
        elif not point_in(el.find("m:shape", NS).get("d"), lx, ly):
            errors.append(f"label of {aid} is not inside its area")

    if verbose:
        print(f"{path}: {len(areas)} areas ({len(german)} German, {len(soviet)} Soviet), "
              f"{len(pairs)} adjacencies, {len(seas)} seas")
        for a in sorted(areas):
            print(f"  {a:15s} {', '.join(sorted(adj[a]))}")
    return errors


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DATA / "map.xml"
    errors = check(path)
    for e in errors:
        print(f"FAIL: {e}")
    print("map OK" if not errors else f"{len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
