"""Press: players' messages to one another (or to all), passed on by the GM and kept in the record.

Kept per turn in CAMPAIGN/turns/NNN/press.yaml (NNN = the turn being played when it was sent; the
report of that turn shows it), one entry appended per line, never rewritten. `campaign.yaml` sets
`press:` to `white` (the default: the sender is named), `grey` (the sender is hidden from everyone
but the GM) or `off` (no press). The GM reads all press; a player what was sent to them, to all,
or by them; the public what was sent to all: decided in the one door,
``gm.store.viewing.visible_press`` (this module only stores).
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from gm.store.campaign import Campaign
from gm.store.errors import CampaignError, UsageError
from gm.store.logbook import append_entry, read_entries
from gm.store.names import suggestion

MODES = ("white", "grey", "off")
ALL = "all"
GM = "gm"
PUBLIC = "public"
MAX_CHARS = 4000


def press_mode(campaign: Campaign) -> str:
    value = campaign.config.get("press", "white")
    if value is True or value in ("on", "yes"):
        return "white"
    if value is False or value in ("no",):
        return "off"
    if value not in MODES:
        raise CampaignError(f"{campaign.path / 'campaign.yaml'}: press is one of {', '.join(MODES)} "
                            f"(or on), not {value!r}")
    return str(value)


def press_path(campaign: Campaign, turn: int):
    return campaign.turn_dir(turn) / "press.yaml"


def recipient(campaign: Campaign, sender: str, to: str) -> str:
    """The player id (or 'all') that ``to`` names: an id or a display name, any case."""
    wanted = to.strip().lower()
    if wanted in (ALL, "everyone", "everybody"):
        return ALL
    for player in campaign.players:
        if wanted in (str(player["id"]).lower(), str(player.get("name") or "").strip().lower()):
            if player["id"] == sender:
                raise UsageError("press goes to another player or to all, not to yourself")
            return str(player["id"])
    others = [p for p in campaign.players if p["id"] != sender]
    names = [str(p.get("name") or p["id"]) for p in others]
    close = suggestion(wanted, [str(p["id"]) for p in others] + names + [ALL])
    raise UsageError(f"no player {to.strip()!r} in this campaign{close}; write press TO: TEXT "
                     f"with TO one of {', '.join(names)} or all")


def add_press(campaign: Campaign, turn: int, sender: str, to: str, text: str, *,
              at: dt.datetime) -> dict[str, Any]:
    """Record one press message; raises UsageError (one line) when it cannot be sent."""
    mode = press_mode(campaign)
    if mode == "off":
        raise UsageError("press is off in this campaign: messages between players are not passed on")
    target = recipient(campaign, sender, to)
    text = text.strip()
    if not text:
        raise UsageError("the press message is empty: write press TO: TEXT")
    if len(text) > MAX_CHARS:
        raise UsageError(f"the press message is too long ({len(text)} characters; at most {MAX_CHARS})")
    entry = {"from": sender, "to": target, "text": text, "grey": mode == "grey",
             "at": at.astimezone(dt.timezone.utc).isoformat(timespec="seconds")}
    append_entry(press_path(campaign, turn), entry)
    return entry


def read_press(campaign: Campaign, turn: int) -> list[dict[str, Any]]:
    return read_entries(press_path(campaign, turn))
