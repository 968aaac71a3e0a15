"""Mail that must not start a loop or a flood (issues 23.5-23.6 and 22.6): a month of `gm run
--send` with auto-responders at two players' addresses, the loop guard, and the caps on press and
on answers per player and turn, each told to the sender once."""

from __future__ import annotations

import datetime as dt
import re

from test_mail_support import ANN, BOB, guess_campaign, maildir_with, message, update_config
from test_run_support import gm, mailroom  # noqa: F401  (mailroom is a fixture)

from gm.delivery.mail.desk import LEDGER
from gm.delivery.mail.inbox import inbox_settings
from gm.delivery.mail.intake import fetch
from gm.store.campaign import Campaign
from gm.store.logbook import read_entries
from gm.store.press import read_press
from gm.turn.engine import new_campaign

START = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)
STEP = dt.timedelta(hours=4)


def _date(when: dt.datetime) -> str:
    return when.strftime("%a, %d %b %Y %H:%M:%S +0000")


def responder(to: str, subject: str, when: dt.datetime, n: int, *, marked: bool) -> bytes:
    """An out-of-office answer to one message gm sent: Exchange's, marked as automatic, or a
    home-made one that marks nothing and ignores gm's own Auto-Submitted header."""
    extra = "Auto-Submitted: auto-generated\r\nX-Auto-Response-Suppress: All\r\n" if marked else ""
    return (
        f"From: {to}\r\nTo: gm@example.org\r\nSubject: Automatic reply: {subject}\r\nDate: {_date(when)}\r\n"
        f"Message-ID: <oof-{n}@example.org>\r\n{extra}Content-Type: text/plain; charset=us-ascii\r\n\r\n"
        "I am out of the office until January and will read your message when I am back.\r\n"
    ).encode()


def test_a_month_of_gm_run_with_two_auto_responders_makes_no_loop(tmp_path, mailroom):  # noqa: F811
    camp = new_campaign(
        tmp_path / "camp", "guess", [f"ann:Ann:{ANN}", f"bob:Bob:{BOB}"], options={"turns": 14}, master=bytes(range(32))
    )
    box = maildir_with(tmp_path / "Maildir")
    with open(camp.path / "campaign.yaml", "a", encoding="utf-8") as handle:
        handle.write(f"""schedule: {{every: 2d, at: "18:00", zone: UTC}}
grace: 2h
early: true
remind: 12h
mail:
  from: GM <gm@example.org>
  inbox: {{kind: maildir, path: {box}}}
  smtp: {{host: 127.0.0.1, port: {mailroom.port}, security: none, retry_delay: 0, attempts: 1}}
""")
    now, answered, n, orders = START, 0, 0, 0
    while now < START + dt.timedelta(days=31):
        gm("run", camp.path, "--send", env={"GM_NOW": now.isoformat()})
        camp = Campaign(camp.path)
        for to, msg in mailroom.received[answered:]:  # each responder answers everything, at once
            n += 1
            maildir_with(box, responder(to[0], str(msg["Subject"]), now, n, marked=to[0] == ANN))
            turn = re.fullmatch(r"\[camp\] Turn (\d+) report for \w+", str(msg["Subject"]))
            if turn and int(turn[1]) < 14:  # the players themselves send orders too
                orders += 1
                maildir_with(
                    box,
                    message(
                        f"player: {to[0][:3]}\nturn: {int(turn[1]) + 1}\nguess 3\n",
                        sender=to[0],
                        date=_date(now),
                        msgid=f"<orders-{orders}@example.org>",
                    ),
                )
        answered = len(mailroom.received)
        now += STEP
    assert camp.resolved_turns()[-1] == 14  # the month was played out
    replies = {
        a: [
            str(m["Subject"])
            for to, m in mailroom.received
            if to == [a] and "report for" not in str(m["Subject"]) and "Reminder" not in str(m["Subject"])
        ]
        for a in (ANN, BOB)
    }
    # Ann's responder marks its mail: never answered. Bob's does not: answered once, then known.
    assert all("orders received" in s for s in replies[ANN]) and len(replies[ANN]) == orders // 2
    assert sorted(set(replies[BOB]) - {s for s in replies[BOB] if "orders received" in s}) == [
        "[camp] Passed to the GM"
    ]
    assert sum("Passed to the GM" in s for s in replies[BOB]) == 1
    log = (camp.path / "mail.log").read_text()
    assert log.count("automatic mail, Auto-Submitted: auto-generated (no reply sent)") >= 28
    assert log.count("not kept again, no reply sent (loop guard)") >= 28
    assert all(to in ([ANN], [BOB]) for to, _m in mailroom.received)


