"""Passwords are read in one place and kept nowhere (issue 22.2): a campaign played by mail with
passwords written every way players write them, then every file gm wrote is searched for them."""

from __future__ import annotations

from pathlib import Path

from test_mail_support import BOB, guess_campaign, maildir_with, message
from test_run_support import gm

from gm.delivery.mail.passwords import set_password
from gm.store.campaign import Campaign
from gm.store.press import read_press

PASSWORDS = {"ann": "tulip-42", "bob": "daisy-77"}
SPELLINGS = ["password : {}", "PASSWORD\t: {}", "   Password :{}", "Password:\u00a0{}"]


def test_a_campaign_with_passwords_keeps_them_nowhere(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-11-30T12:00Z")
    camp = guess_campaign(tmp_path, passwords=True, press="white", mail={"gm": "referee@example.org"})
    for player, word in PASSWORDS.items():
        set_password(camp, player, word)
    box = tmp_path / "Maildir"
    for turn in (1, 2, 3):
        pw = {p: SPELLINGS[(turn + i) % len(SPELLINGS)].format(w) for i, (p, w) in enumerate(PASSWORDS.items())}
        day = f"{turn:02d} Dec 2026"
        maildir_with(
            box,
            message(
                f"player: ann\n{pw['ann']}\nturn: {turn}\nguess {turn}\n",
                date=f"Tue, {day} 09:00:00 +0000",
                msgid=f"<a{turn}@example.org>",
            ),
            message(
                f"Hi GM,\n\nplayer: bob\nturn: {turn}\n{pw['bob']}\nguess 4\n\nBob\n",
                sender=BOB,
                date=f"Tue, {day} 09:05:00 +0000",
                msgid=f"<b{turn}@example.org>",
            ),
            message(
                f"press all: the north is mine\n{pw['ann']}\n",
                date=f"Tue, {day} 09:10:00 +0000",
                msgid=f"<p{turn}@example.org>",
            ),
            message(
                f"gm: may I have a day more?\n{pw['bob']}\n",
                sender=BOB,
                date=f"Tue, {day} 09:15:00 +0000",
                msgid=f"<g{turn}@example.org>",
            ),
            message(
                f"player: ann\nturn: {turn}\npassword: wrong-one\nguess 1\n",
                date=f"Tue, {day} 09:20:00 +0000",
                msgid=f"<w{turn}@example.org>",
            ),
        )
        monkeypatch.setenv("GM_NOW", f"2026-12-{turn:02d}T12:00Z")
        out = gm("mail", "fetch", camp.path, "--maildir", box).output
        assert out.count("stored (") == 2 and out.count("refused (ann): wrong password") == 1, out
        gm("resolve", camp.path)
        gm("mail", "send", camp.path)
    camp = Campaign(camp.path)
    assert camp.resolved_turns()[-1] == 3
    assert [e["text"] for e in read_press(camp, 1)] == ["the north is mine"]
    gm("site", camp.path, "-o", tmp_path / "site")
    gm("export", camp.path, "-o", tmp_path / "record.json")
    gm("inbox", camp.path)
    written = [p for p in tmp_path.rglob("*") if p.is_file() and box not in p.parents]
    assert len(written) > 60 and any(p.suffix == ".eml" for p in written) and (tmp_path / "record.json").is_file()
    secret = camp.path / "secret" / "passwords.yaml"
    for path in written:
        data = path.read_bytes()
        for word in PASSWORDS.values():
            assert word.encode() not in data, f"{path.relative_to(tmp_path)} holds a password"
    assert b"scrypt$" in secret.read_bytes()  # only the hashes, for the check
    kept = list((camp.path / "inbox").glob("*.eml"))
    assert len(kept) == 15 and all(b"(password removed)" in p.read_bytes() for p in kept)  # even a wrong one


def test_a_password_in_an_encoded_body_is_taken_out_of_the_kept_copy(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-11-30T12:00Z")
    camp = guess_campaign(tmp_path, passwords=True)
    set_password(camp, "ann", "tulip-42")
    msg = message(None)
    msg.set_content("player: ann\nPassword : tulip-42\nguess 3\n", cte="base64")
    gm("mail", "fetch", camp.path, "--maildir", maildir_with(tmp_path / "box", msg))
    [kept] = (camp.path / "inbox").glob("*.eml")
    import email
    import email.policy

    text = email.message_from_bytes(kept.read_bytes(), policy=email.policy.default).get_content()
    assert "tulip-42" not in text and "Password : (password removed)" in text and "guess 3" in text
    assert Path(camp.path / "turns").is_dir() and camp.stored_orders(1)["ann"].endswith("guess 3\n")
