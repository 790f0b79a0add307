"""What a new player and a referee meet in the service (issue 16): the help pages, the
verdict's words, the template's links, a finished game, the rollback by the service."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from adjudicator.referee.verify import verify
from adjudicator.service.core import Service
from adjudicator.service.db import outbox, reports
from adjudicator.service.web import create_app
from tests.service.conftest import ALICE, EXAMPLE_ID, create_example, example_turn

ADMIN = "secret-admin-token"


def test_the_help_pages_are_served_and_linked(service: Service) -> None:
    links = create_example(service)
    client = TestClient(create_app(service))
    help_page = client.get("/help")
    assert help_page.status_code == 200 and "referee@pbem.localhost" in help_page.text
    assert 'href="/help/orders/solitaire"' in help_page.text and "pbem check" in help_page.text
    orders = client.get("/help/orders/solitaire")
    assert orders.status_code == 200 and "<table>" in orders.text and "&lt;move" in orders.text
    assert client.get("/help/orders/nope").status_code == 404
    token = links["german"].split("token=")[1]
    template = client.get(f"/games/{EXAMPLE_ID}/me/template", params={"token": token}).text
    assert "docs/solitaire-orders.md" not in template
    assert "http://testserver/help/orders/solitaire" in template
    service.render_pending_reports(limit=1)  # the welcome mail carries the step 0 report
    welcome = [m for m in service.pending_mail() if "you play" in m.subject][0]
    assert "http://testserver/help/orders/solitaire" in welcome.text
    assert "referee@pbem.localhost" in welcome.text and "pbem sign" in welcome.text
    assert client.get("/docs").status_code == 200
    assert client.get("/static/apidocs.js").status_code == 200


def test_verdict_words_count_from_one_and_a_replay_says_what_the_game_waits_for_now(
        service: Service) -> None:
    create_example(service)
    first = service.submit(example_turn(1), "web")
    assert first.text.endswith("The game now waits for german (step 2).")
    service.submit(example_turn(2), "web")
    again = service.submit(example_turn(1), "web")
    assert again.duplicate and again.text.endswith("The game now waits for german (step 3).")
    assert "all 1 orders" not in first.text and "1 rolls" not in first.text


def test_a_rollback_through_the_service(service: Service, tmp_path: Path) -> None:
    create_example(service)
    for seq in (1, 2, 3):
        service.submit(example_turn(seq), "web")
    service.render_pending_reports(limit=20)
    client = TestClient(create_app(service, admin_token=ADMIN))
    answer = client.post(f"/api/admin/games/{EXAMPLE_ID}/rollback",
                         json={"to_seq": 1, "reason": "step 2 used a wrong rule reading"},
                         headers={"authorization": f"Bearer {ADMIN}"})
    assert answer.status_code == 200, answer.text
    game = answer.json()
    assert game["next_seq"] == 4 and game["acting_side"] == "german"
    assert "rolled back the game to step 1" in game["log"][-1]["what"]
    with service.engine.connect() as conn:
        told = conn.execute(select(outbox.c.to_addr, outbox.c.report_seq)
                            .where(outbox.c.subject.contains("rolled back"))).all()
        labels = dict(conn.execute(select(reports.c.seq, reports.c.label)
                                   .where(reports.c.game_id == EXAMPLE_ID)).all())
    assert [(r.to_addr, r.report_seq) for r in told] == [(ALICE, 1)]
    assert "voided" in labels[2] and "voided" in labels[3] and "voided" not in labels[1]
    # the game goes on from step 1's position: step 2's file no longer fits, a fresh one does
    assert service.submit(example_turn(2), "web").duplicate  # the same bytes: the old answer
    journal = tmp_path / "j.jsonl"
    journal.write_bytes(service.journal(EXAMPLE_ID))
    report = verify(journal)
    assert report.ok and report.rollbacks == 1 and report.voided == 2
    refused = client.post(f"/api/admin/games/{EXAMPLE_ID}/rollback",
                          json={"to_seq": 3, "reason": "x"},
                          headers={"authorization": f"Bearer {ADMIN}"})
    assert refused.status_code == 422 and "voided by an earlier rollback" in refused.text


def test_an_unreadable_file_is_told_what_pbem_sign_would_say(service: Service) -> None:
    """Issue 16, item 6: a DOCTYPE, a Latin-1 file and a UTF-16 file each get their own
    precise words, the ones `pbem sign` gives, not one vague sentence for all."""
    from adjudicator.errors import PbemError
    from adjudicator.security.xmlsafe import parse_untrusted

    create_example(service)
    text = example_turn(1).decode()
    for raw in (text.replace("<orders", '<!DOCTYPE orders SYSTEM "x"><orders', 1).encode(),
                text.replace("<entropy>", "<entropy>é", 1).encode("latin-1"),
                text.encode("utf-16")):
        try:
            parse_untrusted(raw)
        except PbemError as exc:
            said = exc.message
        verdict = service.submit(raw, "web")
        assert verdict.outcome == "invalid" and said in verdict.text, (said, verdict.text)
