"""The one way mail goes out (gm/delivery/mail/deliver.py), through a real SMTP server on loopback
(aiosmtpd, started here): forged and encoded headers never reach an outgoing header nor the SMTP
envelope; stable Message-IDs; Auto-Submitted; reports again after a rollback; a replacement gets
the latest report; press delivered in the pass that received it."""
from __future__ import annotations

import email
import email.policy
import email.utils
import threading
from email.message import EmailMessage

import pytest
import yaml
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from test_mail_support import ANN, BOB, guess_campaign, maildir_with, message, update_config
from test_run_support import free_port

from gm.cli import main
from gm.delivery.mail.headers import UnsafeMessage, safe_id, seal
from gm.delivery.mail.outbox import reply_message
from gm.store.campaign import Campaign

EVIL = "mallory@evil.example"


class Wire:
    """An aiosmtpd handler keeping the envelope recipients and the bytes of every message."""

    def __init__(self) -> None:
        self.got: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):
        self.got.append((list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"

    def messages(self) -> list[tuple[list[str], EmailMessage]]:
        return [(rcpts, email.message_from_bytes(raw, policy=email.policy.default)) for rcpts, raw in self.got]


@pytest.fixture
def wire():
    handler = Wire()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, ready_timeout=10)
    controller.start()
    watchdog = threading.Timer(120, controller.stop)
    watchdog.daemon = True
    watchdog.start()
    handler.port = port
    yield handler
    watchdog.cancel()
    controller.stop()


def gm(*args, code: int | None = 0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if code is not None:
        assert result.exit_code == code, result.output
    return result


def smtp(port: int) -> dict:
    return {"from": "GM <gm@example.org>",
            "smtp": {"host": "127.0.0.1", "port": port, "security": "none", "retry_delay": 0, "attempts": 1}}


def registered(camp: Campaign) -> set[str]:
    return {str(p["email"]).lower() for p in Campaign(camp.path).players}


def assert_each_to_its_one_address(wire: Wire, addresses: set[str]) -> None:
    """Every message went to exactly one envelope recipient, a registered address, the one its
    To: names; nothing of the attacker's reached any header or the envelope."""
    assert wire.got
    for rcpts, raw in wire.got:
        assert len(rcpts) == 1 and rcpts[0].lower() in addresses, rcpts
        head = raw.split(b"\r\n\r\n", 1)[0] if b"\r\n\r\n" in raw else raw.split(b"\n\n", 1)[0]
        assert b"evil" not in head.lower() and b"bcc" not in head.lower(), head
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        [(_name, to)] = email.utils.getaddresses([str(msg["To"])])
        assert to.lower() == rcpts[0].lower()
        assert len(msg.get_all("Subject")) == 1 and str(msg["Subject"]).startswith("[camp] ")
        assert "attacker body" not in raw.decode("utf-8", "replace")
        for name in ("In-Reply-To", "References"):
            assert msg[name] is None or safe_id(str(msg[name])), msg[name]


# Written byte by byte as an attacker sends them: a player's From: (forgeable), and a Message-ID
# whose RFC 2047 encoded word decodes to CR/LF and a Bcc:, a Subject: and a body of their own.
INJECT_Q = (b"=?utf-8?q?<x1@example.org>=0D=0ABcc:_" + EVIL.encode() +
            b"=0D=0ASubject:_free_money=0D=0A=0D=0Aattacker_body?=")
INJECT_B = b"=?utf-8?b?PHgyQGV4YW1wbGUub3JnPg0KQmNjOiBtYWxsb3J5QGV2aWwuZXhhbXBsZQ0KDQphdHRhY2tlciBib2R5?="
INJECT_LS = b"=?utf-8?q?<x3@example.org>=E2=80=A8Bcc:_" + EVIL.encode() + b"?="


def attack(message_id: bytes, body: bytes, *, subject: bytes = b"orders", hour: int = 10) -> bytes:
    return (b"From: Ann <ann@example.org>\r\n"
            b"To: gm@example.org\r\n"
            b"Subject: " + subject + b"\r\n"
            b"Date: Mon, 30 Nov 2026 " + f"{hour:02d}".encode() + b":00:00 +0000\r\n"
            b"Message-ID: " + message_id + b"\r\n"
            b"MIME-Version: 1.0\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\n"
            b"\r\n" + body)


ATTACKS = [
    attack(INJECT_Q, b"player: ann\r\nguess 2\r\n", hour=9),                     # orders
    attack(INJECT_B, b"player: ann\r\nguess nonsense\r\n", hour=10),             # refused orders
    attack(INJECT_LS, b"help\r\n", subject=b"help", hour=11),                    # a mail command
    attack(INJECT_Q.replace(b"x1", b"x4"), b"resend\r\n", subject=b"resend", hour=12),  # the report again
    attack(INJECT_Q.replace(b"x1", b"x5"), b"player: ann\r\n" + b"guess 3\r\n" * 400, hour=13),  # oversized
    # an encoded Subject and a folded id: neither may become a header of the answer
    attack(b"<x6@example.org>\r\n =?utf-8?q?=0D=0ABcc:_" + EVIL.encode() + b"?=", b"status\r\n",
           subject=b"=?utf-8?q?status=0D=0ABcc:_" + EVIL.encode() + b"?=", hour=14),
]


def test_the_attack_messages_inject_headers_into_a_naively_built_reply(tmp_path):
    """The premise: the encoded id, copied as it came, would become headers of its own."""
    naive = EmailMessage()
    naive["To"] = ANN
    naive["In-Reply-To"] = INJECT_Q.decode()
    naive.set_content("x")
    assert f"Bcc: {EVIL}".encode() in bytes(naive)
    safe = reply_message(guess_campaign(tmp_path), "ann", "s", "b", in_reply_to=INJECT_Q.decode())
    assert safe["In-Reply-To"] is None and safe["References"] is None
    kept = reply_message(guess_campaign(tmp_path / "2"), "ann", "s", "b", in_reply_to=" <CAx+y=z@mail.example> ")
    assert kept["In-Reply-To"] == kept["References"] == "<CAx+y=z@mail.example>"


def test_forged_encoded_message_ids_never_reach_a_header_or_the_envelope(tmp_path, wire):
    camp = guess_campaign(tmp_path, mail=dict(smtp(wire.port), max_bytes=2000, replies_per_hour=10))
    box = maildir_with(tmp_path / "box", *ATTACKS)
    out = gm("mail", "fetch", camp.path, "--maildir", box, "--send").output
    assert "6 sent, 0 already sent before, 0 failed" in out, out
    assert_each_to_its_one_address(wire, {ANN})
    kinds = [str(m["Subject"]) for _r, m in wire.messages()]
    assert any("too large" in str(m.get_body(("plain",)).get_content()) for _r, m in wire.messages()), kinds
    assert "[camp] Turn 0 report for Ann" in kinds  # resend answered with the report, its id left out
    assert all(m["Auto-Submitted"] == "auto-replied" for _r, m in wire.messages())


def test_a_gm_run_pass_sends_each_message_to_its_one_address_only(tmp_path, wire, monkeypatch):
    """Replies, reports, notices, press and reminders of a whole pass, with the attacks in the inbox."""
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    box = maildir_with(tmp_path / "box", *ATTACKS,
                       message("player: bob\nguess 5\n", sender=BOB, date="Mon, 30 Nov 2026 14:00:00 +0000"),
                       message("press all: who takes the coast?", sender=BOB, subject="press",
                               date="Mon, 30 Nov 2026 15:00:00 +0000"))
    camp = guess_campaign(tmp_path, early=True, remind="30d", deadline="2026-12-20T18:00Z",
                          mail=dict(smtp(wire.port), max_bytes=2000, replies_per_hour=10,
                                    inbox={"kind": "maildir", "path": str(box)}))
    gm("deadline", camp.path, "extend", "1d")
    out = gm("run", camp.path, "--send").output
    assert "turn 1 resolved (every order in)" in out, out
    assert "press message(s) sent" in out and "notice(s) sent" in out, out
    assert_each_to_its_one_address(wire, {ANN, BOB})
    auto = {str(m["Subject"]): m["Auto-Submitted"] for _r, m in wire.messages()}
    assert auto["[camp] Turn 1 report for Ann"] == "auto-generated"
    assert auto["[camp] Press from Bob"] == "auto-generated"
    assert auto["[camp] Turn 1: the deadline has changed"] == "auto-generated"
    assert auto["[camp] Turn 1 orders received"] == "auto-replied"
    assert gm("run", camp.path, "--send").output == "" and len(wire.got) == len(set(m["Message-ID"] for _r, m in
                                                                                      wire.messages()))


def test_the_gate_refuses_what_gm_never_writes():
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "GM <gm@example.org>", f"Ann <{ANN}>", "[camp] x"
    msg.set_content("x")
    assert b"auto-generated" in seal(msg, to=ANN, key="report:1:ann", message_id="<a@b>")
    with pytest.raises(UnsafeMessage, match="registered address"):
        seal(msg, to=BOB, key="report:1:ann", message_id="<a@b>")
    msg["Bcc"] = EVIL
    with pytest.raises(UnsafeMessage, match="'bcc' is not one gm writes"):
        seal(msg, to=ANN, key="report:1:ann", message_id="<a@b>")
    del msg["Bcc"]
    del msg["To"]
    msg["To"] = f"Ann <{ANN}>, {EVIL}"
    with pytest.raises(UnsafeMessage):
        seal(msg, to=ANN, key="report:1:ann", message_id="<a@b>")


def test_a_tampered_reply_file_is_refused_not_sent(tmp_path, wire):
    """A reply kept on disk that holds a header gm never writes is refused, logged, never retried."""
    camp = guess_campaign(tmp_path, mail=smtp(wire.port))
    box = maildir_with(tmp_path / "box", message("player: ann\nguess 2\n"))
    gm("mail", "fetch", camp.path, "--maildir", box)  # the reply kept, handed over: make it pending again
    (camp.path / "outbox" / "sent-log.yaml").unlink()
    [reply] = (camp.path / "outbox" / "replies").glob("*.eml")
    reply.write_bytes(f"Bcc: {EVIL}\n".encode() + reply.read_bytes())
    out = gm("mail", "fetch", camp.path, "--maildir", box, "--send").output
    assert "1 refused as unsafe" in out and wire.got == []
    assert "'bcc' is not one gm writes" in (camp.path / "mail.log").read_text()
    gm("mail", "fetch", camp.path, "--maildir", box, "--send")
    assert wire.got == []


def test_a_message_resent_after_a_crash_keeps_its_message_id(tmp_path, wire):
    """A kill between the server's acceptance and the sent-log line: the next run sends the same
    message again, under the same Message-ID, so mail programs show one copy."""
    camp = guess_campaign(tmp_path, mail=smtp(wire.port))
    gm("mail", "send", camp.path, "--send")
    log = camp.path / "outbox" / "sent-log.yaml"
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:-1]))  # the last line never written
    gm("mail", "send", camp.path, "--send")
    ids = [str(m["Message-ID"]) for _r, m in wire.messages()]
    assert len(ids) == 3 and ids[2] == ids[1] and ids[0] != ids[1], ids
    assert all(safe_id(i) and i.endswith("@example.org>") for i in ids)


