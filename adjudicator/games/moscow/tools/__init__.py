"""The development tools of Moscow '41 (not used at run time): `gen_map`, the generator
of the reconstructed hex map (data/map.xml), and `play_example`, the scripted players of
the example game (examples/moscow/), each run as
`python -m adjudicator.games.moscow.tools.NAME`."""
