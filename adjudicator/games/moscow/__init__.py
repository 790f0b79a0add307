"""Moscow '41 (rulebook: moscow-41.txt), two players on the reconstructed hex map, with
the untried Soviet units hidden from both behind verifiable commitments (12.0)."""

from adjudicator.games import GameDefinition
from adjudicator.games.moscow.rules import MoscowRules
from adjudicator.games.moscow.view import UntriedView
from adjudicator.games.moscow.vocabulary import GAME, TITLE

RULES = MoscowRules()
DEFINITION = GameDefinition(GAME, TITLE, RULES, UntriedView(),
                            reporter="adjudicator.games.moscow.report:REPORTER")

__all__ = ["DEFINITION", "RULES", "TITLE"]
