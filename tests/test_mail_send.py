"""gm mail send and remind through a real SMTP server on loopback (aiosmtpd, started here)."""
from __future__ import annotations

import email
import email.policy
import shutil
import socket
import threading

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from test_mail_support import update_config

from gm import games
from gm.store.campaign import Campaign
from gm.cli import main
from gm.turn.engine import new_campaign, resolve, submit_files
from gm.store.paths import ORDERS

ADDRESSES = {"p1": "ann@example.org", "p2": "bob@example.org"}


class Recorder:
    """An aiosmtpd handler keeping every message; can refuse the first N attempts to test retries."""

    def __init__(self, fail_first: int = 0):
        self.messages: list[tuple[list[str], bytes]] = []
        self.fail_first = fail_first

    async def handle_DATA(self, server, session, envelope):
        if self.fail_first > 0:
            self.fail_first -= 1
            return "451 4.3.0 try again later"
        self.messages.append((list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp_server():
    """Start a loopback SMTP server; it stops at the end of the test, or by itself after 60 s."""
    servers = []

    def start(handler: Recorder) -> int:
        port = _free_port()
        controller = Controller(handler, hostname="127.0.0.1", port=port, ready_timeout=10)
        controller.start()
        watchdog = threading.Timer(60, controller.stop)
        watchdog.daemon = True
        watchdog.start()
        servers.append((controller, watchdog))
        return port

    yield start
    for controller, watchdog in servers:
        watchdog.cancel()
        controller.stop()


@pytest.fixture(scope="module")
def king_template(tmp_path_factory):
    """A Network King campaign after turn 1: both hands dealt, hidden from the other player."""
    path = tmp_path_factory.mktemp("king") / "camp"
    camp = new_campaign(path, "network-king", [f"p1:Ann:{ADDRESSES['p1']}", f"p2:Bob:{ADDRESSES['p2']}"],
                        master=bytes(range(32)))
    for player, deck in (("p1", "deck-p1.txt"), ("p2", "deck-p2.txt")):
        [checked] = submit_files(camp, [str(ORDERS / "network-king" / deck)], player)
        assert checked.ok, checked.errors
    resolve(camp)
    return path


@pytest.fixture
def king(king_template, tmp_path):
    path = tmp_path / "camp"
    shutil.copytree(king_template, path)
    return Campaign(path)


def with_smtp(camp, port, **extra):
    return update_config(camp, mail={"from": "GM <gm@example.org>",
                                     "smtp": {"host": "127.0.0.1", "port": port, "security": "none",
                                              "retry_delay": 0, **extra}})


def contents(raw: bytes) -> str:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    parts = [str(msg)]  # headers and raw parts
    parts += [p.get_content() for p in msg.walk() if p.get_content_maintype() == "text"]
    return "\n".join(p if isinstance(p, str) else "" for p in parts)


def hidden_cards(camp, owner: str, viewer: str) -> list[str]:
    state = camp.state()
    own = {c.split("|")[0].strip() for c in state["hands"][viewer] + state["decks"][viewer]}
    theirs = {c.split("|")[0].strip() for c in state["hands"][owner] + state["decks"][owner]}
    return sorted(n for n in theirs - own if n and n != "No Name")


def test_send_delivers_each_player_only_their_own_report(king, smtp_server):
    handler = Recorder()
    camp = with_smtp(king, smtp_server(handler))
    result = CliRunner().invoke(main, ["mail", "send", str(camp.path), "--send"])
    assert result.exit_code == 0, result.output
    assert "2 sent, 0 already sent before, 0 failed" in result.output
    assert sorted(r for rcpts, _ in handler.messages for r in rcpts) == sorted(ADDRESSES.values())
    for rcpts, raw in handler.messages:
        [to] = rcpts
        me = "p1" if to == ADDRESSES["p1"] else "p2"
        other = "p2" if me == "p1" else "p1"
        text = contents(raw)
        assert f"Report for {'Ann' if me == 'p1' else 'Bob'}" in text
        assert ADDRESSES[other] not in text
        secrets = hidden_cards(camp, other, me)
        assert len(secrets) >= 5
        assert [s for s in secrets if s in text] == []
        own = camp.state()["hands"][me][0].split("|")[0].strip()
        assert own in text
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        html = msg.get_body(("html",))
        images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
        assert len(images) == 1 and images[0]["Content-ID"].strip("<>") in html.get_content()
        assert "Commitment for turn 2" in msg.get_body(("plain",)).get_content()
        forms = [p for p in msg.walk() if p.get_filename() == f"orders-turn-002-{me}.txt"]
        if me in games.get("network-king").due(camp.state()):
            assert len(forms) == 1 and f"player: {me}" in forms[0].get_content()
        else:
            assert forms == []


def test_a_rerun_never_sends_twice(king, smtp_server):
    handler = Recorder()
    camp = with_smtp(king, smtp_server(handler))
    assert CliRunner().invoke(main, ["mail", "send", str(camp.path), "--send"]).exit_code == 0
    again = CliRunner().invoke(main, ["mail", "send", str(camp.path), "--send"])
    assert again.exit_code == 0 and "0 sent, 2 already sent before" in again.output
    assert len(handler.messages) == 2


def test_a_failed_send_is_retried(king, smtp_server):
    handler = Recorder(fail_first=2)
    camp = with_smtp(king, smtp_server(handler), attempts=3)
    result = CliRunner().invoke(main, ["mail", "send", str(camp.path), "--send"])
    assert result.exit_code == 0, result.output
    assert len(handler.messages) == 2
    log = (camp.path / "mail.log").read_text()
    assert "send report:1:p1 to Ann <ann@example.org>: sent (on attempt 3)" in log
    assert "send report:1:p2 to Bob <bob@example.org>: sent\n" in log
    assert "report:1:p1: sent (on attempt 3)" in result.output


def test_an_unreachable_server_is_reported_and_a_rerun_sends(king, smtp_server):
    port = _free_port()  # nothing listens here yet
    camp = with_smtp(king, port, attempts=2)
    result = CliRunner().invoke(main, ["mail", "send", str(camp.path), "--send"])
    assert result.exit_code == 1
    assert "0 sent, 0 already sent before, 2 failed" in result.output
    assert "Error: 2 message(s) not sent; run the command again to retry them" in result.output
    assert "failed (after 2 attempt(s)" in (camp.path / "mail.log").read_text()
    handler = Recorder()
    camp = with_smtp(camp, smtp_server(handler))
    assert CliRunner().invoke(main, ["mail", "send", str(camp.path), "--send"]).exit_code == 0
    assert len(handler.messages) == 2


def test_out_writes_eml_files(king, tmp_path):
    out = tmp_path / "eml"
    result = CliRunner().invoke(main, ["mail", "send", str(king.path), "--turn", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in out.iterdir())
    assert files == ["turn-001-p1.eml", "turn-001-p2.eml"]
    raw = (out / "turn-001-p1.eml").read_bytes()
    assert ADDRESSES["p2"] not in contents(raw) and "Report for Ann" in contents(raw)


def test_reminders_go_once_per_deadline_to_missing_players(king, smtp_server):
    handler = Recorder()
    camp = with_smtp(king, smtp_server(handler))
    camp = update_config(camp, deadline="2099-12-01T18:00:00+01:00", grace="12h", nmr_policy="hold")
    due = camp.state()["to_move"]
    result = CliRunner().invoke(main, ["mail", "remind", str(camp.path), "--send"])
    assert result.exit_code == 0, result.output
    assert [rcpts for rcpts, _ in handler.messages] == [[ADDRESSES[due]]]
    text = contents(handler.messages[0][1])
    assert "turn 2" in text and "Deadline: Tue 2099-12-01 17:00 UTC (" in text and "the GM decides" in text
    again = CliRunner().invoke(main, ["mail", "remind", str(camp.path), "--send"])
    assert "already reminded" in again.output and len(handler.messages) == 1
    camp = update_config(camp, deadline="2099-12-02T18:00:00+01:00")
    CliRunner().invoke(main, ["mail", "remind", str(camp.path), "--send"])
    assert len(handler.messages) == 2


def test_remind_without_a_deadline_is_a_usage_error(king):
    result = CliRunner().invoke(main, ["mail", "remind", str(king.path)])
    assert result.exit_code == 2 and result.output.startswith("Error: no deadline set")


def _certificate(folder):
    """A throw-away certificate for 127.0.0.1 made with the openssl command."""
    import shutil as sh
    import subprocess
    if not sh.which("openssl"):
        pytest.skip("the openssl command is needed to make a test certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_tls_and_login(king, tmp_path, monkeypatch, security):
    import ssl

    from aiosmtpd.smtp import AuthResult
    cert, key = _certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((auth_data.login, auth_data.password))
        # handled=False: aiosmtpd then answers 535 itself (handled=True would leave the client waiting)
        return AuthResult(success=(auth_data.login, auth_data.password) == (b"gm", b"smtp-pass"), handled=False)

    handler = Recorder()
    port = _free_port()
    # with implicit TLS aiosmtpd cannot tell the socket is encrypted, so it must not insist on STARTTLS
    tls = ({"tls_context": context, "require_starttls": True, "auth_require_tls": True} if security == "starttls"
           else {"ssl_context": context, "auth_require_tls": False})
    controller = Controller(handler, hostname="127.0.0.1", port=port, authenticator=authenticator,
                            ready_timeout=10, **tls)
    controller.start()
    try:
        shutil.copy(cert, king.path / "secret" / "ca.pem")
        camp = with_smtp(king, port, security=security, user="gm", password_env="GM_TEST_SMTP", cafile="secret/ca.pem",
                         timeout=10)
        monkeypatch.setenv("GM_TEST_SMTP", "smtp-pass")
        result = CliRunner().invoke(main, ["mail", "send", str(camp.path), "--send"])
        assert result.exit_code == 0, result.output
        assert len(handler.messages) == 2 and logins == [(b"gm", b"smtp-pass")]
        monkeypatch.setenv("GM_TEST_SMTP", "wrong")
        (camp.path / "outbox" / "sent-log.yaml").unlink()
        refused = CliRunner().invoke(main, ["mail", "send", str(camp.path), "--send"])
        assert refused.exit_code == 2 and "login refused (535" in refused.output, refused.output
    finally:
        controller.stop()


def test_fetch_send_mails_the_replies_and_keeps_them_when_smtp_fails(tmp_path, smtp_server):
    from test_mail_support import BOB, guess_campaign, maildir_with, message
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", message("player: ann\nguess 2\n"),
                       message("player: bob\nguess 2\n", sender=BOB, date="Mon, 30 Nov 2026 11:00:00 +0000"))
    nowhere = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box), "--send"])
    assert nowhere.exit_code == 2 and "Error: no SMTP server" in nowhere.output
    assert "the next run with --send sends them" in nowhere.output
    assert len(list((camp.path / "outbox" / "replies").glob("*.eml"))) == 2
    assert sorted(camp.stored_orders(1)) == ["ann", "bob"]
    handler = Recorder()
    camp = with_smtp(camp, smtp_server(handler))
    box2 = maildir_with(tmp_path / "box2", message("player: ann\nguess 6\n", date="Mon, 30 Nov 2026 12:00:00 +0000"))
    result = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box2), "--send"])
    assert result.exit_code == 0, result.output
    # the two replies the first run could not send go out now, with the new one, each once
    assert sorted(r[0][0] for r in handler.messages) == ["ann@example.org", "ann@example.org", "bob@example.org"]
    assert sum("guess 6" in contents(raw) and "Receipt" in contents(raw) for _, raw in handler.messages) == 1
    again = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box2), "--send"])
    assert again.exit_code == 0 and len(handler.messages) == 3


