"""Tournament standings (issue 16, item 8): results per game and player, points by a
scheme the tournament director sets, and series play (the series points a game's rules
record on its result, added up)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from adjudicator.errors import PbemError
from adjudicator.service.core import PlayerSpec, Service
from adjudicator.service.standings import parse_scheme, series_points, standings
from adjudicator.service.web import create_app
from tests.service.conftest import EXAMPLE


def test_series_points_are_the_ones_the_rules_recorded() -> None:
    assert series_points({"level": "Axis victory", "series_points": 86}) == 86
    assert series_points({"level": "Draw"}) is None
    assert series_points({"series_points": "86"}) is None
    assert series_points({"series_points": True}) is None


def game(game_id: str, axis: str, soviet: str, result: dict | None,
         status: str = "over") -> dict:
    return {"id": game_id, "game": "blitz", "status": status,
            "result": json.dumps(result) if result else None,
            "players": [{"side": "axis", "name": axis}, {"side": "soviet", "name": soviet}]}


SIDES = {"blitz": ["axis", "soviet"], "solitaire": ["german"]}


def test_a_series_adds_up_each_players_axis_totals() -> None:
    played = [game("g1", "Ann", "Bob", {"series_points": 41, "level": "Draw"}),
              game("g2", "Bob", "Ann", {"series_points": 85, "level": "Axis victory"})]
    table = standings(played, SIDES, parse_scheme("series"))
    assert [(r.player, r.series_total) for r in table.rows] == [("Bob", 85), ("Ann", 41)]
    assert table.notes == ["Maximum Winner: Bob."]
    half = standings(played[:1], SIDES, parse_scheme("series"))
    assert "not complete" in half.notes[0]


def test_a_points_scheme_counts_wins_draws_losses_and_forfeits() -> None:
    played = [game("g1", "Ann", "Bob", {"level": "German marginal victory"}),
              game("g2", "Bob", "Ann", {"forfeit": "soviet"}, status="forfeited"),
              game("g3", "Ann", "Cy", {"level": "Draw"}),
              game("g4", "Cy", "Bob", None, status="active")]
    table = standings(played, SIDES, parse_scheme("win=3,draw=1,loss=0,minor=2"))
    points = {r.player: (r.points, r.won, r.drawn, r.lost) for r in table.rows}
    assert points == {"Ann": (3.0, 1, 1, 1), "Bob": (3.0, 1, 0, 1), "Cy": (1.0, 0, 1, 0)}
    assert [r.rank for r in table.rows] == [1, 1, 3]
    assert {r["game_id"] for r in table.results} == {"g1", "g2", "g3"}
    assert "won by Ann (axis)" in table.results[0]["words"]


def test_a_solitaire_game_lost_to_the_rules_is_a_loss() -> None:
    lost = {"id": "s", "game": "solitaire", "status": "over",
            "result": json.dumps({"level": "Soviet Major Victory", "areas": 1}),
            "players": [{"side": "german", "name": "Ann"}]}
    [row] = standings([lost], SIDES, parse_scheme("")).rows
    assert (row.lost, row.points) == (1, 0.0)


def test_a_bad_scheme_is_refused_in_plain_words() -> None:
    with pytest.raises(PbemError, match="win=3,draw=1,loss=0"):
        parse_scheme("wins=3")


def test_the_tournament_page_shows_the_standings(service: Service) -> None:
    from tests.service.test_core import Clock

    clock = Clock()
    service.config.clock = clock
    for name in ("Ann", "Bob"):
        service.create_game("solitaire", "campaign",
                            [PlayerSpec("german", name, f"{name}@example.org",
                                        (EXAMPLE / "german.pub").read_bytes())],
                            game_id=f"cup-{name}", tournament="Cup", policy="forfeit",
                            deadline_hours=2)
    service.extend_deadline("cup-Bob", 10)
    clock.at += timedelta(hours=3)
    assert service.tick() == ["german missed the deadline of step 1 and forfeits"]
    service.set_tournament_scheme("Cup", "win=2,draw=1,loss=0")
    client = TestClient(create_app(service))
    page = client.get("/tournaments/Cup")
    assert page.status_code == 200 and "Standings" in page.text
    assert "german forfeited" in page.text and "a win 2, a draw 1, a loss 0" in page.text
    table = client.get("/api/standings/Cup").json()
    assert [(r["player"], r["lost"]) for r in table["rows"]] == [("Ann", 1), ("Bob", 0)]
    assert client.get("/api/standings/Nope").status_code == 404
