"""Tournament standings (issue 16, item 8): each finished game's result in words, the
points each player earns by the tournament's scheme, and, for a game whose rules have
series play, each player's series points added up.

A game's result is what its rules recorded when it ended (`games.result`: the level of
victory and, where the game's rules score series play, its `series_points`), or the side
that forfeited it. The series points are the game's to compute (they depend on its
victory rules); the service only adds them up. The
winner is read from the level's words ("Soviet marginal victory", "Nazi Major Victory",
"Draw"): every game's levels name the winning side that way.

Schemes (`pbem admin tournament NAME --scheme ...`):

- `win=W,draw=D,loss=L` (the default `win=1,draw=0.5,loss=0`), optionally with
  `major=M,minor=N` giving a decisive and a marginal win their own points;
- `series`: a game's series play: an even number of games, sides switched each time;
  each player's series points (scored for the first side) are added up and the largest
  tally is the Maximum Winner.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.errors import PbemError

DEFAULT_SCHEME = {"kind": "points", "win": 1.0, "draw": 0.5, "loss": 0.0}
AXIS_WORDS = ("german", "nazi", "axis")
MARGINAL_WORDS = ("minor", "marginal")
THE_RULES = ""  # the winner of a solitaire game its player lost


def parse_scheme(text: str) -> dict[str, Any]:
    """A scheme as the referee writes it; PbemError says what is wrong."""
    text = text.strip().lower()
    if text == "series":
        return {"kind": "series"}
    scheme: dict[str, Any] = dict(DEFAULT_SCHEME)
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep or name not in ("win", "draw", "loss", "major", "minor"):
            raise PbemError(f"a points scheme reads like win=3,draw=1,loss=0 (optionally "
                            f"major=3,minor=2), or is 'series'; {part!r} is neither",
                            code="bad-scheme")
        try:
            scheme[name] = float(value)
        except ValueError:
            raise PbemError(f"{name}={value!r}: points must be a number",
                            code="bad-scheme") from None
    return scheme


def scheme_words(scheme: dict[str, Any]) -> str:
    if scheme["kind"] == "series":
        return ("Series play: each player's series points, as the rules score them for "
                "the first side, are added up; the largest tally is the Maximum Winner.")
    wins = (f"a decisive win {_n(scheme['major'])}, a marginal win {_n(scheme['minor'])}"
            if "major" in scheme or "minor" in scheme else f"a win {_n(scheme['win'])}")
    return f"Points: {wins}, a draw {_n(scheme['draw'])}, a loss {_n(scheme['loss'])}."


def _n(value: float) -> str:
    return f"{value:g}"


@dataclass(frozen=True)
class Outcome:
    game_id: str
    winner: str | None  # a side (THE_RULES: the side the rules play); None for a draw
    marginal: bool
    words: str
    series_points: int | None  # the Axis total of series play, where the rules give one


def outcome_of(game: dict[str, Any], sides: Iterable[str]) -> Outcome | None:
    """A finished game's outcome, None while it is being played."""
    if game["status"] not in ("over", "forfeited") or not game.get("result"):
        return None
    result = json.loads(game["result"]) if isinstance(game["result"], str) else game["result"]
    sides = list(sides)
    if isinstance(result, dict) and "forfeit" in result:
        lost = result["forfeit"]
        others = [s for s in sides if s != lost]
        # two sides: the other wins; a solitaire game: the rules' side does
        winner = others[0] if len(others) == 1 else THE_RULES if not others else None
        return Outcome(game["id"], winner, False, f"{lost} forfeited", None)
    level = str(result.get("level", "")) if isinstance(result, dict) else str(result)
    words = level.lower()
    winner = None
    if "draw" not in words:
        for side in sides:
            aliases = AXIS_WORDS if side in AXIS_WORDS else (side,)
            if any(word in words for word in aliases):
                winner = side
    if winner is None and "draw" not in words and len(sides) == 1:
        winner = THE_RULES  # a solitaire game the rules' side won: the player lost
    return Outcome(game["id"], winner, any(w in words for w in MARGINAL_WORDS),
                   level or "over",
                   series_points(result) if isinstance(result, dict) else None)


def series_points(result: dict[str, Any]) -> int | None:
    """The series points a game's rules recorded on its result, None if it has none."""
    points = result.get("series_points")
    return points if isinstance(points, int) and not isinstance(points, bool) else None


@dataclass
class Row:
    player: str
    points: float = 0.0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    series_total: int | None = None
    axis_games: int = 0
    rank: int = 0

    @property
    def points_text(self) -> str:
        return _n(self.points)


@dataclass
class Standings:
    scheme: dict[str, Any]
    rows: list[Row] = field(default_factory=list)
    results: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def series(self) -> bool:
        return self.scheme["kind"] == "series"

    @property
    def scheme_words(self) -> str:
        return scheme_words(self.scheme)

    def to_json(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "scheme_words": self.scheme_words,
                "rows": [{**vars(r), "points": r.points} for r in self.rows],
                "results": self.results, "notes": self.notes}


def standings(games: list[dict[str, Any]], sides_of: dict[str, list[str]],
              scheme: dict[str, Any]) -> Standings:
    """The standings of a tournament's `games` (each with its `players`: side, name),
    `sides_of` mapping a game package to its sides."""
    table: dict[str, Row] = {}
    out = Standings(scheme)
    for game in games:
        for p in game["players"]:
            table.setdefault(p["name"], Row(p["name"]))
        outcome = outcome_of(game, sides_of[game["game"]])
        if outcome is None:
            continue
        names = {p["side"]: p["name"] for p in game["players"]}
        out.results.append({"game_id": game["id"], "words": _result_words(outcome, names)})
        for side, name in names.items():
            row = table[name]
            row.played += 1
            if outcome.winner is None:
                row.drawn += 1
                row.points += scheme.get("draw", 0.0)
            elif outcome.winner == side:
                row.won += 1
                key = "minor" if outcome.marginal else "major"
                row.points += scheme.get(key, scheme.get("win", 0.0))
            else:
                row.lost += 1
                row.points += scheme.get("loss", 0.0)
            if side in AXIS_WORDS and outcome.series_points is not None:
                row.series_total = (row.series_total or 0) + outcome.series_points
                row.axis_games += 1
    if out.series:
        for row in table.values():
            row.points = float(row.series_total or 0)
        counts = {r.axis_games for r in table.values() if r.played}
        played = sum(1 for g in games if outcome_of(g, sides_of[g["game"]]) is not None)
        if played % 2 or len(counts) > 1:
            out.notes.append("The series is not complete: series play needs an even number "
                             "of games with the sides switched each time, so the "
                             "totals are not yet comparable.")
    out.rows = sorted(table.values(), key=lambda r: (-r.points, -r.won, r.player))
    for i, row in enumerate(out.rows):
        same = i and (row.points, row.won) == (out.rows[i - 1].points, out.rows[i - 1].won)
        row.rank = out.rows[i - 1].rank if same else i + 1
    if out.series and out.rows and not out.notes and out.rows[0].series_total is not None:
        out.notes.append(f"Maximum Winner: {out.rows[0].player}.")
    return out


def _result_words(outcome: Outcome, names: dict[str, str]) -> str:
    if outcome.winner is None:
        who = "drawn"
    elif outcome.winner == THE_RULES:
        who = f"lost by {', '.join(names.values())}"
    else:
        who = f"won by {names.get(outcome.winner, outcome.winner)} ({outcome.winner})"
    extra = f"; {outcome.series_points} points for the Axis" \
        if outcome.series_points is not None else ""
    return f"{outcome.words}: {who}{extra}"
