"""Barbarossa Solitaire's own tools, each runnable as
`python -m adjudicator.games.solitaire.tools.NAME`:

- `gen_map`: reconstructs data/map.xml from the Natural Earth extracts in tools/geodata
  (a development tool: needs shapely, scipy and numpy), on the map kit
  (adjudicator/mapgen); `geography` holds its hand-placed facts, `regions` cuts the
  areas, `output` writes map.xml, `preview` draws it;
- `check_map`: validates a map.xml and checks its graph facts;
- `example_player`: the simple German player that writes the example game
  (tools/play_example.py);
- `balance`: many games by the example player, to check the reconstructed Soviet Attack
  Chart (RULES-ISSUES.md #1).
"""
