"""Every setting of campaign.yaml by its dotted key: one table (key, kind, default, help, check),
`gm new --set KEY=VALUE` and `gm config DIR [KEY [VALUE] | --unset KEY]`.

A value is checked before anything is written: a wrong one is one line (exit 2) naming the
setting, what it takes, and "did you mean" for a mistyped key. Reading and changing are done
under the campaign's lock, from the file as it is on disk (read-modify-write), so a concurrent
`gm run` writing the deadline is never lost. The table's checks are also what `gm run` applies to
every setting at the start of a pass (check_config).

Game options (`options.KEY`) come from the game; the store names no game, so the caller passes
them in as extra Settings (gm.cli.config builds them from the game's Option table).
"""
from __future__ import annotations

import datetime as dt
import email.utils
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from gm.store.campaign import Campaign, set_config_value
from gm.store.errors import CampaignError, UsageError
from gm.store.names import suggestion

UNSET = object()  # "no value": the setting is at its default

MAX_PERIOD = dt.timedelta(days=1000)  # a grace, turn length or reminder longer than this is a typing slip
_PERIOD = re.compile(r"^\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?\s*$", re.IGNORECASE)
_AT = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*$")
_EVERY = re.compile(r"^\s*(\d+)\s*(d|days?|w|weeks?)\s*$", re.IGNORECASE)
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


class SettingError(UsageError):
    """A setting's value is wrong (exit 2; nothing is written)."""


