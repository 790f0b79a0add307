"""Untrusted input never crashes the referee (docs/protocol.md §2, §12).

Random bytes, random XML (sometimes properly signed, so it reaches the schema, the
addressing checks and the rules), byte and element mutations of a valid signed
order file, random position files and mutated module data are fed to the
referee's entry points. Whatever comes in:

- nothing raises except `adjudicator.errors.PbemError` subclasses;
- the game directory still verifies (`verify(dir).ok`), with one journal line per
  adjudicated or refused file;
- `submissions/` holds every file's exact bytes;
- a refused file never advances `seq`, and a mutation of a signed file is only
  adjudicated if what the signature covers is unchanged;
- `check_draft` changes nothing in the game directory;
- the referee's unrevealed seeds never appear in the journal.

Each property is a plain function of one generated value, listed in PROPERTIES,
so tools/fuzz.py can run it with a much larger example count.
"""

from __future__ import annotations

import atexit
import copy
import hashlib
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from adjudicator.engine.dice import DiceStream
from adjudicator.engine.orders import Order
from adjudicator.engine.step import run_step
from adjudicator.errors import InvalidInput, PbemError, SignatureError
from adjudicator.games import get_game
from adjudicator.referee.check import check_draft
from adjudicator.referee.gamedir import GameDir, load_game, parse_position
from adjudicator.referee.referee import adjudicate, create_game
from adjudicator.referee.submission import open_submission
from adjudicator.referee.verify import verify
from adjudicator.security.keys import public_key_pem
from adjudicator.security.signing import ORDERS_NS, sign_orders, signed_bytes
from adjudicator.security.xmlsafe import MAX_ORDER_BYTES, parse_untrusted

PACKAGE = get_game("solitaire")
RULES = PACKAGE.rules
MODULE = PACKAGE.bundled_module
PIECES = sorted(p.get("id") for p in MODULE.findall("m:pieces/m:piece"))
AREAS = sorted(MODULE.area_board().areas)
TURNS = [t.get("id") for t in MODULE.findall("m:turns/m:turn")]
SCENARIOS = [s for s, _ in PACKAGE.scenarios()]

KEY = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"untrusted: player").digest())
MALLORY = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"untrusted: mallory").digest())
TEST_SEED = hashlib.sha256(b"untrusted: test seed").digest()
GAME_ID = "fuzz-game"
ENTROPY = bytes(range(32))
VALID_BODY = ('  <move unit="GER-9" to="konigsberg"/>\n'
              '  <attack target="kurland" units="GER-16" lose="GER-16"/>\n'
              "  <end-turn/>\n")

SETTINGS = settings(deadline=None, print_blob=True, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])


# -- a template game, copied for every example --------------------------------------


_TEMPLATE: dict[str, Any] = {}


def template() -> dict[str, Any]:
    """A game created once per process (test seed: its seeds and commitments are fixed)."""
    if not _TEMPLATE:
        root = Path(tempfile.mkdtemp(prefix="pbem-untrusted-"))
        atexit.register(shutil.rmtree, root, True)
        game = create_game(root / "game", "solitaire", "campaign",
                           {"german": public_key_pem(KEY.public_key())},
                           test_seed=TEST_SEED, game_id=GAME_ID)
        _TEMPLATE.update(root=root, dir=root / "game", game=game,
                         prev=game.state_hash, commit=game.current_commit)
        _TEMPLATE["valid"] = order_file(VALID_BODY)
        _TEMPLATE["payload"] = signed_bytes(parse_untrusted(_TEMPLATE["valid"]))
        _TEMPLATE["secret"] = GameDir(root / "game").read_secrets()["seeds"]["1"]
    return _TEMPLATE


def unsigned_file(body: str, **override: str) -> bytes:
    """An order file for step 1 of the template game, as `pbem orders template` writes it."""
    t = template()
    attrs = {"game": GAME_ID, "module": "solitaire", "side": "german", "seq": "1",
             "prev": t["prev"], "commit": t["commit"], **override}
    text = " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items())
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<orders xmlns="{ORDERS_NS}" {text}>\n'
            f"  <entropy></entropy>\n{body}</orders>\n").encode()


def order_file(body: str, key: Ed25519PrivateKey = KEY, entropy: bytes = ENTROPY,
               **override: str) -> bytes:
    return sign_orders(parse_untrusted(unsigned_file(body, **override)), key, entropy=entropy)


def valid() -> bytes:
    return bytes(template()["valid"])


