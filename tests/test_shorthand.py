"""The order shorthand (engine/shorthand.py, docs/order-builder.md): the one grammar,
every order kind of every game that declares its kinds written and read back, every
order of the example games' files through it, and `pbem orders list` / `pbem orders
compose` end to end, their refusals naming the shorthand's line and the rule."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from adjudicator.engine.orders import Order, OrderSpec, is_list_field, orders_from_envelope
from adjudicator.engine.shorthand import Shorthand, ShorthandError, shorthand_of
from adjudicator.games import GAME_IDS, get_game
from adjudicator.security.xmlsafe import parse_untrusted
from tests.test_cli_e2e import pbem, status

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@dataclass(frozen=True)
class Attack(OrderSpec):
    KIND = "attack"
    KEYWORDS = {"with": "units"}
    hex: str = ""
    units: tuple[str, ...] = ()
    air: str = ""


@dataclass(frozen=True)
class Standing(OrderSpec):
    KIND = "standing"
    POSITIONAL = ()
    loss_priority: tuple[str, ...] = ()
    retreat: str = ""


@dataclass(frozen=True)
class EndPhase(OrderSpec):
    KIND = "end-phase"


GRAMMAR = Shorthand((Attack, Standing, EndPhase))


def grammar_of(game: str) -> Shorthand:
    """The game's shorthand, for the tests of typed order kinds."""
    grammar = shorthand_of(get_game(game).rules)
    if grammar.open:
        pytest.skip(f"{game} declares no typed order kinds yet (its shorthand is the open "
                    "form, name=value)")
    return grammar


# -- the grammar --------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "order"), [
    ("attack 2418 with GER-6 GER-17 air 1", Attack("2418", ("GER-6", "GER-17"), "1")),
    ("attack 2418 GER-6 GER-17", Attack("2418", ("GER-6", "GER-17"))),  # by position
    ("attack 2418 air 2 with GER-6", Attack("2418", ("GER-6",), "2")),  # any order
    ("attack hex=2418 units=GER-6,GER-17", Attack("2418", ("GER-6", "GER-17"))),
    ('attack 2418 units="GER-6 GER-17"', Attack("2418", ("GER-6", "GER-17"))),
    ("attack 2418 with air=3", Attack("2418", (), "3")),
    ("standing loss-priority A B retreat first", Standing(("A", "B"), "first")),
    ("standing retreat=with", Standing((), "with")),  # a value spelt like a keyword
    ("end-phase   # the air segment is over", EndPhase()),
])
def test_a_line_reads_as_its_order(line: str, order: OrderSpec) -> None:
    assert GRAMMAR.parse_line(line) == order


@pytest.mark.parametrize("order", [
    Attack("2418", ("GER-6", "GER-17"), "1"), Attack("2418"), Attack(units=("A",)),
    Attack("with", ("air",), "1"), Standing(("A", "B"), "first"), Standing(retreat="first"),
    Standing(("retreat",)), EndPhase()])
def test_an_order_is_written_as_a_line_that_reads_back(order: OrderSpec) -> None:
    line = GRAMMAR.line_of(order)
    assert GRAMMAR.parse_line(line) == order, line


def test_the_contracts_example_lines() -> None:
    assert GRAMMAR.line_of(Attack("1524", ("GER-GRP-PzGr3", "GER-XXX-1"))) == \
        "attack 1524 with GER-GRP-PzGr3 GER-XXX-1"


@pytest.mark.parametrize(("line", "words"), [
    ("atack 2418", "'atack' is not an order of this game; the orders are: attack, "
                   "standing, end-phase"),
    ("end-phase now", "end-phase: 'now' is one value too many; the order reads: end-phase"),
    ("attack 2418 air", "attack: air needs a value"),
    ("attack 2418 air with GER-6", "attack: air needs a value"),
    ("attack 2418 with A units B", "attack: units is given twice"),
    ("attack 2418 speed=3", "attack has no field 'speed'"),
    ("standing first", "standing: 'first' is one value too many"),
])
def test_a_line_that_cannot_be_read_says_where_and_why(line: str, words: str) -> None:
    with pytest.raises(ShorthandError) as caught:
        GRAMMAR.parse(f"# my turn\n\n{line}\n")
    assert caught.value.line == 3 and str(caught.value).startswith("line 3: ")
    assert words in str(caught.value)


