"""1941 end to end: a game created, played and verified through the CLI by two
players, its reports for both sides, and its VASSAL export from data alone."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from click.testing import CliRunner
from lxml import etree

from adjudicator.cli import main
from adjudicator.games.barbarossa.data import GameData as Game
from adjudicator.games.barbarossa.reinforcements import entry_hexes
from adjudicator.referee.gamedir import load_game
from adjudicator.referee.verify import verify
from exporters import vassal
from exporters.vassal.board import hex_board
from exporters.vassal.encoding import decode, parse_piece_text
from exporters.vassal.save import commands_of, read_saved_game

PIECES = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "barbarossa" / \
    "data" / "pieces.xml"


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 2, 3), result.output  # 3: a step with an order refused
    return result.output


def orders_file(tmp: Path, game: Path, side: str, body: str, key: Path) -> Path:
    path = tmp / f"{side}-{len(list(tmp.glob('*.xml')))}.xml"
    run("orders", "template", str(game), "--side", side, "-o", str(path))
    path.write_text(path.read_text().replace("</orders>", body + "\n</orders>"))
    run("sign", str(path), "--key", str(key))
    return path


def test_two_players_play_the_first_player_turns_through_the_cli(tmp_path: Path) -> None:
    for name in ("ger", "sov"):
        run("keygen", str(tmp_path / name))
    game = tmp_path / "game"
    run("new", "barbarossa", "--scenario", "campaign", "--side", f"axis={tmp_path}/ger.pub",
        "--side", f"soviet={tmp_path}/sov.pub", "-o", str(game))
    # the German turn: air, first movement (the Turn 1 panzer corps must enter), combat,
    # second movement; illegal first: entering Moscow
    wrong = orders_file(tmp_path, game, "axis",
                        '<end-phase/><enter unit="GER-XXX-14Pz" hex="1808"/>',
                        tmp_path / "ger.key")
    out = run("adjudicate", str(game), str(wrong))
    assert "rule 14.1.1 A" in out
    played = load_game(game)
    rules_game = Game.of(played.module)
    west = rules_game.board.label(entry_hexes(rules_game, played.state, "GER-XXX-14Pz")[0])
    german = orders_file(tmp_path, game, "axis",
                         f'<enter unit="GER-XXX-14Pz" hex="{west}"/>'
                         "<end-phase/><end-phase/><end-phase/>", tmp_path / "ger.key")
    out = run("adjudicate", str(game), str(german))
    assert "rejected" not in out, out
    soviet = orders_file(tmp_path, game, "soviet",
                         '<standing defensive-air="0" retreat="first"/><end-phase/>',
                         tmp_path / "sov.key")
    out = run("adjudicate", str(game), str(soviet))
    assert "rejected" not in out, out
    assert verify(game).ok
    for side in ("axis", "soviet"):
        html = (game / "reports" / "step-3" / side / "report.html").read_text()
        assert "1941: Operation Barbarossa" in html and "rule" in html.lower()
        assert (game / "reports" / "step-3" / side / "map.png").stat().st_size > 10_000


def test_the_vassal_module_places_every_set_up_unit_on_its_deployment_hex() -> None:
    from adjudicator.games import get_game

    archive = zipfile.ZipFile(io.BytesIO(vassal.export_module("barbarossa", ["campaign"])))
    board = hex_board(get_game("barbarossa").bundled_module)
    deploy = {p.get("id"): p.get("deploy") for p in etree.parse(str(PIECES)).getroot()}
    placed = {}
    for command in commands_of(read_saved_game(archive.read("setup-campaign.vsav"))):
        if command.startswith("+/") and decode(command[2:], "/")[1] != "stack":
            traits = parse_piece_text(command)[1]
            mark = next(t for t in traits if t.type.startswith("mark;pbem_piece"))
            state = decode(traits[-1].state, ";")
            placed[mark.state] = board.grid.vassal.locate(int(state[1]), int(state[2]))
    on_map = {u: code for u, code in deploy.items() if len(code) == 4 and code.isdigit()}
    assert placed == on_map
    x, y = board.locations["1808"].stack
    assert board.grid.vassal.locate(x, y) == "1808"  # hovering over Moscow shows 1808


def test_the_report_map_rims_each_side_s_zones_of_control() -> None:
    """The report's hex map hints at zones of control (issue 3): every empty land hex
    next to a unit is rimmed in its side's colour; occupied hexes and water are not."""
    from adjudicator.games import get_game
    from adjudicator.games.barbarossa.data import GameData as Game
    from adjudicator.games.barbarossa.report import AXIS_ZOC, REPORTER, SOVIET_ZOC
    from adjudicator.reports.hexmap import draw_hex_map

    package = get_game("barbarossa")
    module = package.bundled_module
    state = package.rules.initial_state(module, "campaign", {})
    state.update(player="soviet", segment="first", phase="movement")  # no 17.1.3 exception
    game = Game.of(module)
    view = REPORTER.map_view(module, state, "axis")
    occupied = set(state["units"].values())
    assert view.zoc and not set(view.zoc) & occupied
    soviet = game.board.hex(state["units"]["SOV-XXXX-11"])  # 1222, 19.0 B
    for h in game.board.neighbours(soviet):
        label = game.board.label(h)
        if label not in occupied and game.board.terrain[h] not in ("sea", "lake"):
            assert SOVIET_ZOC in view.zoc[label]
    assert any(AXIS_ZOC in colours for colours in view.zoc.values())
    assert 'class="zoc"' in draw_hex_map(module, view)
