"""`gm run`: one unattended pass per campaign — resolve when due, deliver reports, notices and
reminders once, open deadlines from the schedule; safe to run again at once; one campaign failing
never stops the others."""
from __future__ import annotations

import fcntl

from test_mail_support import ANN, BOB, guess_campaign, maildir_with, message, update_config
from test_run_support import gm, mailroom, snapshot  # noqa: F401  (mailroom is a fixture)

from gm.store.campaign import Campaign

WEEKLY = {"every": "7d", "at": "18:00", "zone": "Europe/London"}


def orders(camp, player, guess=2):
    camp.store_orders(camp.current_turn, player, f"player: {player}\nguess {guess}\n")


def test_a_new_campaign_gets_its_deadline_and_its_first_reports_once(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, schedule=WEEKLY)
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    out = gm("run", camp.path).output
    assert "deadline set from the schedule: Tue 2026-12-08 18:00 GMT (Europe/London) = 18:00 UTC" in out
    assert "turn 0 reports: 2 written to the outbox" in out
    assert sorted(p.name for p in (camp.path / "outbox" / "turn-000").glob("*.eml")) == \
        ["turn-000-ann.eml", "turn-000-bob.eml"]
    before = snapshot(camp.path)
    again = gm("run", camp.path)
    assert again.output == "" and snapshot(camp.path) == before  # a second pass changes nothing


def test_early_resolves_as_soon_as_every_order_is_in(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, schedule=WEEKLY, deadline="2026-12-08T18:00Z", early=True)
    monkeypatch.setenv("GM_NOW", "2026-12-02T10:00Z")
    gm("run", camp.path)
    orders(camp, "ann")
    assert "resolved" not in gm("run", camp.path).output
    orders(camp, "bob")
    out = gm("run", camp.path).output
    assert "turn 1 resolved (every order in)" in out and "turn 1 reports: 2 written" in out
    assert Campaign(camp.path).config["deadline"] == "2026-12-15T18:00+00:00"
    before = snapshot(camp.path)
    assert gm("run", camp.path).output == "" and snapshot(camp.path) == before


def test_without_early_the_turn_waits_for_the_deadline(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, schedule=WEEKLY, deadline="2026-12-08T18:00Z", grace="2h")
    orders(camp, "ann")
    orders(camp, "bob")
    monkeypatch.setenv("GM_NOW", "2026-12-08T17:59Z")
    assert "resolved" not in gm("run", camp.path).output
    monkeypatch.setenv("GM_NOW", "2026-12-08T18:00Z")  # all in: no need to wait for the grace
    assert "turn 1 resolved (every order in)" in gm("run", camp.path).output


def test_after_deadline_and_grace_the_policy_applies(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, schedule=WEEKLY, deadline="2026-12-08T18:00Z", grace="2h",
                          nmr_policy="default")
    orders(camp, "ann")
    monkeypatch.setenv("GM_NOW", "2026-12-08T19:59Z")
    assert "resolved" not in gm("run", camp.path).output
    monkeypatch.setenv("GM_NOW", "2026-12-08T20:00Z")
    out = gm("run", camp.path).output
    assert "turn 1 resolved (deadline and grace passed); missed turn: bob" in out
    assert Campaign(camp.path).config["deadline"] == "2026-12-15T18:00+00:00"


def test_hold_waits_for_the_gm(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, deadline="2026-12-08T18:00Z", nmr_policy="hold")
    monkeypatch.setenv("GM_NOW", "2026-12-09T00:00Z")
    gm("run", camp.path)
    out = gm("run", camp.path).output
    assert "policy hold: waiting for the GM" in out and Campaign(camp.path).resolved_turns() == [0]
    assert "hold" not in (camp.path / "run.log").read_text()  # said on screen, not logged every pass


