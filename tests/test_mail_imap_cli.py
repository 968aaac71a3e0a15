"""IMAP through a fake server object, the `gm mail fetch|password` commands, receipts."""
from __future__ import annotations

import hashlib
import imaplib

from click.testing import CliRunner
from test_mail_support import ANN, BOB, guess_campaign, maildir_with, message, replies, update_config

from gm.cli import main
from gm.delivery.mail.inbox import inbox_settings
from gm.delivery.mail.intake import fetch
from gm.delivery.mail.passwords import check_password, hash_password, stored_hash
from gm.store.receipts import canonical_orders, receipt


class FakeIMAP:
    """Just the imaplib calls the inbox makes; records what was marked seen."""

    instances: list["FakeIMAP"] = []

    def __init__(self, host, port, messages=None):
        self.host, self.port = host, port
        self.messages = messages if messages is not None else FakeIMAP.mailbox
        self.seen: set[bytes] = set()
        self.logged_in = self.logged_out = False
        FakeIMAP.instances.append(self)

    def login(self, user, password):
        if (user, password) != ("gm", "imap-pass"):
            raise imaplib.IMAP4.error("[AUTHENTICATIONFAILED] Invalid credentials")
        self.logged_in = True

    def select(self, folder):
        return ("OK", [str(len(self.messages)).encode()]) if folder == "INBOX" else ("NO", [b"no such folder"])

    def search(self, charset, criterion):
        assert criterion == "UNSEEN"
        return "OK", [b" ".join(n for n in self.messages if n not in self.seen)]

    def fetch(self, number, what):
        raw = self.messages[number]
        return "OK", [(number + b" (BODY[] {%d}" % len(raw), raw), b")"]

    def store(self, number, command, flags):
        assert (command, flags) == ("+FLAGS", "\\Seen")
        self.seen.add(number)

    def logout(self):
        self.logged_out = True


def imap_campaign(tmp_path, **inbox):
    camp = guess_campaign(tmp_path)
    block = {"kind": "imap", "host": "imap.example.org", "user": "gm", "password_file": "imap.pass", **inbox}
    (camp.path / "secret" / "imap.pass").write_text("imap-pass\n")
    return update_config(camp, mail={"inbox": block})


def test_imap_messages_are_kept_then_marked_seen(tmp_path):
    FakeIMAP.mailbox = {b"1": bytes(message("player: ann\nguess 2\n")),
                        b"2": bytes(message("player: bob\nguess 6\n", sender=BOB))}
    camp = imap_campaign(tmp_path)
    result = fetch(camp, inbox_settings(camp), imap_factory=FakeIMAP)
    assert [o.status for o in result.outcomes] == ["stored", "stored"]
    server = FakeIMAP.instances[-1]
    assert server.seen == {b"1", b"2"} and server.logged_out and server.port == 993
    assert len(list((camp.path / "inbox").glob("*.eml"))) == 2


def test_imap_login_failure_is_one_line_and_logged(tmp_path, monkeypatch):
    FakeIMAP.mailbox = {b"1": bytes(message("player: ann\nguess 2\n"))}
    camp = imap_campaign(tmp_path, password_file=None, password_env="GM_TEST_IMAP")
    monkeypatch.setenv("GM_TEST_IMAP", "not-it")
    result = fetch(camp, inbox_settings(camp), imap_factory=FakeIMAP)
    assert result.outcomes == [] and "AUTHENTICATIONFAILED" in result.failure
    assert "fetch failed: IMAP imap.example.org:993" in (camp.path / "mail.log").read_text()


def test_cli_fetch_writes_replies_and_prints_a_line_per_message(tmp_path):
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", message("player: ann\nguess 2\n"),
                       message("player: bob\nguess 0\n", sender=BOB, date="Mon, 30 Nov 2026 11:00:00 +0000"),
                       message("player: ann\nguess 2\n", sender="eve@example.org"))
    result = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("ann@example.org: stored (ann)" in line for line in lines)
    assert any("bob@example.org: refused (bob): 1 error(s)" in line for line in lines)
    assert any("eve@example.org: ignored" in line for line in lines)
    texts = replies(camp)
    assert len(texts) == 2
    to_bob = next(t for t in texts if f"To: Bob <{BOB}>" in t)
    assert "message:2:7: a guess is 1 to 6, not '0'" in to_bob and ANN not in to_bob
    again = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box)])
    assert again.exit_code == 0 and "No new messages." in again.output