def parse_period(value: Any, what: str) -> dt.timedelta:
    """A period like 12h, 1d, 1d 6h or 90m (a bare number counts hours); ``what`` names it in errors."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        period = dt.timedelta(hours=min(value, 24 * (MAX_PERIOD.days + 1)))
    else:
        match = _PERIOD.match(str(value)[:200])
        if isinstance(value, bool) or not match or not any(match.groups()) or len(str(value)) > 200:
            raise CampaignError(f"{what} {str(value)[:40]!r} is a period like 12h, 1d, 1d 6h or 90m")
        days, hours, minutes = (min(int(g or 0), 10 ** 7) for g in match.groups())
        period = dt.timedelta(days=days, hours=hours, minutes=minutes)
    if period > MAX_PERIOD:
        raise CampaignError(f"{what} {str(value)[:40]!r} is too long; at most {MAX_PERIOD.days}d")
    return period


# ---- checks: each takes a value (from YAML or from the command line) and returns what is stored,
# ---- or raises ValueError with what the setting takes ---------------------------------------
def _plain(value: Any) -> str:
    text = str(value).strip() if not isinstance(value, (dict, list, bool)) and value is not None else None
    if not text or any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise ValueError("a line of text")
    return text


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError("true or false")


def _positive_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("a whole number above 0")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise ValueError("a whole number above 0") from None
    if number <= 0:
        raise ValueError("a whole number above 0")
    return number


def _port(value: Any) -> int:
    number = _positive_int(value)
    if number > 65535:
        raise ValueError("a port number from 1 to 65535")
    return number


def _seconds(value: Any) -> int | float:
    try:
        number = float(str(value).strip())
    except ValueError:
        raise ValueError("a number of seconds, like 30") from None
    if isinstance(value, bool) or not number > 0 or number > 3600:
        raise ValueError("a number of seconds above 0, like 30")
    return int(number) if number == int(number) else number


def _delay(value: Any) -> int | float:
    if str(value).strip() in ("0", "0.0"):
        return 0
    return _seconds(value)


def _period(value: Any) -> str | int:
    try:
        period = parse_period(value, "")
    except CampaignError as exc:
        too_long = "too long" in str(exc)
        raise ValueError(f"a period of at most {MAX_PERIOD.days}d" if too_long
                         else "a period like 12h, 1d, 1d 6h or 90m") from None
    if isinstance(value, int):
        return value
    if not period:
        return "0h"
    return " ".join(str(value).split())


def _period_or_off(value: Any) -> str | int | bool:
    if value is False or str(value).strip().lower() in ("off", "false", "no", "never"):
        return False
    return _period(value)


def _positive_period(value: Any) -> str | int:
    stored = _period(value)
    if not parse_period(stored, ""):
        raise ValueError("a period longer than 0, like 3d")
    return stored


def _every(value: Any) -> str | int:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    match = _EVERY.match(str(value))
    if isinstance(value, bool) or not match or int(match[1]) <= 0:
        raise ValueError("a number of days or weeks, like 7d or 2w")
    return f"{int(match[1])}{match[2][0].lower()}"


def _at(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 24 * 60:
        return f"{value // 60:02d}:{value % 60:02d}"  # YAML 1.1 reads an unquoted 18:00 as 1080 (minutes)
    match = _AT.match(str(value))
    if isinstance(value, bool) or not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise ValueError('a time of day like "18:00"')
    return f"{int(match[1]):02d}:{match[2]}"


def zone_problem(text: str) -> str | None:
    """Why ``text`` is not a time zone (with "did you mean"), or None."""
    if text.upper() in ("UTC", "Z", "GMT+0"):
        return None
    try:
        ZoneInfo(text)
        return None
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        from zoneinfo import available_timezones  # slow: only when the zone is wrong
        return f"a time zone like Europe/London or UTC{suggestion(text, sorted(available_timezones()))}"


def _zone(value: Any) -> str:
    text = _plain(value)
    problem = zone_problem(text)
    if problem:
        raise ValueError(problem)
    return "UTC" if text.upper() in ("Z", "GMT+0") else text


def _date(value: Any) -> str:
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    try:
        return dt.date.fromisoformat(str(value).strip()).isoformat()
    except ValueError:
        raise ValueError("a date like 2026-12-04") from None


def _address(value: Any) -> str:
    text = _plain(value)
    name, addr = email.utils.parseaddr(text)
    if not re.fullmatch(r"[^@\s<>,]+@[^@\s<>,]+", addr or ""):
        raise ValueError('an address like "The GM <gm@example.org>" or gm@example.org')
    return text


def _bare_address(value: Any) -> str:
    text = _plain(value)
    if len(text) > 254 or not re.fullmatch(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+", text):
        raise ValueError("one plain address such as gm@example.org")
    return text


def _url(value: Any) -> str:
    text = _plain(value)
    if not re.fullmatch(r"https?://[^\s/?#]+[^\s]*", text):
        raise ValueError("a web address beginning https:// (or http://)")
    return text.rstrip("/")


def _folder(value: Any) -> str:
    if isinstance(value, dict):
        raise ValueError("a folder name like www (site: www, not a block)")
    return _plain(value)


def _env_name(value: Any) -> str:
    text = _plain(value)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
        raise ValueError("the name of an environment variable, like GM_SMTP_PASSWORD")
    return text


def _choice(*choices: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        text = str(value).strip().lower() if not isinstance(value, (dict, list)) else ""
        if text not in choices:
            raise ValueError(" | ".join(choices) + suggestion(text, choices))
        return text
    return check


def _press(value: Any) -> str:
    if value is True or str(value).strip().lower() == "on":
        return "white"
    if value is False or str(value).strip().lower() == "no":
        return "off"
    return _choice("white", "grey", "off")(value)


@dataclass(frozen=True)
class Setting:
    key: str                    # dotted: schedule.every
    kind: str                   # what it takes, for people: "period", "true|false", ...
    default: Any                # shown when unset (None: not set means "none")
    help: str
    check: Callable[[Any], Any]
    managed_by: str | None = None   # a setting changed by another command (deadline: gm deadline)


def _s(key: str, kind: str, default: Any, help: str, check: Callable[[Any], Any], managed_by: str | None = None):
    return Setting(key, kind, default, help, check, managed_by)


SETTINGS: tuple[Setting, ...] = (
    _s("name", "text", "(the folder's name)", "the campaign's name in reports, mail and the site", _plain),
    _s("deadline", "moment", None, "the current turn's deadline", str, "gm deadline DIR set WHEN | extend D | clear"),
    _s("grace", "period", "0h", "after the deadline, missing orders are still waited for this long", _period),
    _s("nmr_policy", "hold|default|bot", "default",
       "what plays missing orders after deadline + grace: the GM decides, default orders, or the bot",
       _choice("hold", "default", "bot")),
    _s("early", "true|false", False, "resolve as soon as every due player's orders are in", _bool),
    _s("remind", "period|off", "off", "remind players whose orders are missing this long before the deadline",
       _period_or_off),
    _s("schedule.every", "days (7d, 2w)", None, "a deadline slot every N days at schedule.at", _every),
    _s("schedule.at", "HH:MM", "18:00", "the slot's time of day, in schedule.zone", _at),
    _s("schedule.zone", "time zone", "UTC", "the zone every time is shown in and slots are counted in", _zone),
    _s("schedule.start", "date", None, "the first slot, when no deadline is set yet", _date),
    _s("schedule.turn_length", "period", None, "instead of every: each deadline this long after the resolve",
       _positive_period),
    _s("zone", "time zone", "UTC", "older form of schedule.zone (schedule.zone wins)", _zone),
    _s("press", "white|grey|off", "white", "press between players: signed, sender hidden, or none", _press),
    _s("passwords", "true|false", False, "every order message needs the player's 'password:' line", _bool),
    _s("site", "folder", None, "gm run keeps the campaign's website here (relative to the campaign)", _folder),
    _s("site_url", "https://...", None, "where the website is published, for links in mail", _url),
    _s("mail.from", "address", "Game Master <gm@localhost>", "the sender of every message", _address),
    _s("mail.max_bytes", "bytes", 262144, "larger incoming messages are refused", _positive_int),
    _s("mail.gm", "address", None, "the GM's own address: what players write to the GM is forwarded there",
       _bare_address),
    _s("mail.replies_per_hour", "count", 5, "the loop guard: replies to one player's address in any hour",
       _positive_int),
    _s("mail.press_per_turn", "count", 20, "press messages one player may send in a turn", _positive_int),
    _s("mail.press_bytes_per_turn", "bytes", 20000, "the total size of one player's press in a turn", _positive_int),
    _s("mail.answers_per_turn", "count", 10, "answers to help, status, orders and resend per player and turn",
       _positive_int),
    _s("mail.inbox.kind", "maildir|mbox|imap", None, "where orders arrive; with it set gm run fetches mail",
       _choice("maildir", "mbox", "imap")),
    _s("mail.inbox.path", "path", None, "the Maildir folder or mbox file (relative: inside the campaign)", _plain),
    _s("mail.inbox.host", "host", None, "the IMAP server", _plain),
    _s("mail.inbox.port", "port", "993 ssl, 143 starttls", "the IMAP port", _port),
    _s("mail.inbox.security", "ssl|starttls|none", "ssl", "how IMAP is protected (none: only on 127.0.0.1)",
       _choice("ssl", "starttls", "none")),
    _s("mail.inbox.user", "text", None, "the IMAP login", _plain),
    _s("mail.inbox.folder", "text", "INBOX", "the IMAP folder to read", _plain),
    _s("mail.inbox.password_env", "variable", None, "the environment variable holding the IMAP password",
       _env_name),
    _s("mail.inbox.password_file", "file", None, "a file under secret/ holding the IMAP password", _plain),
    _s("mail.inbox.timeout", "seconds", 60, "how long to wait for the IMAP server", _seconds),
    _s("mail.smtp.host", "host", None, "the SMTP server (gm run --send)", _plain),
    _s("mail.smtp.port", "port", "587 starttls, 465 ssl, 25 none", "the SMTP port", _port),
    _s("mail.smtp.security", "starttls|ssl|none", "starttls", "how SMTP is protected (none: only this machine)",
       _choice("starttls", "ssl", "none")),
    _s("mail.smtp.user", "text", None, "the SMTP login (leave unset when none is needed)", _plain),
    _s("mail.smtp.password_env", "variable", None, "the environment variable holding the SMTP password",
       _env_name),
    _s("mail.smtp.password_file", "file", None, "a file under secret/ holding the SMTP password", _plain),
    _s("mail.smtp.cafile", "file", None, "a private server's certificate authority (PEM)", _plain),
    _s("mail.smtp.attempts", "count", 3, "tries per message before it counts as failed", _positive_int),
    _s("mail.smtp.retry_delay", "seconds", 5, "seconds between tries, growing with each", _delay),
    _s("mail.smtp.timeout", "seconds", 30, "how long to wait for the SMTP server", _seconds),
)
# kept in campaign.yaml, changed by their own commands, never by gm config
OTHER_COMMANDS = {"game": "fixed when the campaign is made", "map": "fixed when the campaign is made",
                  "players": "gm player DIR ID --name/--email/--replace/--drop",
                  "options": "gm config DIR options.KEY VALUE"}
_CONFLICTS = (("schedule.every", "schedule.turn_length"),)


def table(extra: Iterable[Setting] = ()) -> dict[str, Setting]:
    return {s.key: s for s in (*SETTINGS, *extra)}


def setting(key: str, extra: Iterable[Setting] = ()) -> Setting:
    """The setting ``key`` names; a mistyped one is refused with "did you mean"."""
    known = table(extra)
    if key in known:
        return known[key]
    if key.rsplit(".", 1)[-1] == "password":
        raise SettingError(f"{key}: a password is never written in campaign.yaml; "
                           f"set {key}_env (an environment variable) or {key}_file (a file under secret/)")
    if key in OTHER_COMMANDS:
        raise SettingError(f"{key} is not changed by gm config: {OTHER_COMMANDS[key]}")
    raise SettingError(f"unknown setting {key!r}{suggestion(key, known)}; `gm config DIR` lists every setting")


def checked(key: str, value: Any, extra: Iterable[Setting] = ()) -> Any:
    """``value`` as it is stored for ``key``; one line naming the setting when it is wrong."""
    entry = setting(key, extra)
    if entry.managed_by:
        raise SettingError(f"{key} is changed by `{entry.managed_by}`, not by gm config")
    try:
        return entry.check(value)
    except ValueError as exc:
        shown = show_value(value)
        raise SettingError(f"{key}: {shown!r} is not {exc}") from None


def read_value(config: dict[str, Any], key: str) -> Any:
    node: Any = config
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return UNSET
        node = node[part]
    return node


def with_value(config: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A copy of ``config`` with ``key`` set (``UNSET``: removed, and a block left empty with it)."""
    out = dict(config)
    node = out
    parts = key.split(".")
    trail = []
    for part in parts[:-1]:
        child = node.get(part)
        child = dict(child) if isinstance(child, dict) else {}
        node[part] = child
        trail.append((node, part))
        node = child
    if value is UNSET:
        node.pop(parts[-1], None)
        for parent, part in reversed(trail):  # an emptied block goes too
            if not parent[part]:
                parent.pop(part)
    else:
        node[parts[-1]] = value
    return out


