"""What the rules compute again and again from the same facts, kept (docs/architecture.md,
"Performance"): a supply network or the zones of control of a side where its units
stand are asked once per unit and per order, but change only when an event moves a
unit. A `Memo` keeps each answer under the facts it depends on (its key), for the last
keys asked; the same facts give the same answer, so a kept answer is never stale.

>>> memo: Memo[int, int] = Memo(size=2)
>>> calls = []
>>> def square(n: int) -> int:
...     calls.append(n)
...     return n * n
>>> [memo.get(n, lambda: square(n)) for n in (2, 3, 2, 4, 3)]
[4, 9, 4, 16, 9]
>>> calls  # 3 was dropped when 4 came, as the least recently asked
[2, 3, 4, 3]
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """The answers for the last `size` keys asked, safe to share between threads (a
    module's data is shared by the service's thread pool)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The answer kept under `key`, or `compute()` kept under it."""
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        value = compute()
        with self._lock:
            self._kept[key] = value
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._kept)
