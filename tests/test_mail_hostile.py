"""Hostile mail: one bad message never jams the mailbox, a stranger's message costs nothing, a
far-future Date: pins nothing (issue 17, items 3, 4 and 7)."""
from __future__ import annotations

import datetime as dt

from test_mail_support import ANN, BOB, guess_campaign, maildir_with, message

from gm import games
from gm.delivery.mail import commands, intake
from gm.delivery.mail.desk import LEDGER
from gm.delivery.mail.inbox import inbox_settings
from gm.delivery.mail.intake import fetch
from gm.store.logbook import read_entries


def run(camp, tmp_path, *messages, name="box"):
    return fetch(camp, inbox_settings(camp, maildir=str(maildir_with(tmp_path / name, *messages))))


def test_a_superscript_turn_is_answered_and_never_jams_later_fetches(tmp_path):
    camp = guess_campaign(tmp_path)
    [bad] = run(camp, tmp_path, message("player: ann\nturn: ²\nguess 3\n")).outcomes
    assert bad.status == "refused" and bad.reply is not None and "Traceback" not in bad.reply.get_content()
    assert camp.stored_orders(1) == {}
    later = message("player: ann\nturn: 1\nguess 4\n", date="Mon, 30 Nov 2026 11:00:00 +0000")
    [good] = run(camp, tmp_path, later, name="box2").outcomes
    assert good.status == "stored" and camp.stored_orders(1)["ann"].endswith("guess 4\n")
    assert run(camp, tmp_path, name="box3").outcomes == []


def test_a_crash_inside_one_message_is_logged_answered_and_the_others_go_on(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path)
    game = games.get("guess")
    real = type(game).parse

    def parse(self, state, player, lines):
        if any("5" in line.text for line in lines):
            raise ZeroDivisionError("a bug met in the game's parser")
        return real(self, state, player, lines)
    monkeypatch.setattr(type(game), "parse", parse)
    outs = run(camp, tmp_path, message("player: ann\nguess 5\n", date="Mon, 30 Nov 2026 09:00:00 +0000"),
               message("player: bob\nguess 2\n", sender=BOB, date="Mon, 30 Nov 2026 10:00:00 +0000")).outcomes
    assert [o.status for o in outs] == ["refused", "stored"]
    assert "internal error (ZeroDivisionError" in outs[0].line and "could not be handled" in outs[0].reply["Subject"]
    detail = next((camp.path / "inbox").glob("*.error")).read_text()
    assert "ZeroDivisionError" in detail and "Traceback" in detail
    log = (camp.path / "mail.log").read_text()
    assert "internal error" in log and len(log.splitlines()) == 2
    assert len(list((camp.path / "outbox" / "replies").glob("*.eml"))) == 2
    assert len(read_entries(camp.path / "inbox" / LEDGER)) == 2
    monkeypatch.setattr(type(game), "parse", real)
    assert run(camp, tmp_path, name="box2").outcomes == []  # handled once, never again


def test_a_large_message_from_a_stranger_is_never_parsed(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path)
    body = "player:" + " " * 60_000 + "x\n"
    calls = []
    for module, name in ((intake, "read_incoming"), (intake, "clean_order_text"), (commands, "detect")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k))
    [out] = run(camp, tmp_path, message(body, sender="mallory@evil.test")).outcomes
    assert out.status == "ignored" and out.reply is None and calls == []


