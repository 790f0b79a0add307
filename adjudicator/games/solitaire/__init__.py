"""Barbarossa Solitaire (rulebook: barbarossa-solitaire.txt): area map, one human
side (German) against the scripted Soviet forces."""

from adjudicator.games.solitaire.rules import SolitaireRules

RULES = SolitaireRules()
TITLE = "Barbarossa Solitaire"