def conflicts(config: dict[str, Any], changed: str | None = None) -> str | None:
    for one, other in _CONFLICTS:
        if read_value(config, one) is not UNSET and read_value(config, other) is not UNSET:
            drop = one if changed == other else other
            return (f"{one} and {other} cannot both be set; unset one first "
                    f"(gm config DIR --unset {drop})")
    return None


def check_config(campaign: Campaign, extra: Iterable[Setting] = ()) -> None:
    """Every setting present in campaign.yaml checked by the table (`gm run` at the start of a
    pass); the first problem is one line naming campaign.yaml and the setting."""
    where = campaign.path / "campaign.yaml"
    known = table(extra)
    for key, entry in known.items():
        value = read_value(campaign.config, key)
        if value is UNSET or value is None or entry.managed_by:
            continue
        try:
            entry.check(value)
        except ValueError as exc:
            raise CampaignError(f"{where}: {key}: {show_value(value)!r} is not {exc}; "
                                f"fix it with `gm config {campaign.path} {key} VALUE`") from None
    for block in ("schedule", "mail", "mail.inbox", "mail.smtp"):
        value = read_value(campaign.config, block)
        if value is UNSET or value in (None, ""):
            continue
        if not isinstance(value, dict):
            raise CampaignError(f"{where}: {block} is a block of settings ({block}.KEY), not {value!r}; "
                                f"set them with `gm config {campaign.path} {block}.KEY VALUE`")
        for name in value:
            key = f"{block}.{name}"
            if key in known or key in ("mail.inbox", "mail.smtp"):
                continue
            if name == "password":
                raise CampaignError(f"{where}: {key}: a password is never written in campaign.yaml; "
                                    f"use {key}_env or {key}_file")
            raise CampaignError(f"{where}: unknown setting {key!r}{suggestion(key, known)}")
    problem = conflicts(campaign.config)
    if problem:
        raise CampaignError(f"{where}: {problem}")


