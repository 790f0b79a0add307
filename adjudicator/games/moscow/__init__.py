"""Moscow '41 (rulebook: moscow-41.txt), two players on the reconstructed hex map, with
hidden untried Soviet units (issue 4, in progress: rules 1.3-16.4 run; the example game
and the data conformance cases come next)."""

from adjudicator.games.moscow.rules import MoscowRules

RULES = MoscowRules()
TITLE = "Moscow '41"
