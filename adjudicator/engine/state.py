"""Game state as plain data, with a canonical serialization and its hash (docs/architecture.md, The
engine model).

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
    """A deep copy, so a step can work on a draft and discard it.

    >>> original = {"units": {"GER-6": "lvov"}, "moved": ["GER-6"]}
    >>> draft = copy_state(original)
    >>> draft["units"]["GER-6"] = "kiev"; draft["moved"].append("GER-7")
    >>> original
    {'units': {'GER-6': 'lvov'}, 'moved': ['GER-6']}
    """
    return _copy(state)  # type: ignore[no-any-return]


def _copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, and immutable leaves), several times
    faster than copy.deepcopy, which has to handle every type and shared references."""
    if isinstance(value, dict):
        return {key: _copy(item) if isinstance(item, (dict, list)) else item
                for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) if isinstance(item, (dict, list)) else item for item in value]
    return copy.deepcopy(value) if not isinstance(value, (str, int, float, bool, type(None))) \
        else value
