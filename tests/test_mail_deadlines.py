"""Deadlines, grace, the missed-turn policy, and reminders written for the GM to send."""
from __future__ import annotations

import datetime as dt

import pytest
from click.testing import CliRunner
from test_mail_support import guess_campaign, update_config

from gm.cli import main
from gm.time.deadlines import deadline_status, format_period, read_grace, resolve_refusal
from gm.store.errors import CampaignError
from gm.delivery.mail.remind import due_reminders

UTC = dt.timezone.utc
DEADLINE = "2026-12-01T18:00:00+01:00"  # 17:00 UTC


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=UTC)


def store(camp, player, guess=3):
    camp.store_orders(camp.current_turn, player, f"player: {player}\nguess {guess}\n")


def test_status_shows_who_is_missing_and_the_time_left(tmp_path):
    camp = guess_campaign(tmp_path, deadline=DEADLINE, grace="1d 6h", nmr_policy="default")
    store(camp, "ann")
    info = deadline_status(camp, now=at("2026-11-29T14:30:00"))
    assert (info.arrived, info.missing, info.phase) == (["ann"], ["bob"], "open")
    assert info.left == "2d 2h 30m left"
    assert info.final == at("2026-12-02T23:00:00")
    assert deadline_status(camp, now=at("2026-12-02T22:00:00")).left == "deadline passed; 1h of grace left"
    late = deadline_status(camp, now=at("2026-12-03T00:15:00"))
    assert late.phase == "passed" and late.left == "deadline and grace ended 1h 15m ago"
    assert late.as_dict()["missing"] == ["bob"] and late.as_dict()["grace"] == "1d 6h"


def test_yaml_timestamps_and_iso_text_both_read(tmp_path):
    camp = guess_campaign(tmp_path)
    path = camp.path / "campaign.yaml"
    path.write_text(path.read_text().replace("deadline: null", "deadline: 2026-12-01T18:00:00+01:00"))
    from gm.store.campaign import Campaign
    assert deadline_status(Campaign(camp.path)).deadline == at("2026-12-01T17:00:00")


@pytest.mark.parametrize("value,message", [
    ("2026-12-01T18:00", "needs a zone"),
    ("next tuesday", "is not a date and time"),
])
def test_a_bad_deadline_is_one_clear_line(tmp_path, value, message):
    camp = guess_campaign(tmp_path, deadline=value)
    with pytest.raises(CampaignError, match=message):
        deadline_status(camp)


def test_grace_periods(tmp_path):
    for value, hours in (("12h", 12), ("1d", 24), ("90m", 1.5), ("1d 6h", 30), (6, 6), (None, 0)):
        assert read_grace(guess_campaign(tmp_path / str(value), grace=value)) == dt.timedelta(hours=hours)
    with pytest.raises(CampaignError, match="grace 'soon' is a period"):
        read_grace(guess_campaign(tmp_path / "bad", grace="soon"))
    with pytest.raises(CampaignError, match="nmr_policy is one of hold, default, bot"):
        deadline_status(guess_campaign(tmp_path / "pol", nmr_policy="pass"))
    assert format_period(dt.timedelta(minutes=0)) == "0m"


def test_resolve_waits_before_the_deadline_and_runs_early_when_all_are_in(tmp_path):
    camp = guess_campaign(tmp_path, deadline=DEADLINE, grace="2h", nmr_policy="default")
    store(camp, "ann")
    before = at("2026-12-01T12:00:00")
    assert "waiting for orders from bob; deadline Tue 2026-12-01 17:00 UTC (5h left)" in resolve_refusal(camp, before)
    assert "of grace left" in resolve_refusal(camp, at("2026-12-01T18:00:00"))
    assert resolve_refusal(camp, at("2026-12-01T19:00:01")) is None  # default policy takes over
    store(camp, "bob")
    assert resolve_refusal(camp, before) is None


def test_hold_policy_waits_for_the_gm(tmp_path):
    camp = guess_campaign(tmp_path, deadline=DEADLINE, nmr_policy="hold")
    assert "the policy is hold" in resolve_refusal(camp, at("2026-12-05T00:00:00"))
    assert "no deadline set" in resolve_refusal(update_config(camp, deadline=None))


def test_reminders_only_for_missing_players_and_only_before_the_end(tmp_path):
    camp = guess_campaign(tmp_path, deadline=DEADLINE, nmr_policy="bot")
    store(camp, "bob")
    messages, _ = due_reminders(camp, now=at("2026-11-30T17:00:00"))
    assert [key for key, _ in messages] == ["remind:2026-12-01T18:00:00+01:00:ann"]
    body = messages[0][1].get_content()
    assert "1d left" in body and "the game's bot plays for you" in body and "bob@" not in str(messages[0][1])
    messages, notes = due_reminders(camp, now=at("2026-12-02T00:00:00"))
    assert messages == [] and "have passed" in notes[0]


def test_remind_written_to_the_outbox_once(tmp_path):
    camp = guess_campaign(tmp_path, deadline="2099-01-01T00:00:00Z")
    first = CliRunner().invoke(main, ["mail", "remind", str(camp.path)])
    assert first.exit_code == 0, first.output
    assert "2 reminder(s) written" in first.output
    files = sorted(p.name for p in (camp.path / "outbox" / "reminders").iterdir())
    assert files == ["remind-001-ann.eml", "remind-001-bob.eml"]
    second = CliRunner().invoke(main, ["mail", "remind", str(camp.path)])
    assert "ann: already reminded" in second.output and "No reminders to send." in second.output
