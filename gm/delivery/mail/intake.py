"""`gm mail fetch`: every new message kept raw under inbox/, its sender checked on the headers
alone, then (from a player) read as a mail command or as orders, checked like `gm submit`, stored
when clean (in Date order) and answered. Each message's reply is written to outbox/replies/ and the
message appended to the ledger as soon as it is decided, so an interrupted fetch loses nothing and
a fetch costs in proportion to the new messages, whatever the history. One bad message (even one
that trips a bug) is answered, logged and never blocks the messages after it."""
from __future__ import annotations

import datetime as dt
import hashlib
import os
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gm.time import clock
from gm.store.campaign import Campaign
from gm.store.fileio import atomic_write
from gm.delivery.mail import commands, for_gm, oversize
from gm.delivery.mail.automatic import record_bounce
from gm.delivery.mail.passwords import password_values, redact
from gm.delivery.mail.limits import loop_guard
from gm.delivery.mail.reading import reading_of
from gm.store.orders import read_frame
from gm.turn.engine import check_text
from gm.delivery.mail.answer import MESSAGE_FILE, apply_orders  # noqa: F401  (MESSAGE_FILE: part of this module's API)
from gm.delivery.mail.body import BadMessage, Cleaned, Head, clean_order_text, read_head, read_incoming
from gm.delivery.mail.smtp import already_sent
from gm.delivery.mail.desk import Desk, Outcome, stem
from gm.delivery.mail.inbox import raw_messages
from gm.store.logbook import check_plain
from gm.delivery.mail.outbox import reply_message, write_eml
from gm.delivery.mail.settings import LIMITS, MailError, gm_address, gm_log, limit, max_bytes

__all__ = ["Fetched", "Outcome", "fetch", "MESSAGE_FILE"]


@dataclass
class Fetched:
    outcomes: list[Outcome]
    failure: str | None = None       # the mailbox could not be read (to the end); logged in mail.log


def fetch(campaign: Campaign, settings: dict[str, Any], *, imap_factory: Callable[..., Any] | None = None,
          now: dt.datetime | None = None) -> Fetched:
    """Fetch, keep, check, store and answer; the outcomes in the order they were applied. Messages
    kept in inbox/ but never handled (a crash, a mailbox failing half-way) are taken up here too."""
    now = now or clock.now()
    with campaign.lock():
        inbox = campaign.path / "inbox"
        for log in ("mail.log", "inbox/processed-log.yaml", "inbox/sources.yaml", "outbox/sent-log.yaml"):
            check_plain(campaign.path / log)  # before anything is kept: a linked log changes nothing
        gm_address(campaign)  # a bad mail.gm or limit is one line before anything is kept, not a failure per message
        for name in LIMITS:
            limit(campaign, name)
        failure = _keep_new(campaign, settings, imap_factory, now)
        desk = Desk(campaign, now)
        fresh = [inbox / name for name in sorted(_kept_names(inbox)) if name[:-4] not in desk.ledger.done]
        heads = [(path, read_head(_start_of(path))) for path in fresh]
        latest = dt.datetime.max.replace(tzinfo=dt.timezone.utc)
        heads.sort(key=lambda item: (desk.trusted_date(item[1].date)[0] or latest, item[0].name))
        outcomes = []
        for path, head in heads:
            raw = path.read_bytes()
            cut = oversize.read_note(path)
            digest = cut["digest"] if cut else hashlib.sha256(raw).hexdigest()
            try:
                outcome = _handle(desk, digest, raw, head, size=cut["size"] if cut else len(raw))
            except Exception as exc:  # a bug met in one message must not jam every later fetch
                outcome = _crashed(desk, digest, head, exc)
            _guard(desk, outcome)
            if outcome.secrets:  # the kept copy never holds a password (the check is done)
                atomic_write(path, redact(raw, outcome.secrets))
            _keep(desk, outcome)
            outcomes.append(outcome)
        return Fetched(outcomes, failure)


def _kept_names(inbox: Path) -> list[str]:
    try:
        return [entry.name for entry in os.scandir(inbox) if entry.name.endswith(".eml")]
    except FileNotFoundError:
        return []


