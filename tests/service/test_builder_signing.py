"""Signing in the browser (issue 17, item 2): the page's signing module, run in headless
Chromium, writes the order file byte for byte as `pbem sign` writes it, and its
signature verifies with the project's verifier and with an independent one (lxml's
C14N 2.0 and `cryptography`'s Ed25519), for plain and passphrase-protected PKCS#8 keys
and for values that are awkward in XML. The key never reaches the network."""

from __future__ import annotations

import base64
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, rsa
from lxml import etree

from adjudicator.security.keys import fingerprint, private_key_pem, public_key_pem
from adjudicator.security.signing import (
    SIGNATURE_TAG,
    read_envelope,
    sign_orders,
    signed_bytes,
    verify_orders,
)
from adjudicator.security.xmlsafe import parse_untrusted
from adjudicator.service.core import Service
from adjudicator.service.web import create_app
from tests.service.test_web import serving

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists() and shutil.which("chromium") is None:
    pytest.skip("the browser tests need Debian's chromium (apt-get install chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")

ENVELOPE = {"xmlns": "urn:pbem:orders:1", "game": "demo-<&\"'>-ä", "module": "solitaire",
            "side": "german", "seq": "17", "prev": "4b" * 32, "commit": "76" * 32}
AWKWARD = [
    {"kind": "move", "attrs": {"unit": "GER-6", "to": "Smolensk"}, "text": ""},
    # attributes out of order, every character XML escapes, tabs and line ends, and
    # text outside ASCII (two bytes, three, and four: a surrogate pair in JavaScript)
    {"kind": "note", "attrs": {"z": 'quote " apos \' amp & lt < gt >', "a": "tab\tnl\ncr\r",
                               "m": "Vorstoß 漢字 🙂"}, "text": "a & b < c > d ]]> \r\n ü 🙂"},
    {"kind": "end-turn", "attrs": {}, "text": ""},
]
ENTROPY = "4314171edc93cb7b3ab0ecf802bd0840efad04a8d5bed29ce5537edea212d54c"


@pytest.fixture
def browser() -> Iterator[Any]:
    executable = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, headless=True)
        try:
            yield launched
        finally:
            launched.close()


class Recorder:
    """Every request a page makes: its URL, headers and body, to look for secrets in."""

    def __init__(self, page: Any) -> None:
        self.seen: list[bytes] = []
        page.on("request", self.record)

    def record(self, request: Any) -> None:
        headers = "\n".join(f"{k}: {v}" for k, v in request.all_headers().items())
        self.seen.append(f"{request.method} {request.url}\n{headers}\n".encode()
                         + (request.post_data_buffer or b""))

    def assert_never(self, *secrets: bytes) -> None:
        assert self.seen, "no request was recorded at all"
        for secret in secrets:
            for forms in (secret, base64.b64encode(secret), secret.hex().encode()):
                assert not any(forms in seen for seen in self.seen), secret[:20]


def key_material(key: ed25519.Ed25519PrivateKey) -> list[bytes]:
    """What must never travel: the raw private key, and its PKCS#8 DER."""
    raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                            serialization.NoEncryption())
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    return [raw, der]


def signing_page(browser: Any, base: str) -> tuple[Any, Recorder]:
    page = browser.new_page()
    page.set_default_timeout(15_000)
    recorder = Recorder(page)
    page.goto(f"{base}/help")
    page.add_script_tag(url="/static/pbem-sign.js")  # the page's CSP lets only 'self' run
    return page, recorder


SIGN = """async ([pem, passphrase, envelope, orders, entropy]) => {
    const key = await pbemSign.loadKey(pem, passphrase);
    return {fingerprint: key.fingerprint,
            signed: await pbemSign.signOrders(envelope, orders, key, entropy),
            unsigned: pbemSign.unsignedFile(envelope, orders, entropy),
            message: pbemSign.signedText(envelope, orders, entropy)};
}"""

