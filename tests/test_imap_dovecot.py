"""IMAP against a real Dovecot (Debian's dovecot-imapd), started here on a free port on 127.0.0.1 with
a throw-away configuration and test user, and stopped at the end: fetch, mark seen, and no message
lost when the connection drops mid-fetch. In CI (CI=true) a Dovecot that cannot start FAILS the
test; elsewhere it is skipped (`.ci/run` installs the package)."""
from __future__ import annotations

import grp
import imaplib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
from test_mail_support import ANN, BOB, guess_campaign, message, update_config

from gm.delivery.mail.inbox import inbox_settings
from gm.delivery.mail.intake import fetch

USER, PASSWORD = "gm", "imap-pass"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _unavailable(why: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"Dovecot is needed in CI: {why} (.ci/run installs dovecot-imapd)")
    pytest.skip(f"Dovecot not available: {why}")


def _accounts() -> dict[str, str]:
    """Who Dovecot's processes run as: the current user when not root; as root, Debian's own
    service users and `nobody` for the mail (Dovecot refuses mail access as root)."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid())
        group = grp.getgrgid(os.getegid()).gr_name
        return {"internal": me.pw_name, "group": group, "login": me.pw_name,
                "uid": str(me.pw_uid), "gid": str(os.getegid())}
    try:
        internal, login, nobody = pwd.getpwnam("dovecot"), pwd.getpwnam("dovenull"), pwd.getpwnam("nobody")
    except KeyError as exc:
        _unavailable(f"no system user {exc}")
    return {"internal": internal.pw_name, "group": grp.getgrgid(internal.pw_gid).gr_name, "login": login.pw_name,
            "uid": str(nobody.pw_uid), "gid": str(nobody.pw_gid)}


CONFIG = """\
protocols = imap
listen = 127.0.0.1
base_dir = {base}/run
state_dir = {base}/state
log_path = {base}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain
mail_location = maildir:{base}/mail/%u
default_internal_user = {internal}
default_internal_group = {group}
default_login_user = {login}
first_valid_uid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {base}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={base}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
  {chroot}
}}
{anvil}
"""


class Dovecot:
    def __init__(self, base: Path, port: int):
        self.base, self.port = base, port

    def connect(self) -> imaplib.IMAP4:
        conn = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        conn.login(USER, PASSWORD)
        conn.select("INBOX")
        return conn

    def deliver(self, *messages) -> None:
        conn = self.connect()
        for m in messages:
            conn.append("INBOX", None, None, bytes(m).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
        conn.logout()

    def unseen(self) -> int:
        conn = self.connect()
        status, data = conn.search(None, "UNSEEN")
        conn.logout()
        return len(data[0].split())


@pytest.fixture
def dovecot():
    binary = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.access("/usr/sbin/dovecot", os.X_OK) else None)
    if binary is None:
        _unavailable("no dovecot program (apt-get install dovecot-imapd)")
    base = Path(tempfile.mkdtemp(prefix="gm-dovecot-"))
    base.chmod(0o755)  # Dovecot's own users must reach the mail folder inside
    accounts = _accounts()
    for sub in ("run", "state", "mail", "home"):
        (base / sub).mkdir()
    if os.geteuid() == 0:
        for sub in ("mail", "home"):
            os.chown(base / sub, int(accounts["uid"]), int(accounts["gid"]))
    (base / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    port = _free_port()
    (base / "dovecot.conf").write_text(CONFIG.format(base=base, port=port, **accounts,
                                                     chroot="chroot =" if os.geteuid() != 0 else "",
                                                     # only root may chroot
                                                     anvil="service anvil {\n  chroot =\n}" if os.geteuid() != 0
                                                     else ""))
    process = subprocess.Popen([binary, "-F", "-c", str(base / "dovecot.conf")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        server = Dovecot(base, port)
        _wait_until_ready(server, process)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(base, ignore_errors=True)


def _wait_until_ready(server: Dovecot, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = (server.base / "dovecot.log").read_text() if (server.base / "dovecot.log").exists() else ""
            _unavailable(f"dovecot exited ({process.stdout.read().decode(errors='replace')[-300:]} {log[-300:]})")
        try:
            server.connect().logout()
            return
        except (OSError, imaplib.IMAP4.error):
            time.sleep(0.1)
    _unavailable("dovecot did not answer within 20 s")


class CuttingProxy:
    """A TCP relay to the server that cuts the connection once it has passed ``cut_after`` bytes
    from the server to the client: the network dropping in the middle of a fetch."""

    def __init__(self, port: int, cut_after: int):
        self.target, self.cut_after = port, cut_after
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        client, _ = self.listener.accept()
        server = socket.create_connection(("127.0.0.1", self.target))
        passed = 0
        threading.Thread(target=self._pipe, args=(client, server), daemon=True).start()
        try:
            while passed < self.cut_after:
                data = server.recv(min(4096, self.cut_after - passed))
                if not data:
                    break
                client.sendall(data)
                passed += len(data)
        finally:
            for s in (client, server, self.listener):
                try:
                    s.shutdown(socket.SHUT_RDWR)  # close() alone would leave the other thread's recv waiting
                except OSError:
                    pass
                s.close()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(4096):
                sink.sendall(data)
        except OSError:
            pass


def imap_campaign(tmp_path, port: int):
    camp = guess_campaign(tmp_path)
    (camp.path / "secret" / "imap.pass").write_text(PASSWORD + "\n")
    return update_config(camp, mail={"inbox": {"kind": "imap", "host": "127.0.0.1", "port": port,
                                               "security": "none", "user": USER, "password_file": "imap.pass",
                                               "timeout": 10}})


def orders(n: int):
    """n order messages of about 3 KB each (comment padding), a minute apart."""
    pad = "# " + "x" * 60 + "\n"
    return [message(f"player: {'ann' if i % 2 == 0 else 'bob'}\nguess {1 + i % 6}\n" + pad * 45,
                    sender=ANN if i % 2 == 0 else BOB, msgid=f"<dv{i}@example.org>",
                    date=f"Mon, 30 Nov 2026 10:{i:02d}:00 +0000") for i in range(n)]


def test_fetch_from_dovecot_marks_seen_and_a_second_fetch_finds_nothing(dovecot, tmp_path):
    dovecot.deliver(*orders(3))
    camp = imap_campaign(tmp_path, dovecot.port)
    result = fetch(camp, inbox_settings(camp))
    assert result.failure is None and [o.status for o in result.outcomes] == ["stored"] * 3
    assert dovecot.unseen() == 0
    assert camp.stored_orders(1)["ann"].endswith("guess 3\n") and camp.stored_orders(1)["bob"].endswith("guess 2\n")
    assert fetch(camp, inbox_settings(camp)).outcomes == []
    dovecot.deliver(message("status\n", sender=BOB, msgid="<dv-status@example.org>"))
    [out] = fetch(camp, inbox_settings(camp)).outcomes
    assert out.command == "status" and dovecot.unseen() == 0


def test_no_message_is_lost_when_the_connection_drops_mid_fetch(dovecot, tmp_path):
    messages = orders(6)
    dovecot.deliver(*messages)
    proxy = CuttingProxy(dovecot.port, cut_after=2 * 3300 + 1500)  # greeting, login, search, ~2.5 messages
    camp = imap_campaign(tmp_path, proxy.port)
    first = fetch(camp, inbox_settings(camp))
    assert first.failure and "cannot" in first.failure
    assert 1 <= len(first.outcomes) < 6 and all(o.status == "stored" for o in first.outcomes)
    # each message kept was marked seen, or (cut between keeping and marking) is known by its hash
    assert 6 - len(first.outcomes) <= dovecot.unseen() <= 7 - len(first.outcomes)
    inbox = camp.config["mail"]["inbox"]
    camp = update_config(camp, mail={"inbox": {**inbox, "port": dovecot.port}})  # the network is back
    second = fetch(camp, inbox_settings(camp))
    assert second.failure is None
    digests = [o.digest for o in first.outcomes + second.outcomes]
    assert len(digests) == 6 and len(set(digests)) == 6  # every message once, none twice
    assert dovecot.unseen() == 0
    assert camp.stored_orders(1)["bob"].endswith("guess 6\n")
    assert "fetch failed: IMAP 127.0.0.1" in (camp.path / "mail.log").read_text()
