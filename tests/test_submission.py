"""Opening a submission: the signature decides who sent it (docs/protocol.md §2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.errors import SignatureError
from adjudicator.referee.gamedir import load_game
from adjudicator.referee.referee import create_game
from adjudicator.referee.submission import open_submission
from adjudicator.security.keys import fingerprint, generate_private_key, public_key_pem
from adjudicator.security.signing import sign_orders
from adjudicator.security.xmlsafe import parse_untrusted


def test_a_file_signed_with_another_sides_key_is_refused(tmp_path: Path) -> None:
    alice, bob = generate_private_key(), generate_private_key()
    create_game(tmp_path / "g", "solitaire", "campaign",
                {"german": public_key_pem(alice.public_key())}, test_seed=bytes(32))
    game = load_game(tmp_path / "g")
    # A second side in the roster (two-player games have one), holding Bob's key.
    game.header["roster"].append({"side": "soviet", "fingerprint": fingerprint(bob.public_key()),
                                  "public_key": public_key_pem(bob.public_key()).decode()})
    draft = (f'<orders xmlns="urn:pbem:orders:1" game="{game.game_id}" module="solitaire" '
             f'side="german" seq="1" prev="{game.state_hash}" commit="{game.current_commit}">'
             "<entropy/><end-turn/></orders>").encode()
    signed_by_bob = sign_orders(parse_untrusted(draft), bob, entropy=bytes(16))
    with pytest.raises(SignatureError, match="signed with the key of side 'soviet'"):
        open_submission(game, signed_by_bob)
    signed_by_alice = sign_orders(parse_untrusted(draft), alice, entropy=bytes(16))
    assert open_submission(game, signed_by_alice).envelope.side == "german"
