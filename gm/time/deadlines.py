"""Deadlines and missed turns: the current turn's deadline (date and time with a zone), a grace
period and the NMR policy from campaign.yaml; who is in, who is missing, how long is left, and
when the turn will be resolved. A player dropped by the GM (`gm player DIR ID --drop bot|default`)
is never waited for: their seat plays by the game's bot or default orders."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from gm import games
from gm.store.campaign import Campaign
from gm.store.errors import CampaignError
from gm.store.players import labelled
from gm.store.undo import read_undone
from gm.store.settings import MAX_PERIOD, parse_period  # noqa: F401 (one reading of a period, re-exported)
from gm.time import clock
from gm.time.zones import campaign_zone, show_moment

POLICIES = {
    "hold": "If your orders are missing after the deadline, the GM decides what happens.",
    "default": "If your orders are missing after the deadline, the game's default orders are used.",
    "bot": "If your orders are missing after the deadline, the game's bot plays for you.",
}
POLICY_WORDS = {"hold": "the GM's decision", "default": "default orders", "bot": "the bot's orders"}


def _where(campaign: Campaign) -> str:
    return str(campaign.path / "campaign.yaml")


def read_deadline(campaign: Campaign) -> dt.datetime | None:
    """The current turn's deadline: campaign.yaml's, or the one the last resolved turn opened when
    a crash kept it from reaching campaign.yaml (gm.store.campaign, opening.yaml)."""
    value = campaign.config.get("deadline")
    opening = campaign.pending_opening()
    if opening is not None:
        value = opening["deadline"]
    if value in (None, ""):
        return None
    if isinstance(value, dt.datetime):
        when = value
    else:
        try:
            when = dt.datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
        except ValueError:
            raise CampaignError(f"{_where(campaign)}: deadline {value!r} is not a date and time; "
                                "write e.g. 2026-12-01T18:00+01:00") from None
    if when.tzinfo is None:
        raise CampaignError(f"{_where(campaign)}: deadline {value!r} needs a zone, e.g. "
                            f"{when.isoformat(timespec='minutes')}+00:00")
    if not clock.in_range(when):
        raise CampaignError(f"{_where(campaign)}: deadline {value!r} is out of range; gm takes years "
                            f"{clock.FIRST_YEAR} to {clock.LAST_YEAR}")
    return when


def read_grace(campaign: Campaign) -> dt.timedelta:
    value = campaign.config.get("grace")
    if value in (None, "", 0):
        return dt.timedelta(0)
    return parse_period(value, f"{_where(campaign)}: grace")


def read_policy(campaign: Campaign) -> str:
    policy = str(campaign.config.get("nmr_policy") or "default")
    if policy not in POLICIES:
        raise CampaignError(f"{_where(campaign)}: nmr_policy is one of {', '.join(POLICIES)}, not {policy!r}")
    return policy


def dropped_players(campaign: Campaign) -> dict[str, str]:
    """Players the GM has dropped, with the policy that plays their seat (bot or default)."""
    out = {}
    for p in campaign.players:
        drop = p.get("dropped")
        if drop:
            if drop not in ("bot", "default"):
                raise CampaignError(f"{_where(campaign)}: player {p['id']}: dropped is bot or default, not {drop!r}")
            out[p["id"]] = str(drop)
    return out


def player_policy(campaign: Campaign, player: str) -> str:
    """The missed-turn policy for one seat: a dropped player's own, else the campaign's."""
    return dropped_players(campaign).get(player) or read_policy(campaign)


def format_period(period: dt.timedelta) -> str:
    minutes = int(abs(period).total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [f"{days}d"] * bool(days) + [f"{hours}h"] * bool(hours) + [f"{mins}m"] * bool(mins or not (days or hours))
    return " ".join(parts)


@dataclass
class DeadlineStatus:
    turn: int
    deadline: dt.datetime | None
    grace: dt.timedelta
    policy: str
    now: dt.datetime
    due: list[str]
    arrived: list[str]
    missing: list[str]               # due, not in, and waited for
    dropped: list[str] = field(default_factory=list)   # due, not in, played by bot/default orders
    stale: list[str] = field(default_factory=list)     # in, but from before an undo of the turn: an
                                                       # early resolve waits for them to send again

    @property
    def final(self) -> dt.datetime | None:
        """When the grace period ends: after it the missed-turn policy applies."""
        return self.deadline + self.grace if self.deadline else None

    @property
    def phase(self) -> str:
        """none (no deadline), open, grace (deadline passed, grace running) or passed."""
        if self.deadline is None:
            return "none"
        if self.now < self.deadline:
            return "open"
        return "grace" if self.now < self.final else "passed"

    @property
    def left(self) -> str:
        if self.deadline is None:
            return "no deadline set"
        if self.phase == "open":
            return f"{format_period(self.deadline - self.now)} left"
        if self.phase == "grace":
            return f"deadline passed; {format_period(self.final - self.now)} of grace left"
        return f"deadline and grace ended {format_period(self.now - self.final)} ago"

    def as_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "deadline": self.deadline.isoformat() if self.deadline else None,
                "grace": format_period(self.grace) if self.grace else None, "policy": self.policy,
                "phase": self.phase, "left": self.left, "due": self.due, "in": self.arrived,
                "missing": self.missing, "dropped": self.dropped, "stale": self.stale,
                "resolves_at": self.final.isoformat() if self.final else None}


def deadline_status(campaign: Campaign, now: dt.datetime | None = None) -> DeadlineStatus:
    game = games.get(campaign.game_name)
    turn = campaign.current_turn
    due = list(game.due(campaign.state()))
    stored = campaign.stored_orders(turn)
    arrived = [p for p in due if p in stored and not campaign.forced_errors(turn, p)]
    dropped = dropped_players(campaign)
    now = now or clock.now()
    stale = read_undone(campaign.turn_dir(turn)).get("stale") or []
    return DeadlineStatus(turn, read_deadline(campaign), read_grace(campaign), read_policy(campaign), now,
                          due, arrived, [p for p in due if p not in arrived and p not in dropped],
                          [p for p in due if p not in arrived and p in dropped],
                          [p for p in arrived if p in stale])


def resolve_refusal(campaign: Campaign, now: dt.datetime | None = None) -> str | None:
    """Why `gm resolve` without --force should wait, or None when it may run now: every due player
    is in (it may run early), or the deadline and grace have passed and the policy is not hold."""
    info = deadline_status(campaign, now)
    if not info.missing:
        return None
    waiting = ", ".join(labelled(campaign.players, info.missing))
    if info.phase in ("open", "grace"):
        return (f"turn {info.turn}: waiting for orders from {waiting}; "
                f"deadline {show_moment(info.deadline, campaign_zone(campaign))} ({info.left})")
    if info.phase == "passed" and info.policy != "hold":
        return None
    if info.phase == "passed":
        return (f"turn {info.turn}: the deadline has passed without orders from {waiting}; the policy is hold: "
                "the GM decides (gm resolve --force applies the game's default orders)")
    return f"turn {info.turn}: waiting for orders from {waiting} (no deadline set; gm resolve --force to go on)"
