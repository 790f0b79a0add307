"""Security layer: hardened XML parsing, Ed25519 key files and signed order envelopes.

See docs/protocol.md for the signature scheme that independent checkers implement.
"""