def test_reminders_once_per_deadline_and_only_within_the_lead_time(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, deadline="2026-12-08T18:00Z", remind="1d")
    orders(camp, "ann")
    monkeypatch.setenv("GM_NOW", "2026-12-07T17:59Z")
    gm("run", camp.path)
    assert not (camp.path / "outbox" / "reminders").exists()
    monkeypatch.setenv("GM_NOW", "2026-12-07T18:00Z")
    assert "turn 1: 1 reminder(s) written" in gm("run", camp.path).output
    assert [p.name for p in (camp.path / "outbox" / "reminders").iterdir()] == ["remind-001-bob.eml"]
    monkeypatch.setenv("GM_NOW", "2026-12-08T12:00Z")
    assert "reminder" not in gm("run", camp.path).output


def test_mail_is_fetched_and_answered(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, early=True)
    box = maildir_with(tmp_path / "Maildir",
                       message("player: ann\nturn: 1\nguess 3\n", sender=ANN),
                       message("player: bob\nturn: 1\nguess 9\n", sender=BOB))
    update_config(camp, mail={"inbox": {"kind": "maildir", "path": str(box)}})
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    out = gm("run", camp.path).output
    assert "stored (ann) orders for turn 1" in out and "refused (bob)" in out and "2 replies written" in out
    assert "resolved" not in out
    maildir_with(box, message("player: bob\nturn: 1\nguess 5\n", sender=BOB, date="Mon, 30 Nov 2026 11:00:00 +0000"))
    out = gm("run", camp.path).output
    assert "stored (bob)" in out and "turn 1 resolved (every order in)" in out
    before = snapshot(camp.path)
    assert gm("run", camp.path).output == "" and snapshot(camp.path) == before


def test_one_failing_campaign_does_not_stop_the_others(tmp_path, monkeypatch):
    good = guess_campaign(tmp_path / "a", early=True)
    bad = guess_campaign(tmp_path / "b", schedule={"every": "7d", "zone": "Nowhere/Town"})
    unreachable = guess_campaign(tmp_path / "c", mail={"inbox": {"kind": "maildir", "path": "missing"}})
    orders(good, "ann")
    orders(good, "bob")
    monkeypatch.setenv("GM_NOW", "2026-12-01T10:00Z")
    result = gm("run", bad.path, tmp_path / "nowhere", good.path, unreachable.path, code=2)
    lines = result.output.splitlines()
    assert f"{bad.path}: error: " in lines[0] and "'Nowhere/Town' is not a time zone" in lines[0]
    assert "no such campaign folder" in lines[1]
    assert f"{good.path}: turn 1 resolved (every order in)" in result.output
    assert f"{unreachable.path}: error: " in result.output and "not a Maildir" in result.output
    assert lines[-1] == "Error: 3 of 4 campaign(s) failed; see the lines above and each campaign's run.log"
    assert "not a time zone" in (bad.path / "run.log").read_text()
    assert Campaign(bad.path).resolved_turns() == [0]


