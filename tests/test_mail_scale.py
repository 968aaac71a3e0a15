"""A fetch reads only the new messages and appends to its logs; an interrupted fetch loses nothing.
(Speed figures are in `make bench`, bench/mail.py; these tests count work, never time it.)"""
from __future__ import annotations

import mailbox

import pytest
from test_mail_support import ANN, BOB, guess_campaign, maildir_with, mbox_with, message

from gm.delivery.mail import body, intake
from gm.delivery.mail.desk import LEDGER
from gm.delivery.mail.inbox import inbox_settings, raw_messages
from gm.delivery.mail.intake import fetch
from gm.store.logbook import append_entry, read_entries


def numbered(n: int, start: int = 0, sender: str = ANN):
    """n order messages, one minute apart, alternating guesses."""
    return [message(f"player: {'ann' if sender == ANN else 'bob'}\nguess {1 + i % 6}\n", sender=sender,
                    date=f"Mon, 30 Nov 2026 {10 + i // 60:02d}:{i % 60:02d}:00 +0000", msgid=f"<m{i}@example.org>")
            for i in range(start, start + n)]


def count_calls(monkeypatch, module, name):
    calls = []
    real = getattr(module, name)

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, counting)
    return calls


def test_a_second_fetch_reads_only_the_new_messages_and_appends_to_the_ledger(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", *numbered(30))
    settings = inbox_settings(camp, maildir=str(box))
    assert len(fetch(camp, settings).outcomes) == 30
    ledger = camp.path / "inbox" / LEDGER
    before = ledger.read_bytes()
    for m in numbered(5, start=30):
        mailbox.Maildir(str(box)).add(bytes(m))
    reads = count_calls(monkeypatch, intake, "read_incoming")
    gets = count_calls(monkeypatch, mailbox.Maildir, "get_bytes")
    outcomes = fetch(camp, settings).outcomes
    assert [o.status for o in outcomes] == ["stored"] * 5
    assert len(reads) == 5 and len(gets) == 5
    after = ledger.read_bytes()
    assert after.startswith(before) and len(read_entries(ledger)) == 35  # appended, never rewritten
    assert camp.stored_orders(1)["ann"].endswith(f"guess {1 + 34 % 6}\n")


def test_an_mbox_is_read_from_where_the_last_fetch_stopped(tmp_path):
    camp = guess_campaign(tmp_path)
    path = mbox_with(tmp_path / "orders.mbox", *numbered(8))
    settings = inbox_settings(camp, mbox=str(path))
    assert len(fetch(camp, settings).outcomes) == 8
    assert list(raw_messages(camp, settings)) == []
    box = mailbox.mbox(str(path))
    for m in numbered(3, start=8):
        box.add(bytes(m))
    box.flush()
    new = [raw for raw, _kept in raw_messages(camp, settings)]
    assert len(new) == 3 and all(b"Message-ID: <m" in raw for raw in new)
    assert [o.status for o in fetch(camp, settings).outcomes] == ["stored"] * 3


def test_an_mbox_rewritten_by_a_mail_client_is_read_again_without_repeating_a_message(tmp_path):
    camp = guess_campaign(tmp_path)
    path = mbox_with(tmp_path / "orders.mbox", *numbered(4))
    settings = inbox_settings(camp, mbox=str(path))
    assert len(fetch(camp, settings).outcomes) == 4
    path.unlink()  # the client compacted the file: two old messages gone, one new one
    mbox_with(path, *numbered(2, start=2), *numbered(1, start=9, sender=BOB))
    [out] = fetch(camp, settings).outcomes
    assert out.player == "bob" and out.status == "stored"


def test_an_interrupted_fetch_keeps_every_decided_reply_and_the_next_one_goes_on(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", *numbered(5))
    settings = inbox_settings(camp, maildir=str(box))
    real = intake.apply_orders
    seen = []

    def dies_on_the_fourth(desk, player, incoming, text, **kw):
        seen.append(text)
        if len(seen) == 4:
            raise KeyboardInterrupt  # the machine stops, the GM presses ^C: nothing is caught
        return real(desk, player, incoming, text, **kw)
    monkeypatch.setattr(intake, "apply_orders", dies_on_the_fourth)
    with pytest.raises(KeyboardInterrupt):
        fetch(camp, settings)
    replies = sorted((camp.path / "outbox" / "replies").glob("*.eml"))
    assert len(replies) == 3 and len(read_entries(camp.path / "inbox" / LEDGER)) == 3
    assert not (camp.path / ".lock").exists()
    monkeypatch.setattr(intake, "apply_orders", real)
    outcomes = fetch(camp, settings).outcomes
    assert len(outcomes) == 2 and [o.status for o in outcomes] == ["stored", "stored"]
    assert len(list((camp.path / "outbox" / "replies").glob("*.eml"))) == 5


def test_a_torn_last_line_of_a_log_is_skipped_and_the_log_goes_on(tmp_path):
    log = tmp_path / "log.yaml"
    append_entry(log, {"n": 1})
    with open(log, "a") as handle:
        handle.write('- {"n": 2, "tex')  # a crash in the middle of a write
    append_entry(log, {"n": 3})
    assert [e["n"] for e in read_entries(log)] == [1, 3]
    import yaml
    assert yaml.safe_load(log.read_text().replace('- {"n": 2, "tex\n', "")) == [{"n": 1}, {"n": 3}]


def test_a_ledger_of_the_old_kind_is_taken_over_once(tmp_path):
    import hashlib

    from gm.store.fileio import write_yaml
    camp = guess_campaign(tmp_path)
    raw = bytes(message("player: ann\nguess 3\n"))
    digest = hashlib.sha256(raw).hexdigest()
    box = maildir_with(tmp_path / "box", raw)
    (camp.path / "inbox").mkdir()
    (camp.path / "inbox" / f"{digest[:32]}.eml").write_bytes(raw)
    write_yaml(camp.path / "inbox" / "processed.yaml", {digest: {"status": "stored", "player": "ann", "turn": 1}})
    assert fetch(camp, inbox_settings(camp, maildir=str(box))).outcomes == []
    assert not (camp.path / "inbox" / "processed.yaml").exists()
    assert [e["digest"] for e in read_entries(camp.path / "inbox" / LEDGER)] == [digest]


def test_the_header_reader_never_reads_the_body():
    raw = b"From: Ann <ann@example.org>\r\nSubject: hi\r\nDate: Mon, 30 Nov 2026 10:00:00 +0000\r\n\r\n" + b"x" * 10
    head = body.read_head(raw)
    assert head.sender == "ann@example.org" and head.subject == "hi" and head.date.hour == 10
    assert body.read_head(b"\xff\xfe garbage").sender == ""