@contextmanager
def fresh_game() -> Iterator[Path]:
    """A private copy of the template game directory."""
    t = template()
    with tempfile.TemporaryDirectory(prefix="pbem-example-") as tmp:
        target = Path(tmp) / "game"
        shutil.copytree(t["dir"], target)
        yield target


def journal_lines(directory: Path) -> list[bytes]:
    return GameDir(directory).journal.read_bytes().splitlines()


def archived(directory: Path) -> Counter[bytes]:
    folder = GameDir(directory).submissions
    if not folder.exists():
        return Counter()
    return Counter(path.read_bytes() for path in folder.iterdir())


# -- the properties ---------------------------------------------------------------------


def submit_all(raws: list[bytes], payloads: set[bytes] | None = None) -> None:
    """Adjudicate each file in turn on a fresh game and check everything after each.

    `payloads`: when given, the only signed contents that may be adjudicated (the
    files are mutations of files signed with these contents).
    """
    with fresh_game() as directory:
        sent: list[bytes] = []
        steps = refused = 0
        for raw in raws:
            before = load_game(directory)
            lines_before = journal_lines(directory)
            try:
                result = adjudicate(directory, raw)
            except PbemError:
                result = None
            sent.append(raw)
            after = load_game(directory)
            lines_after = journal_lines(directory)
            assert archived(directory) == Counter(sent), "submissions/ lost or changed a file"
            if result is None:
                assert lines_after == lines_before
            else:
                assert lines_after[:-1] == lines_before
                assert len(lines_after) == len(lines_before) + 1
            if result is None or result.kind == "refused":
                refused += result is not None
                assert after.next_seq == before.next_seq, "a refused file advanced seq"
                assert after.state_hash == before.state_hash
                assert after.current_commit == before.current_commit
            else:
                steps += 1
                assert after.next_seq == before.next_seq + 1
                if payloads is not None:
                    assert signed_bytes(parse_untrusted(raw)) in payloads, \
                        "a changed file was adjudicated"
            report = verify(directory)
            assert report.ok, report.divergence
            assert (report.steps, report.refused) == (steps, refused)
            secrets = GameDir(directory).read_secrets()["seeds"]
            journal = GameDir(directory).journal.read_bytes()
            unrevealed = secrets[str(after.next_seq)]
            assert unrevealed.encode() not in journal, "an unrevealed seed is in the journal"


def adjudicate_then_valid(raws: list[bytes]) -> None:
    """Whatever was refused before, the valid file is still adjudicated as step 1."""
    t = template()
    submit_all([*raws, valid()], {t["payload"]})


def adjudicate_mutation(raws: list[bytes]) -> None:
    submit_all(raws, {template()["payload"]})


def check_draft_changes_nothing(raw: bytes) -> None:
    with fresh_game() as directory:
        journal = GameDir(directory).journal.read_bytes()
        secrets = GameDir(directory).secrets_file.read_bytes()
        try:
            report = check_draft(directory, raw)
        except PbemError:
            report = None
        assert GameDir(directory).journal.read_bytes() == journal
        assert GameDir(directory).secrets_file.read_bytes() == secrets
        assert not GameDir(directory).submissions.exists()
        if report is not None:
            assert report.checked <= report.orders
            assert all(isinstance(p, str) and p for p in report.problems)


def open_submission_never_crashes(raw: bytes) -> None:
    game = load_game(template()["dir"])
    try:
        submission = open_submission(game, raw)
    except PbemError:
        return
    assert game.side_of_fingerprint(submission.fingerprint) == submission.envelope.side
    assert [o.index for o in submission.orders] == list(range(len(submission.orders)))


def position_never_crashes(doc_and_options: tuple[bytes, dict[str, str]]) -> None:
    """A position file is parsed and turned into a state, or refused with a PbemError;
    the state it gives can be played (an end-turn with dice) without a crash."""
    doc, options = doc_and_options
    try:
        root = parse_position(doc, "solitaire")
        state = RULES.position_state(MODULE, root, options)
    except PbemError:
        return
    units = list(state["units"])
    queue = [q["unit"] for q in state["queue"]]
    places = units + queue + list(state["out"])
    assert len(places) == len(set(places)), "a position put a unit in two places"
    assert set(places) <= set(PIECES)
    assert set(state["units"].values()) <= set(AREAS)
    assert set(state["control"]) == set(AREAS)
    for seq, orders in enumerate(([Order("end-turn")], [Order("end-turn")]), start=1):
        if RULES.acting_side(state) is None or state.get("pending"):
            break
        result = run_step(RULES, MODULE, state, orders, "german",
                          DiceStream(hashlib.sha256(doc).digest(), "pos", seq, bytes(16)))
        state = result.state


