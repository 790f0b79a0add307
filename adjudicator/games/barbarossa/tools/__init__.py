"""The development tools of 1941: Operation Barbarossa (not used at run time):
`gen_map`, the generator of the reconstructed hex map (data/map.xml), run as
`python -m adjudicator.games.barbarossa.tools.gen_map` (it needs shapely and numpy). It is
built on the map kit (adjudicator/mapgen); `geography` and `railways` hold the facts
placed by hand, `terrain` the hexes, `hexsides` the hexside features, `preview` the
preview picture; and `example_player`, the scripted players of both sides that write the
example game (`python tools/play_example.py barbarossa`)."""
