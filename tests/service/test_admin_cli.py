"""`pbem admin` checks what the web admin API checks, and says it in the same words
(issue 16, item 9); `pbem status` and the order template read plainly (item 15)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from tests.service.conftest import EXAMPLE

KEY = str(EXAMPLE / "german.pub")


def admin(tmp_path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["admin", "--database",
                                       f"sqlite:///{tmp_path / 'admin.db'}", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(("player", "words"), [
    (f"german=Al,al@example.org,{KEY},Not/AZone", "unknown time zone 'Not/AZone'"),
    (f"german=Al,al@example.org,{KEY},<script>x</script>", "unknown time zone"),
    (f"german=Al,not-an-email,{KEY}", "'not-an-email' is not an e-mail address"),
    (f"german=Al,al@example.org\r\nBcc: x@y.z,{KEY}", "is not an e-mail address"),
])
def test_admin_create_refuses_what_the_api_refuses(tmp_path: Path, player: str,
                                                   words: str) -> None:
    code, output = admin(tmp_path, "create", "solitaire", "--scenario", "campaign",
                         "--player", player)
    assert code != 0 and "the game was not created" in output and words in output, output
    code, output = admin(tmp_path, "games")
    assert code == 0 and output.strip() == ""  # nothing was created


def test_admin_create_refuses_one_key_for_two_sides(tmp_path: Path) -> None:
    code, output = admin(tmp_path, "create", "barbarossa", "--scenario", "campaign",
                         "--player", f"axis=A,a@example.org,{KEY}",
                         "--player", f"soviet=B,b@example.org,{KEY}")
    assert code != 0 and "two sides have the same public key" in output, output


def test_admin_create_accepts_a_good_roster(tmp_path: Path) -> None:
    code, output = admin(tmp_path, "create", "solitaire", "--scenario", "campaign",
                         "--game-id", "good", "--player",
                         f"german=Al,al@example.org,{KEY},Europe/Berlin")
    assert code == 0 and "created good" in output, output


def test_serve_prints_a_short_summary_with_the_urls_last(tmp_path: Path) -> None:
    """Issue 16, item 14: no library chatter at INFO, a summary that ends with the URLs."""
    import logging

    from adjudicator.service.runner import (
        ServeOptions,
        build_service,
        set_up_logging,
        startup_summary,
    )

    options = ServeOptions(database=f"sqlite:///{tmp_path / 's.db'}")
    set_up_logging(options)
    assert logging.getLogger("mail.log").getEffectiveLevel() == logging.WARNING
    assert logging.getLogger("alembic").getEffectiveLevel() == logging.WARNING
    text = startup_summary(options, build_service(options),
                           {"demo-solitaire": "http://127.0.0.1:8000/games/demo/me?token=x"})
    lines = text.strip().splitlines()
    assert len(lines) < 25
    assert lines[-2].split() == ["web", "http://127.0.0.1:8000/"]
    assert "demo-solitaire" in text and "/docs" in text and "/help" in text


def test_status_reads_plainly() -> None:
    """Issue 16, item 15: no raw dict, the position in brief, whose step with its envelope."""
    journal = EXAMPLE.parent / "barbarossa" / "journal.jsonl"
    result = CliRunner().invoke(main, ["status", str(journal)])
    assert result.exit_code == 0, result.output
    assert "{" not in result.output and "position after step" in result.output
    assert "waits for axis" in result.output and 'seq="' in result.output
    assert "the position as axis sees it:" in result.output
