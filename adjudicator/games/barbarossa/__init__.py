"""1941: Operation Barbarossa (rulebook: 1941-operation-barbarossa.txt), two players on
the reconstructed hex map: the rules of sections 2-19 and the optional rules 20.1-20.6."""

from adjudicator.engine.hidden import OpenView
from adjudicator.games import GameDefinition
from adjudicator.games.barbarossa.rules import BarbarossaRules

RULES = BarbarossaRules()
TITLE = "1941: Operation Barbarossa"
# both players see the whole board: nothing is hidden
DEFINITION = GameDefinition("barbarossa", TITLE, RULES, OpenView(),
                            reporter="adjudicator.reports.barbarossa:REPORTER")
