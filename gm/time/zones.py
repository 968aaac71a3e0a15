"""Time zones and how moments are shown: the campaign's zone (schedule.zone, else zone:, else UTC),
and a moment written for people in that zone. The bottom of the time layer: deadlines and the
schedule both show moments through it."""
from __future__ import annotations

import datetime as dt
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gm.store.campaign import Campaign
from gm.store.errors import CampaignError
from gm.store.names import suggestion

UTC = dt.timezone.utc


def _where(campaign: Campaign) -> str:
    return str(campaign.path / "campaign.yaml")


@lru_cache(maxsize=64)
def _zone(name: str) -> dt.tzinfo:
    return ZoneInfo(name)


def read_zone_name(campaign: Campaign, name: object, what: str) -> dt.tzinfo:
    text = str(name).strip()
    if text.upper() in ("UTC", "Z", "GMT+0"):
        return UTC
    if len(text) > 64:  # the longest zone name has 32 characters; a longer one is never looked up
        raise CampaignError(f"{_where(campaign)}: {what} {text[:32]!r}… ({len(text)} characters) is not a time "
                            "zone; write e.g. Europe/London or UTC")
    try:
        return _zone(text)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        from zoneinfo import available_timezones
        raise CampaignError(f"{_where(campaign)}: {what} {text!r} is not a time zone"
                            f"{suggestion(text, sorted(available_timezones()))}; write e.g. Europe/London "
                            "or UTC") from None


def campaign_zone(campaign: Campaign) -> dt.tzinfo:
    """The zone the campaign's times are shown in: schedule.zone, else `zone:`, else UTC."""
    block = campaign.config.get("schedule")
    if isinstance(block, dict) and block.get("zone"):
        return read_zone_name(campaign, block["zone"], "schedule.zone")
    if campaign.config.get("zone"):
        return read_zone_name(campaign, campaign.config["zone"], "zone")
    return UTC


def zone_name(zone: dt.tzinfo) -> str:
    return getattr(zone, "key", None) or "UTC"


def show_moment(moment: dt.datetime, zone: dt.tzinfo) -> str:
    """'Sat 2026-12-05 18:00 GMT (Europe/London) = 18:00 UTC' — local first, then UTC."""
    local = moment.astimezone(zone)
    utc = moment.astimezone(UTC)
    if zone is UTC or getattr(zone, "key", "") == "UTC":
        return f"{utc:%a %Y-%m-%d %H:%M} UTC"
    same_day = local.date() == utc.date()
    return (f"{local:%a %Y-%m-%d %H:%M} {local.tzname()} ({zone_name(zone)}) = "
            f"{utc:%H:%M} UTC" + ("" if same_day else f" {utc:%a %Y-%m-%d}"))


def short_moment(moment: dt.datetime, zone: dt.tzinfo) -> str:
    """'Sat 2026-12-05 18:00 GMT': the campaign's local time alone, short enough for a subject line."""
    local = moment.astimezone(zone)
    return f"{local:%a %Y-%m-%d %H:%M} {local.tzname() or zone_name(zone)}"


def deadline_text(moment: dt.datetime | None, zone: dt.tzinfo) -> str | None:
    return None if moment is None else moment.astimezone(zone).isoformat(timespec="minutes")
