"""Reading a received e-mail (docs/service.md): who sent it (only where answers go) and
exactly one order file, attached or as the plain-text body, or the reason in plain
words why there is none. Never raises, whatever the bytes."""

from __future__ import annotations

import email
import email.policy
import logging
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.utils import getaddresses

from adjudicator.security.limits import in_words
from adjudicator.security.xmlsafe import MAX_ORDER_BYTES

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2 * 1024 * 1024  # an e-mail: an order file and its encoding, with room
MAX_ATTACHMENTS = 10
MAX_PARTS = 100  # MIME parts of any kind, nested ones included
MAX_DEPTH = 10  # nesting of multiparts and forwarded messages
HEADER_BYTES = 64 * 1024  # what is read of an oversize message to find whom to answer
XML_TYPES = frozenset({"application/xml", "text/xml"})
BASE64_DEFECTS = ("InvalidBase64CharactersDefect", "InvalidBase64PaddingDefect",
                  "InvalidBase64LengthDefect")

_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9.-]{1,190}"
                      r"|[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@\[[0-9.]{7,15}\]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


# -- what a message holds -----------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Why a message holds no order file we can submit: a code and the words a sender reads."""

    code: str  # too-large, unreadable, too-many-parts, no-order-file, two-order-files,
    #            not-xml, body-not-orders, undecodable, order-file-too-large
    words: str


@dataclass(frozen=True)
class Incoming:
    """What a received e-mail holds, as far as the service cares."""

    sender: str | None  # where answers go (never an authorization)
    message_id: str | None
    order_file: bytes | None  # exactly one order file, or None with a problem
    problem: Problem | None
    automatic: bool = False  # an auto-reply, bounce or list mail: never answer a problem
    ignored: tuple[str, ...] = ()  # attachments beside the order file that were not read


def parse_incoming(raw: bytes, *, max_message_bytes: int = MAX_MESSAGE_BYTES,
                   max_attachments: int = MAX_ATTACHMENTS) -> Incoming:
    """Find the sender and the one order file in an e-mail's raw bytes.

    Never raises: every way a message can fail (too large, not MIME, no file, two
    files, not XML, broken encodings) comes back as a `Problem` to answer with.
    """
    if len(raw) > max_message_bytes:
        headers = _headers_only(raw[:HEADER_BYTES])
        return _with_problem(headers, Problem(
            "too-large", f"the e-mail is {len(raw):,} bytes; an e-mail may have at most "
            f"{in_words(max_message_bytes)}."))
    try:
        message = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception:  # the parser is lenient, but a bug must not lose the message
        return Incoming(None, None, None, Problem("unreadable", "it could not be read as "
                                                  "an e-mail (MIME) message at all."))
    try:
        order_file, problem, ignored = _find_order_file(message, max_attachments)
    except Exception:  # the email package raises on some malformed headers and parts
        log.debug("MIME structure not readable", exc_info=True)
        order_file, problem, ignored = None, Problem(
            "unreadable", "its MIME structure could not be read."), ()
    return Incoming(_sender(message), _message_id(message), order_file, problem,
                    _automatic(message), ignored)


def _headers_only(head: bytes) -> Message:
    try:
        return email.message_from_bytes(head, policy=email.policy.default)
    except Exception:
        return EmailMessage()


def _with_problem(message: Message, problem: Problem) -> Incoming:
    return Incoming(_sender(message), _message_id(message), None, problem,
                    _automatic(message))


def _raw_header(message: Message, name: str) -> list[str]:
    """A header's raw values, unfolded. Raw, because the structured header parser of
    policy.default raises on some hostile values and we only need plain strings."""
    try:
        return [" ".join(str(value).split()) for key, value in message.raw_items()
                if key.lower() == name]
    except Exception:
        return []


