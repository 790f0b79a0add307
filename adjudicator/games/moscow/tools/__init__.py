"""The development tools of Moscow '41 (not used at run time): `gen_map`, the generator
of the reconstructed hex map (data/map.xml, on the map kit adjudicator/mapgen; its facts
placed by hand in `geography`, the hexes in `terrain`, the hexside features in
`hexsides`, the preview picture in `preview`), and `play_example`, the scripted players
of the example game (examples/moscow/), each run as
`python -m adjudicator.games.moscow.tools.NAME`."""