def test_message_ids_differ_between_campaigns(tmp_path, wire):
    one = guess_campaign(tmp_path / "one", mail=smtp(wire.port))
    path = tmp_path / "two"
    from gm.turn.engine import new_campaign
    new_campaign(path / "camp", "guess", [f"ann:Ann:{ANN}", f"bob:Bob:{BOB}"], master=bytes(range(1, 33)))
    two = update_config(Campaign(path / "camp"), mail=smtp(wire.port))
    gm("mail", "send", one.path, "--send")
    gm("mail", "send", two.path, "--send")
    ids = [str(m["Message-ID"]) for _r, m in wire.messages()]
    assert len(set(ids)) == 4


def test_mail_send_sends_the_new_reports_after_a_rollback(tmp_path, wire, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    camp = guess_campaign(tmp_path, mail=smtp(wire.port))
    for player in ("ann", "bob"):
        camp.store_orders(1, player, f"player: {player}\nguess 2\n")
    gm("resolve", camp.path)
    assert "2 sent, 0 already sent before" in gm("mail", "send", camp.path, "--send").output
    gm("rollback", camp.path)
    gm("resolve", camp.path, "--force")
    out = gm("mail", "send", camp.path, "--send").output
    assert "2 sent, 0 already sent before" in out, out
    again = gm("mail", "send", camp.path, "--send").output
    assert "0 sent, 2 already sent before" in again and len(wire.got) == 4


def test_a_replacement_gets_the_latest_report_and_the_leaver_a_farewell(tmp_path, wire, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    camp = guess_campaign(tmp_path, mail=smtp(wire.port), deadline="2026-12-20T18:00Z")
    gm("run", camp.path, "--send")  # turn 0's reports go to Ann and Bob
    assert sorted(r[0] for r, _m in wire.messages()) == [ANN, BOB]
    gm("player", camp.path, "bob", "--replace", "eve:Eve Taylor:eve@example.org")
    gm("run", camp.path, "--send")
    to_eve = {str(m["Subject"]): m for r, m in wire.messages() if r == ["eve@example.org"]}
    report = to_eve["[camp] Turn 0 report for Eve Taylor"]
    forms = [p for p in report.walk() if p.get_filename() == "orders-turn-001-bob.txt"]
    assert len(forms) == 1 and "player: bob" in forms[0].get_content()
    assert "[camp] Welcome to camp" in to_eve
    [(rcpts, farewell)] = [(r, m) for r, m in wire.messages() if str(m["Subject"]) == "[camp] You have left camp"]
    assert rcpts == [BOB] and str(farewell["To"]) == f"Bob <{BOB}>"
    assert "Dear Bob" in farewell.get_content()
    assert_each_to_its_one_address(wire, {ANN, BOB, "eve@example.org"})
    gm("run", camp.path, "--send")
    assert sum(str(m["Subject"]).startswith("[camp] Turn 0 report for Eve") for _r, m in wire.messages()) == 1


def test_a_deadline_notice_names_as_due_only_the_missing(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    camp = guess_campaign(tmp_path, deadline="2026-12-20T18:00Z")
    camp.store_orders(1, "ann", "player: ann\nguess 2\n")
    gm("deadline", camp.path, "extend", "1d")
    [notice] = (camp.path / "outbox" / "notices").glob("*-ann.eml")
    text = email.message_from_bytes(notice.read_bytes(), policy=email.policy.default).get_content()
    assert "Orders still due from: Bob." in text and "Ann" not in text.split("due from:")[1]


def test_reminders_say_what_missing_orders_mean_and_count_the_grace(tmp_path, monkeypatch):
    from gm import games
    from gm.delivery.mail.remind import due_reminders, what_missing_means
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    camp = guess_campaign(tmp_path, deadline="2026-12-02T18:00Z", grace="6h", nmr_policy="default")
    messages, _notes = due_reminders(camp)
    text = messages[0][1].get_content()
    assert "There is a grace of 6h after the deadline" in text
    assert "orders that arrive by Thu 2026-12-03 00:00 UTC still count" in text, text
    assert "If your orders are still missing then, " in text
    rivals = games.get("railway-rivals")
    assert what_missing_means(rivals, {}, "p1", "default") == \
        "your company builds nothing and enters no race this turn"
    assert what_missing_means(rivals, {}, "p1", "hold") == "the GM decides what happens"
    nogrc = update_config(camp, grace="0h")
    messages, _notes = due_reminders(nogrc)
    assert "There is no grace period" in messages[0][1].get_content()


def test_press_goes_out_in_the_pass_that_receives_it(tmp_path, wire, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    box = maildir_with(tmp_path / "box", message("press ann: meet me at the coast", sender=BOB, subject="press"))
    camp = guess_campaign(tmp_path, deadline="2026-12-20T18:00Z", press="grey",
                          mail=dict(smtp(wire.port), inbox={"kind": "maildir", "path": str(box)}))
    out = gm("run", camp.path, "--send").output
    assert "1 press message(s) sent" in out, out
    [(rcpts, press)] = [(r, m) for r, m in wire.messages() if "Press from" in str(m["Subject"])]
    assert rcpts == [ANN] and "meet me at the coast" in press.get_content()
    assert "Bob" not in press.get_content() and "(anonymous)" in press.get_content()  # grey press stays grey
    gm("run", camp.path, "--send")
    assert sum("Press from" in str(m["Subject"]) for _r, m in wire.messages()) == 1
    for player in ("ann", "bob"):
        Campaign(camp.path).store_orders(1, player, f"player: {player}\nguess 2\n")
    gm("resolve", camp.path)
    assert "meet me at the coast" in (camp.path / "turns" / "001" / "reports" / "ann.txt").read_text()
    assert yaml.safe_load((camp.path / "turns" / "001" / "press.yaml").read_text())


def test_a_pending_reply_goes_to_the_address_registered_now(tmp_path, wire):
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", message("player: ann\nguess 2\n"))
    assert gm("mail", "fetch", camp.path, "--maildir", box, "--send", code=2)  # no SMTP yet: kept
    gm("player", camp.path, "ann", "--email", "ann@new.example")
    update_config(Campaign(camp.path), mail=smtp(wire.port))
    gm("mail", "fetch", camp.path, "--maildir", box, "--send")
    [(rcpts, reply)] = wire.messages()
    assert rcpts == ["ann@new.example"] and str(reply["To"]) == "Ann <ann@new.example>"


def test_a_pass_says_when_it_refuses_an_unsafe_message(tmp_path, wire, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    camp = guess_campaign(tmp_path, mail=smtp(wire.port), deadline="2026-12-20T18:00Z")
    gm("deadline", camp.path, "extend", "1d")
    [notice] = (camp.path / "outbox" / "notices").glob("*-ann.eml")
    notice.write_bytes(f"Bcc: {EVIL}\n".encode() + notice.read_bytes())
    out = gm("run", camp.path, "--send", code=2).output
    assert "refused as unsafe (not sent: header 'bcc' is not one gm writes)" in out, out
    assert all(rcpts != [EVIL] for rcpts, _raw in wire.got) and EVIL.encode() not in b"".join(r for _t, r in wire.got)
    assert "refused as unsafe" in (camp.path / "run.log").read_text()
    assert "refused" not in gm("run", camp.path, "--send").output  # logged once, never retried
