"""The one way mail goes out: reports, replies, notices, reminders and press, for `gm mail ...`
and `gm run` alike.

Each message is an Outgoing: its sent-log key (what it is: `report:3:ann`, `reply:DIGEST`, ...),
the message, and the one registered address it is meant for (taken from campaign.yaml or from
what gm itself queued, never from the message). `deliver` then, under the campaign lock:
skips a key already in the sent log (never sent twice); seals the message (gm/delivery/mail/
headers.py: only gm's own headers, To: exactly that address, a stable Message-ID derived from the
key, Auto-Submitted, a strict policy, read back); and sends it by SMTP to that address alone as
the envelope recipient, or writes it as a .eml for the GM. A message is logged the moment the
server took it, so a crash in between resends it once, under the same Message-ID.
"""
from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from gm import games
from gm.delivery.mail.deadline_note import deadline_line, with_deadline
from gm.delivery.mail.desk import LEDGER, reply_key
from gm.delivery.mail.headers import UnsafeMessage, mail_domain, seal, stable_id
from gm.delivery.mail.notices import queued_notices
from gm.delivery.mail.outbox import (
    notice_message,
    order_form,
    registered_address,
    report_file_name,
    report_key,
    report_message,
)
from gm.delivery.mail.remind import due_reminders
from gm.delivery.mail.settings import MailError, gm_address, gm_log, sender_address
from gm.delivery.mail.smtp import Line, Sent, already_sent, log_sent
from gm.store.campaign import Campaign, turn_dir_name
from gm.store.fileio import atomic_write
from gm.store.logbook import check_plain, read_entries
from gm.store.press import ALL
from gm.store.viewing import press_seen_by
from gm.time import clock


@dataclass
class Outgoing:
    key: str              # the sent-log key: what the message is
    msg: EmailMessage
    to: str               # the one address it may go to (the SMTP envelope recipient)
    folder: Path          # where its .eml goes when it is handed to the GM instead of sent
    stem: str             # the .eml's name there (built by gm)


def deliver(campaign: Campaign, items: Iterable[Outgoing], *, send: bool, hand_over: bool = True,
            on_done: Callable[[Sent], None] | None = None,
            sleep: Callable[[float], None] = time.sleep) -> list[Sent]:
    """Send (send=True) or write for the GM each message not yet in the sent log; a result per
    message: sent | written | skipped | failed | refused (unsafe: never sent, logged so). Written
    messages count as handed over (logged) unless ``hand_over`` is False: a copy for the GM to look
    at, written even when the message went before, and never logged."""
    items = list(items)
    with campaign.lock():
        for path in (campaign.path / "mail.log", campaign.path / "outbox" / "sent-log.yaml"):
            check_plain(path)  # before the first message goes: a linked log would stop the run half-way
        log = already_sent(campaign)
        if not send and not hand_over:
            log = {}  # a copy to look at: written whatever went before, and nothing is logged
        fresh = [item for item in items if item.key not in log]
        line = Line(campaign, sleep=sleep) if send and fresh else None
        sender = sender_address(campaign)
        envelope_from = email.utils.parseaddr(sender)[1]
        secret, domain = campaign.master_secret(), mail_domain(sender)
        results: list[Sent] = []
        try:
            for item in items:
                shown = str(item.msg.get("To", item.to))
                if item.key in log:
                    result = Sent(item.key, shown, "skipped", f"already sent {log[item.key].get('at', '')}")
                else:
                    result = _one(campaign, item, line, envelope_from, stable_id(secret, item.key, domain),
                                  hand_over)
                    result.to = shown
                    if result.status != "failed":
                        log[item.key] = {}
                    if hand_over or send:
                        gm_log(campaign, f"send {item.key} to {shown}: {result.status}"
                                         + (f" ({result.detail})" if result.detail else ""))
                results.append(result)
                if on_done:
                    on_done(result)
        finally:
            if line is not None:
                line.close()
        return results


