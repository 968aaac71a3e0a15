"""Players' mail commands, one per message, in the subject or alone on the first line: help, status,
orders, resend [TURN], press TO: TEXT, gm: TEXT. Each is answered by mail and logged; bad input gets
one clear line in the reply and changes nothing. Per player and turn, press and the answers to
help/status/orders/resend are capped (limits.py); the first message over a cap is told so, later
ones are only logged."""
from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage

from gm.delivery.help import COMMANDS
from gm.delivery.mail import for_gm, limits
from gm.delivery.mail.body import _FORWARDED, Incoming, is_attribution
from gm.delivery.mail.deadline_note import deadline_line, with_deadline
from gm.delivery.mail.desk import Desk, Outcome
from gm.delivery.mail.headers import set_reply_ids
from gm.delivery.mail.outbox import order_form, reply_message, report_message
from gm.delivery.mail.passwords import password_problem
from gm.store.errors import GMError, UsageError
from gm.store.names import did_you_mean
from gm.store.orders import read_frame, without_password
from gm.store.press import add_press, press_mode
from gm.store.receipts import receipt
from gm.time.deadlines import deadline_status, format_period, read_deadline
from gm.time.schedule import campaign_zone, show_moment
from gm.turn.links import site_links

NAMES = ("help", "status", "orders", "resend", "press", "gm")
HELP_HINT = ("To use a mail command instead, send one of: help, status, orders, resend [TURN], "
             "press TO: TEXT, gm: TEXT (in the subject, or alone on the first line).")
_WORD = re.compile(r"^(?:(help|status|orders|resend|press)\b|(gm)\s*:)[\s.!?]*(.*)$", re.IGNORECASE | re.DOTALL)


def _match(text: str) -> tuple[str, str] | None:
    """(command name, what follows it) when ``text`` starts with a command."""
    found = _WORD.match(text)
    if not found:
        return None
    return (found.group(1) or found.group(2)).lower(), found.group(3)
_SUBJECT_PREFIX = re.compile(r"^\s*(?:(?:re|fwd?|aw|wg|sv|tr)\s*:\s*|\[[^\]]{0,80}\]\s*)+", re.IGNORECASE)


@dataclass
class Command:
    name: str            # one of NAMES
    argument: str        # what follows the word (for press: "TO: TEXT", with any following lines)
    where: str           # "subject" or "first line"


def body_lines(text: str) -> list[str]:
    """The message's own lines: quoted lines and a mail client's "On ... wrote:" line dropped,
    nothing after a signature line or a forwarded message."""
    out = []
    for line in text.split("\n"):
        if line.rstrip() == "--" or _FORWARDED.match(line):
            break
        if not line.lstrip().startswith(">") and not is_attribution(line):
            out.append(line.rstrip())
    while out and not out[-1].strip():
        out.pop()
    return out


def detect(subject: str, text: str) -> Command | None:
    """The command a message carries, or None when it is orders. A first line wins; the subject
    counts when the body holds no orders header (and, for `orders`, nothing at all)."""
    lines = body_lines(text)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None:
        found = _match(lines[first].strip())
        if found:
            name, after = found
            rest = "\n".join([after] + lines[first + 1:]).strip()
            if name != "orders" or not rest:
                return Command(name, rest if name in ("press", "resend", "gm") else after.strip(), "first line")
    if read_frame(text, skip_preamble=True).headers:
        return None
    found = _match(_SUBJECT_PREFIX.sub("", subject or "").strip())
    if not found:
        return None
    name, argument = found[0], found[1].strip()
    if name == "orders" and first is not None:
        return None  # "Orders" is what many players write in the subject of their orders
    if name in ("press", "gm") and first is not None:
        argument = "\n".join([argument] + lines[first:]).strip()
    return Command(name, argument, "subject")


def close_command(word: str) -> str | None:
    """The command a mistyped word is close to ('stauts' -> 'status'), or None."""
    return did_you_mean(word.lower(), [n for n in NAMES if n != "gm"])


