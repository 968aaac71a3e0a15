"""gm mail fetch: messages kept, matched, checked, stored in Date order and answered."""
from __future__ import annotations

import hashlib

from test_mail_support import ANN, BOB, guess_campaign, maildir_with, mbox_with, message, update_config

from gm.delivery.mail.inbox import inbox_settings
from gm.delivery.mail.intake import fetch
from gm.delivery.mail.passwords import set_password


def run(camp, tmp_path, *messages, name="box"):
    box = maildir_with(tmp_path / name, *messages)
    return fetch(camp, inbox_settings(camp, maildir=str(box)))


def stored(camp, player):
    return camp.stored_orders(camp.current_turn).get(player)


def test_plain_orders_are_stored_with_a_receipt_and_a_reply(tmp_path):
    camp = guess_campaign(tmp_path)
    result = run(camp, tmp_path, message("player: ann\nturn: 1\nguess 3  # my lucky number\n"))
    [out] = result.outcomes
    assert out.status == "stored" and out.player == "ann"
    assert out.receipt == hashlib.sha256(b"guess 3").hexdigest()
    assert stored(camp, "ann") == "player: ann\nturn: 1\nguess 3\n"
    reply = out.reply.get_content()
    assert "  guess 3" in reply and out.receipt in reply
    assert out.reply["To"] == f"Ann <{ANN}>"
    assert len(list((camp.path / "inbox").glob("*.eml"))) == 1
    assert "stored (ann) orders for turn 1" in (camp.path / "mail.log").read_text()


def test_a_second_fetch_of_the_same_mailbox_changes_nothing(tmp_path):
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", message("player: ann\nguess 3\n"))
    assert len(fetch(camp, inbox_settings(camp, maildir=str(box))).outcomes) == 1
    assert fetch(camp, inbox_settings(camp, maildir=str(box))).outcomes == []


def test_reply_above_a_quoted_report_with_a_signature(tmp_path):
    camp = guess_campaign(tmp_path)
    body = ("Hi GM, here they are. Guess what I guess!\n\nplayer: bob\nturn: 1\nguess 5\n"
            "> guess 2\n\n-- \nBob\nguess 1\n")
    [out] = run(camp, tmp_path, message(body, sender=BOB)).outcomes
    assert out.status == "stored", out.errors
    assert stored(camp, "bob") == "player: bob\nturn: 1\nguess 5\n"


def test_errors_name_the_line_of_the_message_and_nothing_is_stored(tmp_path):
    camp = guess_campaign(tmp_path)
    body = "Some chat first.\nMore chat.\nplayer: ann\nguess 9\nhello\n"
    [out] = run(camp, tmp_path, message(body)).outcomes
    assert out.status == "refused" and stored(camp, "ann") is None
    assert out.errors == ["message:4:7: a guess is 1 to 6, not '9'", "message:5:1: expected 'guess N', not 'hello'"]
    reply = out.reply.get_content()
    assert "message:4:7: a guess is 1 to 6" in reply and "Not stored: 2 error(s)" in reply


def test_html_only_mail_is_read_and_quoted_blocks_dropped(tmp_path):
    camp = guess_campaign(tmp_path)
    html = ("<html><body><div>player: ann</div><div>guess&nbsp;4</div>"
            "<blockquote><p>player: ann</p><p>guess 1</p></blockquote></body></html>")
    [out] = run(camp, tmp_path, message(html=html)).outcomes
    assert out.status == "stored", out.errors
    assert stored(camp, "ann").endswith("guess 4\n")
    assert "html body" in out.reply.get_content()


def test_a_text_attachment_carries_the_orders_and_its_name_is_never_a_path(tmp_path):
    camp = guess_campaign(tmp_path)
    msg = message("See the attached file.\n", attachment=("../../evil.txt", "\ufeffplayer: ann\nguess 6\n"))
    [out] = run(camp, tmp_path, msg).outcomes
    assert out.status == "stored", out.errors
    assert stored(camp, "ann").endswith("guess 6\n")
    assert not (tmp_path / "evil.txt").exists() and not (camp.path / "evil.txt").exists()
    assert "attachment '.._.._evil.txt'" in out.reply.get_content()


