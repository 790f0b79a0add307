"""1941: Operation Barbarossa (issue 3), in progress: the map is module data and the
rules' procedures (zones of control, movement, combat, stacking, retreat, supply,
rail, replacements, Finland and Hungary, victory) exist and are tested on the
rulebook's examples; the game is not yet registered in `GAME_IDS`, so it cannot be
created or played until its counters, charts, state and orders are in place."""
