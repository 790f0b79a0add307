"""A command loads only what it uses (issue 13): `pbem --help` and `pbem games` import
neither XML, rendering, web nor database libraries, and `pbem games --json` says what a
referee needs to create a game (sides, scenarios, options) without loading any rules."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.games import GAME_IDS, get_game

HEAVY = ("lxml", "cairosvg", "PIL", "jinja2", "fastapi", "sqlalchemy", "cryptography")


def loaded_after(code: str) -> list[str]:
    probe = (f"import sys; {code}; print(sorted({{m.split('.')[0] for m in sys.modules}} & "
             f"{set(HEAVY)!r}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    return list(json.loads(out.stdout.strip().replace("'", '"')))


def test_the_command_line_imports_nothing_heavy_before_a_command_runs() -> None:
    assert loaded_after("import adjudicator.cli") == []
    assert loaded_after("from click.testing import CliRunner; from adjudicator.cli import "
                        "main; CliRunner().invoke(main, ['--help'])") == []


def test_games_json_lists_what_a_roster_needs() -> None:
    result = CliRunner().invoke(main, ["games", "--json"])
    assert result.exit_code == 0, result.output
    games = {g["id"]: g for g in json.loads(result.output)}
    assert list(games) == list(GAME_IDS)
    for game_id, about in games.items():
        package = get_game(game_id)
        assert tuple(about["sides"]) == tuple(package.rules.sides)
        assert [s["id"] for s in about["scenarios"]] == [s for s, _ in package.scenarios()]
        assert about["version"] == package.bundled_module.version
        assert all(o["default"] in o["values"] for o in about["options"])
    text = CliRunner().invoke(main, ["games"]).output
    assert "sides: axis, soviet" in text
