"""`gm mail fetch`: every new message kept raw under inbox/, matched to a player, checked like
`gm submit`, stored when clean (in Date order) and answered with the orders as understood, every
error and a receipt. Anything wrong gives one line in mail.log; the campaign is then unchanged."""
from __future__ import annotations

import datetime as dt
import email.parser
import email.policy
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from .. import games
from ..campaign import Campaign
from ..engine import check_text
from ..fileio import atomic_write
from .body import BadMessage, Incoming, clean_order_text, read_incoming, sender_of
from .inbox import raw_messages
from .outbox import reply_message
from .passwords import check_password, passwords_required, stored_hash
from .receipts import canonical_orders, receipt
from .settings import MailError, gm_log, max_bytes, now_utc, read_log, write_log

MESSAGE_FILE = "message"  # how errors name the order text: "message:LINE:COL: ..."


@dataclass
class Outcome:
    """What became of one fetched message."""

    digest: str
    sender: str
    player: str | None
    status: str                      # stored | refused | ignored
    line: str                        # the one line for the GM
    receipt: str | None = None
    reply: EmailMessage | None = None
    date: dt.datetime | None = None
    errors: list[str] = field(default_factory=list)


def _processed_path(campaign: Campaign):
    return campaign.path / "inbox" / "processed.yaml"


def _player_by_address(campaign: Campaign, address: str) -> str | None:
    for p in campaign.players:
        if str(p.get("email") or "").strip().lower() == address:
            return p["id"]
    return None


@dataclass
class Fetched:
    outcomes: list[Outcome]
    failure: str | None = None       # the mailbox could not be read (to the end); logged in mail.log


def fetch(campaign: Campaign, settings: dict[str, Any], *, imap_factory: Callable[..., Any] | None = None,
          now: dt.datetime | None = None) -> Fetched:
    """Fetch, keep, check and store; the outcomes in the order they were applied. Messages kept in
    inbox/ but never processed (a crash, a mailbox failing half-way) are taken up by the next fetch."""
    with campaign.lock():
        processed = read_log(_processed_path(campaign))
        failure = None
        try:
            for raw, mark_kept in raw_messages(campaign, settings, imap_factory=imap_factory):
                path = campaign.path / "inbox" / f"{hashlib.sha256(raw).hexdigest()[:32]}.eml"
                if not path.exists():
                    atomic_write(path, raw)  # kept before anything else can go wrong
                mark_kept()
        except MailError as exc:
            failure = str(exc)
            gm_log(campaign, f"fetch failed: {failure}", now=now)
        fresh = []
        for path in sorted((campaign.path / "inbox").glob("*.eml")):
            raw = path.read_bytes()
            digest = hashlib.sha256(raw).hexdigest()
            if digest not in processed:
                fresh.append((digest, raw))
        read = [_read(campaign, digest, raw) for digest, raw in fresh]
        far_future = dt.datetime.max.replace(tzinfo=dt.timezone.utc)
        read.sort(key=lambda item: item[1].date if isinstance(item[1], Incoming) and item[1].date else far_future)
        outcomes = []
        for digest, incoming in read:
            outcome = incoming if isinstance(incoming, Outcome) else _apply(campaign, digest, incoming, processed)
            processed[digest] = {"status": outcome.status, "player": outcome.player,
                                 "turn": campaign.current_turn if outcome.status == "stored" else None,
                                 "date": outcome.date.isoformat() if outcome.date else None,
                                 "receipt": outcome.receipt, "at": (now or now_utc()).isoformat()}
            write_log(_processed_path(campaign), processed)
            gm_log(campaign, f"fetch {digest[:12]} from {outcome.sender or '?'}: {outcome.line}", now=now)
            outcomes.append(outcome)
        return Fetched(outcomes, failure)


def _read(campaign: Campaign, digest: str, raw: bytes) -> tuple[str, Incoming | Outcome]:
    cap = max_bytes(campaign)
    try:
        if len(raw) > cap:
            raise BadMessage(f"the message is too large ({len(raw)} bytes; the limit is {cap}); "
                             "send the orders as plain text without attachments")
        return digest, read_incoming(raw)
    except BadMessage as exc:
        sender = _header_sender(raw)
        player = _player_by_address(campaign, sender) if sender else None
        reply = None
        if player is not None:
            reply = reply_message(campaign, player, "Your orders could not be read",
                                  f"Your message could not be read: {exc}\nNothing was changed; "
                                  "your earlier orders, if any, still stand.\n")
        who = f" ({player})" if player else (" (unknown sender)" if sender else "")
        return digest, Outcome(digest, sender, player, "refused", f"refused{who}: {exc}", reply=reply)