MODULE_TREE = etree.fromstring(MODULE.raw)
MODULE_OPS = ("delete", "duplicate", "set-attr", "set-attr", "del-attr")
MODULE_VALUES = ["-1", "0", "1", "2", "3", "6", "7", "99", "1941", "1946", "x", "", *PIECES,
                 *AREAS, *TURNS]


def mutable_elements(root: etree._Element) -> list[etree._Element]:
    """The module's elements a mutation may touch: all but the map's drawing."""
    return [el for el in root.iter() if isinstance(el.tag, str)
            and etree.QName(el).localname not in ("shape", "credits", "module")]


MUTABLE = mutable_elements(MODULE_TREE)


def mutated_module(ops: list[tuple[int, str, int, int]]) -> bytes:
    """The bundled module with `ops` applied: (element, operation, attribute, value),
    each an index into the element list, MODULE_OPS, the sorted attributes, MODULE_VALUES."""
    root = copy.deepcopy(MODULE_TREE)
    elements = mutable_elements(root)
    for index, op, attr, value in ops:
        el = elements[index % len(elements)]
        parent = el.getparent()
        names = sorted(el.attrib)
        if op == "delete" and parent is not None:
            parent.remove(el)
        elif op == "duplicate" and parent is not None:
            parent.insert(parent.index(el), copy.deepcopy(el))
        elif op == "set-attr" and names:
            el.set(names[attr % len(names)], MODULE_VALUES[value % len(MODULE_VALUES)])
        elif op == "del-attr" and names:
            del el.attrib[names[attr % len(names)]]
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def module_never_crashes(ops: list[tuple[int, str, int, int]]) -> None:
    """Mutated module data loads or raises ModuleError; a loaded module starts every
    scenario or raises a PbemError."""
    try:
        module = PACKAGE.load_module(mutated_module(ops))
    except PbemError:
        return
    for scenario in SCENARIOS:
        try:
            RULES.initial_state(module, scenario, {})
        except PbemError:
            continue


# -- strategies -------------------------------------------------------------------------

ID = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,12}", fullmatch=True)
XML_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=24)
JUNK = st.one_of(XML_TEXT, ID, st.sampled_from(["", " ", "-1", "0", "99999999999999999999",
                                                "GER-6 GER-6", "D1", "retreat:berlin"]))
UNIT = st.one_of(st.sampled_from(PIECES), ID)
AREA = st.one_of(st.sampled_from(AREAS), ID)
UNITS = st.lists(UNIT, min_size=0, max_size=5).map(" ".join)
ORDER_ATTRS: dict[str, st.SearchStrategy[str]] = {
    "unit": UNIT, "to": AREA, "area": AREA, "target": AREA, "units": UNITS, "lose": UNIT,
    "decision": st.sampled_from(["D1", "D2", "D0", "X"]),
    "choice": st.one_of(st.builds("retreat:{}".format, AREA),
                        st.builds("eliminate:{}".format, UNIT)),
    "loss-priority": UNITS, "retreat-priority": st.lists(AREA, max_size=5).map(" ".join),
    "on-retreat-or-eliminate": st.sampled_from(["retreat", "eliminate", "flee"]),
}
ORDER_KINDS = ["place", "move", "garrison", "attack", "reinforce", "end-turn", "standing",
               "answer", "entropy", "signature", "orders", "fly"]


#: the orders of the schema: required and optional attributes
ORDER_SHAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "place": (("unit", "area"), ()), "move": (("unit", "to"), ()), "garrison": (("area",), ()),
    "attack": (("target", "units"), ("lose",)), "reinforce": (("unit", "area"), ()),
    "end-turn": ((), ()), "answer": (("decision", "choice"), ()),
    "standing": ((), ("loss-priority", "on-retreat-or-eliminate", "retreat-priority")),
}


@st.composite
def order_elements(draw: st.DrawFn) -> str:
    """Mostly orders the schema accepts (with real or made-up ids), sometimes junk."""
    if draw(st.integers(0, 5)) < 5:
        kind = draw(st.sampled_from(sorted(ORDER_SHAPES)))
        required, optional = ORDER_SHAPES[kind]
        names = [*required, *(n for n in optional if draw(st.booleans()))]
        attrs = "".join(f" {n}={quoteattr(draw(ORDER_ATTRS[n]))}" for n in names)
        return f"  <{kind}{attrs}/>\n"
    kind = draw(st.sampled_from(ORDER_KINDS))
    names = draw(st.lists(st.sampled_from(sorted(ORDER_ATTRS)), max_size=4, unique=True))
    attrs = "".join(f" {n}={quoteattr(draw(st.one_of(ORDER_ATTRS[n], JUNK)))}" for n in names)
    if draw(st.booleans()):
        return f"  <{kind}{attrs}/>\n"
    return f"  <{kind}{attrs}>{escape(draw(XML_TEXT))}</{kind}>\n"


