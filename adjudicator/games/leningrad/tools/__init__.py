"""Development tools of Leningrad '41 (the map generator and its seed table).

The game is not yet playable: its package has no DEFINITION and no data/module.xml, so
the registry does not list it.
"""
