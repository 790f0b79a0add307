"""Events: what happened. State changes only by applying events (docs/architecture.md, The engine
model)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened, e.g. `Event("moved", {"unit": "GER-16", "to": "riga"})`.

    `data` must be JSON-compatible; the journal stores `{"kind": ..., **data}`.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Event:
        data = dict(value)
        kind = data.pop("kind")
        return cls(kind, data)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]
