"""Blitzkrieg '41 (issue 14): its module data is being built; the game is not yet
playable, so this package exports no DEFINITION and has no data/module.xml (the
registry, adjudicator/games/__init__.py, lists only packages that have one)."""
