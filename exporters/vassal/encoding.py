"""VASSAL's string encodings, byte for byte as VASSAL 3.7.26 reads them.

- `encode`/`decode`: `VASSAL.tools.SequenceEncoder` (FORMAT.md §3.1): tokens joined
  by a delimiter, a delimiter inside a token escaped with one backslash, a token
  starting with a backslash (or wrapped in single quotes) wrapped in quotes.
  Backslashes themselves are never escaped, so every nesting level adds one.
- `piece_text`/`parse_piece_text`: a game piece as `+/id/type/state` (§3.2), where
  type and state are trait chains nested with TAB, outermost trait first (§3.3).
- `obfuscate`/`deobfuscate`: the `!VCSK` XOR-hex wrapper of saved games (§4.2).
- `java_int`/`java_double`: numbers as Java's `Integer.valueOf`/`Double.valueOf`
  parse them (one malformed number drops a whole map, §2.1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

TAB = "\t"
ESC = "\x1b"  # GameModule.COMMAND_SEPARATOR


def encode(tokens: list[str], delimiter: str) -> str:
    """`new SequenceEncoder(d).append(t1).append(t2)...getValue()` (SequenceEncoder.java:95-112).

    >>> encode(["a", "b;c", ""], ";")
    'a;b\\\\;c;'
    >>> encode(["\\\\x"], ";")
    "'\\\\x'"
    """
    out = []
    for token in tokens:
        if not token:
            out.append("")
            continue
        escaped = token.replace(delimiter, "\\" + delimiter)
        if token[0] == "\\" or (token[0] == "'" and token[-1] == "'"):
            escaped = f"'{escaped}'"
        out.append(escaped)
    return delimiter.join(out)


def decode(value: str, delimiter: str) -> list[str]:
    """`SequenceEncoder.Decoder` read to the end (SequenceEncoder.java:247-305): split at
    every delimiter not preceded by a backslash, drop that backslash, unquote.

    >>> decode("a;b\\\\;c;", ";")
    ['a', 'b;c', '']
    >>> decode("", ";")
    ['']
    """
    tokens = []
    start, n = 0, len(value)
    while True:
        parts: list[str] = []
        i = start
        while i < n:
            if value[i] == delimiter:
                if i > 0 and value[i - 1] == "\\":
                    parts.append(value[start:i - 1])
                    start = i
                else:
                    break
            i += 1
        parts.append(value[start:i])
        token = "".join(parts)
        if len(token) > 1 and token[0] == "'" and token[-1] == "'":
            token = token[1:-1]
        tokens.append(token)
        if i >= n:
            return tokens
        start = i + 1


@dataclass(frozen=True)
class Trait:
    """One level of a piece: its type string (`mark;pbem`, `piece;;;a.png;Name`) and
    its state string."""

    type: str
    state: str = ""


def chain(traits: list[Trait]) -> tuple[str, str]:
    """The (type, state) of a trait chain, outermost first, innermost a BasicPiece:
    each level is `SequenceEncoder(myType, TAB).append(inner)` (Decorator.java:525-530)."""
    if not traits:
        raise ValueError("a piece needs at least its BasicPiece")
    type_, state = traits[-1].type, traits[-1].state
    for trait in reversed(traits[:-1]):
        type_ = encode([trait.type, type_], TAB)
        state = encode([trait.state, state], TAB)
    return type_, state


def unchain(type_: str, state: str) -> list[Trait]:
    """The traits of a (type, state) pair: two TAB tokens per level, as
    BasicCommandEncoder.createPiece and Decorator.setState read them."""
    traits = []
    while True:
        types = decode(type_, TAB)
        if len(types) < 2:
            traits.append(Trait(type_, state))
            return traits
        states = decode(state, TAB)
        if len(states) < 2:
            raise ValueError(f"no state for trait {types[0]!r}")
        traits.append(Trait(types[0], states[0]))
        type_, state = types[1], states[1]


def piece_text(traits: list[Trait], piece_id: str = "null") -> str:
    """`+/id/type/state` (BasicCommandEncoder.java:323-456)."""
    type_, state = chain(traits)
    return "+/" + encode([piece_id, type_, state], "/")


def parse_piece_text(text: str) -> tuple[str, list[Trait]]:
    """The id and traits of a `+/id/type/state` text."""
    if not text.startswith("+/"):
        raise ValueError(f"not an add-piece command: {text[:20]!r}")
    tokens = decode(text[2:], "/")
    if len(tokens) < 3:
        raise ValueError("an add-piece command needs id, type and state")
    return tokens[0], unchain(tokens[1], tokens[2])


def obfuscate(text: str, key: int = 0x5A) -> bytes:
    """`!VCSK` + the key in two hex digits + every UTF-8 byte XOR key in two hex digits
    (ObfuscatingOutputStream)."""
    hexed = "".join(f"{b ^ key:02x}" for b in text.encode("utf-8"))
    return b"!VCSK" + f"{key:02x}{hexed}".encode("ascii")


def deobfuscate(data: bytes) -> str:
    """The text of a saved-game entry, obfuscated or plain (DeobfuscatingInputStream)."""
    if not data.startswith(b"!VCSK"):
        return data.decode("utf-8")
    key = int(data[5:7], 16)
    body = bytes.fromhex(data[7:].decode("ascii"))
    return bytes(b ^ key for b in body).decode("utf-8")


def java_int(value: float) -> str:
    """An int attribute: a plain integer, never `32.0`."""
    return str(int(round(value)))


def java_double(value: float) -> str:
    """A double attribute as `Double.valueOf` reads it: `.` decimal point, finite.

    >>> java_double(55.42562584220407), java_double(64)
    ('55.42562584220407', '64.0')
    """
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value}")
    return repr(float(value))
