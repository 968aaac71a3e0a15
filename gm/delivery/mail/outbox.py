"""RFC 5322 messages the GM sends: replies to orders, turn reports, reminders.

Each message goes to one player's registered address only; nothing in it comes from another
player's report, address or password.
"""
from __future__ import annotations

import datetime as dt
import email.utils
import re
from email.message import EmailMessage
from pathlib import Path

from gm import games
from gm.delivery.mail.headers import ON_DISK, OUTGOING, mail_domain, plain_text, set_reply_ids
from gm.delivery.mail.settings import MailError, sender_address
from gm.store.auditlog import read_audit
from gm.store.campaign import Campaign, turn_dir_name
from gm.store.errors import UsageError
from gm.store.fileio import atomic_write
from gm.delivery.web.tokens import serve_url, sign_in_link
from gm.time import clock

_IMG_SRC = re.compile(r'(<img\b[^>]*?\bsrc=")([^"/\\:]+\.png)(")', re.IGNORECASE)


def _address(campaign: Campaign, player: str, *, name: str | None = None, address: str | None = None) -> str:
    info = campaign.player(player)
    email_address = str(address or info.get("email") or "").strip()
    if "@" not in email_address:
        raise MailError(f"player {player} has no e-mail address in campaign.yaml (players: email:)")
    return email.utils.formataddr((plain_text(name or info.get("name") or player), email_address))


def registered_address(campaign: Campaign, player: str) -> str:
    """The one address a message for ``player`` may go to (campaign.yaml's players: email:)."""
    return str(campaign.player(player).get("email") or "").strip()


def _new_message(campaign: Campaign, player: str, subject: str, *, when: dt.datetime | None = None,
                 auto: str = "auto-generated", name: str | None = None, address: str | None = None) -> EmailMessage:
    msg = EmailMessage(policy=OUTGOING)
    sender = sender_address(campaign)
    msg["From"] = sender
    msg["To"] = _address(campaign, player, name=name, address=address)
    msg["Subject"] = plain_text(f"[{campaign.name}] {subject}", 400)
    msg["Date"] = email.utils.format_datetime(when or clock.now())
    msg["Message-ID"] = email.utils.make_msgid(domain=mail_domain(sender))
    msg["Auto-Submitted"] = auto
    return msg


def reply_message(campaign: Campaign, player: str, subject: str, body: str,
                  *, in_reply_to: str = "") -> EmailMessage:
    """An answer to a player's message; ``in_reply_to`` (their Message-ID, from outside) is copied
    only when it is a plain valid id."""
    msg = _new_message(campaign, player, subject, auto="auto-replied")
    set_reply_ids(msg, in_reply_to)
    msg.set_content(body)
    return msg


def notice_message(campaign: Campaign, player: str, subject: str, body: str, *, name: str | None = None,
                   address: str | None = None) -> EmailMessage:
    """A notice of the GM's change; ``name``/``address`` address it to someone the seat had before."""
    msg = _new_message(campaign, player, subject, name=name, address=address)
    msg.set_content(body)
    return msg


def report_message(campaign: Campaign, turn: int, player: str, *, order_form: str = "") -> EmailMessage:
    """The player's report of ``turn``: the text report, the HTML report as an alternative with its
    images inline (cid:), and the blank order form for the next turn as a .txt attachment."""
    folder = campaign.turn_dir(turn) / "reports"
    text_path = folder / f"{player}.txt"
    if not text_path.is_file():
        raise UsageError(f"{text_path}: no report for {player} on turn {turn} (resolve the turn first)")
    msg = _new_message(campaign, player, f"Turn {turn} report for {campaign.player(player).get('name', player)}")
    msg.set_content(text_path.read_text(encoding="utf-8") + web_link_text(campaign, player))
    html_path = folder / f"{player}.html"
    if html_path.is_file():
        markup = html_path.read_text(encoding="utf-8")
        images = [name for name in dict.fromkeys(m.group(2) for m in _IMG_SRC.finditer(markup))
                  if (folder / name).is_file()]
        cids = {name: email.utils.make_msgid(domain="gm.invalid")[1:-1] for name in images}
        markup = _IMG_SRC.sub(lambda m: m.group(1) + (f"cid:{cids[m.group(2)]}" if m.group(2) in cids
                                                       else m.group(2)) + m.group(3), markup)
        msg.add_alternative(markup, subtype="html")
        html_part = msg.get_payload()[-1]
        for name in images:
            html_part.add_related((folder / name).read_bytes(), "image", "png", cid=f"<{cids[name]}>",
                                  filename=name, disposition="inline")
    if order_form.strip():
        msg.add_attachment(order_form.encode("utf-8"), maintype="text", subtype="plain",
                           filename=f"orders-turn-{turn + 1:03d}-{player}.txt")
    return msg


