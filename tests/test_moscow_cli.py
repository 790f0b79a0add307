"""Moscow '41 end to end through the CLI: a two-player game created, the Soviet draw and
set-up and the German set-up from signed files, the reports of both sides checked for
any trace of an untried unit's counter (12.0, docs/architecture.md, Hidden information), and the
journal verified."""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator.games import get_game
from adjudicator.games.moscow.data import Game
from adjudicator.referee.gamedir import load_game
from tests.test_cli_e2e import pbem, status
from tests.test_moscow_rules import german_placements, soviet_placements


def submit(game_dir: Path, tmp: Path, side: str, orders: list[tuple[str, dict[str, str]]],
           key: Path, code: int = 0) -> str:
    text = pbem("orders", "template", game_dir, "--side", side).output
    body = "\n".join(f"  <{kind} " + " ".join(f'{k}="{v}"' for k, v in attrs.items()) + "/>"
                     for kind, attrs in orders)
    path = tmp / f"{side}-{status(game_dir)['seq']}.xml"
    path.write_text(text.replace("</orders>", body + "\n</orders>"))
    pbem("sign", path, "--key", key)
    return pbem("adjudicate", game_dir, path, code=code).output


def test_moscow_set_up_from_signed_files_hides_every_untried_counter(tmp_path: Path) -> None:
    for side in ("german", "soviet"):
        pbem("keygen", tmp_path / side)
    game_dir = tmp_path / "g"
    pbem("new", "moscow", "--side", f"german={tmp_path / 'german.pub'}", "--side",
         f"soviet={tmp_path / 'soviet.pub'}", "--test-seed", "11" * 32, "--game-id", "m1",
         "-o", game_dir)
    assert status(game_dir)["waiting_for"] == "soviet"
    submit(game_dir, tmp_path, "soviet", [("draw", {})], tmp_path / "soviet.key")
    game = Game.of(get_game("moscow").bundled_module)
    state = load_game(game_dir).state
    template = pbem("orders", "template", game_dir, "--side", "soviet").output
    assert "U01: untried" in template and "SOV-XX" not in template
    submit(game_dir, tmp_path, "soviet", [*soviet_placements(game, state), ("end-phase", {})],
           tmp_path / "soviet.key")
    state = load_game(game_dir).state
    submit(game_dir, tmp_path, "german", [*german_placements(game, state), ("end-phase", {})],
           tmp_path / "german.key")
    assert status(game_dir)["waiting_for"] == "german"
    assert "OK" in pbem("verify", game_dir).output
    assert "give it to the players only when the game is over" in pbem(
        "new", "moscow", "--side", f"german={tmp_path / 'german.pub'}", "--side",
        f"soviet={tmp_path / 'soviet.pub'}", "-o", tmp_path / "g2").output
    # 12.1: both sides' reports of the draw publish every token's commitment
    drawn = load_game(game_dir).state
    for side in ("german", "soviet"):
        report = (game_dir / "reports" / "step-1" / side / "report.html").read_text("utf-8")
        assert all(face["commitment"] in report for face in drawn["tokens"].values())
    # no report of either side names a Soviet counter, a strength behind a token, a salt
    # or the seed that would let a player recompute the draws
    state = load_game(game_dir).state
    salts = list(state["salts"].values())
    seeds = [line for line in (game_dir / "journal.jsonl").read_text().splitlines()[1:]]
    server_seeds = re.findall(r'"server_seed":"([0-9a-f]{64})"', "\n".join(seeds))
    reports = list((game_dir / "reports").rglob("*.html")) + \
        list((game_dir / "reports").rglob("*.svg"))
    assert reports
    for report in reports:
        text = report.read_text("utf-8")
        assert "SOV-XX" not in text, report
        assert not any(name in text for name in (p.name for p in game.pieces.values()
                                                 if p.side == "soviet")), report
        assert not any(salt in text for salt in salts), report
        assert not any(seed in text for seed in server_seeds), report


def test_a_vassal_export_puts_every_soviet_counter_untried_face_up() -> None:
    """12.1 B: the counter mix an export offers draws a Soviet unit's untried face first
    (a layer the player flips at the reveal), a German unit's full strength first."""
    from adjudicator.games.moscow.report import REPORTER

    module = get_game("moscow").bundled_module
    game = Game.of(module)
    mix = {c.piece: c for c in REPORTER.counter_mix(module)}
    for unit, piece in game.pieces.items():
        if piece.side == "soviet":
            assert mix[unit].factors == (f"U-{piece.movement}",
                                         f"{piece.attack}-{piece.defense}-{piece.movement}")
    assert mix["GER-XX-12"].factors == ("4-6", "2-6")


def test_a_game_from_a_position_file_publishes_its_tokens_commitments(tmp_path: Path) -> None:
    """A referee starts Moscow '41 from a position (docs/position-files.md): the first
    report of each side lists every token's commitment and names no Soviet counter."""
    for side in ("german", "soviet"):
        pbem("keygen", tmp_path / side)
    (tmp_path / "pos.xml").write_text(
        '<position xmlns="urn:pbem:position:1" game="moscow" turn="2" phase="german.combat">'
        '<unit id="GER-XX-12" at="2417"/><unit id="SOV-XX-174" at="2215"/>'
        '<unit id="SOV-XX-179" at="2315"/></position>')
    game_dir = tmp_path / "g"
    pbem("new", "moscow", "--side", f"german={tmp_path / 'german.pub'}", "--side",
         f"soviet={tmp_path / 'soviet.pub'}", "--position", tmp_path / "pos.xml", "-o",
         game_dir)
    submit(game_dir, tmp_path, "german", [("end-phase", {})], tmp_path / "german.key")
    tokens = load_game(game_dir).state["tokens"]
    for side in ("german", "soviet"):
        report = (game_dir / "reports" / "step-1" / side / "report.html").read_text("utf-8")
        assert all(face["commitment"] in report for face in tokens.values())
        assert "SOV-XX" not in report and "Rifle Division" not in report
