"""The campaign's calendar: its zone, the `schedule:` block, `early:`, the reminder lead time, and
the deadline written back to campaign.yaml after each resolve.

    schedule: {every: 7d, at: "18:00", zone: Europe/London}   # a fixed weekly slot, local time
    schedule: {turn_length: 3d}                                 # counted from each resolve
    early: true                                                 # resolve once every order is in
    remind: 1d                                                  # remind the missing 1d before

`every` slots are counted in the zone's wall time, so 18:00 stays 18:00 across daylight-saving
changes. A deadline written here is never in the past.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from gm.store.auditlog import audit
from gm.store.campaign import Campaign, set_config_value
from gm.store.errors import CampaignError, InputError
from gm.store.names import suggestion
from gm.store.undo import read_undone, write_turn_deadlines
from gm.time import clock
from gm.time.deadlines import POLICY_WORDS, deadline_status, format_period, parse_period, read_deadline
from gm.time.zones import UTC, campaign_zone, deadline_text, read_zone_name, short_moment, show_moment, zone_name  # noqa: F401 (re-exported)

_AT = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*$")
_EVERY = re.compile(r"^\s*(\d+)\s*(d|days?|w|weeks?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Schedule:
    zone: dt.tzinfo
    every_days: int | None = None        # a slot every N days at `at`, local time
    at: dt.time = dt.time(18, 0)
    start: dt.date | None = None         # the first slot's date, when no deadline anchors the slots
    turn_length: dt.timedelta | None = None

    def describe(self) -> str:
        if self.turn_length is not None:
            return f"{format_period(self.turn_length)} after each resolve"
        return f"every {self.every_days}d at {self.at:%H:%M} {zone_name(self.zone)}"


def _where(campaign: Campaign) -> str:
    return str(campaign.path / "campaign.yaml")


def _read_at(campaign: Campaign, value: object) -> dt.time:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 24 * 60:
        return dt.time(value // 60, value % 60)  # YAML 1.1 reads an unquoted 18:00 as 1080 (minutes)
    match = _AT.match(str(value))
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise CampaignError(f"{_where(campaign)}: schedule.at {value!r} is a time of day like \"18:00\"")
    return dt.time(int(match[1]), int(match[2]))


def _read_every(campaign: Campaign, value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    match = _EVERY.match(str(value))
    days = int(match[1]) * (7 if match and match[2].lower().startswith("w") else 1) if match else 0
    if days <= 0:
        raise CampaignError(f"{_where(campaign)}: schedule.every {value!r} is a number of days like 7d or 2w")
    return days


def read_schedule(campaign: Campaign) -> Schedule | None:
    block = campaign.config.get("schedule")
    if block in (None, "", {}):
        return None
    if not isinstance(block, dict):
        raise CampaignError(f"{_where(campaign)}: schedule is a mapping, e.g. "
                            "{every: 7d, at: \"18:00\", zone: Europe/London} or {turn_length: 3d}")
    known = {"every", "at", "zone", "start", "turn_length"}
    unknown = [k for k in block if k not in known]
    if unknown:
        raise CampaignError(f"{_where(campaign)}: unknown schedule setting {unknown[0]!r}"
                            f"{suggestion(str(unknown[0]), known)}; settings: {', '.join(sorted(known))}")
    zone = campaign_zone(campaign)
    if "turn_length" in block:
        if "every" in block:
            raise CampaignError(f"{_where(campaign)}: schedule has both every and turn_length; keep one")
        length = parse_period(block["turn_length"], f"{_where(campaign)}: schedule.turn_length")
        if length <= dt.timedelta(0):
            raise CampaignError(f"{_where(campaign)}: schedule.turn_length must be longer than 0")
        return Schedule(zone, turn_length=length)
    if "every" not in block:
        raise CampaignError(f"{_where(campaign)}: schedule needs every (e.g. every: 7d) or turn_length (e.g. 3d)")
    start = block.get("start")
    if start is not None and not isinstance(start, dt.date):
        try:
            start = dt.date.fromisoformat(str(start).strip())
        except ValueError:
            raise CampaignError(f"{_where(campaign)}: schedule.start {start!r} is a date like 2026-12-04") from None
    if isinstance(start, dt.datetime):
        start = start.date()
    if start is not None and not clock.FIRST_YEAR <= start.year <= clock.LAST_YEAR:
        raise CampaignError(f"{_where(campaign)}: schedule.start {start.isoformat()} is out of range; gm takes "
                            f"years {clock.FIRST_YEAR} to {clock.LAST_YEAR}")
    return Schedule(zone, every_days=_read_every(campaign, block["every"]),
                    at=_read_at(campaign, block.get("at", "18:00")), start=start)


def read_early(campaign: Campaign) -> bool:
    value = campaign.config.get("early", False)
    if not isinstance(value, bool):
        raise CampaignError(f"{_where(campaign)}: early is true or false, not {value!r}")
    return value


def read_remind(campaign: Campaign) -> dt.timedelta | None:
    """How long before the deadline `gm run` reminds players whose orders are missing (None: never)."""
    value = campaign.config.get("remind")
    if value in (None, "", False):
        return None
    return parse_period(value, f"{_where(campaign)}: remind")


def _slot(schedule: Schedule, day: dt.date) -> dt.datetime:
    """The slot on ``day`` at the schedule's local time (a time skipped by a clock change falls
    just after the change, as zoneinfo reads it)."""
    local = dt.datetime.combine(day, schedule.at, tzinfo=schedule.zone)
    return local.astimezone(UTC).astimezone(schedule.zone)


def next_deadline(schedule: Schedule, *, previous: dt.datetime | None, now: dt.datetime) -> dt.datetime:
    """The deadline of the turn that opens at ``now``; ``previous`` is the deadline just used.

    every: the first slot after ``previous`` (the slots run previous + N days, + 2N ...) that is
    still ahead of now; with no previous deadline, ``start`` or today's date + N days anchors them.
    turn_length: now + the length."""
    if schedule.turn_length is not None:
        return (now + schedule.turn_length).astimezone(schedule.zone)
    step = dt.timedelta(days=schedule.every_days)
    if previous is not None:
        day = previous.astimezone(schedule.zone).date() + step
    elif schedule.start is not None:
        day = schedule.start
    else:
        day = now.astimezone(schedule.zone).date() + step
    if day < now.astimezone(schedule.zone).date() - step:  # far behind: jump, then walk the last steps
        behind = (now.astimezone(schedule.zone).date() - day).days // schedule.every_days
        day += step * (behind - 1)
    while _slot(schedule, day) <= now:
        day += step
    return _slot(schedule, day)


# ---- writing the deadline into campaign.yaml ------------------------------------------------
def write_deadline(campaign: Campaign, moment: dt.datetime | None) -> None:
    """Store the current turn's deadline (in the campaign's zone) without touching the rest of
    campaign.yaml: its comments and layout stay."""
    set_config_value(campaign, "deadline", deadline_text(moment, campaign_zone(campaign)))


def next_turn_opener(campaign: Campaign):
    """Read the schedule BEFORE a resolve (a bad one then stops it with nothing changed); the
    function returned, called before the resolved turn is written, gives the turn's opening: the
    next deadline as campaign.yaml writes it ({"deadline": TEXT or None}), or None when it stays as
    it is. From the schedule, or cleared without one or at the game's end. A deadline that would
    open in the past (a clock set back, a schedule far behind) or beyond gm's years is refused with
    one line, before anything is written. The opening goes into the turn's own atomic swap."""
    schedule = read_schedule(campaign)
    previous = read_deadline(campaign)
    zone = campaign_zone(campaign)
    turn = campaign.current_turn
    anchor = undo_anchor(campaign, turn, previous)

    def opening(finished: bool, now: dt.datetime | None = None) -> dict[str, str | None] | None:
        now = now or clock.now()
        new = None
        if not finished and schedule is not None:
            try:
                new = next_deadline(schedule, previous=anchor, now=now)
                fits = clock.in_range(new)
            except (OverflowError, ValueError):
                fits = False
            if not fits:
                raise CampaignError(f"{_where(campaign)}: the schedule's next deadline falls beyond the year "
                                    f"{clock.LAST_YEAR}; check schedule and deadline")
            if new <= now:
                raise CampaignError(f"{_where(campaign)}: the next deadline {show_moment(new, zone)} would be in "
                                    f"the past (it is now {show_moment(now, zone)}); check the schedule")
        # what an undo of this turn needs to put the schedule back (appended: the last entry counts)
        write_turn_deadlines(campaign.path, turn, deadline=_iso(previous), following=_iso(new))
        if new == previous:
            return None
        if anchor != previous:
            audit(campaign, "deadline after undo", at=clock.stamp(), turn=turn + 1, old=_iso(previous),
                  new=_iso(new), why=f"turn {turn} was undone and resolved again: the schedule counts from "
                                    f"the deadline it had before, {_iso(anchor)}")
        return {"deadline": deadline_text(new, zone)}
    return opening


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _moment(text: object) -> dt.datetime | None:
    try:
        moment = dt.datetime.fromisoformat(str(text)) if text else None
    except ValueError:
        return None
    return moment if moment is not None and moment.tzinfo is not None else None


