"""End to end through the `pbem` CLI: keygen, new, template, check, sign, adjudicate,
report, verify; and every way a submission can be wrong, each refused with a
clear message and nothing lost."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from adjudicator.cli import main


def pbem(*args: str | Path, code: int | None = 0, stdin: str | None = None) -> Result:
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    if code is not None:
        assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output
    return result


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    pbem("keygen", tmp_path / "alice")
    pbem("keygen", tmp_path / "mallory")
    pbem("new", "solitaire", "--scenario", "campaign", "--side",
         f"german={tmp_path / 'alice.pub'}", "--test-seed", "00" * 32, "--game-id", "e2e",
         "-o", tmp_path / "g")
    return tmp_path / "g"


def template(game: Path, orders: str, out: Path, side: str = "german") -> Path:
    text = pbem("orders", "template", game, "--side", side).output
    text = text.replace("</orders>", orders + "\n</orders>")
    out.write_text(text)
    return out


def status(game: Path) -> dict:
    return json.loads(pbem("status", game, "--json").output)


def test_a_turn_from_keygen_to_verify(game: Path, tmp_path: Path) -> None:
    orders = template(game, '  <move unit="GER-9" to="konigsberg"/>\n  <end-turn/>',
                      tmp_path / "t1.xml")
    assert "note: not signed yet" in pbem("check", game, orders).output
    pbem("sign", orders, "--key", tmp_path / "alice.key")
    assert "OK" in pbem("check", game, orders).output
    out = pbem("adjudicate", game, orders).output
    assert "step 1 adjudicated" in out and "seed revealed" in out
    report = re.search(r"report for german: (\S+)", out)
    assert report and Path(report.group(1)).exists()
    assert status(game)["seq"] == 2
    assert "OK" in pbem("verify", game).output
    rolls = json.loads(pbem("journal", "rolls", game, "--json").output)["rolls"]
    assert all(r["seq"] == 1 for r in rolls)
    pbem("report", game, "--step", "0", "-o", tmp_path / "rep")
    assert (tmp_path / "rep" / "german" / "map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_tampered_file_is_refused_and_kept(game: Path, tmp_path: Path) -> None:
    orders = template(game, "  <end-turn/>", tmp_path / "t.xml")
    pbem("sign", orders, "--key", tmp_path / "alice.key")
    orders.write_text(orders.read_text().replace("<end-turn/>", '<move unit="GER-9" to="x"/>'))
    result = pbem("adjudicate", game, orders, code=2)
    assert "signature does not match" in result.output
    assert status(game)["seq"] == 1
    assert len(list((game / "submissions").iterdir())) == 1
    assert "OK" in pbem("verify", game).output


@pytest.mark.parametrize("field, value, words", [
    ("prev", "ab" * 32, "does not match the game's current prev"),
    ("commit", "cd" * 32, "does not match the game's current commit"),
    ("seq", "7", "step 7, which is not yet reached"),
    ("game", "other-game", "addressed to game='other-game'"),
])
def test_a_misaddressed_file_is_refused(game: Path, tmp_path: Path, field: str, value: str,
                                        words: str) -> None:
    orders = template(game, "  <end-turn/>", tmp_path / "t.xml")
    text = re.sub(rf'{field}="[^"]*"', f'{field}="{value}"', orders.read_text(), count=1)
    orders.write_text(text)
    pbem("sign", orders, "--key", tmp_path / "alice.key")
    assert words in pbem("adjudicate", game, orders, code=2).output
    assert status(game)["seq"] == 1


def test_a_file_signed_with_another_key_is_refused(game: Path, tmp_path: Path) -> None:
    orders = template(game, "  <end-turn/>", tmp_path / "t.xml")
    pbem("sign", orders, "--key", tmp_path / "mallory.key")
    assert "not a key of this game's players" in pbem("adjudicate", game, orders, code=2).output


def test_a_replayed_file_is_refused(game: Path, tmp_path: Path) -> None:
    orders = template(game, "  <end-turn/>", tmp_path / "t.xml")
    pbem("sign", orders, "--key", tmp_path / "alice.key")
    pbem("adjudicate", game, orders)
    assert "already adjudicated" in pbem("adjudicate", game, orders, code=2).output
    assert status(game)["seq"] == 2
    assert "OK" in pbem("verify", game).output


def test_an_illegal_order_keeps_the_orders_before_it(game: Path, tmp_path: Path) -> None:
    orders = template(game, '  <move unit="GER-9" to="konigsberg"/>\n'
                      '  <move unit="GER-9" to="warsaw"/>\n  <end-turn/>', tmp_path / "t.xml")
    line = orders.read_text().splitlines().index('  <move unit="GER-9" to="warsaw"/>') + 1
    where = f"order 2 (line {line})"
    assert f"problem: {where} breaks rule Movement" in pbem("check", game, orders, code=2).output
    pbem("sign", orders, "--key", tmp_path / "alice.key")
    out = pbem("adjudicate", game, orders, code=3).output  # the step counts: 3, not 2
    assert f"{where} rejected, rule Movement: GER-9 has already moved" in out
    assert status(game)["phase"] == "movement"
    assert "OK" in pbem("verify", game).output


def test_garbage_never_crashes(game: Path, tmp_path: Path) -> None:
    for name, data in [("empty", b""), ("binary", bytes(range(256))),
                       ("html", b"<html><body>hi</body></html>"),
                       ("bomb", b'<!DOCTYPE x [<!ENTITY a "aaaa">]><orders>&a;</orders>')]:
        path = tmp_path / name
        path.write_bytes(data)
        result = pbem("adjudicate", game, path, code=2)
        assert result.output.startswith("pbem: refused")
        pbem("check", game, path, code=2)
        pbem("sign", path, "--key", tmp_path / "alice.key", code=1)
    assert status(game)["seq"] == 1


def test_errors_are_one_line_without_traceback(tmp_path: Path) -> None:
    assert "unknown game" in pbem("new", "chess", "--side", "a=b", "-o", tmp_path / "x",
                                  code=1).output
    assert "not a game directory" in pbem("status", tmp_path, code=1).output
    out = pbem("dice", "derive", "--server-seed", "zz", "--game", "g", "--seq", "1",
               "--entropy", "00", code=1).output
    assert "hexadecimal" in out


def test_dice_derive_matches_the_journal(game: Path, tmp_path: Path) -> None:
    orders = template(game, '  <attack target="kurland" units="GER-16"/>\n', tmp_path / "t.xml")
    pbem("sign", orders, "--key", tmp_path / "alice.key")
    pbem("adjudicate", game, orders)
    roll = json.loads(pbem("journal", "rolls", game, "--json").output)["rolls"][0]
    values = pbem("dice", "derive", "--server-seed", roll["server_seed"], "--game", "e2e",
                  "--seq", "1", "--entropy", roll["entropy"], "--count", "1").output.split()
    assert int(values[0]) == roll["raw"]


def test_no_unrevealed_seed_ever_appears_in_the_journal(game: Path, tmp_path: Path) -> None:
    for n in range(3):
        orders = template(game, "  <end-turn/>", tmp_path / f"t{n}.xml")
        pbem("sign", orders, "--key", tmp_path / "alice.key")
        pbem("adjudicate", game, orders)
        secrets = json.loads((game / "referee" / "secrets.json").read_text())
        journal = (game / "journal.jsonl").read_text()
        upcoming = secrets["seeds"][str(status(game)["seq"])]
        assert upcoming not in journal
        assert secrets["test_seed"] not in journal
    assert (game / "referee").stat().st_mode & 0o077 == 0


POSITION = """<?xml version="1.0" encoding="UTF-8"?>
<position xmlns="urn:pbem:position:1" game="solitaire" scenario="campaign"
          turn="1944-autumn" phase="movement">
  <unit id="GER-6" at="warsaw"/>
  <unit id="GER-9" at="berlin"/>
  <marker kind="garrison" at="prague"/>
  <marker kind="garrison" at="silesia"/>
  <marker kind="garrison" at="slovakia"/>
  <pool name="reinforcements"><unit id="GER-8" due="1944-autumn"/></pool>
  <pool name="out"><unit id="ITA-8"/></pool>
