"""The mail corpus (issue 23): messages as real mail programs send them, byte for byte, in
tests/mail/corpus/ (index.yaml names the program each imitates and what gm must do). Each is
fetched from a Maildir into a Railway Rivals campaign and must be: stored with exactly these
orders, refused with a clear reply, never answered, or passed to the GM; never more than one
reply, and a second fetch changes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from test_mail_support import maildir_with

from gm.delivery.mail.automatic import bounce_lines
from gm.delivery.mail.for_gm import messages
from gm.delivery.mail.inbox import inbox_settings
from gm.delivery.mail.intake import fetch
from gm.store.campaign import Campaign
from gm.store.logbook import append_entry
from gm.store.orders import read_frame
from gm.turn.engine import new_campaign

CORPUS = Path(__file__).parent / "mail" / "corpus"
ENTRIES = yaml.safe_load((CORPUS / "index.yaml").read_text(encoding="utf-8"))
CLASSES = ("stored", "refused", "silent", "gm")


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    camp = new_campaign(
        root / "camp",
        "railway-rivals",
        ["ann:Ann:ann@example.org", "bob:Bob:bob@example.org"],
        map_name="tutorial",
        master=(137).to_bytes(2, "big") * 16,
    )  # dice 6, 5, 6
    for player in ("ann", "bob"):  # the set-up reports, as `gm mail send --send` logs them
        append_entry(
            camp.path / "outbox" / "sent-log.yaml",
            {
                "key": f"report:0:{player}",
                "to": f"{player}@example.org",
                "message_id": f"<report-0-{player}@example.org>",
                "at": "2026-11-28T18:02:00+00:00",
            },
        )
    return camp.path


def test_the_corpus_is_large_and_covers_every_class():
    assert len(ENTRIES) >= 60
    assert {e["expect"] for e in ENTRIES} == set(CLASSES)
    assert all(e["program"] and (CORPUS / e["file"]).is_file() for e in ENTRIES)
    assert (
        sum(
            e["expect"] == "silent" and (CORPUS / e["file"]).read_bytes().count(b"ann@example.org") > 0 for e in ENTRIES
        )
        >= 8
    )  # auto-replies and bounces from (or for) a player's own address


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"][:-4] for e in ENTRIES])
def test_a_message_as_its_program_sends_it(entry, template, tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-11-29T12:00Z")
    shutil.copytree(template, tmp_path / "camp")
    camp = Campaign(tmp_path / "camp")
    raw = (CORPUS / entry["file"]).read_bytes()
    box = maildir_with(tmp_path / "box", raw)
    [out] = fetch(camp, inbox_settings(camp, maildir=str(box))).outcomes
    replies = sorted((camp.path / "outbox" / "replies").glob("reply-*.eml"))
    text = out.reply.get_content() if out.reply is not None else ""
    stored = camp.stored_orders(1)
    expect = entry["expect"]
    if expect == "stored":
        assert out.status == "stored", f"{out.line}\n{text}"
        assert [ln.text for ln in read_frame(stored["ann"]).lines] == entry["stored"]
    elif expect == "refused":
        assert out.status == "refused" and stored == {}, out.line
    elif expect == "silent":
        assert out.reply is None and out.status == "ignored" and stored == {}, out.line
        assert "no reply sent" in out.line
    else:
        assert out.status == "answered" and out.command == "gm" and stored == {}, out.line
        assert text.startswith("Your message was passed to the GM (turn 1)")
        [kept] = messages(camp)
        assert kept["player"] == "ann" and kept["turn"] == 1 and all(s in kept["text"] for s in entry["gm"])
        assert "> " not in kept["text"] and "RAILWAY RIVALS" not in kept["text"]  # never the quoted report
    assert len(replies) == (0 if expect == "silent" else 1)
    for wanted in entry.get("reply") or []:
        assert wanted.lower() in text.lower(), text
    if expect != "silent":
        assert "see attached" not in text.lower()
    if entry.get("bounce"):
        assert any(
            line.startswith(f"{entry['bounce']}: last report bounced on 2026-11-29") for line in bounce_lines(camp)
        ), bounce_lines(camp)
    assert fetch(camp, inbox_settings(camp, maildir=str(box))).outcomes == []  # one reply, ever
    assert len(list((camp.path / "outbox" / "replies").glob("reply-*.eml"))) == len(replies)
