"""1941: Operation Barbarossa (rulebook: 1941-operation-barbarossa.txt), two players on
the reconstructed hex map. In progress (issue 3): the rules of sections 2-19 run,
the optional rules of 20 are still to come (their options exist and do nothing yet)."""

from adjudicator.games.barbarossa.rules import BarbarossaRules

RULES = BarbarossaRules()
TITLE = "1941: Operation Barbarossa"