def _header_sender(raw: bytes) -> str:
    try:
        head = email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(raw[:65536])
        return sender_of(head)
    except Exception:  # a message too broken even for its headers: logged without a sender
        return ""


def _apply(campaign: Campaign, digest: str, incoming: Incoming, processed: dict[str, Any]) -> Outcome:
    player = _player_by_address(campaign, incoming.sender)
    base = Outcome(digest, incoming.sender, player, "ignored", "", date=incoming.date)
    if player is None:
        base.line = "ignored: the sender is not a player of this campaign (no reply sent)"
        return base
    text = clean_order_text(incoming.text)
    turn = campaign.current_turn
    problem = _password_problem(campaign, player, text)
    if problem:
        base.status, base.line = "refused", f"refused ({player}): {problem}"
        base.reply = _reply(campaign, player, incoming, turn, [problem], None, None, problem)
        return base
    newer = _newer_orders(processed, turn, player, incoming.date)
    game = games.get(campaign.game_name)
    checked = check_text(campaign, game, campaign.state(), text, MESSAGE_FILE, player)
    canonical = canonical_orders(text)
    if newer is not None and checked.ok:
        note = (f"these orders are dated {incoming.date:%Y-%m-%d %H:%M} UTC, earlier than the orders already "
                f"stored (dated {newer}); they arrived out of order and were not applied")
        base.status, base.line = "ignored", f"out of order ({player}): {note}"
        base.reply = _reply(campaign, player, incoming, turn, [note], canonical, None, note)
        return base
    if not checked.ok:
        base.status, base.errors = "refused", checked.errors
        base.line = f"refused ({player}): {len(checked.errors)} error(s) in the orders for turn {turn}"
        base.reply = _reply(campaign, player, incoming, turn, checked.errors, canonical, None, None)
        return base
    stored_text = f"player: {player}\nturn: {turn}\n" + (canonical + "\n" if canonical else "")
    campaign.store_orders(turn, player, stored_text)
    base.status, base.receipt = "stored", receipt(stored_text)
    base.line = f"stored ({player}) orders for turn {turn}, receipt {base.receipt}"
    base.reply = _reply(campaign, player, incoming, turn, [], canonical, base.receipt, None, notes=checked.notes)
    return base


def _password_problem(campaign: Campaign, player: str, text: str) -> str | None:
    if not passwords_required(campaign):
        return None
    from ..orders import read_frame
    given = read_frame(text).headers.get("password")
    if not given:
        return "this campaign needs a 'password:' line with your password"
    stored = stored_hash(campaign, player)
    if stored is None:
        return "no password is set for you yet; ask the GM for one"
    if not check_password(given, stored):
        return "wrong password"
    return None


def _newer_orders(processed: dict[str, Any], turn: int, player: str, date: dt.datetime | None) -> str | None:
    """The Date of stored orders newer than ``date`` for this turn and player, if any."""
    if date is None:
        return None
    for entry in processed.values():
        if (entry.get("status") == "stored" and entry.get("player") == player and entry.get("turn") == turn
                and entry.get("date") and dt.datetime.fromisoformat(entry["date"]) > date):
            return dt.datetime.fromisoformat(entry["date"]).strftime("%Y-%m-%d %H:%M UTC")
    return None


def _reply(campaign: Campaign, player: str, incoming: Incoming, turn: int, errors: list[str],
           canonical: str | None, receipt_hex: str | None, refusal: str | None,
           notes: list[str] | None = None) -> EmailMessage:
    lines = [f"Turn {turn}, orders from {player} (read from the {incoming.source}).", ""]
    if receipt_hex:
        lines += ["Your orders are stored. They replace any earlier orders for this turn.", ""]
    elif refusal:
        lines += [f"Not stored: {refusal}.", ""]
    else:
        lines += [f"Not stored: {len(errors)} error(s). Your earlier orders for this turn, if any, still stand.", ""]
    if canonical is not None:
        lines += ["Your orders as understood:"] + [f"  {line}" for line in canonical.split("\n") if line] + [""]
    if errors and not refusal:
        lines += [f"Errors (line numbers count from the top of the {incoming.source}):"]
        lines += [f"  {e}" for e in errors] + [""]
    for note in notes or []:
        lines.append(f"Note: {note}")
    if receipt_hex:
        lines += [f"Receipt (SHA-256 of your orders as understood): {receipt_hex}",
                  "Keep it: it proves what you sent."]
    subject = f"Turn {turn} orders {'received' if receipt_hex else 'NOT stored'}"
    return reply_message(campaign, player, subject, "\n".join(lines).rstrip() + "\n",
                         in_reply_to=incoming.message_id)
