"""Barbarossa Solitaire (rulebook: barbarossa-solitaire.txt): area map, one human
side (German) against the scripted Soviet forces."""

from adjudicator.games import GameDefinition
from adjudicator.games.solitaire.rules import RULES
from adjudicator.games.solitaire.view import VIEW
from adjudicator.games.solitaire.vocabulary import GAME, TITLE

DEFINITION = GameDefinition(GAME, TITLE, RULES, VIEW,
                            reporter="adjudicator.games.solitaire.report:REPORTER")
