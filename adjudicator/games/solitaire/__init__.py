"""Barbarossa Solitaire (rulebook: barbarossa-solitaire.txt): area map, one human
side (German) against the scripted Soviet forces."""

from adjudicator.engine.hidden import OpenView
from adjudicator.games import GameDefinition
from adjudicator.games.solitaire.rules import SolitaireRules

RULES = SolitaireRules()
TITLE = "Barbarossa Solitaire"
DEFINITION = GameDefinition("solitaire", TITLE, RULES, OpenView(),
                            reporter="adjudicator.reports.solitaire:REPORTER")
