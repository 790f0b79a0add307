"""The development tools of 1941: Operation Barbarossa (not used at run time):
`gen_map`, the generator of the reconstructed hex map (data/map.xml), run as
`python -m adjudicator.games.barbarossa.tools.gen_map` (it needs shapely and numpy)."""
