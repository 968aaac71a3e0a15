"""The schedule: weekly slots in a named zone across daylight-saving changes, turn_length counted
from each resolve, the deadline moved after every resolve (never left in the past), and what
`gm status` says about the deadline, the grace and the moment the turn is resolved."""
from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import yaml
from click.testing import CliRunner
from test_mail_support import guess_campaign, update_config

from gm.cli import main
from gm.turn.engine import resolve
from gm.store.errors import CampaignError
from gm.time.schedule import Schedule, next_deadline, read_schedule

UTC = dt.timezone.utc
LONDON = ZoneInfo("Europe/London")


def utc(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=UTC)


def deadline_of(camp) -> str | None:
    return yaml.safe_load((camp.path / "campaign.yaml").read_text()).get("deadline")


def test_weekly_slots_stay_at_local_time_across_both_clock_changes():
    weekly = Schedule(LONDON, every_days=7, at=dt.time(18, 0))
    # 2026-03-29: BST begins (UTC+1); 2026-10-25: BST ends (UTC+0)
    spring = next_deadline(weekly, previous=utc("2026-03-24T18:00"), now=utc("2026-03-25T09:00"))
    assert spring.isoformat() == "2026-03-31T18:00:00+01:00" and spring.astimezone(UTC).hour == 17
    autumn = next_deadline(weekly, previous=dt.datetime(2026, 10, 20, 18, 0, tzinfo=LONDON),
                           now=utc("2026-10-21T09:00"))
    assert autumn.isoformat() == "2026-10-27T18:00:00+00:00"


def test_slots_skip_to_the_first_one_still_ahead():
    weekly = Schedule(LONDON, every_days=7, at=dt.time(18, 0))
    # a campaign left alone for five weeks: the next slot on the same weekly grid, in the future
    late = next_deadline(weekly, previous=utc("2026-01-06T18:00"), now=utc("2026-02-10T18:30"))
    assert late.isoformat() == "2026-02-17T18:00:00+00:00"
    first = next_deadline(weekly, previous=None, now=utc("2026-06-02T10:00"))   # no anchor: today + 7 days
    assert first.isoformat() == "2026-06-09T18:00:00+01:00"
    anchored = next_deadline(Schedule(LONDON, every_days=7, start=dt.date(2026, 6, 5)), previous=None,
                             now=utc("2026-06-02T10:00"))
    assert anchored.isoformat() == "2026-06-05T18:00:00+01:00"


def test_turn_length_counts_from_the_resolve():
    three = Schedule(UTC, turn_length=dt.timedelta(days=3))
    after = next_deadline(three, previous=utc("2026-01-01T00:00"), now=utc("2026-01-05T07:30"))
    assert after == utc("2026-01-08T07:30")


def test_settings_read_as_gms_write_them(tmp_path):
    camp = guess_campaign(tmp_path / "a", schedule={"every": "2w", "at": 1080, "zone": "Europe/Paris"})
    schedule = read_schedule(camp)  # an unquoted 18:00 reads as 1080 in YAML 1.1
    assert (schedule.every_days, schedule.at, schedule.zone.key) == (14, dt.time(18, 0), "Europe/Paris")
    assert read_schedule(guess_campaign(tmp_path / "b", schedule={"turn_length": "1d 12h"})).turn_length \
        == dt.timedelta(hours=36)


