"""Barbarossa Solitaire's words: names of areas, units, turns and charts, read from
the module (with the ids as fall-back, so a partial module still reads)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

M = "{urn:pbem:module:1}"

PHASES = {
    "setup": "set-up",
    "movement": "movement",
    "attack": "attack",
    "reinforcement": "reinforcement",
    "soviet-combat": "Soviet combat",
    "game-over": "game over",
}
SOVIET_COLUMNS = {"hard": "Hard", "medium": "Medium", "easy": "Easy", "no-purges": "No Purges",
                  "random": "Random"}
VARIANTS = {"japan-attacks": "Japan Attacks", "no-lend-lease": "No Lend Lease",
            "early-fury": "Early Fury"}
EFFECTS = {"none": "no effect", "retreat-or-eliminate": "retreat or eliminate one unit",
           "eliminate": "eliminate one unit"}
ATTACK_RESULTS = {"X": "attack succeeds", "X-1": "attack succeeds, the attacker loses 1 unit",
                  "-1": "attack fails, the attacker loses 1 unit"}
NATIONALITY_ORDER = ("german", "romanian", "hungarian", "italian")


def join_words(items: list[str], last: str = "and") -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass
class Lexicon:
    """The module's names and the few chart facts a report explains."""

    module: Any = None
    title: str = "Barbarossa Solitaire"
    areas: dict[str, str] = field(default_factory=dict)
    start_side: dict[str, str] = field(default_factory=dict)
    pieces: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # name, nat, group
    nationalities: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    turns: dict[str, tuple[str, int]] = field(default_factory=dict)
    seas: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    adjacent: dict[str, set[str]] = field(default_factory=dict)
    max_roll: int = 4
    max_units: int = 4
    effects: dict[int, str] = field(default_factory=lambda: {
        1: "none", 2: "retreat-or-eliminate", 3: "eliminate"})

    @classmethod
    def of(cls, module: Any) -> Lexicon:
        lex = cls(module=module)
        root = getattr(module, "root", None)
        if root is not None and root.get("title"):
            lex.title = root.get("title")
        for a in module.findall("m:map/m:area"):
            lex.areas[a.get("id")] = a.get("name") or a.get("id")
            lex.start_side[a.get("id")] = a.get("start-side", "")
            lex.adjacent.setdefault(a.get("id"), set())
        for e in module.findall("m:map/m:adjacent"):
            lex.adjacent.setdefault(e.get("a"), set()).add(e.get("b"))
            lex.adjacent.setdefault(e.get("b"), set()).add(e.get("a"))
        for s in module.findall("m:map/m:sea"):
            lex.seas[s.get("id")] = (s.get("name") or s.get("id"),
                                     sorted(m.get("area") for m in s.findall(f"{M}member")))
        for p in module.findall("m:pieces/m:piece"):
            lex.pieces[p.get("id")] = (p.get("name") or p.get("id"),
                                       p.get("nationality") or "german", p.get("group") or "")
        for n in module.findall("m:nationalities/m:nationality"):
            lex.nationalities[n.get("id")] = (n.get("name") or n.get("id"),
                                              (n.get("enters") or "").split())
        for t in module.findall("m:turns/m:turn"):
            lex.turns[t.get("id")] = (t.get("name") or t.get("id"), int(t.get("year") or 0))
        for chart in module.findall("m:attack-chart"):
            lex.max_roll = int(chart.get("max-roll") or lex.max_roll)
            lex.max_units = int(chart.get("max-units") or lex.max_units)
        effects = {int(r.get("value")): r.get("effect")
                   for r in module.findall("m:soviet-attack-effects/m:roll")}
        if effects:
            lex.effects = effects
        return lex

    # -- names -------------------------------------------------------------------------
    def area(self, area: str | None) -> str:
        if area is None:
            return "nowhere"
        return self.areas.get(area, area)

    def areas_list(self, areas: list[str], last: str = "and") -> str:
        return join_words([self.area(a) for a in areas], last)

    def turn(self, turn: str | None) -> str:
        if turn is None:
            return "?"
        return self.turns.get(turn, (turn, 0))[0]

    def nationality(self, unit: str) -> str:
        if unit in self.pieces:
            return self.pieces[unit][1]
        prefix = unit.split("-")[0].upper()
        return {"RUM": "romanian", "HUN": "hungarian", "ITA": "italian", "IT": "italian"}.get(
            prefix, "german")

    def nationality_name(self, nat: str) -> str:
        return self.nationalities.get(nat, (nat.capitalize(), []))[0]

    def group(self, unit: str) -> str:
        if unit in self.pieces and self.pieces[unit][2]:
            return self.pieces[unit][2]
        return unit.split("-")[0].upper()

    def unit(self, unit: str) -> str:
        """'GER-6 (6th Army)', 'RUM-3 (Romanian 3rd Army)'."""
        if unit not in self.pieces:
            return unit
        name, nat, _ = self.pieces[unit]
        if nat != "german":
            name = f"{self.nationality_name(nat)} {name}"
        return f"{unit} ({name})"

    def short(self, unit: str) -> str:
        """The number on the counter: 'GER-6' -> '6'."""
        return unit.rsplit("-", 1)[-1] if "-" in unit else unit

    def units_list(self, units: list[str]) -> str:
        """'GER-6, GER-17' (Germans first, in number order)."""
        return ", ".join(sorted(units, key=self.nationality_rank))

    def entry_areas(self, unit: str) -> list[str]:
        return self.nationalities.get(self.nationality(unit), ("", []))[1]

    def sea_between(self, a: str, b: str) -> str | None:
        for name, members in self.seas.values():
            if a in members and b in members:
                return name
        return None

    def choice(self, choice: str) -> str:
        """A decision option in words: 'retreat:odessa' -> 'retreat to Odessa'."""
        what, _, which = choice.partition(":")
        if what == "retreat":
            return f"retreat to {self.area(which)}"
        if what == "eliminate":
            return f"eliminate {self.unit(which)}"
        return choice

    # -- the map -------------------------------------------------------------------------
    def distances(self, start: str) -> dict[str, int]:
        """Land steps from `start` to every connected area."""
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in sorted(self.adjacent.get(here, ())):
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist

    def nationality_rank(self, unit: str) -> tuple[int, str, int, str]:
        """Sort key for a stack: Germans first, then allies; numbers in order."""
        nat = self.nationality(unit)
        rank = NATIONALITY_ORDER.index(nat) if nat in NATIONALITY_ORDER else 9
        number = self.short(unit)
        return rank, self.group(unit), int(number) if number.isdigit() else 0, unit