def test_unknown_sender_is_logged_kept_and_ignored(tmp_path):
    camp = guess_campaign(tmp_path)
    [out] = run(camp, tmp_path, message("player: ann\nguess 2\n", sender="mallory@evil.test")).outcomes
    assert out.status == "ignored" and out.reply is None and stored(camp, "ann") is None
    log = (camp.path / "mail.log").read_text().splitlines()
    assert len(log) == 1 and "mallory@evil.test" in log[0] and "not a player" in log[0]
    assert len(list((camp.path / "inbox").glob("*.eml"))) == 1


def test_malformed_mime_is_refused_with_one_line(tmp_path):
    camp = guess_campaign(tmp_path)
    raw = (f"From: {ANN}\r\nTo: gm@example.org\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/mixed\r\n\r\nplayer: ann\r\nguess 2\r\n").encode()
    [out] = run(camp, tmp_path, raw).outcomes
    assert out.status == "refused" and "malformed MIME" in out.line and stored(camp, "ann") is None
    assert "could not be read: malformed MIME" in out.reply.get_content()


def test_huge_messages_are_refused(tmp_path):
    camp = guess_campaign(tmp_path, mail={"max_bytes": 2000})
    [out] = run(camp, tmp_path, message("player: ann\nguess 2\n" + "# padding\n" * 400)).outcomes
    assert out.status == "refused" and "too large" in out.line and stored(camp, "ann") is None
    assert len(list((camp.path / "inbox").glob("*.eml"))) == 1


def test_text_that_is_not_utf8_is_refused_but_a_declared_charset_is_honoured(tmp_path):
    camp = guess_campaign(tmp_path)
    head = f"From: {ANN}\r\nTo: gm@example.org\r\nDate: Mon, 30 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n"
    lying = (head + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
             ).encode() + "player: ann\nguess 2 # caf\xe9\n".encode("latin-1")
    [out] = run(camp, tmp_path, lying).outcomes
    assert out.status == "refused" and "not valid UTF-8" in out.line
    honest = (head.replace("10:00", "10:05") + "Content-Type: text/plain; charset=iso-8859-1\r\n"
              "Content-Transfer-Encoding: 8bit\r\n\r\n").encode() + "player: ann\nguess 2 # caf\xe9\n".encode("latin-1")
    [out] = run(camp, tmp_path, honest, name="box2").outcomes
    assert out.status == "stored", out.line


def test_messages_apply_in_date_order_and_a_late_older_one_is_noted(tmp_path):
    camp = guess_campaign(tmp_path)
    newer = message("player: ann\nguess 5\n", date="Mon, 30 Nov 2026 12:00:00 +0000")
    older = message("player: ann\nguess 1\n", date="Mon, 30 Nov 2026 13:00:00 +0200")  # 11:00 UTC
    outs = run(camp, tmp_path, newer, older).outcomes
    assert [o.status for o in outs] == ["stored", "stored"]
    assert stored(camp, "ann").endswith("guess 5\n")
    late = message("player: ann\nguess 2\n", date="Mon, 30 Nov 2026 09:00:00 +0000")
    [out] = run(camp, tmp_path, late, name="box2").outcomes
    assert out.status == "ignored" and "out of order" in out.line
    assert stored(camp, "ann").endswith("guess 5\n")
    assert "arrived out of order" in out.reply.get_content()


def test_orders_for_another_turn_are_refused(tmp_path):
    camp = guess_campaign(tmp_path)
    [out] = run(camp, tmp_path, message("player: ann\nturn: 4\nguess 2\n")).outcomes
    assert out.status == "refused"
    assert out.errors == ["message:2:1: these orders are for turn 4, but the campaign is at turn 1"]


def test_a_player_header_naming_someone_else_is_refused(tmp_path):
    camp = guess_campaign(tmp_path)
    [out] = run(camp, tmp_path, message("player: bob\nguess 2\n", sender=ANN)).outcomes
    assert out.status == "refused" and stored(camp, "bob") is None and stored(camp, "ann") is None


