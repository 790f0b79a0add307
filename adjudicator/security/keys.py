"""Ed25519 key files: generation, PEM encoding, loading and fingerprints."""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from adjudicator.errors import KeyFileError

_ENCRYPTED_MARK = b"-----BEGIN ENCRYPTED PRIVATE KEY-----"
# The DER of an Ed25519 SubjectPublicKeyInfo (RFC 8410) before its 32 key bytes: what
# every roster key and `pbem keygen` .pub file is. Such a file is read without importing
# cryptography's serialization package (75 ms of every `pbem verify` and `adjudicate`);
# anything else goes the general way.
_ED25519_SPKI = bytes.fromhex("302a300506032b6570032100")
_PUBLIC_BEGIN, _PUBLIC_END = b"-----BEGIN PUBLIC KEY-----", b"-----END PUBLIC KEY-----"


def generate_private_key() -> Ed25519PrivateKey:
    """A fresh Ed25519 private key."""
    return Ed25519PrivateKey.generate()


def private_key_pem(key: Ed25519PrivateKey, passphrase: bytes | None = None) -> bytes:
    """PKCS#8 PEM of `key`, encrypted when a passphrase is given."""
    from cryptography.hazmat.primitives import serialization

    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase)
        if passphrase
        else serialization.NoEncryption()
    )
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption
    )


def public_key_pem(pub: Ed25519PublicKey) -> bytes:
    """SubjectPublicKeyInfo PEM of `pub`."""
    from cryptography.hazmat.primitives import serialization

    return pub.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def _kind(key: object) -> str:
    """A readable name for a key type ("RSA", "EC", ...)."""
    name = type(key).__name__.lstrip("_")
    for suffix in ("PrivateKey", "PublicKey"):
        name = name.removesuffix(suffix)
    return name or "unknown"


def load_private_key(data: bytes, passphrase: bytes | None = None) -> Ed25519PrivateKey:
    """Load an Ed25519 private key from PEM (PKCS#8, optionally encrypted).

    A passphrase given for an unencrypted key is ignored.
    """
    if b"-----BEGIN" not in data:
        raise KeyFileError("this is not a PEM key file (no -----BEGIN line)")
    if b"PRIVATE KEY-----" not in data:
        raise KeyFileError("this is not a private key file (is it the .pub file?)")
    if b"OPENSSH PRIVATE KEY" in data:
        raise KeyFileError("OpenSSH key files are not supported; use a PKCS#8 PEM key file")
    from cryptography.hazmat.primitives import serialization

    encrypted = _ENCRYPTED_MARK in data
    if encrypted and not passphrase:
        raise KeyFileError("the private key is protected by a passphrase; give the passphrase")
    try:
        key = serialization.load_pem_private_key(data, passphrase if encrypted else None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        if encrypted:
            raise KeyFileError("wrong passphrase for the private key (or a damaged file)") from None
        raise KeyFileError("the private key file is damaged or not in PEM format") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"this is a key of type {_kind(key)}; only Ed25519 keys are accepted")
    return key


def load_public_key(data: bytes) -> Ed25519PublicKey:
    """Load an Ed25519 public key from SubjectPublicKeyInfo PEM."""
    if b"-----BEGIN" not in data:
        raise KeyFileError("this is not a PEM key file (no -----BEGIN line)")
    if b"PRIVATE KEY-----" in data:
        raise KeyFileError("this is a private key; give the public key (.pub file) instead")
    plain = _plain_ed25519_public_key(data)
    if plain is not None:
        return plain
    from cryptography.hazmat.primitives import serialization

    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise KeyFileError("the public key file is damaged or not in PEM format") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"this is a key of type {_kind(key)}; only Ed25519 keys are accepted")
    return key


def _plain_ed25519_public_key(data: bytes) -> Ed25519PublicKey | None:
    """The key of a file that is exactly one Ed25519 SubjectPublicKeyInfo PEM block (what
    load_pem_public_key would give for it), else None."""
    lines = data.strip().splitlines()
    if len(lines) < 3 or lines[0].strip() != _PUBLIC_BEGIN or lines[-1].strip() != _PUBLIC_END:
        return None
    try:
        der = base64.b64decode(b"".join(line.strip() for line in lines[1:-1]), validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(der) != len(_ED25519_SPKI) + 32 or not der.startswith(_ED25519_SPKI):
        return None
    return Ed25519PublicKey.from_public_bytes(der[len(_ED25519_SPKI):])


def fingerprint(pub: Ed25519PublicKey) -> str:
    """First 16 bytes of SHA-256 over the raw 32-byte key, as 32 lowercase hex digits."""
    return hashlib.sha256(pub.public_bytes_raw()).digest()[:16].hex()


def _create(path: Path, data: bytes, mode: int) -> None:
    """Write a new file with `mode`; fail if it exists."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "wb") as handle:
        os.fchmod(handle.fileno(), mode)
        handle.write(data)


def write_keypair(name: Path, *, passphrase: bytes | None = None) -> tuple[Path, Path]:
    """Write a new key pair to NAME.key (mode 0600) and NAME.pub; never overwrite."""
    name = Path(name)
    key_path = name.with_name(name.name + ".key")
    pub_path = name.with_name(name.name + ".pub")
    for path in (key_path, pub_path):
        if path.exists() or path.is_symlink():
            raise KeyFileError(f"{path} already exists; refusing to overwrite it")
    key = generate_private_key()
    try:
        _create(key_path, private_key_pem(key, passphrase), 0o600)
    except OSError as exc:
        raise KeyFileError(f"cannot write {key_path}: {exc.strerror or exc}") from None
    try:
        _create(pub_path, public_key_pem(key.public_key()), 0o644)
    except OSError as exc:
        key_path.unlink(missing_ok=True)
        raise KeyFileError(f"cannot write {pub_path}: {exc.strerror or exc}") from None
    return key_path, pub_path
