"""The order shorthand: one order per line, the same grammar for every game
(docs/order-builder.md, "The command-line shorthand").

A line is the order's kind, its positional fields, then keyword fields:

    attack 2418 with GER-6 GER-17 air 1    # a comment

A game's typed orders (`OrderSpec`) say which fields are positional (`POSITIONAL`,
by default the leading fields up to and including the first list field) and which short
words name a field (`KEYWORDS`, such as `with` for the attacking units); every field is
also named by its attribute (`air`, `loss-priority`). A list field takes every word up
to the next keyword; `name=a,b` (or `name="a b"`) gives a field whose words are spelt
like a keyword. The
shorthand only reads and writes orders: values are kept as written, so the rules judge
them and refuse a bad one in their own words.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Attack(OrderSpec):
...     KIND = "attack"
...     KEYWORDS = {"with": "units"}
...     hex: str = ""
...     units: tuple[str, ...] = ()
...     air: str = ""
>>> grammar = Shorthand((Attack,))
>>> grammar.parse_line("attack 2418 with GER-6 GER-17 air 1")
Attack(hex='2418', units=('GER-6', 'GER-17'), air='1')
>>> grammar.line_of(Attack("2418", ("GER-6",), "2"))
'attack 2418 with GER-6 air 2'
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from adjudicator.engine.orders import Order, OrderSpec, element_xml, is_list_field

COMMENT = "#"
SPECIAL = ("=", ",", COMMENT)  # characters a bare value may not hold
QUOTES = "\"'\\"  # what the words of a line are split by besides spaces (shlex)
XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9._-]*")


@dataclass(frozen=True)
class Written:
    """An order of a game that declares no typed orders yet, as its line names it: the
    element without its angle brackets, `move units="GER-XX-12 GER-XX-251" path=1510`
    (every field by `name=value`, a value with spaces in double quotes). The game's
    order schema and rules judge it like any other."""

    kind: str
    attrs: tuple[tuple[str, str], ...] = ()

    def to_order(self, index: int = 0) -> Order:
        return Order(self.kind, dict(self.attrs), index=index)

    def to_xml(self) -> str:
        return element_xml(self.kind, dict(self.attrs))


Parsed = OrderSpec | Written


class ShorthandError(ValueError):
    """A shorthand line that cannot be read: where (`line`, from 1) and what is wrong."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Syntax:
    """How one order kind is written: its positional fields, its keywords (word ->
    field) and which fields are lists."""

    spec: type[OrderSpec]
    positional: tuple[str, ...]
    keywords: dict[str, str]
    lists: frozenset[str]

    @classmethod
    def of(cls, spec: type[OrderSpec]) -> Syntax:
        names = [f.name for f in fields(spec)]  # type: ignore[arg-type]
        lists = frozenset(f.name for f in fields(spec)  # type: ignore[arg-type]
                          if is_list_field(f.type))
        positional = spec.POSITIONAL
        if positional is None:
            first_list = next((i for i, n in enumerate(names) if n in lists), len(names) - 1)
            positional = tuple(names[:first_list + 1])
        keywords = {spec.attribute(n): n for n in names}
        for word, name in spec.KEYWORDS.items():
            if name not in names:
                raise ValueError(f"{spec.__name__}: keyword {word!r} names no field {name!r}")
            keywords[word] = name
        if any(n not in names for n in positional) or any(n in lists for n in positional[:-1]):
            raise ValueError(f"{spec.__name__}: positional fields {positional} are not its "
                             "fields, or a list field is not the last of them")
        return cls(spec, tuple(positional), keywords, lists)

    def keyword_for(self, name: str) -> str:
        """The word a line names the field by: the game's short word, else the attribute."""
        declared = [w for w, n in self.spec.KEYWORDS.items() if n == name]
        return declared[0] if declared else self.spec.attribute(name)

    def fields_words(self) -> str:
        """The fields in words for a message: `hex, then units (with), air`."""
        parts = list(self.positional)
        parts += [f"{self.keyword_for(n)} ..." for n in self.keywords.values()
                  if n not in self.positional and f"{self.keyword_for(n)} ..." not in parts]
        return " ".join([self.spec.KIND, *parts])


def shorthand_of(rules: object) -> Shorthand:
    """The shorthand of a game's rules, from the typed orders they declare
    (`RulesBase.order_specs`); for rules that declare none yet, the open form where
    every field is given as `name=value` (`Written`)."""
    specs: tuple[type[OrderSpec], ...] = getattr(rules, "order_specs", ())
    return Shorthand(specs)


