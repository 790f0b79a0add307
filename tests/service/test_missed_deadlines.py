"""A missed deadline under the `pass` policy, in every game and every kind of step a game
waits for (issue 16, item 12): the referee either plays a pass the rules take, all of it,
and the game moves on (the journal verifies), or plays none, journals nothing, renews
the deadline and says why, in the log the referee's page shows and in the notice to the
players. Never "the referee played the pass" when the rules refused it.

The games are the examples, replayed from their signed files into the service up to a
step of the kind wanted (examples/*/turns, addressed to the example's game id)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjudicator.engine.state import State
from adjudicator.referee.verify import verify
from adjudicator.service.core import PlayerSpec, Service
from tests.service.test_core import Clock

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SEEDS = {"solitaire": b"Barbarossa Solitaire example game",
         "barbarossa": b"1941 Operation Barbarossa example game",
         "moscow": b"Moscow '41 example game"}
PLAYED = "the referee played the pass the rules give: "
NONE = "the referee played no pass, as "


def example_game(service: Service, folder: str, until: Callable[[State], bool]) -> str:
    """The example game of `folder` under the pass policy (two hours a step), replayed
    from its signed files until the position satisfies `until`; its id."""
    journal = EXAMPLES / folder / "journal.jsonl"
    header = json.loads(journal.read_text("utf-8").splitlines()[0])
    game = header["module"]["id"]
    service.config.clock = Clock()
    service.create_game(
        game, header["scenario"],
        [PlayerSpec(p["side"], p["side"], f"{p['side']}@example.org",
                    p["public_key"].encode()) for p in header["roster"]],
        game_id=header["game_id"], options=header["options"], policy="pass",
        deadline_hours=2, test_seed=hashlib.sha256(SEEDS[game]).digest())
    for turn in sorted((EXAMPLES / folder / "turns").glob("step-*.xml")):
        if until(service.current(header["game_id"]).state):
            return str(header["game_id"])
        service.submit(turn.read_bytes(), "web")
    raise AssertionError(f"no step of {folder} is of the kind wanted")


def miss(service: Service, game_id: str, tmp_path: Path) -> tuple[str, dict[str, Any]]:
    """Let the deadline pass; what the policy did, and the journal's last line. Either way
    the journal verifies, and the log and the players' notices say the same."""
    before = service.current(game_id)
    lines = service.journal(game_id).count(b"\n")
    clock = service.config.clock
    assert isinstance(clock, Clock)
    clock.advance(3)
    done = [line for line in service.tick() if "missed the deadline" in line]
    assert len(done) == 1, done
    what = done[0]
    overview = service.game_overview(game_id)
    assert overview["log"][-1]["what"] == what or any(e["what"] == what for e in overview["log"])
    notices = [m for m in service.pending_mail() if "missed deadline" in m.subject]
    if what.startswith(f"{before.acting_side} missed the deadline of step {before.next_seq}; "
                       + PLAYED):
        assert service.current(game_id).next_seq == before.next_seq + 1
        last = json.loads(service.journal(game_id).splitlines()[-1])
        assert last["by"] == "referee" and last["rejection"] is None, last["rejection"]
    else:
        assert NONE in what and "new deadline" in what, what
        assert service.current(game_id).next_seq == before.next_seq
        assert service.journal(game_id).count(b"\n") == lines  # nothing journalled
        assert any(what in m.text for m in notices)  # the players are told why
        last = {}
    path = tmp_path / f"{game_id}.jsonl"
    path.write_bytes(service.journal(game_id))
    assert verify(path).ok
    return what, last


def acting(state: State) -> str | None:
    pending = state.get("pending")
    if pending:
        return str(pending["side"])
    return None if state["phase"] == "game-over" else str(state["player"])


# -- Barbarossa Solitaire ----------------------------------------------------------------


def test_solitaire_a_turn_is_passed(service: Service, tmp_path: Path) -> None:
    game_id = example_game(service, "solitaire", lambda s: True)
    what, last = miss(service, game_id, tmp_path)
    assert PLAYED + "end the German turn" in what and last["outcome"] in ("accepted",
                                                                          "decision")


def test_solitaire_an_open_decision_is_not_passed(service: Service, tmp_path: Path) -> None:
    game_id = example_game(service, "solitaire", lambda s: bool(s.get("pending")))
    what, _ = miss(service, game_id, tmp_path)
    assert NONE + "decision D" in what and "waits for german's answer" in what


def test_solitaire_reinforcements_waiting_are_passed(service: Service, tmp_path: Path) -> None:
    """Reinforcements: a unit due that is not brought in waits for the next turn (one
    enters per turn), so the pass ends the turn; the rules take it."""
    game_id = example_game(service, "solitaire",
                           lambda s: bool(s.get("queue")) and not s.get("pending"))
    what, last = miss(service, game_id, tmp_path)
    assert PLAYED in what and last["rejection"] is None


