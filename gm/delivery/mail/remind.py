"""Reminders: one message to each player whose orders are missing, never twice for one deadline."""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from gm.delivery.mail.outbox import reminder_message
from gm.delivery.mail.settings import MailError
from gm.delivery.mail.smtp import already_sent
from gm.store.campaign import Campaign
from gm import games
from gm.time.deadlines import deadline_status, format_period, player_policy
from gm.time.schedule import campaign_zone, short_moment, show_moment


def what_missing_means(game, state: dict, player: str, policy: str) -> str:
    """What missing orders mean for ``player`` in this game: the game's own words (its
    missed_orders hook), else what its default orders come to."""
    if policy == "hold":
        return "the GM decides what happens"
    words = game.missed_orders(state, player, policy)
    if words:
        return str(words).rstrip(".")
    if policy == "bot":
        return "the game's bot plays for you"
    if game.default_orders(state, player) is None:
        return ("the turn waits for the GM (this game has no default move)" if game.sequential
                else "you make no move this turn")
    return "the game's default orders are played for you"


def reminder_key(deadline: dt.datetime, player: str) -> str:
    return f"remind:{deadline.isoformat()}:{player}"


def due_reminders(campaign: Campaign,
                  now: dt.datetime | None = None) -> tuple[list[tuple[str, EmailMessage]], list[str]]:
    """(key, message) for each missing player not yet reminded of this deadline, and notes for the GM."""
    info = deadline_status(campaign, now)
    if info.deadline is None:
        raise MailError("no deadline set: set one with 'gm deadline DIR set 2026-12-01T18:00+01:00' "
                        "(or a schedule: in campaign.yaml)")
    if info.phase == "passed":
        return [], [f"the deadline and grace period of turn {info.turn} have passed; no reminders sent"]
    zone = campaign_zone(campaign)
    shown, subject_moment = show_moment(info.deadline, zone), short_moment(info.deadline, zone)
    log = already_sent(campaign)
    game = games.get(campaign.game_name)
    state = campaign.state()
    out, notes = [], []
    for player in info.missing:
        key = reminder_key(info.deadline, player)
        if key in log:
            notes.append(f"{player}: already reminded of this deadline ({log[key].get('at', '')})")
            continue
        if "@" not in str(campaign.player(player).get("email") or ""):
            notes.append(f"{player}: no e-mail address in campaign.yaml; not reminded")
            continue
        what = what_missing_means(game, state, player, player_policy(campaign, player))
        if info.grace:
            when = (f"There is a grace of {format_period(info.grace)} after the deadline: orders that arrive by "
                    f"{show_moment(info.final, zone)} still count.")
        else:
            when = "There is no grace period: orders must arrive by the deadline."
        out.append((key, reminder_message(campaign, player, info.turn, subject_moment,
                                          info.left, f"{when}\nIf your orders are still missing then, {what}.",
                                          shown=shown)))
    if not info.missing:
        notes.append(f"every player's orders for turn {info.turn} are in")
    return out, notes