def answer(desk: Desk, player: str, incoming: Incoming, command: Command, *, digest: str) -> Outcome:
    """Carry out one command; the outcome's reply holds the answer or the one line saying why not."""
    if command.name == "gm":
        return _to_gm(desk, player, incoming, command, digest=digest)
    out = Outcome(digest, incoming.sender, player, "answered", "", date=incoming.date, command=command.name)
    over = _over_cap(desk, player, command)
    if over is not None:
        cap, why = over
        out.status, out.capped = "refused", cap
        if limits.told_already(desk, player, cap):
            out.line = f"command {command.name} ({player}) over the cap, told before: {why} (no reply sent)"
            return out
        out.line = f"command {command.name} ({player}) refused: {why} (told once)"
        what = "Press not sent" if cap == "press" else "Limit reached"
        out.reply = reply_message(desk.campaign, player, what,
                                  f"{_sentence(why)}\n\nNothing was done. Further messages of this kind are not "
                                  f"answered until turn {desk.turn} is resolved.\n", in_reply_to=incoming.message_id)
        return out
    try:
        subject, body, reply = _HANDLERS[command.name](desk, player, command, incoming)
        out.line = f"command {command.name} ({player}): {subject}"
    except GMError as exc:
        what = {"press": "Press not sent", "resend": "Report not sent"}.get(command.name, f"{command.name}: not done")
        subject, body, reply = what, f"{_sentence(str(exc))}\n\nNothing was changed. {MORE}\n", None
        out.status, out.line = "refused", f"command {command.name} ({player}) refused: {exc}"
    out.reply = reply or reply_message(desk.campaign, player, subject, body, in_reply_to=incoming.message_id)
    return out


def _over_cap(desk: Desk, player: str, command: Command) -> tuple[str, str] | None:
    if command.name == "press":
        said = without_password(command.argument.partition(":")[2]).strip()
        why = limits.press_over(desk, player, said)
        return ("press", why) if why else None
    why = limits.answers_over(desk, player)
    return ("answers", why) if why else None


def _to_gm(desk: Desk, player: str, incoming: Incoming, command: Command, *, digest: str) -> Outcome:
    if not command.argument.strip():
        out = Outcome(digest, incoming.sender, player, "refused", f"command gm ({player}) refused: empty",
                      date=incoming.date, command="gm")
        out.reply = reply_message(desk.campaign, player, "Nothing passed to the GM",
                                  f"Write gm: TEXT, e.g. 'gm: could I have an extra day?'.\n\n{MORE}\n",
                                  in_reply_to=incoming.message_id)
        return out
    return for_gm.keep(desk, player, incoming, command.argument, digest=digest, why="the gm: command")


MORE = "Write 'help' (alone, in the subject or the first line) for every command."


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?", ")")) else ".")


def unknown(desk: Desk, player: str, incoming: Incoming, word: str, *, digest: str,
            errors: list[str]) -> Outcome:
    out = Outcome(digest, incoming.sender, player, "refused", f"unknown command ({player}): {word!r}",
                  date=incoming.date, command="unknown", errors=errors)
    close = close_command(word)
    if close:
        top = f"'{word}' is not a command: did you mean '{close}'? Nothing was stored.\n"
    else:
        top = (f"'{word}' is not a command, and nothing was stored. Read as orders, it gives:\n"
               + "".join(f"  {e}\n" for e in errors))
    out.reply = reply_message(desk.campaign, player, "Unknown command", f"{top}\n{help_text(desk, player)}",
                              in_reply_to=incoming.message_id)
    return out


def help_text(desk: Desk, player: str | None = None) -> str:
    camp = desk.campaign
    mode = press_mode(camp)
    press = {"off": "  (press is off in this campaign)",
             "grey": "  press TO: TEXT    a message to one player (name or id) or to all; your name is hidden",
             "white": "  press TO: TEXT    a message to one player (name or id) or to all, signed with your name"}
    players = ", ".join(f"{name_of(camp, p['id'])} ({p['id']})" for p in camp.players)
    who = player or "ID"
    links = site_links(camp, camp.last_turn)
    web = ["", "On the web:", f"  how to write orders, check the dice, these commands: {links['players']}",
           f"  the last turn, with the whole map: {links['turn']}", f"  check the dice: {links['dice']}"
           ] if links else []
    return "\n".join([
        f"{desk.game.title}: {camp.name}, turn {desk.turn}.",
        "",
        "Mail commands, one per message, in the subject or alone on the first line:",
        *(f"  {usage:<17} {what}" for usage, what in COMMANDS),
        press[mode],
        "",
        f"To send orders, start the message with 'player: {who}' and 'turn: {desk.turn}', then your orders.",
        f"Players: {players}.",
        *web,
    ]) + "\n"


def name_of(campaign, player: str) -> str:
    return str(campaign.player(player).get("name") or player)


def _names(campaign, ids) -> str:
    return ", ".join(name_of(campaign, p) for p in ids)


def _help(desk: Desk, player: str, command: Command, incoming: Incoming):
    return "Help", help_text(desk, player), None