@st.composite
def xml_documents(draw: st.DrawFn) -> bytes:
    """Order-file-like documents: sometimes addressed right and signed with the
    player's key (so they reach the schema, the addressing and the rules)."""
    t = template()
    good = {"game": GAME_ID, "module": "solitaire", "side": "german", "seq": "1",
            "prev": t["prev"], "commit": t["commit"]}
    attrs = []
    broken = draw(st.integers(0, 3)) == 3  # else a well-addressed <orders>
    for name, value in good.items():
        how = draw(st.sampled_from(["good"] * 3 + ["missing", "junk"])) if broken else "good"
        if how != "missing":
            attrs.append(f"{name}={quoteattr(value if how == 'good' else draw(JUNK))}")
    ns = draw(st.sampled_from([ORDERS_NS] * 4 + ["", "urn:pbem:orders:2"])) if broken \
        else ORDERS_NS
    root = draw(st.sampled_from(["orders"] * 4 + ["position", "html"])) if broken \
        else "orders"
    xmlns = f' xmlns="{ns}"' if ns else ""
    entropy = draw(st.sampled_from(["good", "good", "none", "odd", "twice", "empty"]))
    body = {"good": "  <entropy></entropy>\n", "none": "",
            "odd": "  <entropy>abc</entropy>\n", "empty": "  <entropy/>\n",
            "twice": "  <entropy></entropy>\n  <entropy></entropy>\n"}[entropy]
    body += "".join(draw(st.lists(order_elements(), max_size=5)))
    if draw(st.integers(0, 9)) == 0:
        body += f"  <!--{escape(draw(XML_TEXT)).replace('--', '')}-->\n"
    doc = f'<{root}{xmlns} {" ".join(attrs)}>\n{body}</{root}>\n'.encode()
    if draw(st.integers(0, 3)) < 3 and root == "orders" and ns == ORDERS_NS:
        key = draw(st.sampled_from([KEY, KEY, KEY, MALLORY]))
        entropy_bytes = draw(st.binary(min_size=16, max_size=64))
        with suppress(PbemError):
            doc = sign_orders(parse_untrusted(doc), key, entropy=entropy_bytes)
    return doc


@st.composite
def byte_mutations(draw: st.DrawFn, base: Callable[[], bytes] = valid) -> bytes:
    data = bytearray(base())
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "replace", "truncate",
                                   "duplicate", "crlf", "bom", "nul"]))
        at = draw(st.integers(0, len(data)))
        if op == "flip" and at < len(data):
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 16))]
        elif op == "replace" and at < len(data):
            data[at] = draw(st.sampled_from(b" \t\r\n<>&\"'=/x0\xff\x00"))
        elif op == "truncate":
            del data[at:]
        elif op == "duplicate":
            end = draw(st.integers(at, min(len(data), at + 64)))
            data[end:end] = data[at:end]
        elif op == "crlf":
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
        elif op == "bom":
            data[0:0] = b"\xef\xbb\xbf"
        elif op == "nul":
            data[at:at] = b"\x00"
    return bytes(data)


@st.composite
def element_mutations(draw: st.DrawFn) -> bytes:
    """Structural edits of the valid signed file, not re-signed."""
    root = etree.fromstring(valid())
    for _ in range(draw(st.integers(1, 3))):
        elements = [el for el in root.iter() if isinstance(el.tag, str)]
        el = draw(st.sampled_from(elements))
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "set-attr", "del-attr",
                                   "text", "rename", "comment", "pi", "move-last",
                                   "namespace", "tail"]))
        parent = el.getparent()
        with suppress(ValueError):  # a string lxml refuses to hold (control characters)
            mutate_element(draw, el, parent, op)
    try:
        return etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    except ValueError:
        return valid()


