"""Floods and loops: how much one player's mail may make gm do, counted from the ledger of handled
messages (inbox/processed-log.yaml) and the turn's press, so the counts survive every run.

- the loop guard: at most `mail.replies_per_hour` replies to one player's address in any hour; a
  message beyond it is handled as usual but its reply is only logged (two auto-responders that
  slipped past the header checks cannot ping-pong for more than a few messages);
- per player and turn: `mail.press_per_turn` press messages of at most `mail.press_bytes_per_turn`
  bytes together, and `mail.answers_per_turn` answers to help/status/orders/resend. The first
  message over a cap is told so; later ones get no reply (logged)."""
from __future__ import annotations

import datetime as dt
from typing import Any

from gm.store.press import read_press
from gm.delivery.mail.desk import Desk
from gm.delivery.mail.settings import limit

HOUR = dt.timedelta(hours=1)
ANSWERED = ("help", "status", "orders", "resend")


def _at(entry: dict[str, Any]) -> dt.datetime | None:
    try:
        when = dt.datetime.fromisoformat(str(entry.get("at")))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)


def replies_this_hour(desk: Desk, player: str) -> int:
    since = desk.now - HOUR
    return sum(1 for e in desk.ledger.entries
               if e.get("player") == player and e.get("reply") and (_at(e) or since) > since)


def loop_guard(desk: Desk, player: str) -> str | None:
    """Why this player's next reply is held back, or None."""
    cap = limit(desk.campaign, "replies_per_hour")
    count = replies_this_hour(desk, player)
    if count >= cap:
        return f"{count} replies to {player} in the last hour already (mail.replies_per_hour: {cap})"
    return None


def _this_turn(desk: Desk, player: str) -> list[dict[str, Any]]:
    return [e for e in desk.ledger.entries if e.get("player") == player and e.get("for_turn") == desk.turn]


def told_already(desk: Desk, player: str, cap: str) -> bool:
    return any(e.get("capped") == cap for e in _this_turn(desk, player))


def answers_over(desk: Desk, player: str) -> str | None:
    """Why another help/status/orders/resend answer is not given this turn, or None."""
    cap = limit(desk.campaign, "answers_per_turn")
    count = sum(1 for e in _this_turn(desk, player) if e.get("command") in ANSWERED and e.get("status") == "answered")
    if count >= cap:
        return (f"you have had {count} answers to mail commands this turn (the most is {cap}); "
                "more are answered after the next turn is resolved")
    return None


def press_over(desk: Desk, player: str, text: str) -> str | None:
    """Why this press message is not passed on (the player's count or size for the turn), or None."""
    mine = [e for e in read_press(desk.campaign, desk.turn) if e.get("from") == player]
    most, size = limit(desk.campaign, "press_per_turn"), limit(desk.campaign, "press_bytes_per_turn")
    if len(mine) >= most:
        return f"you have sent {len(mine)} press messages this turn, the most a player may send ({most})"
    used = sum(len(str(e.get("text", "")).encode("utf-8")) for e in mine)
    if used + len(text.encode("utf-8")) > size:
        return (f"this press would bring yours this turn to {used + len(text.encode('utf-8')):,} bytes; "
                f"the most is {size:,} ({max(0, size - used):,} left)")
    return None