def _status(desk: Desk, player: str, command: Command, incoming: Incoming):
    camp = desk.campaign
    info = deadline_status(camp, desk.now)
    lines = [f"{desk.game.title}: {camp.name}, turn {desk.turn} ({desk.game.phase(desk.state)})."]
    if not info.due:
        lines.append("No orders are due: the game is over." if desk.game.finished(desk.state) else "No orders are due.")
    else:
        mine = ("in" if player in info.arrived else "missing" if player in info.due
                else "not due this turn")
        lines.append(f"Your orders: {mine}.")
        lines.append(f"Orders in: {_names(camp, info.arrived) or 'nobody yet'}.")
        lines.append(f"Orders missing: {_names(camp, info.missing) or 'nobody'}.")
    if info.deadline is not None:
        grace = f", then {format_period(info.grace)} of grace" if info.grace else ""
        lines.append(f"Deadline: {show_moment(info.deadline, campaign_zone(camp))}{grace} ({info.left}).")
    else:
        lines.append("No deadline is set.")
    return f"Status of turn {desk.turn}", "\n".join(lines) + "\n", None


def _orders(desk: Desk, player: str, command: Command, incoming: Incoming):
    text = desk.campaign.stored_orders(desk.turn).get(player)
    due = player in desk.game.due(desk.state)
    if text is None:
        body = f"No orders are stored for you for turn {desk.turn}."
        body += f" {_due_by(desk)}" if due else " None are due from you this turn."
        return f"No orders stored for turn {desk.turn}", body + "\n", None
    body = (f"Your orders stored for turn {desk.turn}:\n\n" + "".join(f"  {line}\n" for line in text.splitlines())
            + f"\nReceipt: {receipt(text)}\nSend new orders before the deadline to replace them.\n")
    return f"Your orders for turn {desk.turn}", body, None


def _due_by(desk: Desk) -> str:
    deadline = read_deadline(desk.campaign)
    if deadline is None:
        return "They are due; no deadline is set yet."
    return f"They are due by {show_moment(deadline, campaign_zone(desk.campaign))}."


def _resend(desk: Desk, player: str, command: Command, incoming: Incoming):
    word = command.argument.split()[0] if command.argument.split() else ""
    if word and not (word.isascii() and word.isdigit() and len(word) <= 6):
        raise UsageError(f"resend takes a turn number, e.g. 'resend 3', not {word!r}")
    latest = desk.turn - 1
    if word and int(word) > latest:
        raise UsageError(f"there is no report of turn {int(word)} yet; the latest is turn {latest} "
                         "(write 'resend' alone for it)")
    turn = desk.campaign.check_turn(int(word) if word else None)
    if not (desk.campaign.turn_dir(turn) / "reports" / f"{player}.txt").is_file():
        raise UsageError(f"there is no report of turn {turn} for you; ask the GM")
    form = order_form(desk.campaign, desk.game, desk.state, player) if turn == desk.turn - 1 else ""
    msg: EmailMessage = report_message(desk.campaign, turn, player, order_form=form)
    if turn == desk.turn - 1:
        line = deadline_line(desk.campaign)
        if line:
            with_deadline(msg, line)
    set_reply_ids(msg, incoming.message_id)  # only a plain valid id, never a decoded header value
    return f"report of turn {turn} sent again", "", msg


def _press(desk: Desk, player: str, command: Command, incoming: Incoming):
    to, colon, said = command.argument.partition(":")
    if not colon or not to.strip() or "\n" in to or len(to) > 64:
        raise UsageError("write press TO: TEXT, e.g. 'press all: who wants the coast?' (TO is a player or all)")
    if desk.game.finished(desk.state):
        raise UsageError("the game is over: press is no longer passed on")
    problem = password_problem(desk, player, command.argument)
    if problem:
        raise UsageError(f"press needs your password: {problem}")
    text = without_password(said)
    entry = add_press(desk.campaign, desk.turn, player, to, text, at=desk.now)
    to = "all players" if entry["to"] == "all" else name_of(desk.campaign, entry["to"])
    how = " without your name (grey press)" if entry["grey"] else ""
    body = (f"Your press to {to} is recorded{how}. It appears in the report of turn {desk.turn}, "
            f"when that turn is resolved:\n\n" + "".join(f"  {line}\n" for line in entry["text"].splitlines()))
    return f"Press to {to} recorded", body, None


_HANDLERS = {"help": _help, "status": _status, "orders": _orders, "resend": _resend, "press": _press}
