"""Orders: what a player asks for, parsed from the game-specific part of an order file."""

from __future__ import annotations

from dataclasses import dataclass, field

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