def test_a_text_reads_as_its_orders_with_their_lines() -> None:
    text = "# turn 1\nattack 2418 with GER-6\n\n  end-phase # done\n"
    assert GRAMMAR.parse(text) == [(2, Attack("2418", ("GER-6",))), (4, EndPhase())]


def test_a_value_the_shorthand_cannot_hold_is_refused_when_written() -> None:
    with pytest.raises(ValueError, match="cannot be written"):
        GRAMMAR.line_of(Attack("24 18"))
    with pytest.raises(ValueError, match="cannot be written"):
        GRAMMAR.line_of(Attack("2418", ("with,x",)))
    with pytest.raises(ValueError, match="cannot be written"):
        GRAMMAR.line_of(Attack("24'18"))


# -- every game ---------------------------------------------------------------------------

def filled(spec: type[OrderSpec]) -> OrderSpec:
    """An order of the kind with every field given (words no game's ids spell)."""
    values: dict[str, object] = {}
    for number, f in enumerate(fields(spec)):  # type: ignore[arg-type]
        values[f.name] = (f"V{number}a", f"V{number}b") if is_list_field(f.type) \
            else f"V{number}"
    return spec(**values)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_order_kind_of_a_game_is_written_and_read_back(game: str) -> None:
    grammar = grammar_of(game)
    for spec in get_game(game).rules.order_specs:  # type: ignore[attr-defined]
        for order in (filled(spec), spec()):
            line = grammar.line_of(order)
            assert line.split()[0] == spec.KIND
            assert grammar.parse_line(line) == order, line


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_unit_or_place_is_spelt_like_a_keyword(game: str) -> None:
    """A bare word that is a keyword is read as the keyword: no id of the game's starting
    positions may be one (else its orders would need `name=value`)."""
    grammar = grammar_of(game)
    package = get_game(game)
    keywords = {w for s in grammar.syntax.values() for w in s.keywords}
    for scenario, _ in package.scenarios():
        state = package.rules.initial_state(package.bundled_module, scenario, {})
        ids = set(package.rules.positions(state)) | set(package.rules.positions(state).values())
        assert not ids & keywords, (scenario, ids & keywords)


def example_orders() -> list[tuple[str, Path, Order]]:
    found = []
    for folder in sorted(EXAMPLES.iterdir()):
        for turn in sorted((folder / "turns").glob("*.xml")):
            root = parse_untrusted(turn.read_bytes())
            found += [(str(root.get("module")), turn, o) for o in orders_from_envelope(root)]
    return found


def test_every_order_of_the_example_games_goes_through_the_shorthand() -> None:
    """Each order of every example file, written as a line and read back, is the same
    element: the same kind and attributes."""
    seen: dict[str, set[str]] = {}
    for game, turn, order in example_orders():
        grammar = shorthand_of(get_game(game).rules)
        if grammar.open:
            line = grammar.open_line(order)
        else:
            line = grammar.line_of(grammar.syntax[order.kind].spec.from_order(order))
        back = grammar.parse_line(line).to_order()
        assert (back.kind, back.attrs) == (order.kind, order.attrs), (turn, line)
        seen.setdefault(game, set()).add(order.kind)
    assert {"move", "attack", "end-turn", "answer", "place"} <= seen["solitaire"]
    assert {"move", "attack", "end-phase", "enter"} <= seen["barbarossa"]


# -- the commands -------------------------------------------------------------------------

@pytest.fixture()
def solitaire(tmp_path: Path) -> Path:
    pbem("keygen", tmp_path / "alice")
    pbem("new", "solitaire", "--scenario", "campaign", "--side",
         f"german={tmp_path / 'alice.pub'}", "--test-seed", "00" * 32, "--game-id", "sh",
         "-o", tmp_path / "g")
    return tmp_path / "g"


def listed_lines(game: Path, side: str, *extra: str) -> list[str]:
    out = pbem("orders", "list", game, "--side", side, *extra).stdout
    return [line for line in out.splitlines() if line and not line.startswith("#")]