def test_solitaire_the_free_placement_is_not_passed(service: Service, tmp_path: Path) -> None:
    service.config.clock = Clock()
    service.create_game("solitaire", "campaign",
                        [PlayerSpec("german", "Bo", "bo@example.org",
                                    (EXAMPLES / "solitaire" / "german.pub").read_bytes())],
                        game_id="placing", options={"free-placement": "yes"}, policy="pass",
                        deadline_hours=2)
    what, _ = miss(service, "placing", tmp_path)
    assert NONE + "the rules give german no pass in the setup phase" in what


# -- 1941 ------------------------------------------------------------------------------


def test_1941_reinforcements_due_enter_with_the_pass(service: Service, tmp_path: Path) -> None:
    """The report of issue 16: Turn 1, the 14th Panzer Corps due (14.1.3 C). The pass
    brings it in at an entry hex and ends the player turn."""
    game_id = example_game(service, "barbarossa", lambda s: True)
    what, last = miss(service, game_id, tmp_path)
    assert PLAYED + "end the phase; enter GER-XXX-14Pz at 1028; end the phase (x3)" in what
    assert any(e["kind"] == "unit-entered" for e in last["events"])
    assert service.current(game_id).state["player"] == "soviet"


def test_1941_the_soviet_turn_with_reinforcements(service: Service, tmp_path: Path) -> None:
    game_id = example_game(service, "barbarossa",
                           lambda s: acting(s) == "soviet" and not s.get("pending")
                           and s["phase"] == "air")
    what, last = miss(service, game_id, tmp_path)
    assert PLAYED in what
    assert {e["unit"] for e in last["events"] if e["kind"] == "unit-entered"} >= \
        {"SOV-XXXX-24"}


def test_1941_an_open_decision_is_not_passed(service: Service, tmp_path: Path) -> None:
    game_id = example_game(service, "barbarossa", lambda s: bool(s.get("pending")))
    what, _ = miss(service, game_id, tmp_path)
    assert NONE + "decision D" in what


def test_1941_the_middle_of_a_turn_is_passed(service: Service, tmp_path: Path) -> None:
    game_id = example_game(service, "barbarossa",
                           lambda s: s["phase"] == "combat" and not s.get("pending"))
    what, last = miss(service, game_id, tmp_path)
    assert PLAYED + "end the phase" in what and "enter" not in what


def test_1941_the_free_deployment_is_passed(service: Service, tmp_path: Path) -> None:
    """20.6: a pass of the set-up leaves the units where the historical deployment has
    them; the rules take it."""
    service.config.clock = Clock()
    keys = {side: (EXAMPLES / "barbarossa" / f"{name}.pub").read_bytes()
            for side, name in (("axis", "german"), ("soviet", "soviet"))}
    service.create_game("barbarossa", "campaign",
                        [PlayerSpec(side, side, f"{side}@example.org", key)
                         for side, key in keys.items()],
                        game_id="deploying", options={"free-deployment": "yes"},
                        policy="pass", deadline_hours=2)
    assert service.current("deploying").state["segment"] == "deployment"
    what, last = miss(service, "deploying", tmp_path)
    assert PLAYED + "end the phase" in what and last["outcome"] == "accepted"


def test_the_referee_page_shows_why_no_pass_was_played(service: Service,
                                                       tmp_path: Path) -> None:
    from adjudicator.service.web import create_app

    game_id = example_game(service, "barbarossa", lambda s: bool(s.get("pending")))
    what, _ = miss(service, game_id, tmp_path)
    page = TestClient(create_app(service)).get(f"/games/{game_id}").text
    assert NONE in page and "decision D" in page, what


# -- Moscow '41 -------------------------------------------------------------------------


def test_moscow_the_set_up_is_not_passed(service: Service, tmp_path: Path) -> None:
    game_id = example_game(service, "moscow", lambda s: True)
    what, _ = miss(service, game_id, tmp_path)
    assert NONE + "the rules give soviet no pass in the draw phase" in what


@pytest.mark.parametrize("kind", ["decision", "phase"])
def test_moscow_later_steps(service: Service, tmp_path: Path, kind: str) -> None:
    until: Callable[[State], bool] = (lambda s: bool(s.get("pending"))) if kind == "decision" \
        else (lambda s: s["phase"] not in ("draw", "setup") and not s.get("pending"))
    game_id = example_game(service, "moscow", until)
    what, last = miss(service, game_id, tmp_path)
    if kind == "decision":
        assert NONE + "decision" in what
    else:  # module 0.3.0: the pass ends the side's own phases and the rules take it
        assert PLAYED in what and last["outcome"] == "accepted", what


def test_moscow_a_german_turn_is_passed_to_the_soviet_player(service: Service,
                                                             tmp_path: Path) -> None:
    """3.1.1: the German player's pass ends his Movement, Combat and (while held) Air
    Interdiction Phases; the game then waits for the Soviet Movement Phase (3.1.2 A)."""
    game_id = example_game(service, "moscow", lambda s: s["phase"] == "movement"
                           and s["player"] == "german" and not s.get("pending"))
    what, last = miss(service, game_id, tmp_path)
    assert PLAYED in what and last["outcome"] == "accepted", what
    after = service.current(game_id).state
    assert (after["player"], after["phase"]) == ("soviet", "movement")
