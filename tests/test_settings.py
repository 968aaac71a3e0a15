"""The settings table (gm.store.settings), gm config under the lock, and an undo of a turn that
was resolved at its deadline: it waits, then puts the schedule back where it was."""
from __future__ import annotations

import datetime as dt
import subprocess
import sys

import pytest
import yaml
from test_mail_support import guess_campaign
from test_run_support import gm

from gm.store.auditlog import read_audit
from gm.store.campaign import Campaign
from gm.store.errors import LockedError
from gm.store.settings import SETTINGS, change_setting, check_config, checked
from gm.time.deadlines import deadline_status, read_deadline

EVERY_2D = {"every": "2d", "at": "20:00", "zone": "Europe/London"}


def test_every_key_the_code_reads_is_in_the_table():
    keys = {s.key for s in SETTINGS}
    for key in ("schedule.every", "schedule.at", "schedule.zone", "schedule.start", "schedule.turn_length", "early",
                "remind", "grace", "nmr_policy", "press", "passwords", "site", "site_url", "zone", "mail.from",
                "mail.max_bytes", "mail.inbox.kind", "mail.inbox.path", "mail.inbox.host", "mail.inbox.security",
                "mail.smtp.host", "mail.smtp.port", "mail.smtp.cafile", "mail.smtp.attempts", "deadline", "name"):
        assert key in keys, key
    assert all(s.help and s.kind for s in SETTINGS)


@pytest.mark.parametrize("key,given,stored", [
    ("schedule.at", "9:05", "09:05"), ("schedule.at", 1200, "20:00"), ("schedule.every", "2 weeks", "2w"),
    ("early", "yes", True), ("remind", "off", False), ("remind", "1d 6h", "1d 6h"), ("press", "on", "white"),
    ("schedule.zone", "Europe/London", "Europe/London"), ("schedule.start", "2026-12-04", "2026-12-04"),
    ("mail.smtp.port", "2525", 2525), ("site_url", "https://example.org/camp/", "https://example.org/camp"),
])
def test_values_are_read_into_what_is_stored(key, given, stored):
    assert checked(key, given) == stored


def test_a_change_reads_the_file_under_the_lock_and_keeps_what_another_process_wrote(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T09:00Z")
    camp = guess_campaign(tmp_path, schedule=EVERY_2D)
    stale = Campaign(camp.path)  # loaded before gm run wrote a deadline
    gm("run", camp.path)
    assert read_deadline(Campaign(camp.path)) is not None
    change_setting(stale, "grace", "6h")
    fresh = yaml.safe_load((camp.path / "campaign.yaml").read_text())
    assert fresh["grace"] == "6h" and fresh["deadline"]  # the deadline gm run wrote is kept
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(camp.path)], stdout=subprocess.PIPE, text=True)
    try:  # another gm process holds the campaign
        assert holder.stdout.readline().strip() == "held"
        monkeypatch.setenv("GM_LOCK_WAIT", "0.2")
        with pytest.raises(LockedError):
            change_setting(Campaign(camp.path), "grace", "1h")
        assert "Error:" in gm("config", camp.path, "grace", "1h", code=2).output
    finally:
        holder.kill()
        holder.wait()
    assert yaml.safe_load((camp.path / "campaign.yaml").read_text())["grace"] == "6h"


HOLD = """
import sys, time
from gm.store.lock import campaign_lock
with campaign_lock(sys.argv[1]):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_hand_written_bad_setting_is_refused_at_the_start_of_a_pass(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T09:00Z")
    camp = guess_campaign(tmp_path, early=True, mail={"from": "nobody", "smtp": {"host": "x", "pasword_env": "P"}})
    for p in ("ann", "bob"):
        camp.store_orders(1, p, f"player: {p}\nguess 2\n")
    with pytest.raises(Exception, match="mail.from: 'nobody' is not an address"):
        check_config(camp)
    out = gm("run", camp.path, code=2).output
    assert "mail.from: 'nobody' is not an address" in out and "gm config" in out
    assert Campaign(camp.path).last_turn == 0 and not (camp.path / "outbox").exists()
    gm("config", camp.path, "mail.from", "GM <gm@example.org>")
    out = gm("run", camp.path, code=2).output
    assert "unknown setting 'mail.smtp.pasword_env' (did you mean \"mail.smtp.password_env\"?)" in out


def test_an_undo_of_a_turn_resolved_at_its_deadline_waits_and_keeps_the_schedule(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T09:00Z")
    camp = guess_campaign(tmp_path, schedule=EVERY_2D, early=True)
    gm("run", camp.path)
    first = read_deadline(Campaign(camp.path))   # Thu 2026-12-03 20:00
    camp.store_orders(1, "ann", "player: ann\nguess 2\n")
    monkeypatch.setenv("GM_NOW", "2026-12-03T21:00Z")  # after the deadline: bob's orders are missing
    assert "turn 1 resolved (deadline and grace passed)" in gm("run", camp.path).output
    second = read_deadline(Campaign(camp.path))
    assert second - first == dt.timedelta(days=2)
    camp.store_orders(2, "bob", "player: bob\nguess 5\n")  # written against the undone state

    monkeypatch.setenv("GM_NOW", "2026-12-04T10:00Z")
    out = gm("rollback", camp.path).output
    assert "an early resolve waits until ann send orders again" in out
    camp = Campaign(camp.path)
    assert read_deadline(camp) == second  # its own deadline has passed: the deadline in force stays
    assert not [e for e in read_audit(camp) if e["action"] == "deadline undo"]
    info = deadline_status(camp)
    assert (info.turn, info.missing, info.stale) == (1, ["bob"], ["ann"])
    camp.store_orders(1, "bob", "player: bob\nguess 4\n")
    assert "once ann sends orders again" in gm("status", camp.path).output
    assert gm("run", camp.path).output.count("resolved") == 0  # ann's orders are from before the undo
    camp.store_orders(1, "ann", "player: ann\nguess 3\n")
    monkeypatch.setenv("GM_NOW", "2026-12-04T13:00Z")
    assert "turn 1 resolved (every order in)" in gm("run", camp.path).output
    camp = Campaign(camp.path)
    assert read_deadline(camp) == second  # not one slot later: no drift
    assert camp.state(1)["guesses"] == {"ann": 3, "bob": 4}