def _start_of(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(256 * 1024)


def _keep_new(campaign: Campaign, settings: dict[str, Any], imap_factory, now) -> str | None:
    """Keep every new message under inbox/ before anything else can go wrong; the failure, if any."""
    cap = max_bytes(campaign)
    try:
        for raw, mark_kept in raw_messages(campaign, settings, imap_factory=imap_factory):
            digest = hashlib.sha256(raw).hexdigest()
            path = campaign.path / "inbox" / f"{stem(digest)}.eml"
            if not path.exists():
                if len(raw) > cap:  # refused for its size: only what the GM needs is kept
                    oversize.keep_head(path, raw, digest, cap)
                else:
                    atomic_write(path, raw)
            mark_kept()
    except MailError as exc:
        gm_log(campaign, f"fetch failed: {exc}", now=now)
        return str(exc)
    return None


def _handle(desk: Desk, digest: str, raw: bytes, head: Head, *, size: int) -> Outcome:
    """One message: automatic mail, the size and the sender are checked before its body is read at
    all; ``size`` is the message's own (the file kept of an oversize message holds its headers only)."""
    player = desk.player_by_address(head.sender)
    date, untrusted = desk.trusted_date(head.date)
    cap = max_bytes(desk.campaign)
    if head.robot is not None and head.robot.kind != "list":
        return _automatic(desk, digest, raw, head, player, date)
    if player is None:
        line = ("ignored: the sender is not a player of this campaign (no reply sent)" if head.sender
                else "ignored: no sender address in the From: header (no reply sent)")
        return Outcome(digest, head.sender, None, "ignored", line, date=date)
    if size > cap or len(raw) > cap:
        kept = "; only its headers are kept in inbox/" if size > len(raw) else ""
        return _unreadable(desk, digest, head, player, oversize.why(max(size, len(raw)), cap), kept=kept)
    try:
        incoming = read_incoming(raw)
    except BadMessage as exc:
        return _unreadable(desk, digest, head, player, str(exc))
    incoming.date = date
    notes = list(incoming.notes)
    if untrusted:
        notes.append(f"the Date: of your message ({head.date:%Y-%m-%d %H:%M} UTC) lies in the future; "
                     f"it counts as received at {date:%Y-%m-%d %H:%M} UTC")
    outcome = _read(desk, digest, head, player, incoming, notes)
    outcome.secrets = password_values(incoming.text)
    return outcome


def _read(desk: Desk, digest: str, head: Head, player: str, incoming, notes: list[str]) -> Outcome:
    date = incoming.date
    if head.robot is not None and not read_frame(incoming.text).headers:  # list mail with no orders
        return Outcome(digest, head.sender, player, "ignored",
                       f"ignored ({player}): {head.robot.why}, with no orders (no reply sent)",
                       date=date, automatic=head.robot.kind)
    command = commands.detect(incoming.subject, incoming.text)  # before cleaning: it blanks a preamble
    if command is not None:
        return commands.answer(desk, player, incoming, command, digest=digest)
    cleaned = clean_order_text(incoming.text)
    reading = reading_of(desk, player, cleaned)
    if reading.for_gm:
        word = _lone_word(reading.text)
        if word:  # one word alone is a mistyped command: the help text, not the GM
            checked = check_text(desk.campaign, desk.game, desk.state, reading.text, MESSAGE_FILE, player,
                                 turn=desk.turn)
            return commands.unknown(desk, player, incoming, word, digest=digest, errors=checked.errors)
        hint = (f"If it was meant as orders, begin them with the lines 'player: {player}' and "
                f"'turn: {desk.turn}'." if reading.lines else "")
        return for_gm.keep(desk, player, incoming, _own_words(cleaned), digest=digest,
                           why="no orders and no mail command", hint=hint)
    if reading.passed_over:
        notes.append("not read as orders: " + " ".join(repr(line) for line in reading.passed_over))
    outcome = apply_orders(desk, player, incoming, reading.text, digest=digest, notes=notes)
    word = _lone_word(reading.text)
    if outcome.status == "refused" and outcome.errors and word:
        return commands.unknown(desk, player, incoming, word, digest=digest, errors=outcome.errors)
    return outcome


def _lone_word(text: str) -> str | None:
    """A message of one word and nothing else, not valid as orders, reads as a mistyped command."""
    lines = [line.strip() for line in commands.body_lines(text) if line.strip()]
    if len(lines) == 1 and len(lines[0].split()) == 1 and ":" not in lines[0]:
        return lines[0][:40]
    return None


def _own_words(cleaned: Cleaned) -> str:
    """What the player wrote to the GM: the message without the quoted earlier message."""
    lines = cleaned.text.split("\n")
    return "\n".join(line for line in lines if not line.lstrip().startswith(">"))


def _automatic(desk: Desk, digest: str, raw: bytes, head: Head, player: str | None, date) -> Outcome:
    """Automatic mail: logged, never answered, never read as orders. A bounce is noted for `gm
    status` when it concerns a player."""
    robot = head.robot
    if robot.kind == "bounce":
        who, line = record_bounce(desk.campaign, raw, at=date or desk.now, addresses=desk.addresses,
                                  sent=already_sent(desk.campaign))
        return Outcome(digest, head.sender, who, "ignored", line, date=date, automatic="bounce")
    who = f" ({player})" if player else ""
    return Outcome(digest, head.sender, player, "ignored",
                   f"ignored{who}: automatic mail, {robot.why} (no reply sent)", date=date, automatic=robot.kind)


def _unreadable(desk: Desk, digest: str, head: Head, player: str, problem: str, kept: str = "") -> Outcome:
    reply = reply_message(desk.campaign, player, "Your orders could not be read",
                          f"Your message could not be read: {problem}\nNothing was changed; "
                          "your earlier orders, if any, still stand.\n", in_reply_to=head.message_id)
    return Outcome(digest, head.sender, player, "refused", f"refused ({player}): {problem}{kept}", reply=reply,
                   date=head.date)


def _crashed(desk: Desk, digest: str, head: Head, exc: Exception) -> Outcome:
    """A bug met in one message: the details go to a file for the GM, one line to the log and a
    plain answer to the player; the message counts as handled, so later fetches go on."""
    detail = desk.campaign.path / "inbox" / f"{stem(digest)}.error"
    atomic_write(detail, "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    player = desk.player_by_address(head.sender)
    what = f"{type(exc).__name__}: {' '.join(str(exc).split())[:120]}"
    reply = None
    if player is not None:
        reply = reply_message(desk.campaign, player, "Your message could not be handled",
                              "gm met an error in its own code while handling your message, so nothing was "
                              "changed; the GM has been told. Your earlier orders, if any, still stand.\n",
                              in_reply_to=head.message_id)
    line = f"failed ({player or 'unknown sender'}): internal error ({what}); details in inbox/{detail.name}"
    return Outcome(digest, head.sender, player, "refused", line, reply=reply, date=head.date)


def _guard(desk: Desk, outcome: Outcome) -> None:
    """The loop guard: past a few replies to one address in an hour, the reply is only logged."""
    if outcome.reply is None or outcome.player is None:
        return
    why = loop_guard(desk, outcome.player)
    if why:
        outcome.reply, outcome.withheld = None, True
        outcome.line += f"; no reply sent (loop guard: {why})"


def _keep(desk: Desk, outcome: Outcome) -> None:
    """The reply first (outbox/replies/), then the ledger line, then the GM's log: a crash between
    them handles the message again next time, to the same effect."""
    if outcome.reply is not None:
        path: Path = write_eml(desk.campaign.path / "outbox" / "replies", reply_name(outcome.digest), outcome.reply)
        outcome.reply_file = path.name
    desk.ledger.record({
        "digest": outcome.digest, "status": outcome.status, "player": outcome.player,
        "turn": desk.turn if outcome.status == "stored" else None,
        "date": outcome.date.isoformat() if outcome.date else None, "receipt": outcome.receipt,
        "command": outcome.command, "reply": outcome.reply_file, "at": desk.now.isoformat(),
        "for_turn": desk.turn, **_extra(outcome)})
    if outcome.forward is not None:  # to the GM's own address: sent with the replies, once
        name = reply_name(f"gm-{outcome.digest}")  # the name replies.py gives it when handed to the GM
        write_eml(desk.campaign.path / "outbox" / "replies", name, outcome.forward)
        desk.ledger.record({"digest": f"gm-{outcome.digest}", "status": "forwarded", "player": None,
                            "reply": f"{name}.eml", "at": desk.now.isoformat()})
    gm_log(desk.campaign, f"fetch {outcome.digest[:12]} from {outcome.sender or '?'}: {outcome.line}", now=desk.now)


def _extra(outcome: Outcome) -> dict:
    return {k: v for k, v in (("automatic", outcome.automatic), ("capped", outcome.capped),
                              ("withheld", outcome.withheld or None)) if v}


def reply_name(digest: str) -> str:
    return f"reply-{digest[:16]}"