def undo_anchor(campaign: Campaign, turn: int, current: dt.datetime | None) -> dt.datetime | None:
    """Where the schedule counts the next deadline from when ``turn`` is resolved: the deadline in
    force, except for a turn undone by `gm rollback` whose deadline the GM has not moved since:
    then the deadline it had when it was first resolved, so an undo does not push the schedule one
    slot later (no drift)."""
    undone = read_undone(campaign.turn_dir(turn))
    anchor = _moment(undone.get("anchor"))
    if anchor is None or _moment(undone.get("deadline")) != current:
        return current
    return anchor


def check_future(moment: dt.datetime, now: dt.datetime | None = None, zone: dt.tzinfo = UTC) -> dt.datetime:
    now = now or clock.now()
    if moment <= now:
        raise InputError(f"the deadline {show_moment(moment, zone)} is in the past "
                         f"(it is now {show_moment(now, zone)}); give a later moment")
    return moment


def deadline_lines(campaign: Campaign, now: dt.datetime | None = None) -> list[tuple[str, str]]:
    """(label, text) rows for `gm status`: the deadline, the grace and when the turn is resolved,
    each in the campaign's zone and in UTC; the schedule and reminders when set."""
    info = deadline_status(campaign, now)
    zone = campaign_zone(campaign)
    schedule = read_schedule(campaign)
    early = read_early(campaign)
    rows: list[tuple[str, str]] = []
    if info.deadline is None:
        rows.append(("deadline", "none set" + (" (gm run sets one from the schedule)" if schedule else "")))
    else:
        rows.append(("deadline", f"{show_moment(info.deadline, zone)} ({info.left})"))
        rows.append(("grace", format_period(info.grace) if info.grace else "none"))
    rows.append(("resolved", _resolved_when(info, zone, early)))
    if info.dropped:
        rows.append(("dropped", ", ".join(info.dropped) + " (played by bot or default orders)"))
    rows.append(("missed turns", f"{info.policy}: {POLICY_WORDS[info.policy]} for anyone missing"))
    if schedule:
        rows.append(("schedule", schedule.describe() + ("; early: true" if early else "")))
    elif early:
        rows.append(("schedule", "none; early: true"))
    remind = read_remind(campaign)
    if remind:
        rows.append(("reminders", f"{format_period(remind)} before the deadline"))
    return rows


