"""Barbarossa Solitaire's words: names of areas, units, turns and charts, read from
the module's data (data.py), with the ids as fall-back, so a partial module still
reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.games.solitaire.data import Charts, charts_of
from adjudicator.games.solitaire.vocabulary import (
    TITLE,
    AttackResult,
    Choice,
    Nationality,
    Phase,
    SovietColumn,
    SovietEffect,
    Variant,
)

PHASES = {
    Phase.SETUP: "set-up",
    Phase.MOVEMENT: "movement",
    Phase.ATTACK: "attack",
    Phase.REINFORCEMENT: "reinforcement",
    Phase.SOVIET_COMBAT: "Soviet combat",
    Phase.GAME_OVER: "game over",
}
SOVIET_COLUMNS = {SovietColumn.HARD: "Hard", SovietColumn.MEDIUM: "Medium",
                  SovietColumn.EASY: "Easy", SovietColumn.NO_PURGES: "No Purges",
                  SovietColumn.RANDOM: "Random"}
VARIANTS = {Variant.JAPAN_ATTACKS: "Japan Attacks", Variant.NO_LEND_LEASE: "No Lend Lease",
            Variant.EARLY_FURY: "Early Fury"}
EFFECTS = {SovietEffect.NONE: "no effect",
           SovietEffect.RETREAT_OR_ELIMINATE: "retreat or eliminate one unit",
           SovietEffect.ELIMINATE: "eliminate one unit"}
ATTACK_RESULTS = {AttackResult.SUCCEEDS: "attack succeeds",
                  AttackResult.SUCCEEDS_WITH_LOSS: "attack succeeds, the attacker loses 1 unit",
                  AttackResult.FAILS: "attack fails, the attacker loses 1 unit"}
NATIONALITY_ORDER = tuple(Nationality)  # a stack lists Germans first, then the allies
# the counters' army-group prefixes, for unit ids a module does not list
PREFIX_NATIONALITY = {"RUM": Nationality.ROMANIAN, "HUN": Nationality.HUNGARIAN,
                      "ITA": Nationality.ITALIAN, "IT": Nationality.ITALIAN}


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
    charts: Charts | None = None
    title: str = TITLE
    areas: dict[str, str] = field(default_factory=dict)
    start_side: dict[str, str] = field(default_factory=dict)
    pieces: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # name, nat, group
    nationalities: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    turns: dict[str, tuple[str, int]] = field(default_factory=dict)
    seas: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    adjacent: dict[str, set[str]] = field(default_factory=dict)
    max_roll: int = 4
    max_units: int = 4
    effects: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, module: Any) -> Lexicon:
        charts = charts_of(module)
        lex = cls(module=module, charts=charts)
        if charts.title:
            lex.title = charts.title
        for area, name in charts.area_names.items():
            lex.areas[area] = name or area
            lex.start_side[area] = charts.start_side.get(area) or ""
            lex.adjacent[area] = set(charts.board.neighbours(area))
        for sea, members in charts.seas.items():
            lex.seas[sea] = (charts.sea_names.get(sea) or sea, list(members))
        for unit, piece in charts.pieces.items():
            lex.pieces[unit] = (piece.name or unit, piece.nationality or Nationality.GERMAN,
                                piece.group or "")
        for nat in charts.nationalities.values():
            lex.nationalities[nat.id] = (nat.name or nat.id, list(nat.enters))
        for turn in charts.turns:
            lex.turns[turn.id] = (turn.name or turn.id, turn.year)
        lex.max_units, lex.max_roll = charts.attack_limits
        lex.effects = dict(charts.soviet_effects)
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
        return PREFIX_NATIONALITY.get(unit.split("-")[0].upper(), Nationality.GERMAN)

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
        if nat != Nationality.GERMAN:
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
        if what == Choice.RETREAT:
            return f"retreat to {self.area(which)}"
        if what == Choice.ELIMINATE:
            return f"eliminate {self.unit(which)}"
        return choice

    # -- the map -------------------------------------------------------------------------
    def distances(self, start: str) -> dict[str, int]:
        """Land steps from `start` to every connected area (the rules' search)."""
        assert self.charts is not None
        return self.charts.board.distances(start)

    def nationality_rank(self, unit: str) -> tuple[int, str, int, str]:
        """Sort key for a stack: Germans first, then allies; numbers in order."""
        nat = self.nationality(unit)
        rank = NATIONALITY_ORDER.index(nat) if nat in NATIONALITY_ORDER else 9
        number = self.short(unit)
        return rank, self.group(unit), int(number) if number.isdigit() else 0, unit