def test_passwords_are_checked_and_never_stored(tmp_path):
    camp = guess_campaign(tmp_path, passwords=True)
    set_password(camp, "ann", "tulip-42")
    outs = run(camp, tmp_path,
               message("player: ann\npassword: wrong-one\nguess 1\n", date="Mon, 30 Nov 2026 09:00:00 +0000"),
               message("player: ann\nguess 1\n", date="Mon, 30 Nov 2026 09:30:00 +0000"),
               message("player: ann\npassword: tulip-42\nguess 3\n", date="Mon, 30 Nov 2026 10:00:00 +0000"),
               message("player: bob\npassword: tulip-42\nguess 3\n", sender=BOB,
                       date="Mon, 30 Nov 2026 11:00:00 +0000")).outcomes
    assert [o.status for o in outs] == ["refused", "refused", "stored", "refused"]
    assert "wrong password" in outs[0].reply.get_content()
    assert "needs a 'password:' line" in outs[1].line and "no password is set" in outs[3].line
    assert "tulip" not in stored(camp, "ann") and "tulip" not in outs[2].reply.get_content()
    assert "tulip" not in (camp.path / "secret" / "passwords.yaml").read_text()


def test_mbox_from_campaign_yaml(tmp_path):
    camp = guess_campaign(tmp_path)
    mbox_with(camp.path / "orders.mbox", message("player: bob\nguess 4\n", sender=BOB))
    camp = update_config(camp, mail={"inbox": {"kind": "mbox", "path": "orders.mbox"}})
    [out] = fetch(camp, inbox_settings(camp)).outcomes
    assert out.status == "stored" and stored(camp, "bob").endswith("guess 4\n")


def test_an_unreachable_mailbox_is_one_logged_failure(tmp_path):
    camp = guess_campaign(tmp_path)
    result = fetch(camp, inbox_settings(camp, mbox=str(tmp_path / "nowhere.mbox")))
    assert result.outcomes == [] and "no such mbox file" in result.failure
    assert "fetch failed" in (camp.path / "mail.log").read_text()
    assert camp.stored_orders(1) == {}


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gm.delivery.mail.body import BadMessage, read_incoming  # noqa: E402

_HEADS = st.sampled_from([b"", b"From: ann@example.org\r\n", b"From: <>\r\nDate: garbage\r\n",
                          b"From: a@b.c\r\nContent-Type: multipart/alternative; boundary=x\r\n",
                          b"From: a@b.c\r\nContent-Type: text/plain; charset=x-klingon\r\n",
                          b"From: a@b.c\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n",
                          b"From: a@b.c\r\nContent-Type: text/plain; charset=utf-16\r\n"])


@settings(max_examples=150, deadline=None)
@given(head=_HEADS, body=st.binary(max_size=400), text=st.text(max_size=200))
def test_only_bad_message_ever_escapes_the_reader(head, body, text):
    for raw in (head + b"\r\n" + body, head + b"\r\n" + text.encode("utf-8"),
                head + b"\r\n--x\r\nContent-Type: text/plain\r\n\r\n" + body + b"\r\n--x--\r\n"):
        try:
            incoming = read_incoming(raw)
        except BadMessage as exc:
            assert "\n" not in str(exc) and str(exc)
        else:
            assert "@" in incoming.sender and isinstance(incoming.text, str)


def test_mail_client_quoting_is_not_read_as_orders(tmp_path):
    camp = guess_campaign(tmp_path)
    gmail = ("player: ann\nguess 4\n\nOn Mon, 30 Nov 2026 at 09:00, GM <gm@example.org> wrote:\n\n"
             "> NETWORK: camp, turn 0\n> player: ann\n")
    outlook = ("player: bob\nguess 2\n\n-----Original Message-----\nFrom: GM\nSubject: turn 0\n\n"
               "YOUR ORDERS\nplayer: bob\nguess \n")
    html = ('<div dir="ltr">player: ann<div>guess 5</div></div><div class="gmail_quote">'
            '<div>On Mon, 30 Nov 2026, GM &lt;gm@example.org&gt; wrote:<br></div>'
            '<blockquote>player: ann<br>guess 1</blockquote></div>')
    outs = run(camp, tmp_path, message(gmail), message(outlook, sender=BOB),
               message(html=html, date="Mon, 30 Nov 2026 11:00:00 +0000")).outcomes
    assert [o.status for o in outs] == ["stored", "stored", "stored"], [o.errors for o in outs]
    assert stored(camp, "ann").endswith("guess 5\n") and stored(camp, "bob").endswith("guess 2\n")
