"""Moscow '41 (rulebook: moscow-41.txt), two players on the reconstructed hex map, with
hidden untried Soviet units (issue 4, in progress: the set-up and the sequence of play
run; movement, overrun and combat come next)."""

from adjudicator.games.moscow.rules import MoscowRules

RULES = MoscowRules()
TITLE = "Moscow '41"