def run(camp, tmp_path, *messages, name="box"):
    return fetch(camp, inbox_settings(camp, maildir=str(maildir_with(tmp_path / name, *messages)))).outcomes


def test_the_loop_guard_holds_back_replies_past_a_few_an_hour(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-11-30T12:00Z")
    camp = guess_campaign(tmp_path)
    outs = run(
        camp,
        tmp_path,
        *[
            message(f"player: ann\nguess {i % 6 + 1}\n# try {i}\n", date=f"Mon, 30 Nov 2026 11:{i:02d}:00 +0000")
            for i in range(8)
        ],
    )
    assert [o.reply is not None for o in outs] == [True] * 5 + [False] * 3
    assert all(o.status == "stored" for o in outs) and camp.stored_orders(1)["ann"].endswith("guess 2\n")
    assert sum("loop guard" in o.line for o in outs) == 3
    assert len(list((camp.path / "outbox" / "replies").glob("*.eml"))) == 5
    assert [bool(e.get("withheld")) for e in read_entries(camp.path / "inbox" / LEDGER)] == [False] * 5 + [True] * 3
    monkeypatch.setenv("GM_NOW", "2026-11-30T13:30Z")  # an hour on, replies go out again
    [later] = run(camp, tmp_path, message("status\n", msgid="<later@example.org>"), name="box2")
    assert later.reply is not None


def test_a_bad_limit_setting_is_one_clear_line(tmp_path):
    import pytest

    from gm.delivery.mail.settings import MailError, limit

    camp = guess_campaign(tmp_path, mail={"replies_per_hour": 0})
    with pytest.raises(MailError, match=r"^mail.replies_per_hour must be a positive whole number, not 0$"):
        limit(camp, "replies_per_hour")
    assert limit(update_config(camp, mail={}), "press_per_turn") == 20


def test_a_press_flood_is_capped_and_told_once(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-11-30T12:00Z")
    camp = guess_campaign(tmp_path, mail={"press_per_turn": 3, "press_bytes_per_turn": 400, "replies_per_hour": 100})
    flood = [
        message(f"press bob: note {i}\n", msgid=f"<p{i}@example.org>", date=f"Mon, 30 Nov 2026 11:{i:02d}:00 +0000")
        for i in range(6)
    ]
    outs = run(camp, tmp_path, *flood)
    assert [o.status for o in outs] == ["answered"] * 3 + ["refused"] * 3
    assert [o.reply is not None for o in outs] == [True] * 4 + [False] * 2
    assert "3 press messages this turn, the most a player may send (3)" in outs[3].reply.get_content()
    assert len(read_press(camp, 1)) == 3
    # size: Bob's one long message fits, the next one does not
    outs = run(
        camp,
        tmp_path,
        message("press ann: " + "x" * 350 + "\n", sender=BOB, msgid="<b1@example.org>"),
        message(
            "press ann: " + "y" * 100 + "\n",
            sender=BOB,
            msgid="<b2@example.org>",
            date="Mon, 30 Nov 2026 10:30:00 +0000",
        ),
        name="box2",
    )
    assert [o.status for o in sorted(outs, key=lambda o: o.date)] == ["answered", "refused"]
    texts = [str(e["text"]) for e in read_press(camp, 1) if e["from"] == "bob"]
    assert len(texts) == 1 and sum(len(t) for t in texts) <= 400
    refused = [o for o in outs if o.status == "refused"]
    assert len(refused) == 1 and "the most is 400" in refused[0].reply.get_content()


def test_resend_and_status_floods_are_capped_per_turn(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-11-30T12:00Z")
    camp = guess_campaign(tmp_path, mail={"answers_per_turn": 2, "replies_per_hour": 100})
    outs = run(
        camp,
        tmp_path,
        *[
            message(kind + "\n", msgid=f"<r{i}@example.org>", date=f"Mon, 30 Nov 2026 11:{i:02d}:00 +0000")
            for i, kind in enumerate(["status", "resend", "status", "resend", "orders"])
        ],
    )
    assert [o.status for o in outs] == ["answered", "answered", "refused", "refused", "refused"]
    assert [o.reply is not None for o in outs] == [True, True, True, False, False]
    assert "2 answers to mail commands this turn (the most is 2)" in outs[2].reply.get_content()
    [other] = run(camp, tmp_path, message("status\n", sender=BOB, msgid="<bob@example.org>"), name="box2")
    assert other.status == "answered"  # per player
