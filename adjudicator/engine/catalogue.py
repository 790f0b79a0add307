"""A game's closed catalogue of rejections (docs/architecture.md, "The game kit").

Rejection codes are public: a refused order's code, rule and words are in the journal
and in both players' reports. A game lists every code it may raise once, with the rules
it is raised under and what it means in a player's words; `Catalogue.refuse` builds the
`IllegalOrder` and refuses a code the catalogue does not hold, and a test reads every
game's sources to make sure nothing raises around it. The catalogue is also the
rulebook index: `by_rule` finds the codes of a rule number.

>>> RULES = Catalogue("demo", (Rejection("too-far", ("5.0 D",), "beyond the unit's MA"),))
>>> RULES.refuse("too-far", "5.0 D", "GER-6 has 4 MPs").as_record()["code"]
'too-far'
>>> RULES.by_rule()["5.0 D"]
['too-far']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from adjudicator.errors import IllegalOrder


@dataclass(frozen=True)
class Rejection:
    """One code: the rules it is raised under (none listed: the rule of the decision it
    answers) and what it means."""

    code: str
    rules: tuple[str, ...]
    meaning: str


PROTOCOL_RULE = "protocol §4"
# The rejections the engine itself raises, in every game (engine/step.py, RulesBase).
PROTOCOL = (
    Rejection("decision-pending", (PROTOCOL_RULE,),
              "the game waits for the answer to an open decision: put the <answer> first"),
    Rejection("no-decision", (PROTOCOL_RULE,), "an <answer> where no decision is open"),
    Rejection("wrong-decision", (PROTOCOL_RULE,), "an <answer> to another decision than the "
              "open one"),
    Rejection("bad-choice", (), "an answer that is not one of the decision's choices"),
    Rejection("unknown-order", (PROTOCOL_RULE,), "an element that is not an order of this "
              "game"),
)


class Catalogue:
    """Every rejection code of one game."""

    def __init__(self, game: str, entries: Iterable[Rejection]) -> None:
        self.game = game
        self.entries: dict[str, Rejection] = {}
        for entry in (*PROTOCOL, *entries):
            if entry.code in self.entries:
                raise ValueError(f"{game}: rejection code {entry.code} is listed twice")
            self.entries[entry.code] = entry

    def __contains__(self, code: object) -> bool:
        return code in self.entries

    def __iter__(self) -> Iterator[Rejection]:
        return iter(sorted(self.entries.values(), key=lambda e: e.code))

    def refuse(self, code: str, rule: str, message: str) -> IllegalOrder:
        """The IllegalOrder for `code` under `rule`, with the player's words.

        Raises:
            KeyError: a code the catalogue does not list (a bug in the rules, never a
                player's mistake).
        """
        entry = self.entries.get(code)
        if entry is None:
            raise KeyError(f"{self.game}: rejection code {code!r} is not in the catalogue")
        if entry.rules and rule not in entry.rules:
            raise KeyError(f"{self.game}: rejection {code!r} is not listed under rule {rule}")
        return IllegalOrder(rule, message, code=code)

    def by_rule(self) -> dict[str, list[str]]:
        """Rule number -> the codes raised under it, sorted."""
        index: dict[str, list[str]] = {}
        for entry in self.entries.values():
            for rule in entry.rules:
                index.setdefault(rule, []).append(entry.code)
        return {rule: sorted(codes) for rule, codes in sorted(index.items(),
                                                             key=lambda kv: rule_key(kv[0]))}

    def markdown(self, title: str) -> str:
        """The catalogue as a page of the documentation: by code, then by rule."""
        lines = [f"# {title}: rejection codes", "",
                 "Every code a refused order of this game can carry, as the journal and the "
                 "reports show it, with the rules it is raised under.", "",
                 "| code | rules | meaning |", "|---|---|---|"]
        for entry in self:
            rules = ", ".join(entry.rules) or "the decision's rule"
            lines.append(f"| `{entry.code}` | {rules} | {entry.meaning} |")
        lines += ["", "## By rule", "", "| rule | codes |", "|---|---|"]
        for rule, codes in self.by_rule().items():
            lines.append(f"| {rule} | {', '.join(f'`{c}`' for c in codes)} |")
        return "\n".join(lines) + "\n"


def rule_key(rule: str) -> tuple[object, ...]:
    """Sort rule numbers as a rulebook orders them: a section's lettered paragraphs
    before its numbered subsections (2.0 < 7.8 A < 7.8.1 < 10.1 < 20.1)."""
    if not rule[:1].isdigit():
        return ((2, 0, rule),)  # "protocol §4" and other rules outside the rulebook, last
    key: list[object] = []
    for part in rule.replace(" ", ".").split("."):
        key.append((1, int(part), "") if part.isdigit() else (0, 0, part))
    return tuple(key)
