"""Hardened XML parsing: DTDs, entities, encodings, sizes, syntax errors, fuzzing."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from adjudicator.errors import InvalidInput, PbemError
from adjudicator.security import keys, signing, xmlsafe
from adjudicator.security.xmlsafe import MAX_ORDER_BYTES, parse_untrusted

VECTORS = Path(__file__).parent / "vectors"
VEC = json.loads((VECTORS / "signature-v1.json").read_text(encoding="utf-8"))
SIGNED = VEC["signed_document"].encode("utf-8")
PUB = keys.load_public_key((VECTORS / VEC["public_key_file"]).read_bytes())
KEY = keys.load_private_key((VECTORS / VEC["private_key_file"]).read_bytes())

LOL = "".join(f' <!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">\n' for i in range(1, 10))
BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol0 "lol">\n'
    + LOL
    + "]>\n<lolz>&lol9;</lolz>\n"
).encode()
XXE = b'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<r>&x;</r>\n'
PARAMETER_XXE = (
    b'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY % x SYSTEM "file:///etc/passwd"> %x;]>\n<r/>\n'
)
EXTERNAL_DTD = b'<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "http://127.0.0.1:9/evil.dtd">\n<r/>\n'


@pytest.mark.parametrize("doc", [BILLION_LAUGHS, XXE, PARAMETER_XXE, EXTERNAL_DTD])
def test_dtds_are_rejected(doc: bytes) -> None:
    started = time.monotonic()
    with pytest.raises(InvalidInput) as info:
        parse_untrusted(doc)
    assert time.monotonic() - started < 5
    assert "DOCTYPE" in info.value.message
    assert "root:" not in info.value.message and "lollol" not in info.value.message


def test_parser_itself_never_expands_entities() -> None:
    """Even without the DOCTYPE pre-check, the parser expands nothing."""
    try:
        root = etree.fromstring(BILLION_LAUGHS, xmlsafe._parser())
    except etree.XMLSyntaxError:
        pass  # libxml2's amplification guard
    else:
        assert len(etree.tostring(root)) < 1000
    root = etree.fromstring(XXE, xmlsafe._parser())
    assert b"root:" not in etree.tostring(root)
    assert "root:" not in "".join(root.itertext())


def test_dtd_is_also_rejected_after_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xmlsafe, "_check_text", lambda *args: None)
    for doc in (XXE, EXTERNAL_DTD, b"<!DOCTYPE r>\n<r/>"):
        with pytest.raises(InvalidInput, match="DOCTYPE"):
            parse_untrusted(doc)


def test_oversize_is_rejected_before_parsing() -> None:
    doc = b"<r>" + b" " * (MAX_ORDER_BYTES - 7) + b"</r>"
    assert len(doc) == MAX_ORDER_BYTES
    assert parse_untrusted(doc).tag == "r"
    with pytest.raises(InvalidInput, match="too large"):
        parse_untrusted(doc + b" ")
    with pytest.raises(InvalidInput, match="too large"):
        parse_untrusted(b"<r/>", max_bytes=3)


@pytest.mark.parametrize("doc", [b"", b"   \n\t", b"\r\n"])
def test_empty_is_rejected(doc: bytes) -> None:
    with pytest.raises(InvalidInput, match="empty"):
        parse_untrusted(doc)


@pytest.mark.parametrize(
    "doc",
    [
        bytes(range(256)),
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"PK\x03\x04\x14\x00\x00\x00",
        b"\xff\xfe\x00\x00",
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n",
        b"just some words",
        b"<r>\x00</r>",
    ],
)
def test_binary_junk_is_rejected(doc: bytes) -> None:
    with pytest.raises(InvalidInput):
        parse_untrusted(doc)


@pytest.mark.parametrize(
    "doc",
    [
        '<?xml version="1.0" encoding="UTF-16"?><r>\u015c</r>'.encode("utf-16"),
        '<?xml version="1.0" encoding="UTF-16"?><r/>'.encode("utf-16-le"),
        "<r>\u015c</r>".encode("utf-16-be"),
        '<?xml version="1.0" encoding="UTF-32"?><r/>'.encode("utf-32"),
    ],
)
def test_utf16_and_utf32_are_rejected(doc: bytes) -> None:
    with pytest.raises(InvalidInput):
        parse_untrusted(doc)


def test_other_declared_encodings_are_rejected() -> None:
    with pytest.raises(InvalidInput, match="ISO-8859-1"):
        parse_untrusted(b'<?xml version="1.0" encoding="ISO-8859-1"?><r>abc</r>')
    with pytest.raises(InvalidInput, match="UTF-8"):
        parse_untrusted(b"<r>caf\xe9</r>")


@pytest.mark.parametrize(
    "doc",
    [
        b"<r>caf\xc3\xa9</r>",
        b"\xef\xbb\xbf<r>caf\xc3\xa9</r>",
        b'<?xml version="1.0" encoding="utf-8"?><r>caf\xc3\xa9</r>',
        b"<?xml version='1.0' encoding='UTF-8'?><r>caf\xc3\xa9</r>",
        b'<?xml version="1.0" encoding="US-ASCII"?><r>caf&#233;</r>',
    ],
)
def test_utf8_and_ascii_are_accepted(doc: bytes) -> None:
    assert parse_untrusted(doc).text == "caf\u00e9"


def test_syntax_error_reports_the_line() -> None:
    doc = b'<?xml version="1.0"?>\n<orders>\n  <move>\n</orders>\n'
    with pytest.raises(InvalidInput, match=r"not well-formed XML at line 4: ") as info:
        parse_untrusted(doc)
    assert "\n" not in info.value.message
    with pytest.raises(InvalidInput, match=r"at line 3: "):
        parse_untrusted(b"<a>\n<b>\n<c attr=1/>\n</a>")


def test_crlf_is_normalised() -> None:
    root = parse_untrusted(b"<r>\r\n  <a>x\r\ny</a>\r\n</r>\r\n")
    assert root.text == "\n  " and root[0].text == "x\ny"


def test_comments_and_processing_instructions_are_kept() -> None:
    root = parse_untrusted(b"<r><!-- note --><?pi data?><a/></r>")
    assert [type(c).__name__ for c in root] == ["_Comment", "_ProcessingInstruction", "_Element"]


def test_trusted_file(tmp_path: Path) -> None:
    good = tmp_path / "map.xml"
    good.write_bytes(b"<map>" + b"<hex/>" * 100_000 + b"</map>")
    assert len(xmlsafe.parse_trusted_file(good)) == 100_000
    big = tmp_path / "big.xml"
    big.write_bytes(b"<map>" + b" " * xmlsafe.MAX_TRUSTED_BYTES + b"</map>")
    with pytest.raises(InvalidInput, match="too large"):
        xmlsafe.parse_trusted_file(big)
    dtd = tmp_path / "dtd.xml"
    dtd.write_bytes(XXE)
    with pytest.raises(InvalidInput, match="DOCTYPE"):
        xmlsafe.parse_trusted_file(dtd)
    broken = tmp_path / "broken.xml"
    broken.write_bytes(b"<map>\n<hex>\n</map>")
    with pytest.raises(InvalidInput, match=r"broken\.xml is not well-formed XML at line 3"):
        xmlsafe.parse_trusted_file(broken)
    with pytest.raises(InvalidInput, match="cannot read"):
        xmlsafe.parse_trusted_file(tmp_path / "missing.xml")


# --- fuzzing: only the project's own errors may escape ---


def _check_everything(data: bytes) -> None:
    try:
        root = parse_untrusted(data)
    except PbemError:
        return
    with contextlib.suppress(PbemError):
        signing.signature_fingerprint(root)
    with contextlib.suppress(PbemError):
        signing.verify_orders(root, PUB)
    with contextlib.suppress(PbemError):
        signing.read_envelope(root)
    try:
        resigned = signing.sign_orders(root, KEY, entropy=bytes(16))
    except PbemError:
        return
    signing.verify_orders(parse_untrusted(resigned), KEY.public_key())  # signing always verifies


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_random_bytes_raise_only_project_errors(data: bytes) -> None:
    _check_everything(data)


_EDIT = st.tuples(
    st.sampled_from(["replace", "insert", "delete"]),
    st.integers(min_value=0, max_value=len(SIGNED) - 1),
    st.binary(min_size=1, max_size=8)
    | st.sampled_from([b"<", b">", b"&", b'"', b"</", b"/>", b"&#0;", b"]]>", b"<!--", b"\xc3"]),
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_EDIT, min_size=1, max_size=6))
def test_mutated_order_documents_raise_only_project_errors(edits: list) -> None:
    data = bytearray(SIGNED)
    for op, pos, chunk in edits:
        pos = min(pos, len(data))
        if op == "replace":
            data[pos : pos + len(chunk)] = chunk
        elif op == "insert":
            data[pos:pos] = chunk
        else:
            del data[pos : pos + len(chunk)]
    _check_everything(bytes(data))


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["game", "module", "side", "seq", "prev", "commit", "x"]),
        st.text(max_size=80),
    ),
    st.text(max_size=200),
)
def test_structured_envelopes_raise_only_project_errors(attrs: dict, entropy: str) -> None:
    root = etree.Element(signing.ORDERS_TAG)
    try:
        for name, value in attrs.items():
            root.set(name, value)
        etree.SubElement(root, signing.ENTROPY_TAG).text = entropy
    except ValueError:  # lxml refuses control characters here; a parsed file cannot hold them
        return
    with contextlib.suppress(PbemError):
        signing.read_envelope(root)