PROBLEM = """async ([pem, passphrase]) => {
    try { await pbemSign.loadKey(pem, passphrase); return "loaded"; }
    catch (e) { return (e instanceof pbemSign.KeyProblem ? "" : "UNEXPECTED ") + e.message; }
}"""


def independent_verify(signed: bytes, public: ed25519.Ed25519PublicKey) -> None:
    """Not the project's code: lxml's C14N 2.0 without the signature, then Ed25519."""
    root = etree.fromstring(signed)
    signature = root.find(SIGNATURE_TAG)
    assert signature is not None and signature.get("alg") == "ed25519"
    raw = base64.b64decode(signature.text or "", validate=True)
    root.remove(signature)  # lxml drops its tail with it
    public.verify(raw, etree.tostring(root, method="c14n2"))


@pytest.mark.parametrize("passphrase", ["", "pä ss <&> wört"], ids=["plain", "encrypted"])
def test_the_browser_signs_exactly_as_pbem_sign(service: Service, browser: Any,
                                                passphrase: str) -> None:
    key = ed25519.Ed25519PrivateKey.generate()
    pem = private_key_pem(key, passphrase.encode() or None)
    with serving(create_app(service)) as base:
        page, recorder = signing_page(browser, base)
        out = page.evaluate(SIGN, [pem.decode(), passphrase, ENVELOPE, AWKWARD, ENTROPY])
        signed = out["signed"].encode("utf-8")
        # the same bytes as `pbem sign` makes of the unsigned file (Ed25519 is deterministic)
        again = sign_orders(etree.fromstring(out["unsigned"].encode()), key,
                            entropy=bytes.fromhex(ENTROPY))
        assert signed == again
        root = parse_untrusted(signed)
        assert out["message"].encode() == signed_bytes(root)
        assert out["fingerprint"] == fingerprint(key.public_key())
        verify_orders(root, key.public_key())  # the project's verifier
        independent_verify(signed, key.public_key())
        envelope = read_envelope(root)
        assert (envelope.game, envelope.seq, envelope.entropy.hex()) == \
            (ENVELOPE["game"], 17, ENTROPY)
        note = root[2]
        assert dict(note.attrib) == AWKWARD[1]["attrs"]
        assert note.text == AWKWARD[1]["text"]
        # a fresh entropy each time, from the browser's CSPRNG
        fresh = page.evaluate("[pbemSign.freshEntropy(), pbemSign.freshEntropy()]")
        assert fresh[0] != fresh[1] and all(len(e) == 64 for e in fresh)
        page.evaluate("fetch('/favicon.ico')")  # at least one request to look into
        recorder.assert_never(*key_material(key), pem.strip(), passphrase.encode() or pem)


def test_an_unusable_key_file_is_refused_in_words(service: Service, browser: Any) -> None:
    key = ed25519.Ed25519PrivateKey.generate()
    encrypted = private_key_pem(key, b"right").decode()
    other = rsa.generate_private_key(public_exponent=65537, key_size=1024).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()
    cases = {
        "wrong passphrase for the private key (or a damaged file)": [encrypted, "wrong"],
        "the private key is protected by a passphrase; give the passphrase": [encrypted, ""],
        "this is not a private key file (is it the .pub file?)":
            [public_key_pem(key.public_key()).decode(), ""],
        "this is a key of type RSA; only Ed25519 keys are accepted": [other, ""],
        "this is not a PEM key file (no -----BEGIN line)": ["hello", ""],
    }
    with serving(create_app(service)) as base:
        page, _ = signing_page(browser, base)
        for words, given in cases.items():
            assert page.evaluate(PROBLEM, given) == words
        refused = page.evaluate("""([envelope, entropy]) => { try {
            pbemSign.signedText(envelope, [{kind: "move", attrs: {u: "\\u0001"}}], entropy);
        } catch (e) { return e.message; } }""", [ENVELOPE, ENTROPY])
        assert refused == "order 1: u holds a character an XML file cannot carry"