def _one(campaign: Campaign, item: Outgoing, line: Line | None, envelope_from: str, message_id: str,
         hand_over: bool) -> Sent:
    try:
        data = seal(item.msg, to=item.to, key=item.key, message_id=message_id, on_disk=line is None)
    except UnsafeMessage as exc:
        if hand_over or line is not None:
            log_sent(campaign, item.key, item.to, message_id, refused=str(exc))
        return Sent(item.key, item.to, "refused", f"not sent: {exc}")
    if line is None:
        item.folder.mkdir(parents=True, exist_ok=True)
        path = item.folder / f"{item.stem}.eml"
        atomic_write(path, data)
        if hand_over:
            log_sent(campaign, item.key, item.to, message_id, file=str(path))
        return Sent(item.key, item.to, "written", str(path))
    result = line.send(item.key, data, sender=envelope_from, to=item.to)
    if result.status == "sent":
        log_sent(campaign, item.key, item.to, message_id)
    return result


# ---- what goes out -------------------------------------------------------------------------
def report_items(campaign: Campaign, turn: int, *, folder: Path | None = None,
                 players: list[str] | None = None) -> tuple[list[Outgoing], list[str]]:
    """The report of ``turn`` for every player with an address (or those in ``players``): the
    latest turn's with the order form of each player due and the next deadline at the top."""
    game = games.get(campaign.game_name)
    state = campaign.state(turn)
    latest = turn == campaign.last_turn
    due = game.due(state) if latest else []
    line = deadline_line(campaign) if latest else None
    folder = folder or campaign.path / "outbox" / f"turn-{turn_dir_name(turn)}"
    out, notes = [], []
    for player in players or campaign.player_ids:
        to = registered_address(campaign, player)
        if "@" not in to:
            notes.append(f"{player}: no e-mail address in campaign.yaml; no message built")
            continue
        form = order_form(campaign, game, state, player) if player in due else ""
        msg = report_message(campaign, turn, player, order_form=form)
        if line:
            with_deadline(msg, line)
        out.append(Outgoing(report_key(campaign, turn, player), msg, to, folder, report_file_name(turn, player)))
    return out, notes


def reply_items(campaign: Campaign) -> list[Outgoing]:
    """Every reply kept under outbox/replies/ and not yet sent nor handed to the GM, oldest first,
    each to the registered address of the player it answers."""
    done = already_sent(campaign)
    folder = campaign.path / "outbox" / "replies"
    out = []
    for entry in read_entries(campaign.path / "inbox" / LEDGER):
        name, digest = entry.get("reply"), str(entry.get("digest", ""))
        key = reply_key(digest)
        if not name or key in done:
            continue
        path = folder / str(name)
        if path.is_file() and path.parent == folder:
            msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            to = (_gm_address(campaign) if entry.get("status") == "forwarded"  # for_gm.py: to mail.gm
                  else _reply_address(campaign, entry.get("player")))
            _readdress(msg, to)
            out.append(Outgoing(key, msg, to, folder, path.stem))
            done[key] = {}
    return out


def _readdress(msg: EmailMessage, to: str) -> None:
    """A reply kept while the player had another address goes to the one registered now."""
    try:
        [(name, written)] = email.utils.getaddresses([str(msg.get("To", ""))])
    except ValueError:
        return  # not one address: the gate refuses it
    if "@" in to and written.strip().lower() != to.lower() and len(msg.get_all("To") or []) == 1:
        del msg["To"]
        msg["To"] = email.utils.formataddr((name, to))


def _gm_address(campaign: Campaign) -> str:
    """A message a player wrote to the GM goes to the GM's own address set now (mail.gm)."""
    try:
        return gm_address(campaign) or ""
    except MailError:  # a bad mail.gm: the forward stays pending until it is set right
        return ""


def _reply_address(campaign: Campaign, player: object) -> str:
    try:
        return registered_address(campaign, str(player))
    except Exception:  # noqa: BLE001 - a player no longer in the campaign: the reply cannot go
        return ""