def _resolved_when(info, zone: dt.tzinfo, early: bool) -> str:
    """When the turn will be resolved: a moment in both zones, and why."""
    if not info.due:
        return "never: the game is over"
    if not info.missing and early and info.stale:
        verb = "sends" if len(info.stale) == 1 else "send"
        waiting = f"once {', '.join(info.stale)} {verb} orders again (the turn was undone)"
        if info.deadline is None:
            return f"{waiting}, or when the GM resolves it"
        return f"{waiting}, else at the deadline, {show_moment(info.deadline, zone)}"
    if not info.missing and early:
        return "at the next gm run: every order is in (early: true)"
    if info.deadline is None:
        return "when the GM resolves it" + ("" if early else " (set early: true to resolve once all are in)")
    if not info.missing:
        moment = info.deadline
        why = "every order is in; at the deadline"
    elif info.policy == "hold":
        return (f"when the GM decides: after {show_moment(info.final, zone)} (deadline + grace) "
                "the policy is hold")
    else:
        moment = info.final
        why = "at the end of the grace period" if info.grace else "at the deadline"
    when = show_moment(moment, zone)
    if moment <= info.now:
        return f"at the next gm run: {why}, {when}, has passed"
    return f"{when} ({why}" + ("; sooner if every order is in" if early else "") + ")"


def timing_json(campaign: Campaign, now: dt.datetime | None = None) -> dict[str, object]:
    """The deadline block of `gm status --json`: moments in UTC and in the campaign's zone."""
    info = deadline_status(campaign, now)
    zone = campaign_zone(campaign)
    schedule = read_schedule(campaign)

    def both(moment: dt.datetime | None) -> dict[str, str] | None:
        return None if moment is None else {"utc": moment.astimezone(UTC).isoformat(),
                                            "local": moment.astimezone(zone).isoformat()}
    return {"zone": zone_name(zone), "deadline": both(info.deadline),
            "grace": format_period(info.grace) if info.grace else None, "grace_ends": both(info.final),
            "resolved": _resolved_when(info, zone, read_early(campaign)), "early": read_early(campaign),
            "schedule": schedule.describe() if schedule else None, "dropped": info.dropped}
