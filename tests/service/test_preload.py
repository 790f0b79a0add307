"""`make run` preloads every example game named by an `examples/*/example.json`, replayed
from its signed files so its journal equals the committed one, and the demonstration
game a manifest names; a second start adds nothing."""

from __future__ import annotations

from pathlib import Path

from adjudicator.service.runner import ServeOptions, build_service, preload_examples

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_every_example_is_preloaded_byte_for_byte(tmp_path: Path) -> None:
    service = build_service(ServeOptions(database=f"sqlite:///{tmp_path}/pbem.db"))
    links = preload_examples(service, EXAMPLES)
    manifests = sorted(EXAMPLES.glob("*/example.json"))
    assert len(manifests) >= 3
    for manifest in manifests:
        journal = manifest.parent / "journal.jsonl"
        game_id = next(g["id"] for g in service.list_games()
                       if service.journal(g["id"]) == journal.read_bytes())
        assert any(label.startswith(game_id) for label in links)
    demo = next(label for label in links if label.startswith("demo-solitaire"))
    key = Path(demo.split(", key ")[1])  # the demonstration player is told their key file
    assert key.read_bytes().startswith(b"-----BEGIN") and links[demo].startswith("http")
    again = build_service(ServeOptions(database=f"sqlite:///{tmp_path}/pbem.db"))
    before = len(again.list_games())
    assert preload_examples(again, EXAMPLES).keys() == links.keys()
    assert len(again.list_games()) == before
