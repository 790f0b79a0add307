"""Decision requests: a choice the rules give a side in the middle of a turn (docs/architecture.md,
The engine model).

The rules first look for an explicit answer in the current submission, then
for the side's standing instructions; failing both they open a request and the
step stops until that side answers in its next submission.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DecisionRequest:
    """What a side must decide: `kind`, the `rule` that gives it the choice, the
    legal `options` (strings the answer must pick from), and `context` data for
    the report (the area attacked, the roll, ...)."""

    id: str
    side: str
    kind: str
    rule: str
    options: list[str]
    context: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "kind": self.kind,
            "rule": self.rule,
            "options": list(self.options),
            "context": dict(self.context),
        }

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> DecisionRequest:
        return cls(
            value["id"], value["side"], value["kind"], value["rule"],
            list(value["options"]), dict(value.get("context", {})),
        )


class DecisionPending(Exception):  # noqa: N818 - control flow, not an error
    """Raised by the rules after opening a request: the step stops here, cleanly."""

    def __init__(self, request: DecisionRequest) -> None:
        super().__init__(request.kind)
        self.request = request
