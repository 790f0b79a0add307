"""Key files: PEM round trips, clear errors, fingerprints, key pair files."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.errors import KeyFileError
from adjudicator.security import keys

VECTORS = Path(__file__).parent / "vectors"
SIG_VECTOR = json.loads((VECTORS / "signature-v1.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def raw(pub: object) -> bytes:
    return pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)  # type: ignore[attr-defined]


def test_roundtrip_without_passphrase() -> None:
    key = keys.generate_private_key()
    pem = keys.private_key_pem(key)
    assert pem.startswith(b"-----BEGIN PRIVATE KEY-----")
    loaded = keys.load_private_key(pem)
    assert raw(loaded.public_key()) == raw(key.public_key())
    pub_pem = keys.public_key_pem(key.public_key())
    assert pub_pem.startswith(b"-----BEGIN PUBLIC KEY-----")
    assert raw(keys.load_public_key(pub_pem)) == raw(key.public_key())


def test_roundtrip_with_passphrase() -> None:
    key = keys.generate_private_key()
    pem = keys.private_key_pem(key, b"correct horse")
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    loaded = keys.load_private_key(pem, b"correct horse")
    assert raw(loaded.public_key()) == raw(key.public_key())


def test_wrong_or_missing_passphrase() -> None:
    pem = keys.private_key_pem(keys.generate_private_key(), b"correct horse")
    with pytest.raises(KeyFileError, match="wrong passphrase"):
        keys.load_private_key(pem, b"battery staple")
    with pytest.raises(KeyFileError, match="passphrase"):
        keys.load_private_key(pem)


def test_passphrase_for_unencrypted_key_is_ignored() -> None:
    key = keys.generate_private_key()
    loaded = keys.load_private_key(keys.private_key_pem(key), b"unused")
    assert raw(loaded.public_key()) == raw(key.public_key())


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"garbage",
        b"\x00\xff" * 40,
        b"-----BEGIN PRIVATE KEY-----\nnot base64 at all!\n-----END PRIVATE KEY-----\n",
        b"-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIE\n-----END PRIVATE KEY-----\n",
        b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
    ],
)
def test_garbage_private_key(data: bytes) -> None:
    with pytest.raises(KeyFileError):
        keys.load_private_key(data)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"garbage",
        b"-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n",
    ],
)
def test_garbage_public_key(data: bytes) -> None:
    with pytest.raises(KeyFileError):
        keys.load_public_key(data)


def test_truncated_key_files() -> None:
    key = keys.generate_private_key()
    for pem in (keys.private_key_pem(key), keys.private_key_pem(key, b"pw")):
        with pytest.raises(KeyFileError):
            keys.load_private_key(pem[: len(pem) // 2], b"pw")
    pub = keys.public_key_pem(key.public_key())
    with pytest.raises(KeyFileError):
        keys.load_public_key(pub[: len(pub) // 2])


def test_public_and_private_swapped() -> None:
    key = keys.generate_private_key()
    with pytest.raises(KeyFileError, match="not a private key"):
        keys.load_private_key(keys.public_key_pem(key.public_key()))
    with pytest.raises(KeyFileError, match="private key"):
        keys.load_public_key(keys.private_key_pem(key))


def test_rsa_and_ec_keys_are_refused(rsa_key: rsa.RSAPrivateKey) -> None:
    pkcs8 = serialization.PrivateFormat.PKCS8
    traditional = serialization.PrivateFormat.TraditionalOpenSSL
    none = serialization.NoEncryption()
    pem = serialization.Encoding.PEM
    spki = serialization.PublicFormat.SubjectPublicKeyInfo
    for fmt in (pkcs8, traditional):
        with pytest.raises(KeyFileError, match="Ed25519"):
            keys.load_private_key(rsa_key.private_bytes(pem, fmt, none))
    with pytest.raises(KeyFileError, match="RSA"):
        keys.load_public_key(rsa_key.public_key().public_bytes(pem, spki))
    ec_key = ec.generate_private_key(ec.SECP256R1())
    with pytest.raises(KeyFileError, match="Ed25519"):
        keys.load_private_key(ec_key.private_bytes(pem, pkcs8, none))
    with pytest.raises(KeyFileError, match="Ed25519"):
        keys.load_public_key(ec_key.public_key().public_bytes(pem, spki))


def test_fingerprint_of_known_key() -> None:
    seed = bytes.fromhex(SIG_VECTOR["private_key_seed"])
    pub = Ed25519PrivateKey.from_private_bytes(seed).public_key()
    assert raw(pub).hex() == SIG_VECTOR["public_key_raw"]
    expected = hashlib.sha256(raw(pub)).hexdigest()[:32]
    assert keys.fingerprint(pub) == expected == SIG_VECTOR["fingerprint"]
    assert expected == "f236b32a296dcd28b016f18ee69ef66c"
    loaded = keys.load_public_key((VECTORS / SIG_VECTOR["public_key_file"]).read_bytes())
    assert keys.fingerprint(loaded) == expected
    priv = keys.load_private_key((VECTORS / SIG_VECTOR["private_key_file"]).read_bytes())
    assert keys.fingerprint(priv.public_key()) == expected


def test_fingerprint_rfc8032_key() -> None:
    # RFC 8032 section 7.1, test 1
    seed = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    pub = Ed25519PrivateKey.from_private_bytes(seed).public_key()
    assert raw(pub).hex() == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    assert keys.fingerprint(pub) == hashlib.sha256(raw(pub)).digest()[:16].hex()
    assert len(keys.fingerprint(pub)) == 32


def test_write_keypair(tmp_path: Path) -> None:
    key_path, pub_path = keys.write_keypair(tmp_path / "german")
    assert key_path == tmp_path / "german.key" and pub_path == tmp_path / "german.pub"
    assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
    priv = keys.load_private_key(key_path.read_bytes())
    pub = keys.load_public_key(pub_path.read_bytes())
    assert raw(priv.public_key()) == raw(pub)


def test_write_keypair_keeps_dotted_names_and_passphrase(tmp_path: Path) -> None:
    key_path, pub_path = keys.write_keypair(tmp_path / "soviet.2024", passphrase=b"pw")
    assert key_path.name == "soviet.2024.key" and pub_path.name == "soviet.2024.pub"
    with pytest.raises(KeyFileError):
        keys.load_private_key(key_path.read_bytes())
    keys.load_private_key(key_path.read_bytes(), b"pw")


@pytest.mark.parametrize("existing", ["german.key", "german.pub"])
def test_write_keypair_refuses_to_overwrite(tmp_path: Path, existing: str) -> None:
    (tmp_path / existing).write_bytes(b"precious")
    with pytest.raises(KeyFileError, match="exists"):
        keys.write_keypair(tmp_path / "german")
    assert (tmp_path / existing).read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == [existing]


def test_write_keypair_into_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError, match="cannot write"):
        keys.write_keypair(tmp_path / "nowhere" / "german")


def test_a_plain_ed25519_public_key_file_reads_as_cryptography_reads_it() -> None:
    """The short way for a plain Ed25519 .pub file (no serialization import) gives the key
    cryptography's PEM reader gives; anything else takes the general way and its words."""
    from cryptography.hazmat.primitives import serialization

    from adjudicator.security import keys

    for _ in range(20):
        pem = keys.public_key_pem(keys.generate_private_key().public_key())
        general = serialization.load_pem_public_key(pem)
        for variant in (pem, pem.replace(b"\n", b"\r\n"), b"\n" + pem + b"\n\n"):
            plain = keys._plain_ed25519_public_key(variant)
            assert plain is not None and plain.public_bytes_raw() == \
                general.public_bytes_raw()  # type: ignore[union-attr]
    damaged = pem.replace(pem.splitlines()[1], b"A" * 60)
    assert keys._plain_ed25519_public_key(damaged) is None
    with pytest.raises(KeyFileError, match="damaged or not in PEM format"):
        keys.load_public_key(damaged)