@pytest.mark.parametrize("schedule,message", [
    ({"every": "7d", "zone": "Europe/Lodnon"}, "schedule.zone 'Europe/Lodnon' is not a time zone (did you mean "
                                               '"Europe/London"?)'),
    ({"every": "weekly"}, "schedule.every 'weekly' is a number of days like 7d or 2w"),
    ({"every": "7d", "at": "25:00"}, "schedule.at '25:00' is a time of day"),
    ({"turn_length": "soon"}, "schedule.turn_length 'soon' is a period"),
    ({"every": "7d", "turn_length": "3d"}, "both every and turn_length"),
    ({"evry": "7d"}, "unknown schedule setting 'evry' (did you mean \"every\"?)"),
    ("weekly", "schedule is a mapping"),
])
def test_a_schedule_that_cannot_be_read_is_one_line_and_nothing_changes(tmp_path, monkeypatch, schedule, message):
    camp = guess_campaign(tmp_path, schedule=schedule, deadline="2026-12-01T18:00+00:00")
    for p in ("ann", "bob"):
        camp.store_orders(1, p, f"player: {p}\nguess 2\n")
    monkeypatch.setenv("GM_NOW", "2026-12-05T00:00Z")
    before = (camp.path / "campaign.yaml").read_text()
    for args in (["status", str(camp.path)], ["resolve", str(camp.path)], ["run", str(camp.path)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output
    assert camp.resolved_turns() == [0] and (camp.path / "campaign.yaml").read_text() == before


def test_without_a_schedule_a_resolve_clears_the_deadline(tmp_path, monkeypatch):
    """The issue's first finding: a passed deadline made every later resolve a missed turn."""
    camp = guess_campaign(tmp_path, deadline="2020-01-01T00:00Z")
    monkeypatch.setenv("GM_NOW", "2026-12-05T18:00Z")
    first = CliRunner().invoke(main, ["resolve", str(camp.path)])
    assert first.exit_code == 0 and "Missed turn: ann, bob." in first.output
    assert deadline_of(camp) is None
    second = CliRunner().invoke(main, ["resolve", str(camp.path)])
    assert second.exit_code == 1 and "no deadline set" in second.output


def test_with_a_schedule_the_next_deadline_follows_it_and_is_never_in_the_past(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, deadline="2026-10-20T18:00+01:00",
                          schedule={"every": "7d", "at": "18:00", "zone": "Europe/London"})
    monkeypatch.setenv("GM_NOW", "2026-11-02T12:00Z")  # two slots missed
    resolve(camp, force=True)
    assert deadline_of(camp) == "2026-11-03T18:00+00:00"
    monkeypatch.setenv("GM_NOW", "2026-11-03T19:30Z")
    resolve(camp, force=True)
    assert deadline_of(camp) == "2026-11-10T18:00+00:00"
    monkeypatch.setenv("GM_NOW", "2026-11-20T00:00Z")
    resolve(camp, force=True)  # the last of the three turns: the game is over, nothing to wait for
    assert deadline_of(camp) is None


def test_status_shows_deadline_grace_and_resolution_in_both_zones(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, deadline="2026-07-01T12:00Z", grace="1h", nmr_policy="default",
                          schedule={"every": "7d", "at": "13:00", "zone": "Europe/London"}, early=True)
    monkeypatch.setenv("GM_NOW", "2026-07-01T13:50Z")
    out = CliRunner().invoke(main, ["status", str(camp.path)]).output
    assert "deadline:       Wed 2026-07-01 13:00 BST (Europe/London) = 12:00 UTC (deadline and grace ended 50m ago)" \
        in out
    assert "grace:          1h" in out
    assert "resolved:       at the next gm run: at the end of the grace period, Wed 2026-07-01 14:00 BST " \
           "(Europe/London) = 13:00 UTC, has passed" in out
    monkeypatch.setenv("GM_NOW", "2026-07-01T08:00Z")
    out = CliRunner().invoke(main, ["status", str(camp.path)]).output
    assert "(4h left)" in out and "Wed 2026-07-01 14:00 BST (Europe/London) = 13:00 UTC (at the end of the grace" \
        " period; sooner if every order is in)" in out
    data = CliRunner().invoke(main, ["status", str(camp.path), "--json"]).output
    import json
    timing = json.loads(data)["timing"]
    assert timing["deadline"] == {"utc": "2026-07-01T12:00:00+00:00", "local": "2026-07-01T13:00:00+01:00"}
    assert timing["grace_ends"]["utc"] == "2026-07-01T13:00:00+00:00" and timing["zone"] == "Europe/London"


def test_status_of_a_hold_campaign_says_the_gm_decides(tmp_path, monkeypatch):
    camp = update_config(guess_campaign(tmp_path), deadline="2026-07-01T12:00Z", nmr_policy="hold")
    monkeypatch.setenv("GM_NOW", "2026-07-02T00:00Z")
    out = CliRunner().invoke(main, ["status", str(camp.path)]).output
    assert "resolved:       when the GM decides: after Wed 2026-07-01 12:00 UTC (deadline + grace)" in out


def test_a_bad_zone_outside_the_schedule_is_one_line(tmp_path):
    camp = guess_campaign(tmp_path, zone="Mars/Olympus")
    result = CliRunner().invoke(main, ["status", str(camp.path)])
    assert result.exit_code == 2 and "zone 'Mars/Olympus' is not a time zone" in result.output
    with pytest.raises(CampaignError):
        from gm.time.schedule import campaign_zone
        campaign_zone(camp)


def test_a_slot_in_the_skipped_hour_falls_just_after_the_change():
    night = Schedule(LONDON, every_days=1, at=dt.time(1, 30))  # 2026-03-29 01:30 does not exist in London
    slot = next_deadline(night, previous=utc("2026-03-28T01:30"), now=utc("2026-03-28T12:00"))
    assert slot.astimezone(UTC) == utc("2026-03-29T01:30") and slot.astimezone(LONDON).hour == 2
    after = next_deadline(night, previous=slot, now=slot)
    assert after.isoformat() == "2026-03-30T01:30:00+01:00"


def test_turn_length_after_each_resolve(tmp_path, monkeypatch):
    camp = guess_campaign(tmp_path, schedule={"turn_length": "3d", "zone": "America/New_York"})
    monkeypatch.setenv("GM_NOW", "2026-12-01T15:45Z")
    resolve(camp, force=True)
    assert deadline_of(camp) == "2026-12-04T10:45-05:00"


def test_a_reminder_subject_gives_the_deadline_in_the_campaigns_local_time():
    from gm.time.schedule import short_moment
    london = ZoneInfo("Europe/London")
    assert short_moment(dt.datetime(2026, 12, 5, 18, tzinfo=dt.timezone.utc), london) == "Sat 2026-12-05 18:00 GMT"
    assert short_moment(dt.datetime(2026, 7, 4, 17, tzinfo=dt.timezone.utc), london) == "Sat 2026-07-04 18:00 BST"