class Shorthand:
    """The shorthand of one game: its order kinds, read from and written to lines."""

    def __init__(self, specs: Iterable[type[OrderSpec]]) -> None:
        self.syntax = {s.KIND: Syntax.of(s) for s in specs}
        self.open = not self.syntax  # no typed orders: any kind, fields by name=value

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.syntax)

    # -- reading ------------------------------------------------------------------------
    def parse(self, text: str) -> list[tuple[int, Parsed]]:
        """Every order of a shorthand text with its line number (from 1).

        Raises:
            ShorthandError: the first line that cannot be read.
        """
        found = []
        for number, raw in enumerate(text.splitlines(), start=1):
            words = self.words_of(raw, number)
            if words:
                found.append((number, self.parse_words(words, number)))
        return found

    def parse_line(self, line: str, number: int = 1) -> Parsed:
        words = self.words_of(line, number)
        if not words:
            raise ShorthandError(number, "the line holds no order")
        return self.parse_words(words, number)

    def words_of(self, line: str, number: int) -> list[str]:
        """The words of a line, its comment left out; a value in double quotes is one
        word (`path="1510 1611"`)."""
        try:
            return shlex.split(line, comments=True)
        except ValueError:
            raise ShorthandError(number, "a double quote is not closed") from None

    def parse_words(self, words: Sequence[str], number: int) -> Parsed:
        kind, rest = words[0], list(words[1:])
        if self.open:
            return self.parse_open(kind, rest, number)
        syntax = self.syntax.get(kind)
        if syntax is None:
            raise ShorthandError(number, f"{kind!r} is not an order of this game; the orders "
                                         f"are: {', '.join(self.kinds)}")
        values: dict[str, Any] = {}

        def give(name: str, value: Any, said: str) -> None:
            if name in values:
                raise ShorthandError(number, f"{kind}: {said} is given twice")
            values[name] = value

        position = 0
        while rest:
            word = rest.pop(0)
            name, _, given = word.partition("=")
            if "=" in word:  # name=value: always a keyword, whatever the value is spelt like
                field = syntax.keywords.get(name)
                if field is None:
                    raise ShorthandError(number, f"{kind} has no field {name!r}: "
                                                 f"{syntax.fields_words()}")
                give(field, tuple(given.replace(",", " ").split())
                     if field in syntax.lists else given, name)
                position = len(syntax.positional)
            elif word in syntax.keywords:
                field = syntax.keywords[word]
                if field in syntax.lists:
                    taken = []
                    while rest and rest[0] not in syntax.keywords and "=" not in rest[0]:
                        taken.append(rest.pop(0))
                    give(field, tuple(taken), word)
                else:
                    if not rest or rest[0] in syntax.keywords:
                        raise ShorthandError(number, f"{kind}: {word} needs a value")
                    give(field, rest.pop(0), word)
                position = len(syntax.positional)
            elif position < len(syntax.positional):
                field = syntax.positional[position]
                position += 1
                if field in syntax.lists:
                    taken = [word]
                    while rest and rest[0] not in syntax.keywords and "=" not in rest[0]:
                        taken.append(rest.pop(0))
                    give(field, tuple(taken), field)
                else:
                    give(field, word, field)
            else:
                raise ShorthandError(number, f"{kind}: {word!r} is one value too many; "
                                             f"the order reads: {syntax.fields_words()}")
        return syntax.spec(**values)

    def parse_open(self, kind: str, rest: list[str], number: int) -> Written:
        """A line of the open form: the kind, then `name=value` for every field."""
        if not XML_NAME.fullmatch(kind):
            raise ShorthandError(number, f"{kind!r} is not the name of an order")
        attrs: dict[str, str] = {}
        for word in rest:
            name, said, value = word.partition("=")
            if not said or not XML_NAME.fullmatch(name):
                raise ShorthandError(number, f"{kind}: {word!r} is not name=value (this "
                                             "game's orders give every field by its name, "
                                             'a value with spaces in double quotes)')
            if name in attrs:
                raise ShorthandError(number, f"{kind}: {name} is given twice")
            attrs[name] = value
        return Written(kind, tuple(attrs.items()))

    # -- writing ------------------------------------------------------------------------
    def line_of(self, order: OrderSpec) -> str:
        """The order as one shorthand line, which `parse_line` reads back to it.

        Raises:
            ValueError: a value the shorthand cannot write (a space or a comma in a value).
        """
        syntax = self.syntax.get(order.KIND)
        if syntax is None and self.open:
            return self.open_line(order.to_order())
        if syntax is None:
            raise ValueError(f"{order.KIND!r} is not an order of this game")
        out = [order.KIND]
        names = [f.name for f in fields(order)]  # type: ignore[arg-type]
        # the positional fields first, in their order (a game may put a list first in
        # its element, such as Moscow's `overrun units= hex=`, and `hex` first in a line)
        names = [*syntax.positional, *(n for n in names if n not in syntax.positional)]
        values = {name: getattr(order, name) for name in names}
        by_keyword = False
        for name, value in values.items():
            words = list(value) if name in syntax.lists else ([value] if value else [])
            if any(not w or any(c.isspace() or c in QUOTES for c in w) for w in words):
                raise ValueError(f"{order.KIND}: {name} {value!r} cannot be written in "
                                 "shorthand")
            if not words:
                by_keyword = by_keyword or name in syntax.positional
                continue
            plain = all(w not in syntax.keywords and not any(c in w for c in SPECIAL)
                        for w in words)
            if not plain:
                if any("," in w or COMMENT in w for w in words):
                    raise ValueError(f"{order.KIND}: {name} {value!r} cannot be written in "
                                     "shorthand")
                out.append(f"{syntax.spec.attribute(name)}={','.join(words)}")
                by_keyword = True
            elif name in syntax.positional and not by_keyword \
                    and name not in syntax.spec.KEYWORDS.values():
                out += words
            else:
                out += [syntax.keyword_for(name), *words]
                by_keyword = True
        return " ".join(out)

    def open_line(self, order: Order) -> str:
        """An order in the open form: `kind name=value ...`."""
        out = [order.kind]
        for name, value in order.attrs.items():
            if any(c in value for c in QUOTES) or value != " ".join(value.split()):
                raise ValueError(f"{order.kind}: {name} {value!r} cannot be written in "
                                 "shorthand")
            plain = value and not any(c.isspace() or c == COMMENT for c in value)
            out.append(f"{name}={value}" if plain else f'{name}="{value}"')
        return " ".join(out)