def test_cli_fetch_without_an_inbox_is_a_usage_error(tmp_path):
    camp = guess_campaign(tmp_path)
    result = CliRunner().invoke(main, ["mail", "fetch", str(camp.path)])
    assert result.exit_code == 2
    assert result.output.strip().startswith("Error: no inbox: set mail.inbox")


def test_cli_fetch_unreachable_mailbox_exits_2(tmp_path):
    camp = guess_campaign(tmp_path)
    result = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(tmp_path / "none")])
    assert result.exit_code == 2 and "not a Maildir" in result.output


def test_cli_password_from_stdin_and_env(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path)
    result = CliRunner().invoke(main, ["mail", "password", str(camp.path), "ann"], input="rose-bud-7\n")
    assert result.exit_code == 0, result.output
    assert check_password("rose-bud-7", stored_hash(camp, "ann"))
    monkeypatch.setenv("GM_PASSWORD", "other-pass")
    assert CliRunner().invoke(main, ["mail", "password", str(camp.path), "bob"]).exit_code == 0
    assert check_password("other-pass", stored_hash(camp, "bob"))
    bad = CliRunner().invoke(main, ["mail", "password", str(camp.path), "anne"])
    assert bad.exit_code == 2 and "did you mean" in bad.output
    monkeypatch.setenv("GM_PASSWORD", "abc")
    short = CliRunner().invoke(main, ["mail", "password", str(camp.path), "bob"])
    assert short.exit_code == 2 and "at least 6 characters" in short.output


def test_password_hashes_are_salted_and_checked():
    one, two = hash_password("tulip-42"), hash_password("tulip-42")
    assert one != two and one.startswith("scrypt$")
    assert check_password("tulip-42", one) and not check_password("tulip-43", one)
    assert not check_password("tulip-42", "garbage")


def test_receipt_is_sha256_of_the_canonical_game_lines():
    text = "\ufeffchat above\nplayer: ann\nturn: 2\n  guess   3   # comment\n\n> quoted\nguess 4\n-- \nsig\n"
    assert canonical_orders(text) == "guess   3\nguess 4"
    assert receipt(text) == hashlib.sha256(b"guess   3\nguess 4").hexdigest()
    assert receipt("player: ann\nguess 3\n") != receipt("player: ann\nguess 4\n")


def test_turn_receipts_match_the_receipts_in_the_replies(tmp_path):
    from gm.store.receipts import turn_receipts
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", message("hello\nplayer: ann\nguess 2\n"),
                       message("player: bob\nguess 5 # five\n", sender=BOB))
    outcomes = fetch(camp, inbox_settings(camp, maildir=str(box))).outcomes
    assert turn_receipts(camp.stored_orders(1)) == {o.player: o.receipt for o in outcomes}


def test_imap_without_encryption_is_refused_off_this_machine(tmp_path):
    camp = imap_campaign(tmp_path, security="none")
    result = fetch(camp, inbox_settings(camp))
    assert result.outcomes == []
    assert "only for a server on this machine (127.0.0.1), not imap.example.org" in result.failure


def test_cli_fetch_answers_commands_and_says_so(tmp_path):
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", message("status\n"), message("press all: hello\n", sender=BOB,
                                                                       date="Mon, 30 Nov 2026 11:00:00 +0000"))
    result = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box)])
    assert result.exit_code == 0, result.output
    assert "ann@example.org: command status (ann)" in result.output
    assert "bob@example.org: command press (bob): Press to all players recorded" in result.output
    assert "2 replies written to" in result.output and len(replies(camp)) == 2