def test_a_far_future_date_is_not_trusted_for_ordering(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-11-30T12:00Z")
    camp = guess_campaign(tmp_path)
    [pinned] = run(camp, tmp_path, message("player: ann\nguess 1\n", date="Fri, 01 Jan 2100 00:00:00 +0000")).outcomes
    assert pinned.status == "stored" and "lies in the future" in pinned.reply.get_content()
    assert pinned.date == dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
    monkeypatch.setenv("GM_NOW", "2026-11-30T13:00Z")
    [real] = run(camp, tmp_path, message("player: ann\nguess 6\n", date="Mon, 30 Nov 2026 12:30:00 +0000"),
                 name="box2").outcomes
    assert real.status == "stored", real.line
    assert camp.stored_orders(1)["ann"].endswith("guess 6\n")


def test_a_date_a_little_ahead_is_believed(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-11-30T12:00Z")
    camp = guess_campaign(tmp_path)
    [out] = run(camp, tmp_path, message("player: ann\nguess 1\n", date="Mon, 30 Nov 2026 12:05:00 +0000")).outcomes
    assert out.date == dt.datetime(2026, 11, 30, 12, 5, tzinfo=dt.timezone.utc)
    assert "future" not in out.reply.get_content()


def test_a_message_with_no_sender_is_ignored_without_reading_it(tmp_path):
    camp = guess_campaign(tmp_path)
    [out] = run(camp, tmp_path, b"Subject: hi\r\n\r\nplayer: ann\r\nguess 2\r\n").outcomes
    assert out.status == "ignored" and "no sender" in out.line and camp.stored_orders(1) == {}


def test_an_oversize_message_from_a_player_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, mail={"max_bytes": 2000})
    monkeypatch.setattr(intake, "read_incoming", lambda raw: (_ for _ in ()).throw(AssertionError("parsed")))
    [out] = run(camp, tmp_path, message("player: ann\nguess 2\n" + "# padding\n" * 400, sender=ANN)).outcomes
    assert out.status == "refused" and "too large" in out.line and out.reply is not None


def test_headers_the_standard_parser_is_slow_on_are_refused_before_it_sees_them(tmp_path):
    camp = guess_campaign(tmp_path)
    head, quotes = "Date: Mon, 30 Nov 2026 10:00:00 +0000\r\n", '"' * 30000
    stranger = f"From: mallory@evil.test {quotes}\r\n{head}\r\nplayer: ann\r\nguess 2\r\n".encode()
    player = f"From: {ANN}\r\n{head}Content-Type: text/plain; a={quotes}\r\n\r\nplayer: ann\r\nguess 2\r\n".encode()
    parts = (f"From: {BOB}\r\n{head}Content-Type: multipart/mixed; boundary=x\r\n\r\n"
             + "--x\r\nContent-Type: text/plain\r\n\r\nguess 2\r\n" * 200 + "--x--\r\n").encode()
    outs = run(camp, tmp_path, stranger, player, parts).outcomes
    by_sender = {o.sender: o for o in outs}
    assert by_sender["mallory@evil.test"].status == "ignored"
    assert by_sender[ANN].status == "refused" and "Content-Type: header is too long" in by_sender[ANN].line
    assert by_sender[BOB].status == "refused" and "201 MIME parts (at most 64)" in by_sender[BOB].line
    assert camp.stored_orders(1) == {}


def test_an_oversize_message_keeps_only_its_headers_size_and_why(tmp_path):
    """Issue 17 item 12: a 3 MB message is refused and its body never kept; a second fetch knows it."""
    camp = guess_campaign(tmp_path, mail={"max_bytes": 100_000})
    big = message("player: ann\nturn: 1\nguess 2\n" + "x" * 3_000_000 + "\n", subject="orders with a film")
    stranger = message("hello\n" + "y" * 200_000, sender="mallory@evil.test")
    outs = run(camp, tmp_path, big, stranger).outcomes
    mine = next(o for o in outs if o.player == "ann")
    assert mine.status == "refused" and "too large (3," in mine.line and "only its headers are kept" in mine.line
    assert "too large" in mine.reply.get_content() and camp.stored_orders(1) == {}
    inbox = camp.path / "inbox"
    kept = sorted(inbox.glob("*.eml"))
    assert len(kept) == 2 and all(p.stat().st_size < 2_000 for p in kept)
    assert any(b"Subject: orders with a film" in p.read_bytes() for p in kept)
    notes = sorted(inbox.glob("*.too-large.json"))
    assert len(notes) == 2
    import json
    sizes = sorted(json.loads(p.read_text())["size"] for p in notes)
    assert sizes[1] > 3_000_000 and all("too large" in json.loads(p.read_text())["why"] for p in notes)
    assert sum(p.stat().st_size for p in inbox.rglob("*") if p.is_file()) < 20_000
    assert run(camp, tmp_path, big, stranger, name="box2").outcomes == []   # the same messages again


def test_a_forged_size_header_cannot_pass_for_a_cut_message(tmp_path):
    camp = guess_campaign(tmp_path, mail={"max_bytes": 100_000})
    forged = message("player: ann\nturn: 1\nguess 2\n")
    forged["X-Too-Large"] = "9999999"
    [out] = run(camp, tmp_path, forged).outcomes
    assert out.status == "stored"


def _link_log(camp, name, tmp_path):
    outside = tmp_path / f"outside-{name.replace('/', '-')}"
    outside.write_text("")
    target = camp.path / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    target.symlink_to(outside)
    return outside


def test_a_linked_mail_log_is_refused_with_one_line_and_nothing_changes(tmp_path):
    import pytest

    from gm.store.errors import GMError
    from test_run_support import gm, snapshot
    for name in ("mail.log", "inbox/processed-log.yaml", "outbox/sent-log.yaml"):
        camp = guess_campaign(tmp_path / name.replace("/", "-"))
        outside = _link_log(camp, name, tmp_path)
        before = snapshot(camp.path)
        with pytest.raises(GMError, match="symbolic link"):
            run(camp, tmp_path, message("player: ann\nturn: 1\nguess 2\n"), name=f"box-{name.replace('/', '-')}")
        assert outside.read_text() == "" and snapshot(camp.path) == before
        result = gm("mail", "fetch", camp.path, "--maildir", tmp_path / f"box-{name.replace('/', '-')}", code=2)
        assert result.output.count("\n") == 1 and "symbolic link" in result.output and "Traceback" not in result.output
        assert outside.read_text() == "" and snapshot(camp.path) == before


def test_gm_run_refuses_a_linked_run_log_with_one_line(tmp_path):
    from test_run_support import gm
    camp = guess_campaign(tmp_path)
    for name in ("run.log", "mail.log"):
        outside = _link_log(camp, name, tmp_path)
        result = gm("run", camp.path, code=2, env={"GM_NOW": "2026-11-30T10:00Z"})
        assert "symbolic link" in result.output and "Traceback" not in result.output
        assert outside.read_text() == ""
        (camp.path / name).unlink()
