"""1941: Operation Barbarossa (rulebook: 1941-operation-barbarossa.txt), two players on
the reconstructed hex map. The rules of sections 2-19 and the optional rules 20.2-20.6
run; 20.1 (the Soviet fleets) is still to come, and asking for it is refused."""

from adjudicator.games.barbarossa.rules import BarbarossaRules

RULES = BarbarossaRules()
TITLE = "1941: Operation Barbarossa"