def test_a_whole_solitaire_turn_from_the_shorthand_alone(solitaire: Path,
                                                         tmp_path: Path) -> None:
    lines = listed_lines(solitaire, "german")
    moves = [line for line in lines if line.startswith("move ")]
    assert moves and "end-turn" in lines
    unit = moves[0].split()[1]
    mine = listed_lines(solitaire, "german", "--unit", unit)
    assert mine and all(unit in line.split() for line in mine)
    text = f"# my first turn\n{moves[0]}\n\nend-turn   # the Soviets attack\n"
    (tmp_path / "turn.txt").write_text(text)
    out = tmp_path / "turn.xml"
    pbem("orders", "compose", solitaire, "--side", "german", tmp_path / "turn.txt", "-o", out)
    xml = out.read_text()
    assert "<end-turn/>" in xml and f'unit="{unit}"' in xml
    assert "OK" in pbem("check", solitaire, out).output
    pbem("sign", out, "--key", tmp_path / "alice.key")
    assert "step 1 adjudicated" in pbem("adjudicate", solitaire, out, "--no-report").output
    assert status(solitaire)["seq"] == 2


def test_compose_signs_with_a_key_and_reads_standard_input(solitaire: Path,
                                                           tmp_path: Path) -> None:
    out = tmp_path / "signed.xml"
    pbem("orders", "compose", solitaire, "--side", "german", "--key",
         tmp_path / "alice.key", "-", "-o", out, stdin="end-turn\n")
    assert "<signature" in out.read_text()
    assert "OK" in pbem("check", solitaire, out).output


def test_compose_refuses_an_illegal_order_naming_its_line_and_rule(solitaire: Path,
                                                                   tmp_path: Path) -> None:
    out = tmp_path / "t.xml"
    text = "# turn 1\nmove GER-NOBODY kiev\nend-turn\n"
    result = pbem("orders", "compose", solitaire, "--side", "german", "-", "-o", out,
                  stdin=text, code=2)
    assert "line 2: move breaks rule " in result.stderr and "GER-NOBODY" in result.stderr
    assert not out.exists()


def test_compose_refuses_an_unreadable_line_naming_it(solitaire: Path) -> None:
    result = pbem("orders", "compose", solitaire, "--side", "german", "-",
                  stdin="end-turn\nmarch GER-6 kiev\n", code=1)
    assert "line 2: 'march' is not an order of this game" in result.stderr
    result = pbem("orders", "compose", solitaire, "--side", "german", "-",
                  stdin="\n\nanswer D1 retreat GER-6 now\n", code=1)
    assert "line 3: answer: 'GER-6' is one value too many" in result.stderr


