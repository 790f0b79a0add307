"""Hardened XML parsing for order files (untrusted) and bundled module data.

No DTD is ever loaded or accepted, no entity is ever expanded, nothing is fetched
from the network, and only UTF-8 (or its ASCII subset) is read. CRLF line ends are
normalised to LF by the parser, so a file that went through a mail client still
verifies.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from adjudicator.errors import InvalidInput
from adjudicator.security.limits import (  # noqa: F401
    MAX_ORDER_BYTES,
    MAX_TRUSTED_BYTES,
    in_words,
)

_ALLOWED_ENCODINGS = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})
_DECLARED_ENCODING = re.compile(
    rb"\A(?:\xef\xbb\xbf)?<\?xml\s[^>]*?\bencoding\s*=\s*([\"'])([^\"'>]*)\1"
)


def _parser() -> etree.XMLParser:
    """A fresh parser with every dangerous feature off and the encoding forced to UTF-8."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_blank_text=False,
        encoding="utf-8",
    )


def _check_text(data: bytes, max_bytes: int, what: str) -> None:
    """Reject input that is empty, too large, not UTF-8 or that declares a DTD."""
    if len(data) > max_bytes:
        raise InvalidInput(f"{what} is too large: {len(data):,} bytes; the limit is "
                           f"{in_words(max_bytes)}")
    if not data.strip():
        raise InvalidInput(f"{what} is empty")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"{what} is not UTF-8 text (invalid byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start}); save it as UTF-8"
        ) from None
    declared = _DECLARED_ENCODING.match(data)
    if declared is not None:
        name = declared.group(2).decode("ascii", "replace")
        if name.lower() not in _ALLOWED_ENCODINGS:
            raise InvalidInput(f"{what} declares encoding {name!r}; only UTF-8 is accepted")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise InvalidInput(f"{what} contains a DOCTYPE or ENTITY declaration, which is not allowed")


def _parse(data: bytes, max_bytes: int, what: str) -> etree._Element:
    """Check, parse and post-check one document; return its root element."""
    _check_text(data, max_bytes, what)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        msg = " ".join(str(exc.msg or "syntax error").split())
        raise InvalidInput(f"{what} is not well-formed XML at line {exc.lineno}: {msg}") from None
    except (etree.LxmlError, ValueError) as exc:
        raise InvalidInput(f"{what} could not be read as XML: {exc}") from None
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None or docinfo.externalDTD is not None:
        raise InvalidInput(f"{what} contains a DOCTYPE declaration, which is not allowed")
    for node in root.iter(etree.Entity):
        raise InvalidInput(f"{what} uses the entity {node.text}, which is not allowed")
    return root


def parse_untrusted(data: bytes, *, max_bytes: int = MAX_ORDER_BYTES) -> etree._Element:
    """Parse an untrusted document (an order file) and return its root element.

    Raises InvalidInput for anything that is too large, empty, not UTF-8, not
    well-formed, or that carries a DOCTYPE.
    """
    return _parse(data, max_bytes, "the file")


def parse_trusted_file(path: Path | str) -> etree._Element:
    """Parse a bundled data file with the same hardening and a 16 MiB cap."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_TRUSTED_BYTES + 1)
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror or exc}") from None
    return _parse(data, MAX_TRUSTED_BYTES, str(path))
