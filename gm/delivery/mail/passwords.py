"""Player passwords, kept only as scrypt hashes in CAMPAIGN/secret/passwords.yaml."""
from __future__ import annotations

import email
import email.policy
import hashlib
import hmac
import os

from gm.delivery.mail.settings import read_log
from gm.store.campaign import Campaign
from gm.store.errors import UsageError
from gm.store.fileio import atomic_write, dump_yaml
from gm.store.orders import TYPOGRAPHY, is_password_line, read_frame, split_lines

# scrypt cost: ~16 MiB and a few tens of milliseconds, enough against guessing a stolen file
N, R, P = 2 ** 14, 8, 1
MIN_LENGTH = 6


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=N, r=R, p=P, dklen=32)
    return f"scrypt${N}${R}${P}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(bytes.fromhex(digest)))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


def password_values(text: str) -> list[str]:
    """Every value written on a password line of ``text`` (gm.store.orders.is_password_line)."""
    values = []
    for line in split_lines(text):
        if is_password_line(line):
            value = line.translate(TYPOGRAPHY).partition(":")[2].strip()
            if value and value not in values:
                values.append(value)
    return values


def redact(raw: bytes, secrets: list[str]) -> bytes:
    """A kept message with every password value taken out: replaced where it stands in the raw
    bytes and, where a text part is encoded (quoted-printable, base64), in that part re-encoded."""
    mask = b"(password removed)"
    for value in sorted(secrets, key=len, reverse=True):
        raw = raw.replace(value.encode("utf-8"), mask)
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    changed = False
    for part in msg.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        try:
            text = part.get_content()
        except (LookupError, UnicodeError, ValueError, AssertionError):
            continue
        if any(value in text for value in secrets):
            for value in secrets:
                text = text.replace(value, "(password removed)")
            part.set_content(text, subtype=part.get_content_subtype(), charset="utf-8")
            changed = True
    return bytes(msg) if changed else raw


def passwords_required(campaign: Campaign) -> bool:
    return bool(campaign.config.get("passwords"))


def _path(campaign: Campaign):
    return campaign.path / "secret" / "passwords.yaml"


def stored_hash(campaign: Campaign, player: str) -> str | None:
    value = read_log(_path(campaign)).get(player)
    return str(value) if value else None


def set_password(campaign: Campaign, player: str, password: str) -> None:
    campaign.player(player)  # an unknown id fails with "did you mean"
    password = password.strip()
    if len(password) < MIN_LENGTH:
        raise UsageError(f"a password needs at least {MIN_LENGTH} characters")
    if any(ch.isspace() for ch in password):
        raise UsageError("a password cannot hold spaces (players write it on one 'password:' line)")
    hashes = read_log(_path(campaign))
    hashes[player] = hash_password(password)
    path = _path(campaign)
    atomic_write(path, dump_yaml(hashes))
    os.chmod(path, 0o600)


def password_problem(desk, player: str, text: str) -> str | None:
    """Why the password of these orders is not accepted (None when it is, or none is needed);
    ``desk`` is the fetch's Desk (its campaign)."""
    if not passwords_required(desk.campaign):
        return None
    given = read_frame(text).headers.get("password")
    if not given:
        return "this campaign needs a 'password:' line with your password"
    stored = stored_hash(desk.campaign, player)
    if stored is None:
        return "no password is set for you yet; ask the GM for one"
    if not check_password(given, stored):
        return "wrong password"
    return None
