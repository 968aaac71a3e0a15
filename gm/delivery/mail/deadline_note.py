"""The line a report mail opens with: when the next orders are due (the report files do not say it)."""
from __future__ import annotations

import html
from email.message import EmailMessage

from gm import games
from gm.store.campaign import Campaign
from gm.time.deadlines import read_deadline
from gm.time.zones import campaign_zone, show_moment


def deadline_line(campaign: Campaign) -> str | None:
    """What the latest report's mail says of the next deadline (the report files themselves do not)."""
    deadline = read_deadline(campaign)
    if deadline is None or not games.get(campaign.game_name).due(campaign.state()):
        return None
    return f"Orders for turn {campaign.current_turn} are due by {show_moment(deadline, campaign_zone(campaign))}."


def with_deadline(msg: EmailMessage, line: str) -> None:
    """Put ``line`` at the top of the message's text and HTML bodies (not of its attachments)."""
    for part in msg.walk():
        if part.is_multipart() or part.is_attachment():
            continue
        if part.get_content_type() == "text/plain":
            part.set_content(f"{line}\n\n{part.get_content()}")
        elif part.get_content_type() == "text/html":
            markup = part.get_content()
            note = f"<p><strong>{html.escape(line)}</strong></p>"
            at = markup.find(">", markup.lower().find("<body")) + 1 if "<body" in markup.lower() else 0
            part.set_content(markup[:at] + note + markup[at:], subtype="html")