def _sender(message: Message) -> str | None:
    """The one From address, if it is plainly an address; None otherwise."""
    values = _raw_header(message, "from")
    if len(values) != 1:
        return None
    try:
        addresses = [addr for _name, addr in getaddresses(values) if addr]
    except Exception:
        return None
    if len(addresses) != 1 or _ADDRESS.fullmatch(addresses[0]) is None:
        return None
    local, domain = addresses[0].rsplit("@", 1)
    return f"{local}@{domain.lower()}"


def _message_id(message: Message) -> str | None:
    values = _raw_header(message, "message-id")
    return _printable(values[0])[:250] if values and values[0] else None


def _printable(text: str) -> str:
    """Text from a header, safe to quote in an answer: 8-bit bytes the parser kept as
    surrogates and control characters become '?'."""
    return _CONTROL.sub("?", text.encode("utf-8", "replace").decode("utf-8"))


def _automatic(message: Message) -> bool:
    """An auto-reply, bounce or list message (RFC 3834): answering it could loop."""
    auto = [v.split(";")[0].strip().lower() for v in _raw_header(message, "auto-submitted")]
    precedence = [v.strip().lower() for v in _raw_header(message, "precedence")]
    return_path = [v.strip() for v in _raw_header(message, "return-path")]
    sender = (_sender(message) or "").lower()
    return (any(a and a != "no" for a in auto)
            or any(p in ("bulk", "junk", "list", "auto_reply") for p in precedence)
            or "<>" in return_path
            or sender.startswith(("mailer-daemon@", "postmaster@")))


class _TooComplex(Exception):
    pass


def _leaves(message: Message) -> list[Message]:
    """The leaf parts in document order, forwarded messages included (walked without
    recursion, with limits, so a hostile nesting cannot exhaust the stack)."""
    leaves: list[Message] = []
    stack: list[tuple[Message, int]] = [(message, 0)]
    seen = 0
    while stack:
        part, depth = stack.pop()
        seen += 1
        if seen > MAX_PARTS or depth > MAX_DEPTH:
            raise _TooComplex
        payload = part.get_payload()
        if part.is_multipart() and isinstance(payload, list):
            stack.extend((child, depth + 1) for child in reversed(payload)
                         if isinstance(child, Message))
        else:
            leaves.append(part)
    return leaves


def _name(part: Message) -> str:
    filename = part.get_filename()
    ctype = _printable(part.get_content_type())
    return f"{_printable(filename)[:100]!r} ({ctype})" if filename else ctype


def _is_body(part: Message, subtype: str) -> bool:
    return (part.get_content_type() == f"text/{subtype}"
            and part.get_content_disposition() != "attachment" and not part.get_filename())


def _looks_like_orders(data: bytes) -> bool:
    start = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:64]
    return start.startswith((b"<?xml", b"<orders"))


def _is_xml(part: Message) -> bool:
    ctype = part.get_content_type()
    filename = (part.get_filename() or "").lower()
    if ctype in XML_TYPES or ctype.endswith("+xml") or filename.endswith(".xml"):
        return True
    data = part.get_payload(decode=True)
    return isinstance(data, bytes) and _looks_like_orders(data)