</position>
"""


def test_a_game_from_a_position_file(tmp_path: Path) -> None:
    pbem("keygen", tmp_path / "ref")
    (tmp_path / "pos.xml").write_text(POSITION)
    pbem("new", "solitaire", "--side", f"german={tmp_path / 'ref.pub'}", "--position",
         tmp_path / "pos.xml", "-o", tmp_path / "g")
    info = status(tmp_path / "g")
    assert info["turn"] == "1944-autumn" and info["phase"] == "movement"
    orders = template(tmp_path / "g", '  <reinforce unit="GER-8" area="prague"/>\n  <end-turn/>',
                      tmp_path / "t.xml")
    pbem("sign", orders, "--key", tmp_path / "ref.key")
    pbem("adjudicate", tmp_path / "g", orders)
    assert "OK" in pbem("verify", tmp_path / "g").output


def test_a_bad_position_file_is_refused_clearly(tmp_path: Path) -> None:
    pbem("keygen", tmp_path / "ref")
    (tmp_path / "pos.xml").write_text(POSITION.replace('at="warsaw"', 'at="atlantis"'))
    out = pbem("new", "solitaire", "--side", f"german={tmp_path / 'ref.pub'}", "--position",
               tmp_path / "pos.xml", "-o", tmp_path / "g", code=1).output
    assert "atlantis" in out
    (tmp_path / "pos.xml").write_text(POSITION.replace("<unit id", "<unicorn id", 1))
    assert "position file line" in pbem("new", "solitaire", "--side",
                                        f"german={tmp_path / 'ref.pub'}", "--position",
                                        tmp_path / "pos.xml", "-o", tmp_path / "g2",
                                        code=1).output


def test_a_game_with_its_own_module_file(tmp_path: Path) -> None:
    from adjudicator.games import get_game

    bundled = get_game("solitaire").data_dir / "module.xml"
    custom = bundled.read_text("utf-8").replace('name="Nazi Major Victory"',
                                                 'name="Decisive German Victory"')
    (tmp_path / "module.xml").write_text(custom)
    pbem("keygen", tmp_path / "ref")
    pbem("new", "solitaire", "--side", f"german={tmp_path / 'ref.pub'}", "--module",
         tmp_path / "module.xml", "-o", tmp_path / "g")
    header = json.loads((tmp_path / "g" / "journal.jsonl").read_text().splitlines()[0])
    assert header["module"]["data"] is not None
    assert "OK" in pbem("verify", tmp_path / "g" / "journal.jsonl").output
    (tmp_path / "broken.xml").write_text(custom.replace("<pieces>", "<piecez>", 1))
    assert "module" in pbem("new", "solitaire", "--side", f"german={tmp_path / 'ref.pub'}",
                            "--module", tmp_path / "broken.xml", "-o", tmp_path / "g2",
                            code=1).output


def test_a_passphrase_protected_key(game: Path, tmp_path: Path) -> None:
    pbem("keygen", tmp_path / "carol", "--encrypt", stdin="s3cret\ns3cret\n")
    assert b"ENCRYPTED" in (tmp_path / "carol.key").read_bytes()
    orders = template(game, "  <end-turn/>", tmp_path / "t.xml")
    assert "passphrase" in pbem("sign", orders, "--key", tmp_path / "carol.key",
                                stdin="wrong\n", code=1).output.lower()
    pbem("sign", orders, "--key", tmp_path / "carol.key", stdin="s3cret\n")
    assert "<signature" in orders.read_text()


def test_reports_and_dice_audit_refuse_bad_arguments(game: Path, tmp_path: Path) -> None:
    assert "no side 'soviet'" in pbem("report", game, "--side", "soviet", "-o", tmp_path / "r",
                                      code=1).output
    assert "steps 0 to 0" in pbem("report", game, "--step", "3", "-o", tmp_path / "r",
                                  code=1).output
    assert "32 bytes" in pbem("dice", "derive", "--server-seed", "00", "--game", "g", "--seq",
                              "1", "--entropy", "00", code=1).output
    assert "not JSON" in pbem("verify", tmp_path / "alice.pub", code=1).output


POSITION_1941 = """<?xml version="1.0" encoding="UTF-8"?>
<position xmlns="urn:pbem:position:1" game="barbarossa" turn="3" phase="soviet.first.movement">
  <unit id="SOV-XXXX-7" at="0712"/>
  <unit id="SOV-XXXX-23" at="0713"/>
  <unit id="GER-XXX-26" at="0916"/>
