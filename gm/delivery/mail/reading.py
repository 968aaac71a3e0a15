"""What a player's own words are, once the mail program's additions are off (quoting.py): orders,
orders followed by a closing ("Best wishes," / "Cat"), or a message for the GM with no orders.

A line "looks like an order" when the game reads it, alone, as an order, or understands its first
word and finds fault further on (an error past the line's first column). Nothing that looks like
an order is ever set aside: a closing is passed over only when every one of its lines is wrong as
an order from its first word, holds no digit and no character of the order syntax; a message is
for the GM only when it has no header line and none of its lines looks like an order."""
from __future__ import annotations

from dataclasses import dataclass, field

from gm.store.orders import read_frame
from gm.turn.engine import check_text
from gm.delivery.mail.desk import Desk
from gm.delivery.mail.quoting import Cleaned, closing_candidate, fold

MESSAGE_FILE = "message"
MAX_PROBED = 40  # a headerless text longer than this is read as orders (errors and all)


@dataclass
class Reading:
    text: str                                   # the order text, lines set aside blanked
    for_gm: bool = False                        # no orders and no command: a message for the GM
    passed_over: list[str] = field(default_factory=list)
    lines: list[tuple[int, str]] = field(default_factory=list)  # the game lines (number, text) read


def looks_like_order(desk: Desk, player: str, text: str) -> bool:
    checked = check_text(desk.campaign, desk.game, desk.state, text + "\n", MESSAGE_FILE, player, turn=desk.turn)
    if checked.ok:
        return True
    first = len(text) - len(text.lstrip()) + 1
    return any((problem.col or 1) > first for problem in checked.problems)


def _own_name(desk: Desk, player: str, lines: list[tuple[int, str]]) -> list[int]:
    """The last line, when it is the sender's own name (or first name, or id) and nothing else."""
    if not lines:
        return []
    name = str(desk.campaign.player(player).get("name") or player)
    own = {fold(name), fold(name.split()[0]) if name.split() else "", fold(player)} - {""}
    number, text = lines[-1]
    return [number] if fold(text.strip().rstrip(".,!")) in own else []


def reading_of(desk: Desk, player: str, cleaned: Cleaned) -> Reading:
    text = cleaned.text
    frame = read_frame(text)
    out = Reading(text, passed_over=list(cleaned.passed_over), lines=[(ln.number, ln.text) for ln in frame.lines])
    if not frame.headers and not out.lines:
        out.for_gm = True
        return out
    checked = check_text(desk.campaign, desk.game, desk.state, text, MESSAGE_FILE, player, turn=desk.turn)
    if checked.ok:
        return out
    wrong = {problem.line for problem in checked.problems}
    closing = closing_candidate(out.lines) or _own_name(desk, player, out.lines)
    if closing and len(closing) < len(out.lines) and all(n in wrong for n in closing):
        block = [t for n, t in out.lines if n in closing]
        if not any(looks_like_order(desk, player, t) for t in block):
            rows = text.split("\n")
            for n in closing:
                rows[n - 1] = ""
            out.text = "\n".join(rows)
            out.passed_over += block
            out.lines = [(n, t) for n, t in out.lines if n not in closing]
    if frame.headers or len(out.lines) > MAX_PROBED:
        return out
    if not any(looks_like_order(desk, player, t) for _n, t in out.lines):
        out.for_gm = True
    return out