# ---- reading and changing, under the lock -----------------------------------------------------
@dataclass(frozen=True)
class Shown:
    key: str
    value: Any          # UNSET when at the default
    source: str         # "set" or "default"
    setting: Setting

    def text(self) -> str:
        if self.value is UNSET:
            default = self.setting.default
            return "(none)" if default is None else show_value(default)
        return show_value(self.value)


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == "":
        return "''"
    if isinstance(value, (dict, list)):
        return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True).strip()
    return str(value)


def _shown(campaign: Campaign, key: str, entry: Setting) -> Shown:
    value = read_value(campaign.config, key)
    value = UNSET if value is None else value  # `deadline: null`: not set
    return Shown(key, value, "default" if value is UNSET else "set", entry)


def list_settings(campaign: Campaign, extra: Iterable[Setting] = ()) -> list[Shown]:
    return [_shown(campaign, key, entry) for key, entry in table(extra).items()]


def show_setting(campaign: Campaign, key: str, extra: Iterable[Setting] = ()) -> Shown:
    return _shown(campaign, key, setting(key, extra))


def reread(campaign: Campaign) -> None:
    """campaign.yaml as it is on disk now (another process may have written it)."""
    fresh = Campaign(campaign.path)
    campaign.config = fresh.config


def change_setting(campaign: Campaign, key: str, value: Any, extra: Iterable[Setting] = (), *,
                   audit: Callable[..., Any] | None = None) -> tuple[Any, Any]:
    """Set (or with ``value`` UNSET, remove) one setting: checked first, then written under the
    campaign's lock from the file as it is on disk; ``audit(action, **details)`` records it. Returns
    (old, new) — UNSET where there was or is no value."""
    new = UNSET if value is UNSET else checked(key, value, extra)
    if value is UNSET:
        setting(key, extra)
    with campaign.lock():
        reread(campaign)
        old = read_value(campaign.config, key)
        wanted = with_value(campaign.config, key, new)
        problem = conflicts(wanted, key)
        if problem:
            raise SettingError(problem)
        if old != new:
            top = key.split(".", 1)[0]
            if top in wanted:
                set_config_value(campaign, top, wanted[top])
            else:
                unset_top(campaign, top)
            if audit is not None:
                audit("config", key=key, old=None if old is UNSET else old, new=None if new is UNSET else new)
        return old, new


