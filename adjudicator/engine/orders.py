"""Orders: what a player asks for, parsed from the game-specific part of an order file."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import ClassVar, Self

from lxml import etree

ORDERS_NS = "urn:pbem:orders:1"
ENVELOPE_TAGS = {"entropy", "signature"}


@dataclass(frozen=True)
class Order:
    """One order: its element name, attributes, text, and where it stood in the file.

    `index` counts game orders from 0 (the envelope's `<entropy>` and
    `<signature>` are not orders); `line` is the XML source line.
    """

    kind: str
    attrs: dict[str, str] = field(default_factory=dict)
    text: str = ""
    index: int = 0
    line: int | None = None

    def get(self, name: str, default: str = "") -> str:
        return self.attrs.get(name, default)

    def words(self, name: str) -> list[str]:
        """A space-separated attribute as a list (`units="GER-6 GER-17"`)."""
        return self.attrs.get(name, "").split()


def local_name(element: etree._Element) -> str:
    return str(etree.QName(element).localname)


def orders_from_envelope(root: etree._Element) -> list[Order]:
    """The game orders of an `<orders>` document, in execution order.

    Comments and processing instructions are skipped; the envelope's own
    children (`entropy`, `signature`) are not orders.
    """
    orders: list[Order] = []
    for child in root:
        if not isinstance(child.tag, str):
            continue
        name = local_name(child)
        if etree.QName(child).namespace == ORDERS_NS and name in ENVELOPE_TAGS:
            continue
        orders.append(
            Order(
                kind=name,
                attrs={str(k): str(v) for k, v in child.attrib.items()},
                text=(child.text or "").strip(),
                index=len(orders),
                line=child.sourceline,
            )
        )
    return orders


class OrderSpec:
    """Base of a game's typed orders: one frozen dataclass per order kind, its fields the
    order's attributes (a field `loss_priority` is the attribute `loss-priority`; a
    `tuple[str, ...]` field a space-separated list, a `str` field the text as written,
    "" when absent). A value is kept as written: the rules check it and refuse it in
    words, so a typed order never refuses what the rules would have explained.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Move(OrderSpec):
    ...     KIND = "move"
    ...     unit: str = ""
    ...     path: tuple[str, ...] = ()
    >>> Move.from_order(Order("move", {"unit": "GER-6", "path": "0101 0102"}))
    Move(unit='GER-6', path=('0101', '0102'))
    >>> Move("GER-6", ("0101", "0102")).to_xml()
    '<move unit="GER-6" path="0101 0102"/>'
    """

    KIND: ClassVar[str] = ""
    # the shorthand (engine/shorthand.py): the fields given by position (None: the
    # leading fields up to the first list field), and short words naming a field
    POSITIONAL: ClassVar[tuple[str, ...] | None] = None
    KEYWORDS: ClassVar[dict[str, str]] = {}

    @staticmethod
    def attribute(name: str) -> str:
        return name.replace("_", "-")

    @classmethod
    def from_order(cls, order: Order) -> Self:
        values: dict[str, object] = {}
        for f in fields(cls):  # type: ignore[arg-type]
            attr = cls.attribute(f.name)
            values[f.name] = tuple(order.words(attr)) if is_list_field(f.type) else order.get(attr)
        return cls(**values)

    def attributes(self) -> dict[str, str]:
        """The order's attributes as they would be written, the empty ones left out."""
        out = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            text = " ".join(value) if isinstance(value, tuple) else str(value)
            if text:
                out[self.attribute(f.name)] = text
        return out

    def to_order(self, index: int = 0) -> Order:
        return Order(self.KIND, self.attributes(), index=index)

    def to_xml(self) -> str:
        """The order as an element of an order file (no namespace prefix)."""
        return element_xml(self.KIND, self.attributes())


def element_xml(kind: str, attributes: dict[str, str]) -> str:
    """An order as an element of an order file (no namespace prefix)."""
    attrs = "".join(f' {k}="{_escape(v)}"' for k, v in attributes.items())
    return f"<{kind}{attrs}/>"


def _escape(text: str) -> str:
    """An attribute value as XML writes it between double quotes."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def is_list_field(annotation: object) -> bool:
    """Whether a field's annotation is a list of words (`tuple[str, ...]`)."""
    return "tuple" in str(annotation)
