"""The signed order envelope: C14N 2.0 signed bytes and Ed25519 signatures.

The signed bytes are `lxml.etree.tostring(orders, method="c14n2")` of the
`<orders>` element with its `<signature>` child (and that child's tail text)
removed. See docs/protocol.md.
"""

from __future__ import annotations

import base64
import binascii
import copy
import os
import re
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from lxml import etree

from adjudicator.errors import InvalidInput, SignatureError
from adjudicator.security.keys import fingerprint

ORDERS_NS = "urn:pbem:orders:1"
ORDERS_TAG = f"{{{ORDERS_NS}}}orders"
ENTROPY_TAG = f"{{{ORDERS_NS}}}entropy"
SIGNATURE_TAG = f"{{{ORDERS_NS}}}signature"
SIGNATURE_ALG = "ed25519"
ENTROPY_MIN_BYTES = 16
ENTROPY_MAX_BYTES = 64
DEFAULT_ENTROPY_BYTES = 32

_HEX64 = re.compile(r"[0-9a-f]{64}")
_FINGERPRINT = re.compile(r"[0-9a-f]{32}")
_SEQ = re.compile(r"0|[1-9][0-9]{0,17}")
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")
_SIGNATURE_ATTRS = frozenset({"alg", "key"})
_XML_SPACE = " \t\r\n"
_XML_DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'


@dataclass(frozen=True)
class Envelope:
    """The addressing attributes and the player's entropy of an order file."""

    game: str
    module: str
    side: str
    seq: int
    prev: str
    commit: str
    entropy: bytes


def _name(el: etree._Element) -> str:
    """An element's name for messages: <orders> or <{ns}orders>."""
    if not isinstance(el.tag, str):
        return "a comment or processing instruction"
    qname = etree.QName(el)
    if qname.namespace in (None, ORDERS_NS):
        return f"<{qname.localname}>"
    return f"<{{{qname.namespace}}}{qname.localname}>"


def _element_children(el: etree._Element) -> list[etree._Element]:
    """Child elements, without comments and processing instructions."""
    return [child for child in el if isinstance(child.tag, str)]


def _signatures(root: etree._Element) -> list[etree._Element]:
    return [child for child in root if child.tag == SIGNATURE_TAG]


def _unsigned_copy(root: etree._Element) -> etree._Element:
    """A deep copy of `root` without its signature elements (and their tails)."""
    clone = copy.deepcopy(root)
    clone.tail = None
    for sig in _signatures(clone):
        clone.remove(sig)  # lxml removes the element's tail with it
    return clone


def signed_bytes(root: etree._Element) -> bytes:
    """The exact bytes a signature covers (C14N 2.0, comments included)."""
    return etree.tostring(_unsigned_copy(root), method="c14n2")


def _child_indent(root: etree._Element) -> str:
    """The whitespace that precedes the children of `root` ("\\n  " by default)."""
    text = root.text
    if len(root) and text and text.isspace() and text.startswith(("\n", "\r")):
        return text
    return "\n  "


def _set_entropy(root: etree._Element, entropy: bytes) -> None:
    """Write `entropy` as lowercase hex into the (first-child) <entropy> element."""
    found = [child for child in root if child.tag == ENTROPY_TAG]
    if len(found) > 1:
        raise InvalidInput("the orders contain more than one <entropy> element")
    if found:
        element = found[0]
        for child in list(element):
            element.remove(child)
    else:
        indent = _child_indent(root)
        element = etree.SubElement(root, ENTROPY_TAG)  # reuses the prefix of the root
        rest = root.text if root.text and not root.text.isspace() else ""
        element.tail = rest + (indent if len(root) > 1 else "\n")
        root.text = indent
        root.insert(0, element)
    element.text = entropy.hex()


def prepared_for_signing(root: etree._Element, entropy: bytes) -> etree._Element:
    """The document `sign_orders` signs: a copy of the orders without any signature,
    `entropy` in its <entropy>, and the last child's tail set so that the signature
    will start on its own line. Its C14N 2.0 bytes are what the signature covers."""
    if root.tag != ORDERS_TAG:
        raise InvalidInput(f"only <orders> in {ORDERS_NS} can be signed, not {_name(root)}")
    if not ENTROPY_MIN_BYTES <= len(entropy) <= ENTROPY_MAX_BYTES:
        raise InvalidInput(
            f"entropy must be {ENTROPY_MIN_BYTES} to {ENTROPY_MAX_BYTES} bytes, not {len(entropy)}"
        )
    doc = _unsigned_copy(root)
    _set_entropy(doc, bytes(entropy))
    last = doc[-1]
    if not last.tail or last.tail.isspace():
        last.tail = _child_indent(doc)  # the signature starts on its own, indented line
    return doc


def unsigned_file(doc: etree._Element) -> bytes:
    """A prepared document as a file, written as `sign_orders` writes the signed one."""
    return _XML_DECLARATION + etree.tostring(doc, encoding="UTF-8") + b"\n"