def web_link_text(campaign: Campaign, player: str) -> str:
    """The player's sign-in link to the web door (`gm serve`), when campaign.yaml sets serve_url."""
    if not serve_url(campaign) or campaign.player(player).get("dropped"):
        return ""
    return f"\nYour page (report, orders checked as you type): {sign_in_link(campaign, player)}\n"


def reminder_message(campaign: Campaign, player: str, turn: int, deadline_text: str, left: str,
                     policy_text: str, *, shown: str | None = None) -> EmailMessage:
    """``deadline_text`` names the deadline in the subject; ``shown`` is how the body says it."""
    name = campaign.player(player).get("name", player)
    body = (f"Dear {name},\n\nYour orders for turn {turn} have not arrived yet.\n"
            f"Deadline: {shown or deadline_text} ({left}).\n{policy_text}\n\n"
            f"Send them with the lines 'player: {player}' and 'turn: {turn}' at the top.\n")
    msg = _new_message(campaign, player, f"Reminder: turn {turn} orders due {deadline_text}")
    msg.set_content(body)
    return msg


def write_eml(folder: Path, name: str, msg: EmailMessage) -> Path:
    """Write one message as NAME.eml under ``folder`` (the name is built by gm, never taken from mail)."""
    if not re.fullmatch(r"[A-Za-z0-9._-]+", name):
        raise MailError(f"internal: unsafe message file name {name!r}")
    path = folder / f"{name}.eml"
    atomic_write(path, msg.as_bytes(policy=ON_DISK))
    return path


def report_key(campaign: Campaign, turn: int, player: str) -> str:
    """The sent-log key of ``player``'s report of ``turn``: a turn undone and resolved again is a new
    report (its key counts the rollbacks of that turn in the audit log), so it is sent again."""
    redo = sum(1 for entry in read_audit(campaign)
               if isinstance(entry, dict) and entry.get("action") == "rollback" and entry.get("turn") == turn)
    return f"report:{turn}:{player}" + (f":redo{redo}" if redo else "")


def report_file_name(turn: int, player: str) -> str:
    return f"turn-{turn_dir_name(turn)}-{player}"


def order_form(campaign: Campaign, game, state: dict, player: str) -> str:
    """The blank order form for the turn after ``state``, headers first, so the player can fill
    it in and send it back as it is; "" when the player has no orders due."""
    if player not in game.due(state):
        return ""
    password = "password: \n" if campaign.config.get("passwords") else ""
    blank = game.order_form(game.view(state, player), player) or ""
    return f"player: {player}\nturn: {campaign.current_turn}\n{password}" + blank


def report_messages(campaign: Campaign, turn: int) -> tuple[list[tuple[str, EmailMessage]], list[str]]:
    """(key, message) for every player with an address, and a note for each one skipped."""
    game = games.get(campaign.game_name)
    state = campaign.state(turn)
    due = game.due(state) if turn == campaign.last_turn else []
    out, notes = [], []
    for player in campaign.player_ids:
        if "@" not in str(campaign.player(player).get("email") or ""):
            notes.append(f"{player}: no e-mail address in campaign.yaml; no message built")
            continue
        form = order_form(campaign, game, state, player) if player in due else ""
        out.append((f"report:{turn}:{player}", report_message(campaign, turn, player, order_form=form)))
    return out, notes
