"""Dice scheme v1: the module against the vectors, and the vectors against a reference."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import math
import struct
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.engine import dice

VECTORS = json.loads(
    (Path(__file__).parent / "vectors" / "dice-v1.json").read_text(encoding="utf-8")
)
CASES = VECTORS["cases"]
TWO_32 = 2**32


# --- an independent reference, written from the spec with hashlib/hmac/struct only ---


def ref_stream_key(seed: bytes, game: str, seq: int, entropy: bytes) -> bytes:
    msg = b"pbem/dice/v1\0" + game.encode() + b"\0" + b"%d" % seq + b"\0" + entropy
    return hmac.digest(seed, msg, "sha256")


def ref_words(key: bytes) -> Iterator[int]:
    for k in itertools.count():
        yield from struct.unpack(">8I", hmac.digest(key, struct.pack(">Q", k), "sha256"))


def ref_uniform(words: Iterator[int], n: int, rejected: list[int] | None = None) -> int:
    limit = TWO_32 - TWO_32 % n
    for w in words:
        if w < limit:
            return w % n
        if rejected is not None:
            rejected.append(w)
    raise AssertionError("unreachable")


def ref_case(case: dict) -> dict:
    """Recompute every derived field of a vector case from its inputs."""
    seed = bytes.fromhex(case["server_seed"])
    if "test_seed" in case:
        msg = b"pbem/test-seed/v1\0" + case["game_id"].encode() + b"\0" + b"%d" % case["seq"]
        assert hmac.digest(bytes.fromhex(case["test_seed"]), msg, "sha256") == seed
    key = ref_stream_key(seed, case["game_id"], case["seq"], bytes.fromhex(case["entropy"]))
    fresh = lambda: ref_words(key)  # noqa: E731
    words = fresh()
    d6 = [ref_uniform(words, 6) + 1 for _ in range(20)]
    words = fresh()
    d3 = [math.ceil((ref_uniform(words, 6) + 1) / 2) for _ in range(10)]
    uniform = []
    for entry in case["uniform"]:
        words, used = fresh(), 0
        values = []
        for _ in entry["values"]:
            rejected: list[int] = []
            values.append(ref_uniform(words, entry["n"], rejected))
            used += 1 + len(rejected)
        uniform.append({"n": entry["n"], "values": values, "words_used": used})
    words = fresh()
    ordered = sorted(case["pick"]["candidates"])
    picks = [ordered[ref_uniform(words, len(ordered))] for _ in case["pick"]["values"]]
    return {
        "commit": hashlib.sha256(b"pbem/commit/v1\0" + seed).hexdigest(),
        "stream_key": key.hex(),
        "blocks": [hmac.digest(key, struct.pack(">Q", k), "sha256").hex() for k in range(3)],
        "d6": d6,
        "d3": d3,
        "uniform": uniform,
        "pick": {"candidates": case["pick"]["candidates"], "values": picks},
    }


def stream(case: dict) -> dice.DiceStream:
    return dice.DiceStream(
        bytes.fromhex(case["server_seed"]),
        case["game_id"],
        case["seq"],
        bytes.fromhex(case["entropy"]),
    )


# --- the vectors themselves ---


def test_vector_file_covers_the_brief() -> None:
    assert len(CASES) >= 4
    assert any(not c["game_id"].isascii() for c in CASES)
    assert any(c["seq"] == 0 for c in CASES)
    assert any(c["seq"] >= 10 for c in CASES)
    ns = {u["n"] for c in CASES for u in c["uniform"]}
    assert {3, TWO_32, 3_000_000_000} <= ns
    for case in CASES:
        assert len(case["d6"]) == 20
        assert len(case["blocks"]) == 3
        assert 16 <= len(bytes.fromhex(case["entropy"])) <= 64


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_vectors_match_independent_reference(case: dict) -> None:
    expected = ref_case(case)
    for field, value in expected.items():
        assert case[field] == value, field


def test_vectors_include_a_rejected_word() -> None:
    rejections = 0
    for case in CASES:
        key = bytes.fromhex(case["stream_key"])
        for entry in case["uniform"]:
            if entry["n"] != 3_000_000_000:
                continue
            words: Iterator[int] = ref_words(key)
            rejected: list[int] = []
            for _ in entry["values"]:
                ref_uniform(words, entry["n"], rejected)
            assert all(w >= 3_000_000_000 for w in rejected)
            assert entry["words_used"] == len(entry["values"]) + len(rejected)
            rejections += len(rejected)
    assert rejections > 0


# --- the module against the vectors ---


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_module_matches_vectors(case: dict) -> None:
    seed = bytes.fromhex(case["server_seed"])
    if "test_seed" in case:
        derived = dice.seed_for_test_game(
            bytes.fromhex(case["test_seed"]), case["game_id"], case["seq"]
        )
        assert derived == seed
    assert dice.commitment(seed) == case["commit"]
    s = stream(case)
    assert s.key.hex() == case["stream_key"]
    assert s.version == dice.DICE_VERSION == 1
    assert [s.d6() for _ in range(20)] == case["d6"]
    assert s.words_used == 20
    s = stream(case)
    assert [s.d3() for _ in range(10)] == case["d3"]
    for entry in case["uniform"]:
        s = stream(case)
        assert [s.uniform(entry["n"]) for _ in entry["values"]] == entry["values"]
        assert s.words_used == entry["words_used"]
    s = stream(case)
    assert [s.pick(case["pick"]["candidates"]) for _ in range(5)] == case["pick"]["values"]


def test_module_rejection_happens_in_vectors() -> None:
    rejected = 0
    for case in CASES:
        s = stream(case)
        for _ in range(10):
            s.uniform(3_000_000_000)
        rejected += s.words_used - 10
    assert rejected > 0


def test_blocks_are_read_in_order() -> None:
    case = CASES[0]
    s = stream(case)
    words = [s.uniform(TWO_32) for _ in range(24)]
    raw = b"".join(bytes.fromhex(b) for b in case["blocks"])
    assert words == list(struct.unpack(">24I", raw))


# --- properties of the API ---


def test_uniform_range_checks() -> None:
    s = stream(CASES[0])
    for bad in (0, -1, TWO_32 + 1):
        with pytest.raises(ValueError):
            s.uniform(bad)
    with pytest.raises(ValueError):
        s.uniform(True)
    assert s.words_used == 0
    assert s.uniform(1) == 0


def test_d3_is_ceil_half_of_one_d6() -> None:
    a, b = stream(CASES[1]), stream(CASES[1])
    for _ in range(200):
        assert a.d3() == math.ceil(b.d6() / 2)
    assert a.words_used == b.words_used


def test_pick_ignores_candidate_order() -> None:
    cands = ["c", "a", "b", "d"]
    results = set()
    for perm in itertools.permutations(cands):
        s = stream(CASES[2])
        results.add(tuple(s.pick(perm) for _ in range(6)))
    assert len(results) == 1
    with pytest.raises(ValueError):
        stream(CASES[2]).pick([])


def test_d6_is_roughly_uniform() -> None:
    s = stream(CASES[3])
    counts = Counter(s.d6() for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(900 < c < 1100 for c in counts.values())


def test_inputs_are_validated() -> None:
    with pytest.raises(ValueError):
        dice.DiceStream(bytes(31), "g", 1, bytes(16))
    with pytest.raises(ValueError):
        dice.DiceStream(bytes(32), "g", -1, bytes(16))


def test_streams_are_separated_by_every_input() -> None:
    base = (bytes(32), "g", 1, bytes(16))
    keys = {dice.DiceStream(*base).key}
    for variant in [
        (bytes([1]) + bytes(31), "g", 1, bytes(16)),
        (bytes(32), "h", 1, bytes(16)),
        (bytes(32), "g", 2, bytes(16)),
        (bytes(32), "g", 1, bytes(15) + b"\1"),
        (bytes(32), "g1", 1, bytes(16)),  # "g" NUL "1..." vs "g1" NUL "1": separated by NUL
        (bytes(32), "g", 11, bytes(16)),
    ]:
        keys.add(dice.DiceStream(*variant).key)
    assert len(keys) == 7


def test_fresh_server_seed_and_commitment() -> None:
    a, b = dice.fresh_server_seed(), dice.fresh_server_seed()
    assert len(a) == 32 and a != b
    c = dice.commitment(a)
    assert len(c) == 64 and c == c.lower() and c != dice.commitment(b)


def test_no_import_random_in_the_package() -> None:
    package = Path(dice.__file__).resolve().parents[1]
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import random" not in text and "from random" not in text, path


def test_a_secret_is_eight_whole_words_of_the_stream_in_one_roll_event() -> None:
    """StepContext.draw_secret (the salt of hidden-information commitments): the bytes are
    the stream's next words, big-endian, every 32-bit value accepted, one `roll` event."""
    from adjudicator.engine.step import StepContext
    from adjudicator.games.moscow.rules import MoscowRules

    ctx = StepContext(MoscowRules(), None, {}, stream(CASES[0]), "soviet")  # type: ignore[arg-type]
    secret = ctx.draw_secret("the salts")
    reference = stream(CASES[0])
    assert secret == b"".join(reference.uniform(2**32).to_bytes(4, "big") for _ in range(8))
    assert [e.kind for e in ctx.events] == ["roll"]
    assert ctx.events[0]["purpose"] == "secret: the salts"
    assert ctx.events[0]["value"] == secret.hex()