def unset_top(campaign: Campaign, top: str) -> None:
    """Remove one top-level setting from campaign.yaml (the rest of the text kept when it can be)."""
    from gm.store.fileio import atomic_write, dump_yaml
    path = campaign.path / "campaign.yaml"
    wanted = {k: v for k, v in campaign.config.items() if k != top}
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if re.match(rf"^{re.escape(top)}\s*:", line)), None)
    text = dump_yaml(wanted)
    if start is not None:
        end = start + 1
        while end < len(lines) and (lines[end].startswith((" ", "\t", "-")) or not lines[end].strip()):
            end += 1
        candidate = "".join(lines[:start] + lines[end:])
        try:
            if yaml.safe_load(candidate) == yaml.safe_load(text):
                text = candidate
        except yaml.YAMLError:
            pass
    atomic_write(path, text)
    campaign.config = wanted


def parse_assignments(specs: Iterable[str], extra: Iterable[Setting] = ()) -> dict[str, Any]:
    """`--set KEY=VALUE` ...: every one checked, in order; the stored values by key."""
    out: dict[str, Any] = {}
    for spec in specs:
        key, sep, value = spec.partition("=")
        if not sep or not key.strip():
            raise SettingError(f"--set takes KEY=VALUE, like --set schedule.every=7d, not {spec!r}")
        out[key.strip()] = checked(key.strip(), value.strip(), extra)
    return out


def apply_assignments(config: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    for key, value in values.items():
        config = with_value(config, key, value)
    problem = conflicts(config)
    if problem:
        raise SettingError(problem)
    return config


def option_settings(options: dict[str, Any]) -> list[Setting]:
    """A game's options as settings `options.KEY`; ``options`` maps each name to the game's Option
    (anything with ``default``, ``help``, ``choices`` and ``read(name, value)``)."""
    def reader(name: str, option: Any) -> Callable[[Any], Any]:
        def check(value: Any) -> Any:
            try:
                return option.read(name, value)
            except UsageError as exc:
                words = str(exc).split(" takes ", 1)[-1].rsplit(", not ", 1)[0]
                raise ValueError(words.split(" is ", 1)[-1] if words.startswith("option ") else words) from None
        return check
    return [Setting(f"options.{name}", "|".join(map(show_value, option.choices)) or "game option",
                    option.default, option.help, reader(name, option))
            for name, option in sorted(options.items())]
