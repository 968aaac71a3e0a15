"""Messages for the GM (issue 23.6): mail with no orders and no command, and `gm: TEXT`, kept for
`gm inbox`, forwarded to mail.gm once, the player told; bounces of report mail in `gm status`;
format=flowed read as RFC 3676 says."""

from __future__ import annotations

import json

from test_mail_support import ANN, BOB, guess_campaign, maildir_with, message, update_config
from test_run_support import gm, mailroom  # noqa: F401  (mailroom is a fixture)

from gm.delivery.mail.quoting import attributions, quoted_start, unflow


def test_a_question_is_kept_listed_newest_first_and_forwarded_once(tmp_path, mailroom, monkeypatch):  # noqa: F811
    monkeypatch.setenv("GM_NOW", "2026-11-30T12:00Z")
    camp = guess_campaign(tmp_path)
    camp = update_config(
        camp,
        mail={
            "from": "GM <gm@example.org>",
            "gm": "referee@example.net",
            "smtp": {"host": "127.0.0.1", "port": mailroom.port, "security": "none", "retry_delay": 0, "attempts": 1},
        },
    )
    box = maildir_with(
        tmp_path / "box",
        message(
            "Could I have an extra day?\nI am away.\n\nThanks,\nAnn\n",
            subject="extension",
            date="Mon, 30 Nov 2026 09:00:00 +0000",
        ),
        message("guess 9\n", sender=BOB, date="Mon, 30 Nov 2026 09:30:00 +0000"),
        message("gm: Bob's cat ate my orders\n", sender=BOB, subject="x", date="Mon, 30 Nov 2026 10:00:00 +0000"),
    )
    out = gm("mail", "fetch", camp.path, "--maildir", box, "--send").output
    assert out.count("for the GM (") == 2 and "refused (bob)" in out, out
    to = [(rcpt, str(m["Subject"])) for rcpt, m in mailroom.received]
    assert sorted(to) == sorted(
        [
            ([ANN], "[camp] Passed to the GM"),
            (["referee@example.net"], "[camp] Message from Ann (ann), turn 1"),
            ([BOB], "[camp] Turn 1 orders NOT stored"),
            ([BOB], "[camp] Passed to the GM"),
            (["referee@example.net"], "[camp] Message from Bob (bob), turn 1"),
        ]
    )
    forward = next(m for rcpt, m in mailroom.received if m["Subject"].endswith("Message from Ann (ann), turn 1"))
    assert forward["Auto-Submitted"] in ("auto-generated", "auto-replied")
    assert "Subject: extension" in forward.get_content()
    assert "Could I have an extra day?" in forward.get_content()
    reply = next(m for rcpt, m in mailroom.received if rcpt == [ANN]).get_content()
    assert reply.startswith("Your message was passed to the GM (turn 1)") and "message:" not in reply
    listing = gm("inbox", camp.path).output.splitlines()
    assert (
        listing[0] == "2026-11-30T10:00:00+00:00  turn 1  Bob (bob): x" and listing[1] == "    Bob's cat ate my orders"
    )
    assert listing[2].startswith("2026-11-30T09:00:00+00:00  turn 1  Ann (ann): extension")
    assert [e["player"] for e in json.loads(gm("inbox", camp.path, "--json").output)] == ["bob", "ann"]
    gm("mail", "fetch", camp.path, "--maildir", box, "--send")
    assert len(mailroom.received) == 5  # nothing twice
    gm("inbox", update_config(camp, mail={"gm": "not an address"}).path)  # listing needs no mail settings
    fetched = gm(
        "mail",
        "fetch",
        camp.path,
        "--maildir",
        maildir_with(tmp_path / "b2", message("Hello?\nAnyone?\n", msgid="<h@x>")),
        code=2,
    )
    assert "mail.gm must be one plain e-mail address" in fetched.output


def test_gm_inbox_of_a_campaign_with_none(tmp_path):
    camp = guess_campaign(tmp_path)
    assert gm("inbox", camp.path).output == "No messages for the GM.\n"


def test_gm_status_names_a_bounced_report(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-11-30T12:00Z")
    camp = guess_campaign(tmp_path)
    bounce = (
        b"From: MAILER-DAEMON@mx.example.org (Mail Delivery System)\r\nTo: gm@example.org\r\n"
        b"Subject: Undelivered Mail Returned to Sender\r\nDate: Mon, 30 Nov 2026 11:00:00 +0000\r\n"
        b'MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n'
        b"--B\r\nContent-Type: text/plain\r\n\r\nsorry\r\n--B\r\nContent-Type: message/delivery-status\r\n\r\n"
        b"Reporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; bob@example.org\r\nAction: failed\r\n"
        b"Status: 5.2.2\r\nDiagnostic-Code: smtp; 552 5.2.2 mailbox full\r\n\r\n--B\r\n"
        b"Content-Type: text/rfc822-headers\r\n\r\nSubject: [camp] Turn 0 report for Bob\r\n\r\n--B--\r\n"
    )
    out = gm("mail", "fetch", camp.path, "--maildir", maildir_with(tmp_path / "box", bounce)).output
    assert "bounce: the report to bob was not delivered: 552 5.2.2 mailbox full (no reply sent)" in out
    status = gm("status", camp.path).output
    assert "  bob: last report bounced on 2026-11-30 11:00 UTC (552 5.2.2 mailbox full)" in status
    assert json.loads(gm("status", camp.path, "--json").output)["bounces"][0].startswith("bob: last report bounced")


def test_format_flowed_is_joined_as_rfc_3676_says():
    assert unflow("a long \nline\nnext", delsp=False) == "a long line\nnext"
    assert unflow("a lo \nng", delsp=True) == "a long"
    assert unflow(" From here\n  two spaces\n-- \nsig", delsp=False) == "From here\n two spaces\n-- \nsig"
    assert unflow("> quoted \n> more\nmine \nhere", delsp=False) == "> quoted more\nmine here"
    assert unflow("soft \n> quoted", delsp=False) == "soft \n> quoted"  # never across quote depths


def test_the_quoted_parts_real_programs_write_are_found():
    outlook = [
        "round 1: x",
        "",
        "From: The GM <gm@example.org>",
        "Sent: Saturday, 28 November 2026 18:02",
        "To: Ann",
        "Subject: report",
        "",
        "player: ann",
    ]
    assert quoted_start(outlook) == 2
    assert quoted_start(["From: my notes", "guess 3"]) is None  # a lone From: line is no block
    assert quoted_start(["guess 3", "-----Original Message-----"]) == 1
    assert quoted_start(["guess 3", "-------- Ursprüngliche Nachricht --------"]) == 1
    gmail = ["guess 3", "", "On Sat, 28 Nov 2026 at 18:02, The GM <gm@example.org>", "wrote:", "", "> x"]
    assert attributions(gmail) == [2, 3]
    assert attributions(["guess 3", "Le sam. 28 nov. 2026 à 18:02, GM <gm@x.org> a écrit :", "> x"]) == [1]
    assert attributions(["On Monday I will guess 3", "wrote:"]) == []  # not above quoted text
