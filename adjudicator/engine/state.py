"""Game state as plain data, with a canonical serialization and its hash (DESIGN §4).

State is a JSON-compatible tree (dicts with string keys, lists, strings, ints,
bools, None). Nothing else holds game truth. The canonical bytes sort keys and
drop insignificant whitespace, so two equal states always hash the same.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

State = dict[str, Any]


def canonical_json(value: Any) -> bytes:
    """The canonical bytes of a JSON-compatible value: sorted keys, no spaces, UTF-8.

    >>> canonical_json({"b": 1, "a": [True, None]})
    b'{"a":[true,null],"b":1}'
    """
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def state_hash(state: State) -> str:
    """SHA-256 (lowercase hex) of the state's canonical bytes."""
    return hashlib.sha256(canonical_json(state)).hexdigest()


def copy_state(state: State) -> State:
    """A deep copy, so a step can work on a draft and discard it."""
    return copy.deepcopy(state)
