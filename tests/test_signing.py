"""Signed order envelopes: the vector, tampering, layout tolerance and envelope checks."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from lxml import etree

from adjudicator.errors import InvalidInput, SignatureError
from adjudicator.security import keys, signing
from adjudicator.security.xmlsafe import parse_untrusted

VECTORS = Path(__file__).parent / "vectors"
VEC = json.loads((VECTORS / "signature-v1.json").read_text(encoding="utf-8"))
SIGNED = VEC["signed_document"].encode("utf-8")
UNSIGNED = VEC["unsigned_document"].encode("utf-8")
KEY = keys.load_private_key((VECTORS / VEC["private_key_file"]).read_bytes())
PUB = keys.load_public_key((VECTORS / VEC["public_key_file"]).read_bytes())
OTHER = Ed25519PrivateKey.from_private_bytes(bytes(32))
HEX_A, HEX_B = "a" * 64, "b" * 64


def envelope_doc(body: str = "", **attrs: str | None) -> bytes:
    values: dict[str, str | None] = {
        "game": "g",
        "module": "solitaire",
        "side": "german",
        "seq": "3",
        "prev": HEX_A,
        "commit": HEX_B,
    }
    values.update(attrs)
    text = " ".join(f'{k}="{v}"' for k, v in values.items() if v is not None)
    return f'<orders xmlns="urn:pbem:orders:1" {text}>\n{body}</orders>\n'.encode()


def signed(doc: bytes, key: Ed25519PrivateKey = KEY) -> bytes:
    return signing.sign_orders(parse_untrusted(doc), key, entropy=bytes(range(16)))


def verify(doc: bytes, pub: object = PUB) -> signing.Envelope:
    root = parse_untrusted(doc)
    signing.verify_orders(root, pub)  # type: ignore[arg-type]
    return signing.read_envelope(root)


# --- the vector ---


def test_vector_key_is_derived_from_its_seed() -> None:
    seed_key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(VEC["private_key_seed"]))
    assert keys.private_key_pem(seed_key) == (VECTORS / VEC["private_key_file"]).read_bytes()
    assert keys.fingerprint(PUB) == VEC["fingerprint"]


def test_vector_signing_is_reproduced_byte_for_byte() -> None:
    entropy = bytes.fromhex(VEC["entropy"])
    assert signing.sign_orders(parse_untrusted(UNSIGNED), KEY, entropy=entropy) == SIGNED


def test_vector_signed_bytes_and_signature() -> None:
    root = parse_untrusted(SIGNED)
    message = signing.signed_bytes(root)
    assert message == VEC["signed_bytes"].encode("utf-8")
    assert hashlib.sha256(message).hexdigest() == VEC["signed_bytes_sha256"]
    assert root[-1].text == VEC["signature"]
    assert signing.signature_fingerprint(root) == VEC["fingerprint"]
    # independent checks: stdlib C14N 2.0 and a bare Ed25519 verification
    text = VEC["signed_document"]
    unsigned_text = text[: text.index("<signature")] + text[text.index("</orders>") :]
    assert ET.canonicalize(xml_data=unsigned_text, with_comments=True) == VEC["signed_bytes"]
    PUB.verify(base64.b64decode(VEC["signature"]), VEC["signed_bytes"].encode("utf-8"))
    env = verify(SIGNED)
    assert env.seq == 17 and env.entropy.hex() == VEC["entropy"]


def test_crlf_line_ends_still_verify() -> None:
    crlf = SIGNED.replace(b"\n", b"\r\n")
    assert crlf != SIGNED
    verify(crlf)
    verify(SIGNED.replace(b"\n", b"\r"))


@pytest.mark.parametrize("tail", [b"", b"\n\n\n", b"\n    \t", b" \r\n  \n"])
def test_reindenting_the_signature_tail_still_verifies(tail: bytes) -> None:
    head, rest = SIGNED.split(b"</signature>")
    verify(head + b"</signature>" + tail + rest.lstrip(b" \t\r\n"))


def test_whitespace_outside_orders_is_not_signed() -> None:
    verify(b"\n<!-- forwarded -->\n" + SIGNED.split(b"?>", 1)[1] + b"\n\n")


def test_base64_may_be_wrapped() -> None:
    sig = VEC["signature"].encode()
    wrapped = sig[:40] + b"\n      " + sig[40:]
    verify(SIGNED.replace(sig, b"\n  " + wrapped + b"\n  "))


def test_whitespace_before_the_signature_is_signed() -> None:
    changed = SIGNED.replace(b"\n  <signature", b"\n    <signature")
    with pytest.raises(SignatureError, match="does not match"):
        verify(changed)


def _signed_ranges(doc: bytes) -> list[int]:
    """Offsets of the serialized file that fall in signed content."""
    start = doc.index(b"<orders")
    sig_start, close = doc.index(b"<signature"), doc.index(b"</orders>")
    end = close + len(b"</orders>")
    return [i for i in range(start, end) if not sig_start <= i < close]


@pytest.mark.parametrize("mask", [0x01, 0x20])
def test_every_single_byte_change_in_signed_content_is_caught(mask: int) -> None:
    offsets = _signed_ranges(SIGNED)
    assert len(offsets) > 400
    reached_verify = 0
    for i in offsets:
        mutated = bytearray(SIGNED)
        mutated[i] ^= mask
        try:
            root = parse_untrusted(bytes(mutated))
        except InvalidInput as exc:
            assert not isinstance(exc, SignatureError)
            continue
        reached_verify += 1
        try:
            signing.verify_orders(root, PUB)
        except SignatureError:
            continue
        with pytest.raises(InvalidInput):  # only reachable if the signature still matched
            signing.read_envelope(root)
            pytest.fail(f"a change at offset {i} was not detected")
    assert reached_verify > 100


def test_changed_unsigned_bytes_do_not_matter() -> None:
    decl_end = SIGNED.index(b"?>") + 2
    verify(SIGNED[:decl_end].replace(b'"1.0"', b"'1.0'") + SIGNED[decl_end:])


# --- failures ---


def test_wrong_key_names_both_fingerprints() -> None:
    other_fp = keys.fingerprint(OTHER.public_key())
    with pytest.raises(SignatureError) as info:
        verify(SIGNED, OTHER.public_key())
    assert VEC["fingerprint"] in info.value.message and other_fp in info.value.message


def test_forged_key_attribute() -> None:
    other_fp = keys.fingerprint(OTHER.public_key())
    forged = SIGNED.replace(VEC["fingerprint"].encode(), other_fp.encode())
    with pytest.raises(SignatureError, match="does not match the file"):
        verify(forged, OTHER.public_key())


def test_missing_signature() -> None:
    with pytest.raises(SignatureError, match="not signed"):
        verify(UNSIGNED)
    with pytest.raises(SignatureError, match="not signed"):
        signing.signature_fingerprint(parse_untrusted(UNSIGNED))


def test_two_signatures() -> None:
    line = SIGNED[SIGNED.index(b"  <signature") : SIGNED.index(b"</orders>")]
    doubled = SIGNED.replace(line, line + line)
    with pytest.raises(SignatureError, match="2 <signature>"):
        verify(doubled)
    with pytest.raises(SignatureError):
        signing.signature_fingerprint(parse_untrusted(doubled))


def test_signature_not_last() -> None:
    moved = SIGNED.replace(b"</signature>\n", b"</signature>\n  <move unit='x' path='1'/>\n")
    with pytest.raises(SignatureError, match="last element"):
        verify(moved)


def test_comment_after_signature_is_signed_content() -> None:
    commented = SIGNED.replace(b"</signature>\n", b"</signature>\n  <!-- hi -->\n")
    with pytest.raises(SignatureError, match="does not match"):
        verify(commented)


@pytest.mark.parametrize(
    ("old", "new", "match"),
    [
        (b'alg="ed25519"', b'alg="rsa"', "algorithm"),
        (b'alg="ed25519"', b"", "algorithm"),
        (b'alg="ed25519"', b'alg="ed25519" when="now"', "unexpected attributes"),
        (b'key="', b'kex="', "no key attribute"),
        (b'">m7T/', b'">m7T/!', "base64"),
        (b'">m7T/', b'">m7T', "base64"),
        (b'">m7T/', b'">', "malformed"),
        (b"==</signature>", b"=</signature>", "base64"),
        (b"AA==</signature>", b"AB==</signature>", "malformed"),
        (b"==</signature>", b"==<x/></signature>", "only base64"),
        (b"==</signature>", b"== AAAA</signature>", "base64"),
        (b"==</signature>", b"==<!-- c --></signature>", "only base64"),
    ],
)
def test_malformed_signature_element(old: bytes, new: bytes, match: str) -> None:
    assert old in SIGNED
    with pytest.raises(SignatureError, match=match):
        verify(SIGNED.replace(old, new, 1))


def test_bad_key_attribute_for_fingerprint_lookup() -> None:
    bad = SIGNED.replace(VEC["fingerprint"].encode(), b"ALICE")
    with pytest.raises(SignatureError, match="fingerprint"):
        signing.signature_fingerprint(parse_untrusted(bad))
    nokey = SIGNED.replace(b' key="', b' kex="')
    with pytest.raises(SignatureError, match="no key"):
        signing.signature_fingerprint(parse_untrusted(nokey))


def test_wrong_root_is_rejected_by_verify() -> None:
    other = SIGNED.replace(b"urn:pbem:orders:1", b"urn:pbem:orders:2")
    with pytest.raises(SignatureError, match="root element"):
        verify(other)
    with pytest.raises(SignatureError):
        signing.verify_orders(etree.fromstring(b"<orders/>"), PUB)


# --- signing ---


def test_sign_orders_does_not_touch_the_callers_tree() -> None:
    root = parse_untrusted(SIGNED)
    before = etree.tostring(root)
    signing.sign_orders(root, OTHER, entropy=bytes(20))
    signing.signed_bytes(root)
    assert etree.tostring(root) == before


def test_resigning_replaces_the_signature_and_entropy() -> None:
    out = signing.sign_orders(parse_untrusted(SIGNED), OTHER, entropy=bytes(20))
    root = parse_untrusted(out)
    assert out.count(b"<signature") == 1 and out.count(b"<entropy") == 1
    signing.verify_orders(root, OTHER.public_key())
    assert signing.read_envelope(root).entropy == bytes(20)
    assert signing.signature_fingerprint(root) == keys.fingerprint(OTHER.public_key())


def test_default_entropy_is_fresh_32_bytes() -> None:
    a = verify(signing.sign_orders(parse_untrusted(UNSIGNED), KEY))
    b = verify(signing.sign_orders(parse_untrusted(UNSIGNED), KEY))
    assert len(a.entropy) == 32 and a.entropy != b.entropy


@pytest.mark.parametrize("size", [0, 15, 65])
def test_entropy_size_is_checked(size: int) -> None:
    with pytest.raises(InvalidInput, match="entropy"):
        signing.sign_orders(parse_untrusted(UNSIGNED), KEY, entropy=bytes(size))


def test_signing_requires_an_orders_root() -> None:
    with pytest.raises(InvalidInput):
        signing.sign_orders(etree.fromstring(b"<orders/>"), KEY)


@pytest.mark.parametrize(
    "doc",
    [
        envelope_doc(),
        envelope_doc("  <move/>\n"),
        envelope_doc("<move/><attack/>"),
        envelope_doc("\t<move/>\n\t<!-- c -->\n"),
        envelope_doc("    <entropy>00</entropy>\n    <move/>\n"),
        envelope_doc("  <move/>\n  <signature>junk</signature>\n  "),
        b'<?xml version="1.0"?>\n<p:orders xmlns:p="urn:pbem:orders:1" game="g" module="m" '
        b'side="s" seq="0" prev="' + HEX_A.encode() + b'" commit="' + HEX_B.encode() + b'">\n'
        b"    <p:move/>\n</p:orders>",
    ],
)
def test_signed_layouts_verify_and_stay_pretty(doc: bytes) -> None:
    out = signed(doc)
    assert out.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n')
    assert out.endswith(b"</signature>\n</orders>\n") or out.endswith(b"</p:orders>\n")
    env = verify(out)
    assert env.entropy == bytes(range(16))
    lines = out.decode().splitlines()
    assert "entropy>000102030405060708090a0b0c0d0e0f</" in lines[2]
    sig_line = next(line for line in lines if "signature " in line)
    assert sig_line.lstrip().startswith("<") and sig_line.rstrip().endswith("signature>")
    indent = lines[2][: len(lines[2]) - len(lines[2].lstrip())]
    assert sig_line.startswith(indent + "<")
    assert lines[-1].startswith("</")


def test_entropy_becomes_the_first_child() -> None:
    root = parse_untrusted(signed(envelope_doc("  <move/>\n")))
    assert etree.QName(root[0]).localname == "entropy"


def test_signed_bytes_exclude_signature_and_its_tail() -> None:
    root = parse_untrusted(SIGNED)
    message = signing.signed_bytes(root)
    assert b"signature" not in message
    assert message.endswith(b"</attack>\n  </orders>")


def test_two_entropy_elements_are_refused_when_signing() -> None:
    doc = envelope_doc("  <entropy>00</entropy>\n  <entropy>00</entropy>\n")
    with pytest.raises(InvalidInput, match="more than one"):
        signed(doc)


# --- the envelope ---


ENTROPY = "<entropy>" + "ab" * 16 + "</entropy>\n"


def test_read_envelope() -> None:
    env = signing.read_envelope(parse_untrusted(envelope_doc(ENTROPY, game="partie-\u015c")))
    assert env == signing.Envelope(
        "partie-\u015c", "solitaire", "german", 3, HEX_A, HEX_B, b"\xab" * 16
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        env.seq = 4  # type: ignore[misc]


@pytest.mark.parametrize("name", ["game", "module", "side", "seq", "prev", "commit"])
def test_missing_or_empty_attribute(name: str) -> None:
    with pytest.raises(InvalidInput, match=name):
        signing.read_envelope(parse_untrusted(envelope_doc(ENTROPY, **{name: None})))
    with pytest.raises(InvalidInput, match=name):
        signing.read_envelope(parse_untrusted(envelope_doc(ENTROPY, **{name: ""})))


@pytest.mark.parametrize("seq", ["0", "7", "17", "123456789012345678"])
def test_good_seq(seq: str) -> None:
    env = signing.read_envelope(parse_untrusted(envelope_doc(ENTROPY, seq=seq)))
    assert env.seq == int(seq)


@pytest.mark.parametrize(
    "seq",
    ["+1", "-1", " 1", "1 ", "1_0", "0x1", "1.0", "01", "00", "\u0661", "1234567890123456789"],
)
def test_bad_seq(seq: str) -> None:
    with pytest.raises(InvalidInput, match="seq"):
        signing.read_envelope(parse_untrusted(envelope_doc(ENTROPY, seq=seq)))


@pytest.mark.parametrize("name", ["prev", "commit"])
@pytest.mark.parametrize("value", ["A" * 64, "a" * 63, "a" * 65, "g" * 64, " " + "a" * 63])
def test_bad_hashes(name: str, value: str) -> None:
    with pytest.raises(InvalidInput, match=f"{name}.*64 lowercase hex"):
        signing.read_envelope(parse_untrusted(envelope_doc(ENTROPY, **{name: value})))


@pytest.mark.parametrize(
    ("body", "match"),
    [
        ("", "no <entropy>"),
        ("<entropy/>", "not signed yet"),  # an unsigned template: say how to sign it
        ("<entropy>" + "ab" * 15 + "</entropy>", "16 to 64 bytes"),
        ("<entropy>" + "ab" * 65 + "</entropy>", "16 to 64 bytes"),
        ("<entropy>" + "ab" * 16 + "a</entropy>", "hex"),
        ("<entropy>" + "zz" * 16 + "</entropy>", "hex"),
        ("<entropy>" + "ab " * 16 + "</entropy>", "hex"),
        ("<entropy>" + "ab" * 16 + "<b/></entropy>", "hex"),
        (ENTROPY + ENTROPY, "more than one"),
        ('<entropy xmlns="">' + "ab" * 16 + "</entropy>", "no <entropy>"),
    ],
)
def test_bad_entropy(body: str, match: str) -> None:
    with pytest.raises(InvalidInput, match=match):
        signing.read_envelope(parse_untrusted(envelope_doc(body)))


def test_entropy_whitespace_and_case_are_tolerated() -> None:
    body = "<entropy>\n    " + "AB" * 8 + "cd" * 8 + "\n  </entropy>"
    env = signing.read_envelope(parse_untrusted(envelope_doc(body)))
    assert env.entropy == b"\xab" * 8 + b"\xcd" * 8


@pytest.mark.parametrize(
    "doc",
    [b"<orders/>", b'<orders xmlns="urn:pbem:orders:2"/>', b'<x xmlns="urn:pbem:orders:1"/>'],
)
def test_wrong_root(doc: bytes) -> None:
    with pytest.raises(InvalidInput, match="root element"):
        signing.read_envelope(parse_untrusted(doc))