def test_compose_refuses_the_wrong_side(
        solitaire: Path, tmp_path: Path) -> None:
    assert "this game has no side" in pbem("orders", "list", solitaire, "--side", "soviet",
                                           code=1).stderr
    result = pbem("orders", "compose", solitaire, "--side", "soviet", "-", stdin="end-turn",
                  code=1)
    assert "the game waits for german, not soviet" in result.stderr


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_listed_order_of_a_new_game_composes_and_checks(game: str,
                                                              tmp_path: Path) -> None:
    """For each game: every line `pbem orders list` prints, composed alone, is an order
    file `pbem check` finds no problem in (what is listed is legal and the shorthand
    carries it whole)."""
    package = get_game(game)
    if not hasattr(package.rules, "legal_orders"):
        pytest.skip(f"the rules of {game} do not list their legal orders yet")
    sides = package.rules.sides
    for side in sides:
        pbem("keygen", tmp_path / side)
    pbem("new", game, *[a for s in sides for a in ("--side", f"{s}={tmp_path / s}.pub")],
         "--test-seed", "11" * 32, "--game-id", "lst", "-o", tmp_path / "g")
    side = status(tmp_path / "g")["waiting_for"]
    lines = listed_lines(tmp_path / "g", side)
    assert lines
    for number, line in enumerate(lines[:12]):
        out = tmp_path / f"o{number}.xml"
        pbem("orders", "compose", tmp_path / "g", "--side", side, "-", "-o", out, stdin=line)
        pbem("sign", out, "--key", tmp_path / f"{side}.key")
        assert "problem:" not in pbem("check", tmp_path / "g", out).output, line


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_order_kind_reaches_the_dry_run_through_compose(game: str,
                                                               tmp_path: Path) -> None:
    """Each order kind of the game, one line through `pbem orders compose`: written, or
    refused by the rules with the line, the kind and the rule (exit status 2); never a
    line the shorthand itself cannot read."""
    package = get_game(game)
    grammar = grammar_of(game)
    sides = package.rules.sides
    for side in sides:
        pbem("keygen", tmp_path / side)
    pbem("new", game, *[a for s in sides for a in ("--side", f"{s}={tmp_path / s}.pub")],
         "--test-seed", "22" * 32, "--game-id", "kinds", "-o", tmp_path / "g")
    side = status(tmp_path / "g")["waiting_for"]
    for spec in package.rules.order_specs:  # type: ignore[attr-defined]
        line = grammar.line_of(filled(spec))
        result = pbem("orders", "compose", tmp_path / "g", "--side", side, "-", stdin=line,
                      code=None)
        assert result.exit_code in (0, 2), (line, result.output)
        if result.exit_code == 0:
            assert f"<{spec.KIND}" in result.stdout
        else:
            assert f"line 1: {spec.KIND}" in result.stderr and "rule" in result.stderr, line


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_shorthand_tables_of_the_order_docs_say_what_the_kit_does(game: str) -> None:
    """Each row of docs/GAME-orders.md's shorthand table: the line reads as the XML the
    row shows, and every order kind of the game has a row."""
    import re

    grammar = shorthand_of(get_game(game).rules)
    doc = (EXAMPLES.parent / "docs" / f"{game}-orders.md").read_text("utf-8")
    section = doc.split("## Shorthand", 1)[1]
    rows = re.findall(r"^\| `([^`]+)` \| `(<[^`]+/>)`", section, flags=re.M)
    assert rows
    for line, xml in rows:
        assert grammar.parse_line(line).to_xml() == xml, line
    if not grammar.open:
        assert {line.split()[0] for line, _ in rows} == set(grammar.kinds)


def test_a_1941_unit_lists_every_hex_it_may_reach(tmp_path: Path) -> None:
    """1941's whole listing offers a sample of units and hexes; `--unit` gives every hex
    the unit may reach (5.0), each line composing into a file `pbem check` takes."""
    if "barbarossa" not in GAME_IDS:
        pytest.skip("1941 is not installed")
    for side in ("axis", "soviet"):
        pbem("keygen", tmp_path / side)
    game = tmp_path / "g"
    pbem("new", "barbarossa", "--side", f"axis={tmp_path / 'axis.pub'}", "--side",
         f"soviet={tmp_path / 'soviet.pub'}", "--test-seed", "33" * 32, "-o", game)
    pbem("orders", "compose", game, "--side", "axis", "-", "-o", tmp_path / "air.xml",
         "--key", tmp_path / "axis.key", stdin="end-phase  # the Air Segment\n")
    pbem("adjudicate", game, tmp_path / "air.xml", "--no-report")
    sampled = {line.split()[1] for line in listed_lines(game, "axis")
               if line.startswith("move ")}
    unit = "GER-XXX-46Pz"
    assert unit not in sampled
    moves = [line for line in listed_lines(game, "axis", "--unit", unit)
             if line.startswith("move ")]
    assert len(moves) > 10 and all(line.split()[1] == unit for line in moves)
    out = tmp_path / "move.xml"
    pbem("orders", "compose", game, "--side", "axis", "-", "-o", out, stdin=moves[-1])
    assert "OK" in pbem("check", game, out).output


def test_the_open_form_of_a_game_without_typed_orders() -> None:
    grammar = Shorthand(())
    assert grammar.open
    line = 'move units="GER-XX-12 GER-XX-251" path=1510  # on'
    order = grammar.parse_line(line).to_order()
    assert (order.kind, order.attrs) == ("move", {"units": "GER-XX-12 GER-XX-251",
                                                  "path": "1510"})
    assert grammar.open_line(order) == 'move units="GER-XX-12 GER-XX-251" path=1510'
    for bad, words in (("move units", "'units' is not name=value"),
                       ('move path="1510', "a double quote is not closed"),
                       ("move a=1 a=2", "a is given twice"), ("<move", "not the name")):
        with pytest.raises(ShorthandError, match=words):
            grammar.parse(f"\n{bad}")


