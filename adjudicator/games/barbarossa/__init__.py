"""1941: Operation Barbarossa (rulebook: 1941-operation-barbarossa.txt), two players on
the reconstructed hex map: the rules of sections 2-19 and the optional rules 20.1-20.6."""

from adjudicator.games import GameDefinition
from adjudicator.games.barbarossa.rules import RULES
from adjudicator.games.barbarossa.view import VIEW
from adjudicator.games.barbarossa.vocabulary import GAME, TITLE

DEFINITION = GameDefinition(GAME, TITLE, RULES, VIEW,
                            reporter="adjudicator.games.barbarossa.report:REPORTER")
