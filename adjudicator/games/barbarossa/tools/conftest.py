"""pytest collects the package's modules for their doctests; the map generator needs the
development packages shapely and numpy, so its modules that import them are left out
where they are not installed."""

from importlib.util import find_spec

collect_ignore = [] if find_spec("shapely") and find_spec("numpy") else [
    "gen_map.py", "hexsides.py", "preview.py", "terrain.py"]