def test_a_moscow_set_up_from_the_shorthand_alone(tmp_path: Path) -> None:
    """Moscow '41's draw and both set-ups, every field given as `name=value` (which the
    typed shorthand reads too), composed, signed and adjudicated (1.3.1, 1.3.2)."""
    if "moscow" not in GAME_IDS:
        pytest.skip("Moscow '41 is not installed")
    from adjudicator.games.moscow.data import Game as MoscowGame
    from adjudicator.referee.gamedir import load_game
    from tests.test_moscow_rules import german_placements, soviet_placements

    for side in ("german", "soviet"):
        pbem("keygen", tmp_path / side)
    game = tmp_path / "g"
    pbem("new", "moscow", "--side", f"german={tmp_path / 'german.pub'}", "--side",
         f"soviet={tmp_path / 'soviet.pub'}", "--test-seed", "44" * 32, "-o", game)
    moscow = MoscowGame.of(get_game("moscow").bundled_module)

    def play(side: str, text: str) -> None:
        out = tmp_path / f"{side}-{status(game)['seq']}.xml"
        pbem("orders", "compose", game, "--side", side, "--key", tmp_path / f"{side}.key",
             "-", "-o", out, stdin=text)
        assert "adjudicated" in pbem("adjudicate", game, out, "--no-report").output

    def lines(orders: list[tuple[str, dict[str, str]]]) -> str:
        return "\n".join(" ".join([kind, *(f'{k}="{v}"' for k, v in attrs.items())])
                         for kind, attrs in orders) + "\nend-phase\n"

    play("soviet", "draw  # the cup\n")
    play("soviet", lines(soviet_placements(moscow, load_game(game).state)))
    play("german", lines(german_placements(moscow, load_game(game).state)))
    assert status(game)["waiting_for"] == "german"
    refused = pbem("orders", "compose", game, "--side", "german", "-", code=2,
                   stdin="# turn 1\n\nplace unit=GER-XX-12 hex=1605\n")
    assert "line 3: place breaks rule" in refused.stderr


def test_a_whole_1941_axis_turn_from_the_shorthand_alone(tmp_path: Path) -> None:
    """The Axis player turn of 1941's Turn 1 (2.0): each step's file made of lines that
    `pbem orders list` printed (an entry for each reinforcement, 14.1; a move; an attack;
    the answer to a decision), composed and signed by `pbem orders compose --key`, until
    the game waits for the Soviet player."""
    if "barbarossa" not in GAME_IDS:
        pytest.skip("1941 is not installed")
    for side in ("axis", "soviet"):
        pbem("keygen", tmp_path / side)
    game = tmp_path / "g"
    pbem("new", "barbarossa", "--side", f"axis={tmp_path / 'axis.pub'}", "--side",
         f"soviet={tmp_path / 'soviet.pub'}", "--test-seed", "55" * 32, "-o", game)
    played: set[str] = set()
    for _ in range(20):
        if status(game)["waiting_for"] != "axis":
            break
        lines = listed_lines(game, "axis")
        answers = [line for line in lines if line.startswith("answer ")]
        if answers:  # a decision waits (17.1.4: the German retreats the Soviet units)
            played.add("answer")
            out = tmp_path / f"step-{status(game)['seq']}.xml"
            pbem("orders", "compose", game, "--side", "axis", "--key",
                 tmp_path / "axis.key", "-", "-o", out, stdin=answers[0])
            pbem("adjudicate", game, out, "--no-report")
            continue
        entering: dict[str, str] = {}
        for line in lines:
            if line.startswith("enter "):
                entering.setdefault(line.split()[1], line)
        chosen = list(entering.values())
        chosen += [next(line for line in lines if line.startswith(kind))
                   for kind in ("move ", "attack ") if any(x.startswith(kind) for x in lines)]
        played |= {line.split()[0] for line in chosen}
        out = tmp_path / f"step-{status(game)['seq']}.xml"
        pbem("orders", "compose", game, "--side", "axis", "--key", tmp_path / "axis.key",
             "-", "-o", out, stdin="\n".join([*chosen, "end-phase"]) + "\n")
        result = pbem("adjudicate", game, out, "--no-report", code=None)
        assert result.exit_code == 0, result.output
    assert status(game)["waiting_for"] == "soviet"
    assert {"enter", "move", "attack"} <= played
    assert "OK" in pbem("verify", game).output
