"""Orders that came by mail from a player: checked like `gm submit`, stored when clean and newer
than what is stored, and answered with the orders as understood, every error and a receipt."""
from __future__ import annotations

from email.message import EmailMessage

from gm.delivery.mail.body import Incoming
from gm.delivery.mail.commands import HELP_HINT
from gm.delivery.mail.desk import Desk, Outcome
from gm.delivery.mail.outbox import reply_message
from gm.delivery.mail.passwords import password_problem
from gm.store.receipts import canonical_orders
from gm.turn.engine import check_text, store_clean

MESSAGE_FILE = "message"  # how errors name the order text: "message:LINE:COL: ..."


def apply_orders(desk: Desk, player: str, incoming: Incoming, text: str, *, digest: str,
                 notes: list[str]) -> Outcome:
    campaign, turn = desk.campaign, desk.turn
    base = Outcome(digest, incoming.sender, player, "ignored", "", date=incoming.date)
    problem = password_problem(desk, player, text)
    if problem:
        base.status, base.line = "refused", f"refused ({player}): {problem}"
        base.reply = _reply(desk, player, incoming, [problem], None, None, problem, notes)
        return base
    newer = desk.ledger.newest.get((turn, player))
    checked = check_text(campaign, desk.game, desk.state, text, MESSAGE_FILE, player, turn=turn)
    canonical = canonical_orders(text)
    if newer is not None and incoming.date is not None and newer > incoming.date and checked.ok:
        note = (f"these orders are dated {incoming.date:%Y-%m-%d %H:%M} UTC, earlier than the orders already "
                f"stored (dated {newer:%Y-%m-%d %H:%M} UTC); they arrived out of order and were not applied")
        base.status, base.line = "ignored", f"out of order ({player}): {note}"
        base.reply = _reply(desk, player, incoming, [note], canonical, None, note, notes)
        return base
    if not checked.ok:
        base.status, base.errors = "refused", checked.errors
        base.line = f"refused ({player}): {len(checked.errors)} error(s) in the orders for turn {turn}"
        base.reply = _reply(desk, player, incoming, checked.errors, canonical, None, None, notes)
        return base
    base.status, base.receipt = "stored", store_clean(campaign, turn, player, text)
    base.line = f"stored ({player}) orders for turn {turn}, receipt {base.receipt}"
    base.reply = _reply(desk, player, incoming, [], canonical, base.receipt, None, notes + list(checked.notes))
    return base


def _reply(desk: Desk, player: str, incoming: Incoming, errors: list[str], canonical: str | None,
           receipt_hex: str | None, refusal: str | None, notes: list[str]) -> EmailMessage:
    turn = desk.turn
    name = str(desk.campaign.player(player).get("name") or player)
    lines = [f"Turn {turn}, orders from {name} (read from the {incoming.source}).", ""]
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
    for note in notes:
        lines.append(f"Note: {note}")
    if receipt_hex:
        lines += [f"Receipt (SHA-256 of your orders as understood): {receipt_hex}",
                  "Keep it: it proves what you sent."]
    elif errors and not refusal and not canonical:
        lines += ["", HELP_HINT]
    subject = f"Turn {turn} orders {'received' if receipt_hex else 'NOT stored'}"
    return reply_message(desk.campaign, player, subject, "\n".join(lines).rstrip() + "\n",
                         in_reply_to=incoming.message_id)