def mutate_element(draw: st.DrawFn, el: etree._Element, parent: etree._Element | None,
               op: str) -> None:
    if op == "delete" and parent is not None:
        parent.remove(el)
    elif op == "duplicate" and parent is not None:
        parent.insert(parent.index(el), copy.deepcopy(el))
    elif op == "swap" and parent is not None and len(parent) > 1:
        other = draw(st.sampled_from(list(parent)))
        i, j = parent.index(el), parent.index(other)
        if i != j:
            parent.insert(j, copy.deepcopy(el))
            parent.insert(i, copy.deepcopy(other))
            parent.remove(el)
            parent.remove(other)
    elif op == "set-attr":
        name = draw(st.sampled_from([*el.attrib.keys(), "key", "alg", "seq", "units"]))
        el.set(name, draw(st.one_of(JUNK, ID, AREA, UNIT)))
    elif op == "del-attr" and el.attrib:
        del el.attrib[draw(st.sampled_from(sorted(el.attrib)))]
    elif op == "text":
        el.text = draw(XML_TEXT)
    elif op == "rename":
        el.tag = f"{{{ORDERS_NS}}}{draw(st.sampled_from(ORDER_KINDS))}"
    elif op == "comment":
        if parent is not None:
            el.addprevious(etree.Comment("x"))
        else:
            el.insert(0, etree.Comment("x"))
    elif op == "pi":
        el.insert(0, etree.ProcessingInstruction("pi", "x"))
    elif op == "move-last" and parent is not None:
        parent.append(el)
    elif op == "namespace":
        el.tag = f"{{urn:other}}{etree.QName(el).localname}"
    elif op == "tail":
        el.tail = draw(st.sampled_from(["", " ", "\n\n", "x", "\t"]))


@st.composite
def position_documents(draw: st.DrawFn) -> tuple[bytes, dict[str, str]]:
    """Position files: mostly schema-valid with real ids (so that they reach
    position_state and the rules), sometimes with missing or made-up values."""
    broken = draw(st.integers(0, 3)) == 3

    def attr(name: str, values: st.SearchStrategy[str],
             junk: st.SearchStrategy[str] = JUNK) -> str:
        how = draw(st.sampled_from(["good"] * 8 + ["missing", "junk"])) if broken else "good"
        if how == "missing":
            return ""
        return f" {name}={quoteattr(draw(values) if how == 'good' else draw(junk))}"

    unit, area = st.sampled_from(PIECES), st.sampled_from(AREAS)
    if broken:
        unit, area = st.one_of(unit, ID), st.one_of(area, ID)
    phases = ["movement", "attack", "reinforcement"]
    head = (attr("game", st.just("solitaire")) + attr("scenario", st.sampled_from(SCENARIOS))
            + attr("turn", st.sampled_from(TURNS))
            + attr("phase", st.sampled_from(phases + ["setup", "game-over"] if broken
                                            else phases)))
    kinds = ["unit", "unit", "unit", "marker", "control", "pool", "value"]
    parts = []
    for _ in range(draw(st.integers(0, 16))):
        kind = draw(st.sampled_from(kinds + ["other"] if broken else kinds))
        if kind == "unit":
            parts.append(f"<unit{attr('id', unit)}{attr('at', area)}/>")
        elif kind == "marker":
            kinds_of_marker = ["garrison", "flag"] if broken else ["garrison"]
            parts.append(f"<marker{attr('kind', st.sampled_from(kinds_of_marker))}"
                         f"{attr('at', area)}/>")
        elif kind == "control":
            parts.append(f"<control{attr('area', area)}"
                         f"{attr('side', st.sampled_from(['german', 'soviet']))}/>")
        elif kind == "pool":
            units = "".join(f"<unit{attr('id', unit)}{attr('due', st.sampled_from(TURNS))}/>"
                            for _ in range(draw(st.integers(0, 3))))
            name = attr("name", st.sampled_from(["reinforcements", "out"]))
            parts.append(f"<pool{name}>{units}</pool>")
        elif kind == "value":
            parts.append(f"<value{attr('name', st.just('retreat-year'))}"
                         f"{attr('value', st.sampled_from(['1941', '1942', '1943']))}/>")
        else:
            tag = draw(st.sampled_from(["unit", "zone", "pool"]))
            parts.append(f"<{tag}>{escape(draw(XML_TEXT))}</{tag}>")
    doc = f'<position xmlns="urn:pbem:position:1"{head}>{"".join(parts)}</position>'
    options = draw(st.fixed_dictionaries({}, optional={
        "soviet": st.sampled_from(["hard", "random", "x"] if broken else ["hard", "random"]),
        "hitlers-orders": st.sampled_from(["yes", "no"]),
        "mandatory-garrison": st.sampled_from(["yes", "no"]),
        "free-placement": st.sampled_from(["yes", "no"])}))
    return doc.encode("utf-8", "surrogatepass"), options


