"""Development tools of Blitzkrieg '41: the map generator (gen_map.py)."""
