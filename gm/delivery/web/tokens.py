"""Sign-in tokens of the web door: one per player, kept only as a SHA-256 under secret/.

A token is derived, not drawn: HMAC-SHA256 of the player's id, the token's generation and the seat's
occupant (how often the seat was handed to a replacement) under a random key in secret/web.key.
So `gm link` and the report mail give the same link every time without keeping the token itself,
`gm link --new` (a new generation) replaces it, and replacing the player (`gm player --replace`)
or dropping them ends it at once: the stored record no longer matches the seat.

CAMPAIGN/secret/web.key         32 random bytes (hex); never leaves secret/
CAMPAIGN/secret/web-tokens.yaml {player: {generation, occupant, hash}} — hashes only
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gm.delivery.web.cache import files
from gm.store.campaign import Campaign
from gm.store.errors import CampaignError, UsageError
from gm.store.fileio import atomic_write, dump_yaml

KEY_FILE = "web.key"
TOKENS_FILE = "web-tokens.yaml"
TOKEN_CHARS = 32  # 24 bytes of HMAC, base64url: far beyond guessing


@dataclass(frozen=True)
class Holder:
    """Whom a token signs in: the campaign folder, the player, and the token's fingerprint (kept in
    the session, so a replaced token ends the sessions it opened)."""

    campaign: Path
    player: str
    fingerprint: str


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def fingerprint(token_hash: str) -> str:
    return token_hash[:20]


def occupant(seat: dict[str, Any]) -> int:
    """Which holder of the seat this is: 0 for the first, one more for each replacement."""
    return len(seat.get("replaced") or [])


def _key(campaign: Campaign, *, create: bool) -> bytes | None:
    path = campaign.path / "secret" / KEY_FILE
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        if not create:
            return None
    except ValueError:
        raise CampaignError(f"{path}: the web door's key is corrupt (expected 64 hex digits)") from None
    key = os.urandom(32)
    atomic_write(path, key.hex() + "\n")
    os.chmod(path, 0o600)
    return key


def _records(campaign: Campaign) -> dict[str, dict[str, Any]]:
    path = campaign.path / "secret" / TOKENS_FILE
    return files.get(path, lambda: _read_records(path))


def _read_records(path: Path) -> dict[str, dict[str, Any]]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        return {}
    except (OSError, yaml.YAMLError):
        raise CampaignError(f"{path}: the web door's token list is corrupt; "
                            "give every player a new link with `gm link DIR PLAYER --new`") from None
    return {str(k): dict(v) for k, v in data.items() if isinstance(v, dict)}


def _write(campaign: Campaign, records: dict[str, dict[str, Any]]) -> None:
    path = campaign.path / "secret" / TOKENS_FILE
    atomic_write(path, dump_yaml(records))
    os.chmod(path, 0o600)


def _derive(key: bytes, player: str, generation: int, holder: int) -> str:
    mac = hmac.new(key, f"gm-web-token\0{player}\0{generation}\0{holder}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode("ascii")[:TOKEN_CHARS]


def player_token(campaign: Campaign, player: str, *, new: bool = False) -> str:
    """The player's sign-in token, made (and its hash stored) when there is none for the seat's
    present holder; ``new`` replaces it, so the old one stops working."""
    seat = campaign.player(player)
    if seat.get("dropped"):
        raise UsageError(f"{player} has been dropped from the campaign; a dropped player cannot sign in")
    key = _key(campaign, create=True)
    records = dict(_records(campaign))
    record = records.get(player)
    holder = occupant(seat)
    if record is None or new or record.get("occupant") != holder:
        generation = int(record.get("generation", 0)) + 1 if record else 1
        token = _derive(key, player, generation, holder)
        records[player] = {"generation": generation, "occupant": holder, "hash": digest(token)}
        _write(campaign, records)
        return token
    token = _derive(key, player, int(record["generation"]), holder)
    if not hmac.compare_digest(digest(token), str(record.get("hash", ""))):  # the key was changed by hand
        raise CampaignError(f"{campaign.path / 'secret'}: the web key does not match the stored tokens; "
                            f"give {player} a new link with `gm link {campaign.path} {player} --new`")
    return token


def sign_in_link(campaign: Campaign, player: str, *, new: bool = False) -> str:
    """`/signin/TOKEN`, a full URL when campaign.yaml sets ``serve_url``."""
    path = f"/signin/{player_token(campaign, player, new=new)}"
    base = serve_url(campaign)
    return base + path if base else path


def serve_url(campaign: Campaign) -> str | None:
    value = campaign.config.get("serve_url")
    if value in (None, ""):
        return None
    text = str(value).strip().rstrip("/")
    if not text.startswith(("https://", "http://")) or any(ch.isspace() for ch in text):
        raise CampaignError(f"{campaign.path / 'campaign.yaml'}: serve_url is the address players reach "
                            f"`gm serve` at, e.g. https://gm.example.org, not {value!r}")
    return text


def holder_of(campaign: Campaign, token: str) -> Holder | None:
    """Whom ``token`` signs in to ``campaign``, or None (unknown, replaced, or the player dropped)."""
    if len(token) != TOKEN_CHARS:
        return None
    wanted = digest(token)
    for player, record in _records(campaign).items():
        if hmac.compare_digest(wanted, str(record.get("hash", ""))):
            if still_valid(campaign, player, fingerprint(wanted)):
                return Holder(campaign.path, player, fingerprint(wanted))
            return None
    return None


def still_valid(campaign: Campaign, player: str, print_: str) -> bool:
    """Whether a session opened with the token of this fingerprint may still act for ``player``:
    the token not replaced, the seat not handed on, the player not dropped."""
    seat = next((p for p in campaign.players if p["id"] == player), None)
    if seat is None or seat.get("dropped"):
        return False
    record = _records(campaign).get(player)
    if not record or record.get("occupant") != occupant(seat):
        return False
    return hmac.compare_digest(fingerprint(str(record.get("hash", ""))), print_)