module_mutations = st.lists(st.tuples(st.integers(0, len(MUTABLE) - 1),
                                       st.sampled_from(MODULE_OPS), st.integers(0, 20),
                                       st.integers(0, len(MODULE_VALUES) - 1)),
                             min_size=1, max_size=3)


files = st.lists(st.one_of(st.binary(max_size=300), xml_documents(), byte_mutations(),
                           element_mutations()), min_size=1, max_size=3)
any_file = st.one_of(st.binary(max_size=600), xml_documents(), byte_mutations(),
                     element_mutations())

#: name -> (strategy, property, examples in the normal test run)
PROPERTIES: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], None], int]] = {
    "adjudicate-random-bytes": (st.lists(st.binary(max_size=600), min_size=1, max_size=2),
                                adjudicate_then_valid, 40),
    "adjudicate-random-xml": (st.lists(xml_documents(), min_size=1, max_size=3),
                              lambda raws: submit_all(raws), 120),
    "adjudicate-byte-mutations": (st.lists(byte_mutations(), min_size=1, max_size=2),
                                  adjudicate_mutation, 120),
    "adjudicate-element-mutations": (st.lists(element_mutations(), min_size=1, max_size=2),
                                     adjudicate_mutation, 120),
    "adjudicate-mixed-then-valid": (files, lambda raws: submit_all([*raws, valid()]), 40),
    "check-draft": (any_file, check_draft_changes_nothing, 120),
    "open-submission": (any_file, open_submission_never_crashes, 150),
    "position": (position_documents(), position_never_crashes, 250),
    "module": (module_mutations, module_never_crashes, 60),
}


def run_property(name: str, examples: int | None = None, **overrides: Any) -> None:
    strategy, prop, default = PROPERTIES[name]
    test = settings(SETTINGS, max_examples=examples or default, **overrides)(given(strategy)(prop))
    test()


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_untrusted_input_never_crashes(name: str) -> None:
    run_property(name)


# -- the named nasties ---------------------------------------------------------------------


def refused(raw: bytes) -> str:
    """Submit `raw` to a fresh game: it must be refused, and all the properties hold.
    Returns the refusal's code."""
    with fresh_game() as directory:
        result = adjudicate(directory, raw)
        assert result.kind == "refused", result.entry
        assert load_game(directory).next_seq == 1
        assert archived(directory) == Counter([raw])
        assert verify(directory).ok
        with pytest.raises(PbemError):
            open_submission(load_game(directory), raw)
        assert check_draft(directory, raw).problems
        assert result.error is not None
        return result.error.code


def test_the_valid_file_is_adjudicated_and_verifies() -> None:
    with fresh_game() as directory:
        result = adjudicate(directory, valid())
        assert result.kind == "step" and result.result is not None
        assert result.result.rejection is None
        assert load_game(directory).next_seq == 2
        assert verify(directory).ok
        again = adjudicate(directory, valid())  # a replayed file is stale
        assert again.kind == "refused" and again.error is not None
        assert again.error.code == "stale-seq"
        assert verify(directory).ok
        assert archived(directory) == Counter([valid(), valid()])


def test_an_oversize_file_is_refused_before_parsing() -> None:
    raw = valid()
    padded = raw.replace(b"<end-turn/>", b"<end-turn/>" + b" " * (MAX_ORDER_BYTES + 1))
    assert refused(padded) == "invalid-input"
    assert refused(b"<" * (MAX_ORDER_BYTES + 1)) == "invalid-input"
    assert refused(b" " * (10 * MAX_ORDER_BYTES)) == "invalid-input"


def test_a_file_just_under_the_limit_is_read() -> None:
    raw = valid()
    room = MAX_ORDER_BYTES - len(raw)
    assert room > 0
    comment = b"<!--" + b"x" * (room - 8) + b"-->\n"
    padded = comment + raw[raw.index(b"<orders"):]  # no declaration: the comment is first
    assert len(padded) <= MAX_ORDER_BYTES
    with fresh_game() as directory:
        result = adjudicate(directory, padded)
        assert result.kind == "step"  # the comment is outside <orders>: still signed right
        assert verify(directory).ok


@pytest.mark.parametrize("depth", [255, 300, 5000, 100_000])
def test_deeply_nested_xml_is_refused(depth: int) -> None:
    nested = b"<orders>" + b"<a>" * depth + b"</a>" * depth + b"</orders>"
    refused(nested)
    inside = valid().replace(b"<end-turn/>", b"<x>" * depth + b"</x>" * depth)
    refused(inside)


