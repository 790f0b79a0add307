"""Committed, reproducible dice (scheme version 1; see docs/protocol.md).

commit     = SHA256("pbem/commit/v1" NUL server_seed)
stream_key = HMAC-SHA256(server_seed, "pbem/dice/v1" NUL game NUL seq NUL entropy)
block_k    = HMAC-SHA256(stream_key, uint64_be(k)), read as big-endian 32-bit words
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterator, Sequence
from itertools import count

DICE_VERSION = 1
SEED_BYTES = 32

_COMMIT_TAG = b"pbem/commit/v1\x00"
_DICE_TAG = b"pbem/dice/v1\x00"
_TEST_SEED_TAG = b"pbem/test-seed/v1\x00"
_TWO_32 = 1 << 32


def _step_label(game_id: str, seq: int) -> bytes:
    """game_id as UTF-8, a NUL, seq in ASCII decimal."""
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise ValueError(f"seq must be a non-negative integer, not {seq!r}")
    return game_id.encode("utf-8") + b"\x00" + str(seq).encode("ascii")


def commitment(server_seed: bytes) -> str:
    """The published commitment to a server seed, as lowercase hex."""
    return hashlib.sha256(_COMMIT_TAG + server_seed).hexdigest()


def fresh_server_seed() -> bytes:
    """32 fresh random bytes from the operating system."""
    return os.urandom(SEED_BYTES)


def seed_for_test_game(test_seed: bytes, game_id: str, seq: int) -> bytes:
    """A reproducible server seed for examples and tests (not for real games)."""
    msg = _TEST_SEED_TAG + _step_label(game_id, seq)
    return hmac.new(test_seed, msg, hashlib.sha256).digest()




def stream_key(server_seed: bytes, game_id: str, seq: int, entropy: bytes) -> bytes:
    """The HMAC key of the dice stream of one step."""
    if len(server_seed) != SEED_BYTES:
        raise ValueError(f"server_seed must be {SEED_BYTES} bytes, not {len(server_seed)}")
    msg = _DICE_TAG + _step_label(game_id, seq) + b"\x00" + bytes(entropy)
    return hmac.new(server_seed, msg, hashlib.sha256).digest()


class DiceStream:
    """The die rolls of one adjudicated step, drawn from a committed seed."""

    version = DICE_VERSION

    def __init__(self, server_seed: bytes, game_id: str, seq: int, entropy: bytes) -> None:
        self.key = stream_key(server_seed, game_id, seq, entropy)
        self.words_used = 0
        self._words = self._iter_words()

    def _iter_words(self) -> Iterator[int]:
        """Big-endian 32-bit words of block_0, block_1, ..."""
        for k in count():
            block = hmac.new(self.key, k.to_bytes(8, "big"), hashlib.sha256).digest()
            for i in range(0, len(block), 4):
                yield int.from_bytes(block[i : i + 4], "big")

    def uniform(self, n: int) -> int:
        """A uniform integer in 0..n-1 (1 <= n <= 2**32), by rejection sampling."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= _TWO_32:
            raise ValueError(f"uniform(n) needs 1 <= n <= 2**32, not {n!r}")
        limit = _TWO_32 - (_TWO_32 % n)
        while True:
            word = next(self._words)
            self.words_used += 1
            if word < limit:
                return word % n

    def d6(self) -> int:
        """One six-sided die, 1..6."""
        return self.uniform(6) + 1

    def d3(self) -> int:
        """One three-sided die, 1..3, read from a single d6 as ceil(d6 / 2)."""
        return (self.d6() + 1) // 2

    def pick(self, candidates: Sequence[str]) -> str:
        """A random draw from a cup: uniform over the ids sorted by code point."""
        if not candidates:
            raise ValueError("cannot draw from an empty cup")
        ordered = sorted(candidates)
        return ordered[self.uniform(len(ordered))]