def test_replies_handed_to_the_gm_are_never_sent_later(tmp_path, smtp_server):
    from test_mail_support import guess_campaign, maildir_with, message
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", message("player: ann\nguess 2\n"))
    assert CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box)]).exit_code == 0
    handler = Recorder()
    camp = with_smtp(camp, smtp_server(handler))
    box2 = maildir_with(tmp_path / "box2", message("player: ann\nguess 4\n", date="Mon, 30 Nov 2026 12:00:00 +0000"))
    result = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box2), "--send"])
    assert result.exit_code == 0, result.output
    [(_rcpts, raw)] = handler.messages
    assert "guess 4" in contents(raw)


class DropsAfter(Recorder):
    """Takes ``ok`` messages, then hangs up on every later one until healed."""

    def __init__(self, ok: int):
        super().__init__()
        self.ok = ok

    async def handle_DATA(self, server, session, envelope):
        if len(self.messages) >= self.ok:
            server.transport.close()  # the line goes dead in the middle of the send
            return "421 4.3.0 going away"
        return await super().handle_DATA(server, session, envelope)


def test_a_server_failing_mid_send_leaves_the_rest_for_the_next_run(tmp_path, smtp_server):
    from test_mail_support import ANN, BOB, guess_campaign, maildir_with, message
    camp = guess_campaign(tmp_path)
    box = maildir_with(tmp_path / "box", *[
        message(f"player: {p}\nguess {g}\n", sender=a, date=f"Mon, 30 Nov 2026 1{g}:00:00 +0000")
        for g, (p, a) in enumerate([("ann", ANN), ("bob", BOB)] * 2, start=1)])
    handler = DropsAfter(ok=2)
    camp = with_smtp(camp, smtp_server(handler), attempts=1)
    first = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box), "--send"])
    assert first.exit_code == 1 and "2 sent, 0 already sent before, 2 failed" in first.output
    sent_first = [contents(raw) for _, raw in handler.messages]
    handler.ok = 99  # the server is back
    second = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box), "--send"])
    assert second.exit_code == 0 and "No new messages." in second.output
    assert "2 sent, 0 already sent before, 0 failed" in second.output
    texts = [contents(raw) for _, raw in handler.messages]
    assert len(texts) == 4 and texts[:2] == sent_first
    assert sorted(next(line for line in t.splitlines() if line.startswith("  guess")) for t in texts) == \
        ["  guess 1", "  guess 2", "  guess 3", "  guess 4"]
    third = CliRunner().invoke(main, ["mail", "fetch", str(camp.path), "--maildir", str(box), "--send"])
    assert third.exit_code == 0 and len(handler.messages) == 4


def test_a_linked_mail_log_stops_a_send_before_any_message_goes(king, smtp_server, tmp_path):
    handler = Recorder()
    camp = with_smtp(king, smtp_server(handler))
    outside = tmp_path / "elsewhere.log"
    outside.write_text("")
    (camp.path / "mail.log").unlink(missing_ok=True)
    (camp.path / "mail.log").symlink_to(outside)
    result = CliRunner().invoke(main, ["mail", "send", str(camp.path), "--send"])
    assert result.exit_code == 2 and "mail.log: is a symbolic link" in result.output
    assert "Traceback" not in result.output and handler.messages == [] and outside.read_text() == ""
