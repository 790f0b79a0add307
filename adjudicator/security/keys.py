"""Ed25519 key files: generation, PEM encoding, loading and fingerprints."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from adjudicator.errors import KeyFileError

_ENCRYPTED_MARK = b"-----BEGIN ENCRYPTED PRIVATE KEY-----"


def generate_private_key() -> Ed25519PrivateKey:
    """A fresh Ed25519 private key."""
    return Ed25519PrivateKey.generate()


def private_key_pem(key: Ed25519PrivateKey, passphrase: bytes | None = None) -> bytes:
    """PKCS#8 PEM of `key`, encrypted when a passphrase is given."""
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
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise KeyFileError("the public key file is damaged or not in PEM format") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"this is a key of type {_kind(key)}; only Ed25519 keys are accepted")
    return key


def fingerprint(pub: Ed25519PublicKey) -> str:
    """First 16 bytes of SHA-256 over the raw 32-byte key, as 32 lowercase hex digits."""
    raw = pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).digest()[:16].hex()


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
