"""The editions of the 1941 rules (docs/architecture.md, "Compatibility").

The module version is also the rules' edition: a game plays by the rules of the
module version its journal names, so a journal written before an upgrade still
verifies byte for byte and plays on. Every reading that module 0.3.0 changed is
listed in RULES-ISSUES.md, "What module 0.3.0 changed", and asks `since_0_3`
(or `Game.since_0_3`, the same answer cached with the module's data).
"""

from __future__ import annotations

from adjudicator.engine.module import ModuleData
from adjudicator.errors import IllegalOrder

RULES_0_3 = "0.3.0"  # control at the instant (4.0 B), 14.2.4 B, 12.0 D, 6.2 B, refusals


def since_0_3(module: ModuleData) -> bool:
    """Whether the game plays by the rules of module 0.3.0 or later."""
    return module.at_least(RULES_0_3)


def refusal(new_rules: bool, new: IllegalOrder, old: IllegalOrder) -> IllegalOrder:
    """The refusal of the game's edition: from 0.3.0 one that names the rule that fails
    and says why, before it the exact one earlier journals hold."""
    return new if new_rules else old
