"""`pbem orders template` suggests only what the side can do now (issue 16, item 17): the
suggestions come from the rules' listing of legal orders (engine/listing.py), so each is
one the rules take; Solitaire's Romanians are offered no attack across their line, the
free placement lists the units still to place, and 1941 says where the reinforcements
due may enter. And `pbem check` gives the words of items 17-18 for refused orders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lxml import etree

from adjudicator.cli import main
from adjudicator.engine.step import run_step
from adjudicator.referee.gamedir import load_game
from tests.conformance.harness import orders_of

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SEED = "00" * 32


def pbem(*args: str | Path, code: int | None = 0) -> Result:
    result = CliRunner().invoke(main, [str(a) for a in args])
    if code is not None:
        assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output
    return result


def new_game(tmp_path: Path, game: str, *options: str) -> Path:
    keys = {"solitaire": {"german": EXAMPLES / "solitaire" / "german.pub"},
            "barbarossa": {"axis": EXAMPLES / "barbarossa" / "german.pub",
                           "soviet": EXAMPLES / "barbarossa" / "soviet.pub"}}[game]
    sides = [a for side, key in keys.items() for a in ("--side", f"{side}={key}")]
    extra = [a for o in options for a in ("--option", o)]
    pbem("new", game, "--scenario", "campaign", *sides, *extra, "--test-seed", SEED,
         "--game-id", f"t-{game}", "-o", tmp_path / game)
    return tmp_path / game


def comment(template: str) -> str:
    return template[template.index("<!--"):template.index("-->")]


def suggested_orders(template: str) -> list[str]:
    """The orders a template's comment writes out as XML."""
    return re.findall(r"^\s+(<[a-z-]+(?: [a-z-]+=\"[^\"]*\")*/>)\s*$", comment(template),
                      re.MULTILINE)


def taken_alone(directory: Path, side: str, order: str) -> bool:
    game = load_game(directory)
    file = etree.fromstring(f'<orders xmlns="urn:pbem:orders:1">{order}</orders>')
    result = run_step(game.package.rules, game.module, game.state, orders_of(file), side, None)
    return result.rejection is None


def test_solitaire_offers_the_romanians_no_attack_across_their_line(tmp_path: Path) -> None:
    """Restrictions: "Romanian units cannot move north of the line Belgrade - Bucharest -
    ..."; attackers move into the area attacked, so Bucharest's Romanians cannot attack
    Lvov. The template offered it; now it offers Odessa only, and every move it offers
    is one the rules take."""
    game = new_game(tmp_path, "solitaire")
    text = pbem("orders", "template", game, "--side", "german").output
    assert "from bucharest you can attack: odessa\n" in text
    assert "garrisons (they cannot move): belgrade, berlin" in text
    for unit, areas in re.findall(r"(\S+) \(in \S+\) may move to: (.+)", text):
        for area in areas.split(", "):
            assert taken_alone(game, "german", f'<move unit="{unit}" to="{area}"/>'), \
                (unit, area)
    units = load_game(game).state["units"]
    for area, targets in re.findall(r"from (\S+) you can attack: (.+)", text):
        here = sorted(u for u, at in units.items() if at == area)
        for target in targets.split(", "):  # the units there attack it, alone or together
            assert any(taken_alone(game, "german", f'<attack target="{target}" units="{u}"/>')
                       for u in here) or taken_alone(
                game, "german", f'<attack target="{target}" units="{" ".join(here)}"/>')
    rum = pbem("check", game, write(tmp_path, text, '<attack target="lvov" units="RUM-3"/>'),
               code=2).output
    assert "Romanian" in rum


def write(tmp_path: Path, template: str, body: str) -> Path:
    path = tmp_path / f"orders-{abs(hash(body))}.xml"
    path.write_text(template.replace("</orders>", f"  {body}\n</orders>"), "utf-8")
    return path


def test_the_free_placement_template_lists_the_units_still_to_place(tmp_path: Path) -> None:
    game = new_game(tmp_path, "solitaire", "free-placement=yes")
    text = pbem("orders", "template", game, "--side", "german").output
    unplaced = load_game(game).state["unplaced"]
    assert f"still to place: {', '.join(unplaced)}" in text
    assert "RUM-3 may be placed in: belgrade, bucharest, slovenia" in text
    first = re.search(r"(GER-\S+) may be placed in: (\S+?)[,\n]", text)
    assert first and taken_alone(game, "german",
                                 f'<place unit="{first[1]}" area="{first[2]}"/>')


def test_moving_a_garrison_is_refused_as_a_garrison(tmp_path: Path) -> None:
    game = new_game(tmp_path, "solitaire")
    text = pbem("orders", "template", game, "--side", "german").output
    out = pbem("check", game, write(tmp_path, text, '<move unit="berlin" to="silesia"/>'),
               code=2).output
    assert "breaks rule Movement" in out and "garrison units cannot move" in out
    assert "there is no unit" not in out


def test_the_1941_template_says_where_the_reinforcements_due_may_enter(tmp_path: Path) -> None:
    game = new_game(tmp_path, "barbarossa")
    text = pbem("orders", "template", game, "--side", "axis").output
    entry = re.search(r"GER-XXX-14Pz \(14th Panzer Corps\) must enter in the Movement Phase "
                      r"of the First Ground Segment \(14\.1\.3 A, C\).* at one of: (.+)", text)
    assert entry, comment(text)
    hexes = entry[1].split(", ")
    assert "1028" in hexes and "3428" in hexes
    suggested = suggested_orders(text)
    assert "<end-phase/>" in suggested
    for order in suggested:
        assert taken_alone(game, "axis", order), order
    # the Soviet player, whose step it is not, may only give standing instructions
    soviet = pbem("orders", "template", game, "--side", "soviet").output
    assert {o.split()[0] for o in suggested_orders(soviet)} == {"<standing"}


@pytest.mark.parametrize("body, words", [
    ('<end-phase/><enter unit="GER-XXX-14Pz" hex="1027"/>',
     "it is not on the west map edge, and Axis reinforcements enter at a friendly clear or "
     "rough hex on the west map edge. It may enter at: 1028, 1128"),
    ("<end-phase/><end-phase/>",
     "reinforcements may not be delayed (GER-XXX-14Pz may enter at 1028, 1128"),
])
def test_the_1941_entry_refusals_say_where_it_may_enter(tmp_path: Path, body: str,
                                                        words: str) -> None:
    game = new_game(tmp_path, "barbarossa")
    text = pbem("orders", "template", game, "--side", "axis").output
    out = pbem("check", game, write(tmp_path, text, body), code=2).output
    assert words in out, out
