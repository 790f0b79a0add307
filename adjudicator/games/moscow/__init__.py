"""Moscow '41 (rulebook: moscow-41.txt), two players on the reconstructed hex map, with
hidden untried Soviet units: rules 1.3-16.4."""

from adjudicator.games.moscow.rules import MoscowRules

RULES = MoscowRules()
TITLE = "Moscow '41"