</position>
"""


def test_a_1941_game_from_a_position_file_with_the_baltic_fleet(tmp_path: Path) -> None:
    """A referee starts a 1941 game at Turn 3 with rule 20.1; the Soviet player sails one
    army to 0713 and is refused a second back to Leningrad (20.1.1 A); the journal
    verifies."""
    for side in ("axis", "soviet"):
        pbem("keygen", tmp_path / side)
    (tmp_path / "pos.xml").write_text(POSITION_1941)
    pbem("new", "barbarossa", "--side", f"axis={tmp_path / 'axis.pub'}", "--side",
         f"soviet={tmp_path / 'soviet.pub'}", "--option", "naval=yes", "--position",
         tmp_path / "pos.xml", "-o", tmp_path / "g")
    assert status(tmp_path / "g")["turn"] == 3
    orders = template(tmp_path / "g", '  <sea-move unit="SOV-XXXX-7" to="0713"/>\n'
                      '  <sea-move unit="SOV-XXXX-23" to="0712"/>', tmp_path / "t.xml",
                      side="soviet")
    pbem("sign", orders, "--key", tmp_path / "soviet.key")
    out = pbem("adjudicate", tmp_path / "g", orders, code=None).output
    assert "20.1.1 A" in out and "already been used" in out
    assert "OK" in pbem("verify", tmp_path / "g").output


def test_check_says_how_many_orders_it_could_not_check(game: Path, tmp_path: Path) -> None:
    """Issue 16, item 16: a draft whose first order needs a die roll is not 'OK': the
    check says how many orders it could check against the position, and why not more."""
    orders = template(game, '  <attack target="kurland" units="GER-16" lose="GER-16"/>\n'
                      '  <end-turn/>', tmp_path / "t.xml")
    out = pbem("check", game, orders).output
    assert "OK" not in out
    assert "only 0 of 2 order(s) could be checked against the position" in out, out
    assert "depend on a die roll" in out


def test_sign_refuses_a_decision_left_to_answer(game: Path, tmp_path: Path) -> None:
    orders = template(game, '  <answer decision="d1" choice="CHOOSE"/>\n  <end-turn/>',
                      tmp_path / "t.xml")
    out = pbem("sign", orders, "--key", tmp_path / "alice.key", code=1).output
    assert "decision d1 is still to answer" in out and "CHOOSE" in out
    assert "<signature" not in orders.read_text()


def test_a_finished_game_has_no_template(tmp_path: Path) -> None:
    from adjudicator.referee.gamedir import load_game
    from adjudicator.reports.template import order_template

    journal = Path(__file__).resolve().parent.parent / "examples" / "solitaire" / \
        "journal.jsonl"
    if load_game(journal).acting_side is not None:
        pytest.skip("the example game is not over")
    out = pbem("orders", "template", journal, "--side", "german", code=1).output
    assert "is over" in out and "no more orders" in out
    assert order_template  # the same refusal serves the web's template link