def sign_orders(
    root: etree._Element, private_key: Ed25519PrivateKey, *, entropy: bytes | None = None
) -> bytes:
    """Sign a copy of the orders; return the signed document as UTF-8 bytes.

    The <entropy> element is set to `entropy` (default: 32 fresh random bytes),
    any old signature is dropped and the new one is appended as the last child.
    """
    if entropy is None:
        entropy = os.urandom(DEFAULT_ENTROPY_BYTES)
    doc = prepared_for_signing(root, entropy)
    message = etree.tostring(doc, method="c14n2")
    signature = etree.SubElement(doc, SIGNATURE_TAG)
    signature.set("alg", SIGNATURE_ALG)
    signature.set("key", fingerprint(private_key.public_key()))
    signature.text = base64.b64encode(private_key.sign(message)).decode("ascii")
    signature.tail = "\n"
    return _XML_DECLARATION + etree.tostring(doc, encoding="UTF-8") + b"\n"


def _the_signature(root: etree._Element) -> etree._Element:
    """The single signature element, which must be the last child element."""
    if root.tag != ORDERS_TAG:
        raise SignatureError(
            f"this is not a signed orders file: the root element is {_name(root)}, "
            f'expected <orders xmlns="{ORDERS_NS}">'
        )
    found = _signatures(root)
    if not found:
        raise SignatureError("the file is not signed: there is no <signature> element")
    if len(found) > 1:
        raise SignatureError(
            f"the file has {len(found)} <signature> elements; exactly one is allowed"
        )
    if _element_children(root)[-1] is not found[0]:
        raise SignatureError("the <signature> element must be the last element of <orders>")
    return found[0]


def signature_fingerprint(root: etree._Element) -> str:
    """The fingerprint of the key the file says it was signed with."""
    key = _the_signature(root).get("key")
    if key is None:
        raise SignatureError("the <signature> element has no key attribute")
    if not _FINGERPRINT.fullmatch(key):
        raise SignatureError(f"the key attribute {key!r} is not a key fingerprint (32 hex digits)")
    return key


def verify_orders(root: etree._Element, public_key: Ed25519PublicKey) -> None:
    """Check the signature of an orders document; raise SignatureError if it is not valid."""
    sig = _the_signature(root)
    alg = sig.get("alg")
    if alg != SIGNATURE_ALG:
        raise SignatureError(f"unsupported signature algorithm {alg!r}; expected 'ed25519'")
    expected = fingerprint(public_key)
    signed_with = sig.get("key")
    if signed_with is None:
        raise SignatureError("the <signature> element has no key attribute")
    if signed_with != expected:
        raise SignatureError(
            f"the file was signed with key {signed_with}, but the expected key is {expected}"
        )
    extra = sorted(set(sig.attrib) - _SIGNATURE_ATTRS)
    if extra:
        raise SignatureError(f"the <signature> element has unexpected attributes: {extra}")
    if len(sig):
        raise SignatureError("the <signature> element must contain only base64 text")
    text = "".join((sig.text or "").split())
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise SignatureError("the signature is not valid base64") from None
    if len(raw) != 64 or base64.b64encode(raw).decode("ascii") != text:
        raise SignatureError("the signature is malformed: expected 64 bytes in standard base64")
    try:
        public_key.verify(raw, signed_bytes(root))
    except InvalidSignature:
        raise SignatureError(
            "the signature does not match the file: it was changed after signing, "
            "or signed with another key"
        ) from None


def _attribute(root: etree._Element, name: str) -> str:
    value = root.get(name)
    if value is None:
        raise InvalidInput(f"<orders> has no {name} attribute")
    if not value:
        raise InvalidInput(f"the {name} attribute of <orders> is empty")
    return value


def _hex_attribute(root: etree._Element, name: str) -> str:
    value = _attribute(root, name)
    if not _HEX64.fullmatch(value):
        raise InvalidInput(
            f"the {name} attribute of <orders> must be 64 lowercase hex digits, not {value!r}"
        )
    return value


def read_envelope(root: etree._Element) -> Envelope:
    """Read and check the envelope attributes and the <entropy> of an orders document."""
    if root.tag != ORDERS_TAG:
        raise InvalidInput(
            f'the root element must be <orders xmlns="{ORDERS_NS}">, not {_name(root)}'
        )
    game = _attribute(root, "game")
    module = _attribute(root, "module")
    side = _attribute(root, "side")
    seq_text = _attribute(root, "seq")
    if not _SEQ.fullmatch(seq_text):
        raise InvalidInput(
            f"seq must be a non-negative decimal integer (digits only, no sign, no leading "
            f"zeros, at most 18 digits), not {seq_text!r}"
        )
    prev = _hex_attribute(root, "prev")
    commit = _hex_attribute(root, "commit")
    found = [child for child in root if child.tag == ENTROPY_TAG]
    if not found:
        raise InvalidInput("the orders have no <entropy> element")
    if len(found) > 1:
        raise InvalidInput("the orders contain more than one <entropy> element")
    if len(found[0]):
        raise InvalidInput("<entropy> must contain only hex digits")
    digits = (found[0].text or "").strip(_XML_SPACE)
    if not _HEX.fullmatch(digits):
        raise InvalidInput("<entropy> must be an even number of hex digits")
    entropy = bytes.fromhex(digits)
    if not entropy and root.find(SIGNATURE_TAG) is None:
        raise InvalidInput("the file is not signed yet: `pbem sign FILE --key YOUR.key` "
                           "fills in <entropy> and adds your signature")
    if not ENTROPY_MIN_BYTES <= len(entropy) <= ENTROPY_MAX_BYTES:
        raise InvalidInput(
            f"<entropy> must hold {ENTROPY_MIN_BYTES} to {ENTROPY_MAX_BYTES} bytes, "
            f"not {len(entropy)}"
        )
    return Envelope(game, module, side, int(seq_text), prev, commit, entropy)
