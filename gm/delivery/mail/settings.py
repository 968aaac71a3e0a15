"""The `mail:` block of campaign.yaml, secrets read from the environment or secret/, the GM's log."""
from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

import yaml

from gm.store.campaign import Campaign
from gm.store.errors import GMError
from gm.store.fileio import load_yaml, write_yaml
from gm.store.logbook import append_line
from gm.time import clock

DEFAULT_MAX_BYTES = 256 * 1024
DEFAULT_FROM = "Game Master <gm@localhost>"


class MailError(GMError):
    """Mail cannot be read or sent (a mailbox out of reach, an SMTP failure, bad settings): exit 2."""

    exit_code = 2


def mail_config(campaign: Campaign) -> dict[str, Any]:
    block = campaign.config.get("mail") or {}
    if not isinstance(block, dict):
        raise MailError(f"{campaign.path / 'campaign.yaml'}: 'mail:' must be a mapping of settings")
    return block


def sender_address(campaign: Campaign) -> str:
    return str(mail_config(campaign).get("from") or DEFAULT_FROM)


def max_bytes(campaign: Campaign) -> int:
    value = mail_config(campaign).get("max_bytes", DEFAULT_MAX_BYTES)
    if not isinstance(value, int) or value <= 0:
        raise MailError(f"mail.max_bytes must be a positive whole number of bytes, not {value!r}")
    return value


# flood and loop limits (mail:), each a positive whole number; see docs/mail.md
LIMITS = {
    "replies_per_hour": 5,          # replies to one player's address in any hour; the rest are logged only
    "press_per_turn": 20,           # press messages one player may send in one turn
    "press_bytes_per_turn": 20000,  # their total size (UTF-8 bytes)
    "answers_per_turn": 10,         # help/status/orders/resend answers to one player in one turn
}


def limit(campaign: Campaign, name: str) -> int:
    value = mail_config(campaign).get(name, LIMITS[name])
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise MailError(f"mail.{name} must be a positive whole number, not {value!r}")
    return value


def gm_address(campaign: Campaign) -> str | None:
    """mail.gm: the GM's own address, where messages players write to the GM are forwarded."""
    value = mail_config(campaign).get("gm")
    if value in (None, ""):
        return None
    text = str(value).strip()
    if "@" not in text or any(ch in text for ch in "\r\n,;<>\"") or len(text) > 254:
        raise MailError(f"mail.gm must be one plain e-mail address such as gm@example.org, not {value!r}")
    return text


def secret(campaign: Campaign, block: dict[str, Any], what: str) -> str:
    """A password from the environment variable ``password_env`` or the file ``password_file``
    under secret/ — never from campaign.yaml or the command line."""
    env = block.get("password_env")
    if env and os.environ.get(str(env)):
        return os.environ[str(env)]
    name = block.get("password_file")
    if name:
        base = (campaign.path / "secret").resolve()
        path = (base / str(name)).resolve()
        if base not in path.parents:
            raise MailError(f"{what}: password_file must name a file under {base}")
        try:
            return path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise MailError(f"{what}: cannot read the password file {path} ({exc.strerror})") from None
    if "password" in block:
        raise MailError(f"{what}: a password is never written in campaign.yaml; use password_env or password_file")
    wanted = f"the environment variable {env}" if env else "password_env or password_file"
    raise MailError(f"{what}: no password: set {wanted}")


def now_utc() -> dt.datetime:
    return clock.now()


def gm_log(campaign: Campaign, line: str, *, now: dt.datetime | None = None) -> None:
    """One line in CAMPAIGN/mail.log (GM only); appended, so earlier lines are never lost."""
    stamp = (now or now_utc()).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    append_line(campaign.path / "mail.log", f"{stamp} {' '.join(line.split())}")


def read_log(path: Path) -> dict[str, Any]:
    """A YAML bookkeeping file (processed messages, sent messages); empty when absent."""
    if not path.exists():
        return {}
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        raise MailError(f"{path}: the mail log is corrupt; move it aside to start a new one") from None
    return data if isinstance(data, dict) else {}


def write_log(path: Path, data: dict[str, Any]) -> None:
    write_yaml(path, data)
