"""Messages for the GM: a player's mail that holds no orders and no command ("could I have an
extra day?"), or the command `gm: TEXT`. Kept in inbox/for-gm.yaml (one line appended per
message: when, turn, player, subject, text, never a password line), listed by `gm inbox DIR`,
forwarded to the GM's own address when `mail.gm` is set, and the player told "passed to the GM".

The forward goes out with the replies: it is kept in outbox/replies/ and logged in the ledger
under a name of its own ("gm-" and the message's hash), so it is sent once, like a reply."""
from __future__ import annotations

import datetime as dt
import email.utils
from email.message import EmailMessage
from typing import Any

from gm.time import clock
from gm.store.campaign import Campaign
from gm.store.gm_messages import keep_message, kept_text, messages, path  # noqa: F401 (messages, path: for callers)
from gm.delivery.mail.body import Incoming
from gm.delivery.mail.desk import Desk, Outcome
from gm.delivery.mail.outbox import reply_message
from gm.delivery.mail.settings import gm_address, sender_address

def keep(desk: Desk, player: str, incoming: Incoming, text: str, *, digest: str, why: str,
         hint: str = "") -> Outcome:
    """Keep ``text`` for the GM and tell the player; ``why`` says for the GM's log what made it a
    message for the GM, ``hint`` adds a line to the player's reply."""
    said = kept_text(text)
    lines = said.split("\n") if said else []
    when = incoming.date or desk.now
    earlier = next((e for e in messages(desk.campaign) if e.get("player") == player and e.get("text") == said), None)
    if earlier is not None:  # an auto-responder that marks nothing sends the same text every time
        return Outcome(digest, incoming.sender, player, "ignored",
                       f"for the GM ({player}): the same text as the message kept on {earlier.get('at')}; "
                       "not kept again, no reply sent (loop guard)", date=incoming.date, command="gm")
    entry = {"at": when.astimezone(dt.timezone.utc).isoformat(timespec="seconds"), "turn": desk.turn,
             "player": player, "subject": " ".join(incoming.subject.split())[:200], "text": said,
             "digest": digest[:32]}
    keep_message(desk.campaign, entry)
    forwarded = gm_address(desk.campaign)
    body = (f"Your message was passed to the GM (turn {desk.turn}); gm itself does not answer it.\n"
            + (f"{hint}\n" if hint else "")
            + "\nWhat you wrote:\n" + "".join(f"  {line}\n" for line in lines[:40])
            + ("  ...\n" if len(lines) > 40 else ""))
    out = Outcome(digest, incoming.sender, player, "answered",
                  f"for the GM ({player}): {why}; kept for gm inbox" + (" and forwarded" if forwarded else ""),
                  date=incoming.date, command="gm")
    out.reply = reply_message(desk.campaign, player, "Passed to the GM", body, in_reply_to=incoming.message_id)
    if forwarded:
        out.forward = forward_message(desk.campaign, entry, forwarded)
    return out


def forward_message(campaign: Campaign, entry: dict[str, Any], to: str) -> EmailMessage:
    """The message to the GM's own address. Nothing the player wrote goes into a header: their
    subject and text are in the body."""
    name = str(campaign.player(entry["player"]).get("name") or entry["player"])
    msg = EmailMessage()
    sender = sender_address(campaign)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = f"[{campaign.name}] Message from {name} ({entry['player']}), turn {entry['turn']}"
    msg["Date"] = email.utils.format_datetime(clock.now())
    msg["Message-ID"] = email.utils.make_msgid(domain=email.utils.parseaddr(sender)[1].partition("@")[2]
                                               or "localhost")
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(f"{name} ({entry['player']}) wrote to the GM on {entry['at']} (turn {entry['turn']}).\n"
                    f"Subject: {entry['subject']}\n\n{entry['text']}\n\n"
                    f"(Kept in {campaign.path.name}/inbox/; `gm inbox {campaign.path.name}` lists every "
                    "such message.)\n")
    return msg