def notice_items(campaign: Campaign) -> list[Outgoing]:
    """The queued notices (outbox/notices/queue.yaml), each to the address gm queued it for."""
    folder = campaign.path / "outbox" / "notices"
    out: list[Outgoing] = []
    reports: set[tuple[int, str]] = set()
    for item in queued_notices(campaign):
        key = str(item.get("key", ""))
        if item.get("report") is not None:  # the latest report for a player who just took a seat
            player, turn = str(item.get("player", "")), int(item["report"])
            if (turn, player) in reports or turn != campaign.last_turn:
                continue  # queued twice, or no longer the latest report (undone, or a newer one went)
            reports.add((turn, player))
            built, _notes = report_items(campaign, turn, players=[player])
            out += [Outgoing(key, o.msg, o.to, folder, f"report-{turn_dir_name(int(item['report']))}-{player}")
                    for o in built]
            continue
        path = folder / str(item.get("file", ""))
        if path.is_file() and path.parent == folder:
            msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            to = str(item.get("to") or "") or _notice_address(campaign, key, msg)
            out.append(Outgoing(key, msg, to, folder, path.stem))
    return out


def _notice_address(campaign: Campaign, key: str, msg: EmailMessage) -> str:
    """A notice queued before notices named their address: its To: when that is the seat's own
    address now or before; else the seat's address."""
    seat = key.rsplit(":", 1)[-1]
    try:
        info = campaign.player(seat)
    except Exception:  # noqa: BLE001
        return ""
    known = {str(info.get(k) or "").strip().lower() for k in ("email", "previous_email")} - {""}
    pairs = email.utils.getaddresses([str(msg.get("To", ""))])
    written = [a.strip().lower() for _n, a in pairs if a]
    return written[0] if len(written) == 1 and written[0] in known else str(info.get("email") or "")


def press_items(campaign: Campaign, turns: Iterable[int]) -> list[Outgoing]:
    """Each press message of ``turns`` to each of its readers (never back to its sender), as
    the one door (``gm.store.viewing.press_seen_by``) shows it to that reader (a grey sender stays hidden)."""
    folder = campaign.path / "outbox" / "press"
    out = []
    for turn in turns:
        for reader in campaign.player_ids:
            to = registered_address(campaign, reader)
            if "@" not in to:
                continue
            seen: dict[str, int] = {}
            for entry in press_seen_by(campaign, turn, reader):
                if entry["from"] == reader:
                    continue
                ident = hashlib.sha256("\0".join(str(entry.get(k)) for k in ("at", "from_name", "to", "text"))
                                       .encode("utf-8")).hexdigest()[:16]
                seen[ident] = seen.get(ident, 0) + 1
                key = f"press:{turn}:{ident}{'' if seen[ident] == 1 else f'-{seen[ident]}'}:{reader}"
                whom = "all players" if entry["to"] == ALL else "you"
                body = (f"Press for turn {turn}, from {entry['from_name']} to {whom}:\n\n"
                        + "".join(f"  {line}\n" for line in entry["text"].splitlines())
                        + f"\nIt also appears in your report of turn {turn}.\n")
                msg = notice_message(campaign, reader, f"Press from {entry['from_name']}", body)
                out.append(Outgoing(key, msg, to, folder, f"press-{turn_dir_name(turn)}-{key.split(':')[2]}-{reader}"))
    return out


def reminder_items(campaign: Campaign, now=None) -> tuple[list[Outgoing], list[str]]:
    messages, notes = due_reminders(campaign, now=now or clock.now())
    folder = campaign.path / "outbox" / "reminders"
    out = []
    for key, msg in messages:
        player = key.rsplit(":", 1)[1]
        out.append(Outgoing(key, msg, registered_address(campaign, player), folder,
                            f"remind-{campaign.current_turn:03d}-{player}"))
    return out, notes
