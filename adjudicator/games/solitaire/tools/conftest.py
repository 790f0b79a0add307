"""pytest collects the package's modules for their doctests; the map generator's modules
that cut and write the areas need the development packages shapely and numpy, so they
are left out where those are not installed (gen_map itself imports without them)."""

from importlib.util import find_spec

collect_ignore = [] if find_spec("shapely") and find_spec("numpy") else [
    "output.py", "regions.py"]