def _find_order_file(message: Message, max_attachments: int
                     ) -> tuple[bytes | None, Problem | None, tuple[str, ...]]:
    """The one order file of a parsed message: an XML attachment, else a plain body."""
    try:
        leaves = _leaves(message)
    except _TooComplex:
        return None, Problem("too-many-parts", f"it has more than {MAX_PARTS} MIME parts or "
                             f"nests them more than {MAX_DEPTH} deep."), ()
    texts = [p for p in leaves if _is_body(p, "plain")]
    htmls = [p for p in leaves if _is_body(p, "html")]
    attachments = [p for p in leaves if p not in texts and p not in htmls]
    if len(attachments) > max_attachments:
        return None, Problem("too-many-parts", f"it has {len(attachments)} attachments; the "
                             f"limit is {max_attachments}, and one order file is all we need."), ()
    xml = [p for p in attachments if _is_xml(p)]
    ignored = tuple(_name(p) for p in attachments if p not in xml)
    if len(xml) > 1:
        names = ", ".join(_name(p) for p in xml)
        return None, Problem("two-order-files", f"it has {len(xml)} XML attachments ({names}); "
                             "send exactly one order file per e-mail."), ignored
    if xml:
        data, problem = _attachment_bytes(xml[0])
        return data, problem, ignored
    bodies = [b for b in (_body_bytes(p) for p in texts) if b is not None]
    orders = [b for b in bodies if isinstance(b, bytes) and _looks_like_orders(b)]
    if len(orders) > 1:
        return None, Problem("two-order-files", f"it holds {len(orders)} order files in its "
                             "text parts; send exactly one order file per e-mail."), ignored
    if orders:
        data, problem = _checked_size(orders[0], "the order file in the body")
        return data, problem, ignored
    problems = [b for b in bodies if isinstance(b, Problem)]
    if problems:
        return None, problems[0], ignored
    return None, _nothing_found(attachments, texts, htmls), ignored


def _nothing_found(attachments: list[Message], texts: list[Message],
                   htmls: list[Message]) -> Problem:
    if attachments:
        names = ", ".join(_name(p) for p in attachments)
        return Problem("not-xml", f"its attachment{'s' if len(attachments) > 1 else ''} "
                       f"({names}) {'are' if len(attachments) > 1 else 'is'} not an XML order "
                       "file.")
    if any(_text_of(p).strip() for p in texts):
        return Problem("body-not-orders", "it has no attachment, and its text is not an order "
                       "file (an order file begins with <?xml or <orders).")
    if htmls:
        return Problem("body-not-orders", "it has only an HTML body; attach the order file, or "
                       "paste it into a plain-text e-mail.")
    return Problem("no-order-file", "it holds no order file: no attachment and no text.")


def _text_of(part: Message) -> str:
    try:
        content = _content(part)
    except Exception:
        return ""
    return content if isinstance(content, str) else ""


def _content(part: Message) -> object:
    """A part's decoded content (policy.default parts are EmailMessages)."""
    return part.get_content() if isinstance(part, EmailMessage) else part.get_payload()


def _attachment_bytes(part: Message) -> tuple[bytes | None, Problem | None]:
    """An attachment's bytes exactly as sent (only the transfer encoding undone: the XML
    declares its own encoding)."""
    data = part.get_payload(decode=True)
    broken = [type(d).__name__ for d in part.defects if type(d).__name__ in BASE64_DEFECTS]
    if broken or not isinstance(data, bytes):
        return None, Problem("undecodable", f"the attachment {_name(part)} could not be "
                             "decoded (broken base64); attach the file again.")
    return _checked_size(data, f"the attachment {_name(part)}")


def _body_bytes(part: Message) -> bytes | Problem | None:
    """A plain-text body as UTF-8 bytes, trimmed to the order file (surrounding blank
    lines and a signature after </orders> are what mail programs add); None if empty."""
    try:
        text = _content(part)
        if not isinstance(text, str):
            return None
        data = text.strip().encode("utf-8")
    except (LookupError, UnicodeError):
        return Problem("undecodable", "its text could not be decoded (unknown or broken "
                       "character set); send the order file as an attachment.")
    if any(type(d).__name__ in BASE64_DEFECTS for d in part.defects):
        return Problem("undecodable", "its text could not be decoded (broken base64).")
    end = data.rfind(b"</orders>")
    if _looks_like_orders(data) and end >= 0:
        data = data[:end + len(b"</orders>")]
    return data or None


def _checked_size(data: bytes, what: str) -> tuple[bytes | None, Problem | None]:
    if len(data) > MAX_ORDER_BYTES:
        return None, Problem("order-file-too-large", f"{what} is {len(data):,} bytes; an "
                             f"order file may have at most {in_words(MAX_ORDER_BYTES)}.")
    return data, None