@pytest.mark.parametrize("bomb", [
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 '
    b'"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
    b"<orders>&lol3;</orders>",
    b'<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><orders>&xxe;</orders>',
    b'<!DOCTYPE x SYSTEM "http://example.invalid/x.dtd"><orders/>',
    b'<!DOCTYPE x [<!ENTITY % p SYSTEM "http://example.invalid/p"> %p;]><orders/>',
    b"<orders>&lol;</orders>",
    b'<?xml version="1.0"?>\n<!doctype orders><orders/>',
    b'<orders xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="/etc/passwd"/>'
    b"</orders>",
])
def test_entity_bombs_and_external_references_are_refused(bomb: bytes) -> None:
    refused(bomb)


def test_an_entity_bomb_inside_a_valid_file_is_refused() -> None:
    raw = valid()
    decl_end = raw.index(b"?>") + 2
    bomb = raw[:decl_end] + b'\n<!DOCTYPE orders [<!ENTITY a "aaaaaaaaaa">]>' + raw[decl_end:]
    assert refused(bomb) == "invalid-input"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_files_are_refused(encoding: str) -> None:
    text = valid().decode("utf-8")
    refused(text.encode(encoding))
    refused(text.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode(encoding))
    refused(text.replace('encoding="UTF-8"', f'encoding="{encoding.upper()}"').encode())


