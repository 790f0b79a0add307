"""The size limits of what the adjudicator reads, defined once (every message, page and
check states them from here)."""

MAX_ORDER_BYTES = 256 * 1024  # an order file (262,144 bytes)
MAX_TRUSTED_BYTES = 16 * 1024 * 1024  # a bundled or referee-supplied data file


def in_words(limit: int) -> str:
    """A limit as players read it.

    >>> in_words(MAX_ORDER_BYTES)
    '256 KiB (262,144 bytes)'
    """
    units = ((1024 * 1024, "MiB"), (1024, "KiB"))
    for size, name in units:
        if limit % size == 0:
            return f"{limit // size} {name} ({limit:,} bytes)"
    return f"{limit:,} bytes"
