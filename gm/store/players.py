"""Players as the GM declares them: ids that are safe as viewer names and file names, display
names and e-mail addresses that cannot break a mail header, and finding a player from what a
player writes after ``player:``.

An id becomes a file name (``turns/NNN/orders/ID.txt``, ``reports/ID.html``), a viewer name and a
mail recipient, so ids are short lower-case words, never a name the program itself uses for a
viewer or a party ("gm", "public", "all", "bank"), and never a device name that some file systems
refuse ("con", "nul", "com1"...).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from gm.store.errors import UsageError
from gm.store.names import fold, suggestion

PLAYER_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
# viewers (gm.store.viewing: "gm", "public"), `press all:` in mail, and "bank", the party games' payments
# name for money paid to or by no player
RESERVED_IDS = frozenset({"gm", "public", "all", "bank"})
# names Windows refuses as a file name, with or without an extension
DEVICE_NAMES = frozenset({"con", "prn", "aux", "nul", "clock$", "conin$", "conout$"}
                         | {f"{d}{n}" for d in ("com", "lpt") for n in range(10)})
MAX_NAME = 64
MAX_ADDRESS = 254
_ADDRESS_LOCAL = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.!#$%&'*+/=?^_`{|}~-")


def id_problem(pid: Any) -> str | None:
    """Why ``pid`` cannot be a player id, or None when it can."""
    if not isinstance(pid, str) or not PLAYER_ID.fullmatch(pid):
        return ("must be 1 to 32 lower-case letters, digits, '-' or '_', starting with a letter or digit "
                "(e.g. blue or p1)")
    if pid in RESERVED_IDS:
        return f"is a name gm uses itself ({', '.join(sorted(RESERVED_IDS))}); choose another"
    if pid in DEVICE_NAMES:
        return "is a device name that some file systems refuse (con, prn, aux, nul, com1-9, lpt1-9); choose another"
    return None


def check_player_id(pid: str) -> str:
    problem = id_problem(pid)
    if problem:
        raise UsageError(f"player id {_short(pid)} {problem}")
    return pid


def text_problem(text: Any, what: str, limit: int) -> str | None:
    """Why ``text`` cannot be a display name or an address: control characters (CR/LF would
    break every mail header), line separators, or more than ``limit`` characters."""
    if not isinstance(text, str):
        return f"{what} must be text"
    if len(text) > limit:
        return f"{what} is longer than {limit} characters"
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch != "\u200d":
            return f"{what} holds a control character ({ch!r}); names and addresses are one line of text"
    return None


def address_problem(address: str) -> str | None:
    """Why ``address`` is not a plain e-mail address (local@domain.tld), or None when it is."""
    problem = text_problem(address, "the address", MAX_ADDRESS)
    if problem:
        return problem
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        return "is not an e-mail address (expected name@example.org)"
    if not set(local) <= _ADDRESS_LOCAL or local.startswith(".") or local.endswith(".") or ".." in local:
        return "is not an e-mail address (the part before '@' may hold letters, digits and . _ + - only)"
    labels = domain.split(".")
    if len(labels) < 2 or not all(label and len(label) <= 63 and not label.startswith("-")
                                  and not label.endswith("-")
                                  and all(c.isalnum() or c == "-" for c in label) for label in labels):
        return "is not an e-mail address (the part after '@' must be a domain such as example.org)"
    return None


def split_spec(spec: str) -> list[str]:
    """'ID:NAME:EMAIL' split at each ':' not written as '\\:' (a colon inside a display name)."""
    parts, current, i = [], [], 0
    while i < len(spec):
        ch = spec[i]
        if ch == "\\" and i + 1 < len(spec) and spec[i + 1] in ":\\":
            current.append(spec[i + 1])
            i += 2
            continue
        if ch == ":":
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts


def labelled(players: list[dict[str, Any]], ids: list[str]) -> list[str]:
    """How console output names players for the GM: 'Ann Smith (ann)', the id alone when the name
    adds nothing ('ann' for Ann)."""
    given = {p["id"]: str(p.get("name") or p["id"]) for p in players}
    return [pid if given.get(pid, pid) in (pid, pid.capitalize(), default_name(pid)) else f"{given[pid]} ({pid})"
            for pid in ids]


def default_name(pid: str) -> str:
    """The display name of a player declared without one: 'ann' -> 'Ann', 'big_red' -> 'Big Red'."""
    return pid.replace("_", " ").title()


def parse_player_spec(spec: str) -> dict[str, str]:
    """'ID[:NAME[:EMAIL]]' -> {id, name, email}. A ':' inside a name is written '\\:'; anything
    that would shift part of a name into the address is refused rather than guessed."""
    problem = text_problem(spec, "the player's name or address", 1000)
    if problem:
        raise UsageError(f"--player {_short(spec)}: {problem}")
    parts = split_spec(spec)
    pid = parts[0].strip()
    check_player_id(pid)
    if len(parts) > 3:
        raise UsageError(f"--player {_short(spec)} has more than ID:NAME:EMAIL; write a ':' inside a name as '\\:'")
    name = parts[1].strip() if len(parts) > 1 and parts[1].strip() else default_name(pid)
    email = parts[2].strip() if len(parts) > 2 else ""
    problem = text_problem(name, "the name", MAX_NAME)
    if problem:
        raise UsageError(f"player {pid}: {problem}")
    if email:
        problem = address_problem(email)
        if problem:
            raise UsageError(f"player {pid}: {_short(email)} {problem}"
                             + (" (a ':' inside a name is written '\\:')" if len(parts) == 3 else ""))
    return {"id": pid, "name": name, "email": email}


def players_problem(players: Any) -> str | None:
    """Why a campaign's ``players:`` list cannot be used, or None: every id valid, unreserved and
    unique, display names unique (ignoring case and accents), names and addresses one line each."""
    if not isinstance(players, list) or not players:
        return "'players:' must be a list of players"
    seen_ids: set[str] = set()
    seen_names: dict[str, str] = {}
    for n, p in enumerate(players, 1):
        if not isinstance(p, dict):
            return f"player {n} must be a mapping with id, name and email"
        pid = p.get("id")
        problem = id_problem(pid)
        if problem:
            return f"player id {_short(pid)} {problem}"
        if pid in seen_ids:
            return f"player id {pid!r} appears twice"
        seen_ids.add(pid)
        name = p.get("name")
        if not isinstance(name, str) or not name.strip():
            return f"player {pid} has no name (add  name: ...)"
        problem = text_problem(name, "the name", MAX_NAME) or text_problem(p.get("email") or "", "the address",
                                                                           MAX_ADDRESS)
        if problem:
            return f"player {pid}: {problem}"
        key = fold(str(name))
        if key in seen_names:
            return f"players {seen_names[key]} and {pid} have the same name {name!r}; give each its own"
        seen_names[key] = pid
    return None


def find_player(players: Iterable[dict[str, Any]], text: str) -> str:
    """The id of the player ``text`` names: the id in any case, or the display name ignoring case
    and accents. Raises UsageError whose message (no place) is ready to be located by the caller:
    "unknown player 'x' (did you mean "y"?); players: a, b"."""
    players = list(players)
    wanted = " ".join(str(text).split())
    ids = [p["id"] for p in players]
    lower = wanted.lower()
    for pid in ids:
        if pid == lower:
            return pid
    for p in players:  # a replacement may head orders with their own id (gm player --replace)
        if lower in [str(a).lower() for a in p.get("aliases") or []]:
            return p["id"]
    key = fold(wanted)
    named = [p["id"] for p in players if fold(str(p.get("name", ""))) == key]
    if len(named) == 1:
        return named[0]
    names = [str(p.get("name", p["id"])) for p in players]
    listing = ", ".join(p["id"] if str(p.get("name", p["id"])) in (p["id"], p["id"].capitalize(), default_name(p["id"]))
                        else f"{p['id']} ({p['name']})" for p in players)
    raise UsageError(f"unknown player {_short(wanted)}{suggestion(wanted, ids + names)}; players: {listing}")


def setup_warnings(config: dict[str, Any]) -> list[str]:
    """What a new campaign still lacks to send mail, one line each, for `gm new` to print."""
    out = []
    mail = config.get("mail") if isinstance(config.get("mail"), dict) else {}
    if not mail.get("from"):
        out.append("warning: campaign.yaml has no mail.from, so report mail would come from "
                   "gm@localhost; set it with  gm config DIR mail.from \"Your Name <you@example.org>\"")
    missing = [str(p.get("id")) for p in config.get("players") or [] if isinstance(p, dict) and not p.get("email")]
    if missing:
        out.append(f"warning: no e-mail address for {', '.join(missing)}: mail cannot reach them "
                   f"(set one with `gm player DIR ID --email ADDRESS`)")
    return out


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 4] + "...'"