@pytest.mark.parametrize("where", ["start", "middle", "end", "attribute", "entropy"])
def test_nul_bytes_are_refused(where: str) -> None:
    raw = valid()
    mutated = {
        "start": b"\x00" + raw,
        "middle": raw[: len(raw) // 2] + b"\x00" + raw[len(raw) // 2:],
        "end": raw + b"\x00",
        "attribute": raw.replace(b'unit="GER-9"', b'unit="GER\x00-9"'),
        "entropy": raw.replace(b"<entropy>", b"<entropy>\x00"),
    }[where]
    assert mutated != raw
    refused(mutated)


def test_a_second_signature_is_refused() -> None:
    raw = valid()
    sig_start = raw.index(b"<signature")
    sig = raw[sig_start: raw.index(b"</signature>") + len(b"</signature>")]
    assert refused(raw.replace(sig, sig + b"\n  " + sig)) == SignatureError.code
    assert refused(raw[:sig_start] + sig + b"\n  " + raw[sig_start:]) == SignatureError.code
    other = order_file(VALID_BODY, key=MALLORY)
    mallory_sig = other[other.index(b"<signature"): other.index(b"</signature>") + 12]
    assert refused(raw.replace(sig, sig + b"\n  " + mallory_sig)) == SignatureError.code
    assert refused(raw.replace(sig, mallory_sig + b"\n  " + sig)) == SignatureError.code


def test_a_signature_of_another_player_is_refused() -> None:
    assert refused(order_file(VALID_BODY, key=MALLORY)) == "unknown-key"


LONG = "x" * 100_000


@pytest.mark.parametrize("where", ["game", "side", "seq", "prev", "entropy", "signature-key",
                                   "unknown-attribute"])
def test_attributes_of_a_hundred_thousand_characters_in_the_envelope(where: str) -> None:
    raw = valid()
    mutated = {
        "game": raw.replace(f'game="{GAME_ID}"'.encode(), f'game="{LONG}"'.encode()),
        "side": raw.replace(b'side="german"', f'side="{LONG}"'.encode()),
        "seq": raw.replace(b'seq="1"', b'seq="' + b"1" * 100_000 + b'"'),
        "prev": raw.replace(b'prev="', b'prev="' + b"a" * 100_000),
        "entropy": raw.replace(b"<entropy>", b"<entropy>" + b"ab" * 50_000),
        "signature-key": raw.replace(b'key="', f'key="{LONG}'.encode()),
        "unknown-attribute": raw.replace(b"<orders ", f'<orders x="{LONG}" '.encode()),
    }[where]
    assert len(mutated) > 100_000
    refused(mutated)


@pytest.mark.parametrize("value", [LONG, "GER-" + "9" * 100_000, " ".join(["GER-9"] * 16_000)],
                         ids=["x", "digits", "repeated-unit"])
def test_long_order_attributes_signed_by_the_player(value: str) -> None:
    """A properly signed file with a huge order attribute: it is adjudicated (the order
    is refused by the rules or the file by the schema) and everything still verifies."""
    raw = order_file(f"  <move unit={quoteattr(value)} to=\"konigsberg\"/>\n"
                     f"  <attack target=\"kurland\" units={quoteattr(value)}/>\n")
    assert len(raw) > 100_000
    with fresh_game() as directory:
        result = adjudicate(directory, raw)
        if result.kind == "step":
            assert result.result is not None and result.result.rejection is not None
            assert result.result.applied == 0
            assert load_game(directory).state_hash == template()["prev"]
        assert verify(directory).ok
        assert archived(directory) == Counter([raw])


def test_line_endings_and_a_byte_order_mark_do_not_matter() -> None:
    """docs/protocol.md §2: a file that went through a mail client still verifies."""
    for raw in (valid().replace(b"\n", b"\r\n"), b"\xef\xbb\xbf" + valid(),
                valid().replace(b"\n", b"\r")):
        with fresh_game() as directory:
            result = adjudicate(directory, raw)
            assert result.kind == "step", result.entry.get("reason")
            assert verify(directory).ok


def test_trailing_garbage_and_a_second_root_are_refused() -> None:
    refused(valid() + b"<orders/>")
    refused(valid() + b"garbage")
    refused(valid().replace(b"</orders>", b""))


@pytest.mark.parametrize("raw", [b"", b" ", b"\n\n", b"\xef\xbb\xbf", b"<", b"<?xml?>",
                                 bytes(range(256)), b"\xff\xfe<\x00o\x00", b"<orders/>"])
def test_degenerate_files_are_refused(raw: bytes) -> None:
    refused(raw)


def test_a_refused_file_is_journalled_with_its_digest_only() -> None:
    raw = b"<orders>secret plans</orders>"
    with fresh_game() as directory:
        adjudicate(directory, raw)
        journal = GameDir(directory).journal.read_bytes()
        assert b"secret plans" not in journal
        assert hashlib.sha256(raw).hexdigest().encode() in journal


def test_unsigned_template_is_refused_but_checks() -> None:
    draft = unsigned_file(VALID_BODY)
    with fresh_game() as directory:
        report = check_draft(directory, draft)
        assert report.ok, report.problems
        assert report.orders == 3 and report.checked == 1  # the attack needs a die
    with fresh_game() as directory:
        result = adjudicate(directory, draft)
        assert result.kind == "refused" and result.error is not None
        assert result.error.code in ("invalid-input", SignatureError.code)  # no entropy yet
        assert verify(directory).ok
    with pytest.raises(InvalidInput):
        parse_untrusted(draft.replace(b"<orders", b"<orders <"))


# -- bugs found by the properties, kept as regression tests ---------------------------


def test_regression_a_position_pool_with_an_unknown_unit_is_refused() -> None:
    garrisons = "".join(f'<marker kind="garrison" at="{a}"/>' for a in (
        "berlin", "prague", "silesia", "warsaw", "konigsberg", "slovakia", "budapest",
        "bucharest", "slovenia", "belgrade"))
    doc = ('<position xmlns="urn:pbem:position:1" game="solitaire" turn="1941-autumn" '
           f'phase="reinforcement">{garrisons}<pool name="reinforcements">'
           '<unit id="ZZZ" due="1941-summer"/><unit id="GER-8" due="1941-autumn"/>'
           "</pool></position>").encode()
    try:
        state = RULES.position_state(MODULE, parse_position(doc, "solitaire"), {})
    except PbemError:
        return  # refused: fixed
    run_step(RULES, MODULE, state, [Order("reinforce", {"unit": "GER-8", "area": "berlin"})],
             "german", None)


def test_regression_a_module_without_an_option_is_refused() -> None:
    root = copy.deepcopy(MODULE_TREE)
    option = root.find(".//{urn:pbem:module:1}option[@id='free-placement']")
    option.getparent().remove(option)
    try:
        module = PACKAGE.load_module(etree.tostring(root))
        RULES.initial_state(module, "campaign", {})
    except PbemError:
        return  # refused: fixed


def test_regression_a_module_with_a_hole_in_a_chart_is_refused() -> None:
    root = copy.deepcopy(MODULE_TREE)
    chart = root.find(".//{urn:pbem:module:1}random-attack-chart")
    for row in list(chart)[:5]:
        chart.remove(row)  # only the roll of 6 is left
    try:
        module = PACKAGE.load_module(etree.tostring(root))
        state = RULES.initial_state(module, "campaign", {"soviet": "no-purges"})
    except PbemError:
        return  # refused: fixed
    run_step(RULES, module, state, [Order("end-turn")], "german",
             DiceStream(bytes(32), "g", 1, bytes(16)))
