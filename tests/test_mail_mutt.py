"""Debian's Mutt, driven in batch mode, sends to a loopback aiosmtpd server what a player would:
format=flowed orders with a soft-broken line and a closing, an order file attached, a question for
the GM. What the server received is fetched into a Railway Rivals campaign (issue 23). Outside CI a
missing Mutt skips these tests; in CI (CI=true) it fails them (.ci/run installs mutt)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from aiosmtpd.controller import Controller
from test_mail_support import maildir_with
from test_run_support import Mailroom, free_port

from gm.delivery.mail.for_gm import messages
from gm.delivery.mail.inbox import inbox_settings
from gm.delivery.mail.intake import fetch
from gm.store.orders import read_frame
from gm.turn.engine import new_campaign


@pytest.fixture
def mutt(tmp_path):
    path = shutil.which("mutt")
    if path is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("Mutt is needed in CI (.ci/run installs mutt)")
        pytest.skip("mutt is not installed (apt install mutt)")
    room = Mailroom()
    port = free_port()
    controller = Controller(room, hostname="127.0.0.1", port=port, ready_timeout=10)
    controller.start()
    home = tmp_path / "home"
    home.mkdir()
    (home / "muttrc").write_text(f"""set smtp_url="smtp://127.0.0.1:{port}/"
set ssl_starttls=no
set ssl_force_tls=no
set from="Ann Smith <ann@example.org>"
set use_from=yes
set hostname=example.org
set record=""
set text_flowed=yes
set send_charset="utf-8"
set tmpdir="{home}"
""")

    def send(subject: str, body: str, *attachments) -> bytes:
        (home / "body.txt").write_text(body, encoding="utf-8")
        before = len(room.received)
        args = [path, "-n", "-F", str(home / "muttrc"), "-s", subject]
        if attachments:
            args += ["-a", *map(str, attachments)]
        args += ["--", "gm@example.org"]
        with open(home / "body.txt", "rb") as stdin:
            done = subprocess.run(
                args,
                stdin=stdin,
                capture_output=True,
                timeout=60,
                env={"HOME": str(home), "PATH": os.environ.get("PATH", "")},
            )
        assert done.returncode == 0, done.stderr.decode(errors="replace")
        assert len(room.received) == before + 1
        return room.raw[-1]

    room.raw = []
    real = room.handle_DATA

    async def keep_raw(server, session, envelope):
        room.raw.append(envelope.original_content)
        return await real(server, session, envelope)

    room.handle_DATA = keep_raw
    yield send
    controller.stop()


def test_mail_sent_by_mutt_is_read(mutt, tmp_path):
    camp = new_campaign(
        tmp_path / "camp",
        "railway-rivals",
        ["ann:Ann:ann@example.org", "bob:Bob:bob@example.org"],
        map_name="tutorial",
        master=(137).to_bytes(2, "big") * 16,
    )
    flowed = mutt(
        "Orders turn 1",
        "player: ann\nturn: 1\nround 1: (0203) 0204 0205 \n0206 0207\nround 2: (0207) 0208\n\nCheers, Ann\n",
    )
    assert b"format=flowed" in flowed
    (tmp_path / "orders.txt").write_text("player: ann\nturn: 1\nround 1: (0203) 0207\n", encoding="utf-8")
    attached = mutt("my orders", "They are in the file.\n", tmp_path / "orders.txt")
    question = mutt("a question", "Could I have an extra day? I am away until Tuesday.\n\nThanks,\nAnn\n")
    outs = [
        fetch(camp, inbox_settings(camp, maildir=str(maildir_with(tmp_path / f"box{i}", raw)))).outcomes[0]
        for i, raw in enumerate((flowed, attached, question))
    ]
    assert [o.status for o in outs] == ["stored", "stored", "answered"], [o.line for o in outs]
    first = outs[0].reply.get_content()
    assert "round 1: (0203) 0204 0205 0206 0207" in first and "not read as orders: 'Cheers, Ann'" in first
    assert "attachment 'orders.txt'" in outs[1].reply.get_content()
    assert [ln.text for ln in read_frame(camp.stored_orders(1)["ann"]).lines] == ["round 1: (0203) 0207"]
    assert outs[2].command == "gm" and messages(camp)[0]["text"].startswith("Could I have an extra day?")