def test_a_campaign_busy_with_another_pass_is_skipped(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, early=True)
    orders(camp, "ann")
    orders(camp, "bob")
    with open(camp.path / ".run.lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        out = gm("run", camp.path).output
    assert "skipped: " in out and "another gm run" in out and Campaign(camp.path).resolved_turns() == [0]


def test_a_bad_site_setting_stops_the_pass_before_anything_is_resolved(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, early=True, site={"folder": "site"})
    orders(camp, "ann")
    orders(camp, "bob")
    result = gm("run", camp.path, code=2)
    assert "error: " in result.output and "site: '{folder: site}' is not a folder name like www" in result.output
    assert Campaign(camp.path).last_turn == 0 and not (camp.path / "outbox").exists()
    gm("config", camp.path, "site", "site")
    assert "site updated after turn 1" in gm("run", camp.path).output


def test_send_delivers_every_message_once(tmp_path, monkeypatch, mailroom):  # noqa: F811 (fixture)
    camp = guess_campaign(tmp_path, early=True, remind="8d", deadline="2026-12-08T18:00Z",
                          mail={"from": "GM <gm@example.org>",
                                "smtp": {"host": "127.0.0.1", "port": mailroom.port, "security": "none",
                                         "retry_delay": 0, "attempts": 1}})
    monkeypatch.setenv("GM_NOW", "2026-12-02T10:00Z")
    gm("deadline", camp.path, "extend", "1d")
    mailroom.down = True
    out = gm("run", camp.path, "--send", code=2).output
    assert "failed (retried next run)" in out
    mailroom.down = False
    gm("run", camp.path, "--send")
    gm("run", camp.path, "--send")
    ann = mailroom.subjects(ANN)
    assert ann == {"[camp] Turn 0 report for Ann": 1, "[camp] Turn 1: the deadline has changed": 1,
                   "[camp] Reminder: turn 1 orders due Wed 2026-12-09 18:00 UTC": 1}, ann
    orders(camp, "ann")
    orders(camp, "bob")
    gm("run", camp.path, "--send")
    gm("run", camp.path, "--send")
    assert mailroom.subjects(BOB)["[camp] Turn 1 report for Bob"] == 1
    from gm.delivery.mail.smtp import already_sent
    sent = already_sent(Campaign(camp.path))
    assert "report:1:bob" in sent and not (camp.path / "outbox" / "turn-001").exists()


def test_a_root_folder_stands_for_every_campaign_under_it(tmp_path, monkeypatch):
    one = guess_campaign(tmp_path / "league" / "one", early=True)
    two = guess_campaign(tmp_path / "league" / "two", early=True)
    for camp in (one, two):
        orders(camp, "ann")
        orders(camp, "bob")
    out = gm("run", tmp_path / "league").output
    assert f"{one.path}: turn 1 resolved" in out and f"{two.path}: turn 1 resolved" in out


def test_an_unreadable_gm_now_is_one_line(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path)
    monkeypatch.setenv("GM_NOW", "next tuesday")
    before = snapshot(camp.path)
    result = gm("run", camp.path, camp.path, code=2)
    assert result.output == "Error: GM_NOW: 'next tuesday' is not a moment like 2026-12-05T18:00Z\n"
    assert snapshot(camp.path) == before


def test_after_a_rollback_the_turn_waits_then_is_resolved_and_delivered_again(tmp_path, monkeypatch, mailroom):  # noqa: F811
    camp = guess_campaign(tmp_path, early=True,
                          mail={"from": "GM <gm@example.org>",
                                "smtp": {"host": "127.0.0.1", "port": mailroom.port, "security": "none",
                                         "retry_delay": 0, "attempts": 1}})
    monkeypatch.setenv("GM_NOW", "2026-12-02T10:00Z")
    orders(camp, "ann", 3)
    orders(camp, "bob", 4)
    gm("run", camp.path, "--send")
    first = (camp.turn_dir(1) / "dice.yaml").read_text()
    gm("rollback", camp.path)
    out = gm("run", camp.path, "--send").output  # the undone turn waits: the notice goes out first
    assert "resolved" not in out and "notice(s) sent" in out and Campaign(camp.path).last_turn == 0
    orders(camp, "ann", 3)
    assert gm("run", camp.path, "--send").output == ""  # bob's orders are from before the undo
    orders(camp, "bob", 4)
    out = gm("run", camp.path, "--send").output
    assert "turn 1 resolved (every order in)" in out
    assert (camp.turn_dir(1) / "dice.yaml").read_text() == first
    ann = mailroom.subjects(ANN)
    assert ann["[camp] Turn 1 report for Ann"] == 2 and ann["[camp] Turn 0 report for Ann"] == 1
    assert ann["[camp] Turn 1 is undone and will be resolved again"] == 1
    assert gm("run", camp.path, "--send").output == ""


def test_the_site_follows_each_resolve(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, schedule=WEEKLY, deadline="2026-12-08T18:00Z", early=True, site="web")
    monkeypatch.setenv("GM_NOW", "2026-12-02T10:00Z")
    gm("run", camp.path)
    orders(camp, "ann")
    orders(camp, "bob")
    out = gm("run", camp.path).output
    assert f"site updated after turn 1: {camp.path / 'web'}" in out
    assert (camp.path / "web" / "turn-001.html").is_file() and (camp.path / "web" / "record.json").is_file()
    assert "Turn 1" in (camp.path / "web" / "index.html").read_text()
