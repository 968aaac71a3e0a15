"""The mail commands players may send, in one list: the `help` reply (gm.delivery.mail.commands) and
the website's players' page (gm.delivery.site) both show it."""
from __future__ import annotations

COMMANDS = (  # (usage, what it does)
    ("help", "this text"),
    ("status", "the turn, the deadline and whose orders are in"),
    ("orders", "the orders stored for you for this turn"),
    ("resend [TURN]", "your report of TURN again (the last one when no turn is given)"),
    ("gm: TEXT", "a message to the GM (so is any mail with no orders and no command)"),
)
PRESS_COMMAND = ("press TO: TEXT", "a message to one player (name or id) or to all, where the campaign allows press")
