"""The public record of a campaign: what anybody may know of it, in one versioned JSON document
(`gm export DIR -o FILE.json`, and `record.json` on the campaign website). docs/record.schema.json
describes the format; docs/site.md explains it.

Everything here comes through the one door for who sees what (``gm.store.viewing.seen_by``) with
the viewer "public": the view, events, press, the public players (id, name, colour: never
addresses), the revealed dice of each turn with the digest binding its rolls, and the public
notices of the audit log; plus the commitment published before each turn and each turn's order
receipts (``gm.delivery.reveal``). Secret rolls (hidden shuffles, kept in ``secret/``) appear only once
the game is over, as the final reports reveal their seeds (``gm.delivery.reveal.revealed_secret_dice``);
during play only their count, commitment and digest. The master secret never appears.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

from gm import games
from gm.delivery.reveal import revealed_secret_dice, turn_orders
from gm.store.campaign import Campaign
from gm.store.dice import commitment, turn_seed
from gm.store.errors import CampaignError, UsageError
from gm.store.fileio import atomic_write
from gm.store.undo import read_undone
from gm.store.viewing import PUBLIC, campaign_notices, fill_names, press_seen_by, public_players, seen_in
from gm.time import clock
from gm.time.deadlines import deadline_status
from gm.time.zones import campaign_zone, short_moment

__all__ = ["public_players"]  # the door's, named here for the website

FORMAT = "gm-record"
VERSION = 1


def json_safe(data: Any) -> Any:
    """Plain JSON data (tuples become lists, keys strings, anything else its text)."""
    return json.loads(json.dumps(data, default=str, ensure_ascii=False))


class Commitments:
    """The commitment published before each turn: SHA-256 of the turn's seed, printed in the
    reports of the turn before (set-up has none: its seed is revealed at once)."""

    def __init__(self, campaign: Campaign):
        try:
            self._master: bytes | None = campaign.master_secret()
        except CampaignError:
            self._master = None  # a copy without secret/: nothing can be said of commitments

    def before(self, turn: int) -> str | None:
        if turn < 1 or self._master is None:
            return None
        return commitment(turn_seed(self._master, turn))

    def key(self) -> bytes | None:
        """A private key for fingerprints of turn files (never published, derived from the master)."""
        return None if self._master is None else hmac.new(self._master, b"gm site fingerprint", "sha256").digest()


def turn_fingerprint(campaign: Campaign, turn: int, key: bytes) -> str:
    """Keyed hash of what a turn's public record is made of: unchanged files, unchanged entry.
    Keyed, because a plain hash of a state holding hidden cards could be searched for the cards."""
    mac = hmac.new(key, str(turn).encode(), hashlib.sha256)
    folder = campaign.turn_dir(turn)
    orders = sorted((folder / "orders").glob("*.txt")) + sorted((folder / "orders").glob("*.errors"))
    named = ("state.yaml", "events.yaml", "dice.yaml", "settings.yaml", "undone.yaml")
    for path in [folder / n for n in named] + orders:
        mac.update(path.relative_to(folder).as_posix().encode() + b"\0")
        mac.update(path.read_bytes() if path.exists() else b"-")
    mac.update(json.dumps(press(campaign, turn), sort_keys=True, default=str).encode())
    return mac.hexdigest()


def press(campaign: Campaign, turn: int) -> list[Any]:
    """The public press of a turn (players' messages to all)."""
    return json_safe(press_seen_by(campaign, turn, PUBLIC))


def outcome(game, state: dict[str, Any], players: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The game's own word on who won, once it is over (players named in its reason)."""
    result = game.outcome(state) if game.finished(state) else None
    if result is None:
        return None
    result = json_safe(result)
    if isinstance(result.get("reason"), str):
        result["reason"] = fill_names(result["reason"], {p["id"]: p["name"] for p in players})
    return result


def turn_entry(campaign: Campaign, game, turn: int, players: list[dict[str, Any]],
               commitments: Commitments, state: dict[str, Any] | None = None,
               events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One resolved turn as the public sees it (``state`` and ``events``: already read)."""
    state = campaign.state(turn) if state is None else state
    events = campaign.events(turn) if events is None else events
    seen = seen_in(campaign, game, turn, PUBLIC, state=state, events=events)
    finished = game.finished(state)
    dice = {"seed": seen.dice["seed"], "commitment": commitments.before(turn), "rolls": seen.dice["rolls"],
            "rolls_digest": seen.dice["rolls_digest"]}
    dice.update({k: seen.dice[k] for k in ("secret_rolls", "secret_commitment", "secret_rolls_digest")
                 if k in seen.dice})
    return {
        "turn": turn,
        "phase": game.phase(state),
        "finished": finished,
        "due": list(game.due(state)),
        "view": json_safe(seen.view),
        "events": json_safe(seen.events),
        "dice": dice,
        "orders": turn_orders(campaign, turn, events),
        "next_commitment": None if finished else commitments.before(turn + 1),
        "outcome": outcome(game, state, players),
        "press": json_safe(seen.press),
        "undone": undone(campaign, turn),
    }


def undone(campaign: Campaign, turn: int) -> list[dict[str, str]]:
    """When the GM undid the turn (`gm rollback`) before it was resolved again, each moment also
    written in the campaign's zone; empty for a turn never undone."""
    zone = campaign_zone(campaign)
    out = []
    for item in read_undone(campaign.turn_dir(turn)).get("undone") or []:
        try:
            moment = dt.datetime.fromisoformat(str(item.get("at")))
        except ValueError:
            continue
        out.append({"at": moment.isoformat(), "shown": short_moment(moment, zone)})
    return out


def map_label(campaign: Campaign) -> str | None:
    """The map's name; a GM's own map file by its file name only (no folders of the GM's disk)."""
    name = campaign.map_name
    return Path(name).stem if name and ("/" in name or "\\" in name) else name


def _public_options(options: dict[str, Any]) -> dict[str, Any]:
    return {k: Path(v).name if isinstance(v, str) and v.startswith("/") else v for k, v in options.items()}


def status(campaign: Campaign) -> dict[str, Any]:
    """Where the campaign stands now: the turn being played, who is in and who is missing."""
    info = deadline_status(campaign)
    finished = not info.due
    return {
        "last_resolved": campaign.last_turn,
        "next_turn": None if finished else info.turn,
        "finished": finished,
        "due": info.due, "in": info.arrived, "missing": info.missing,
        "deadline": info.deadline.isoformat() if info.deadline and not finished else None,
        "grace": info.as_dict()["grace"],
        "nmr_policy": info.policy,
    }


def header(campaign: Campaign, game) -> dict[str, Any]:
    """Everything of the record but its turns."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "generated": clock.stamp(),
        "campaign": campaign.name,
        "game": {"name": game.name, "title": game.title},
        "map": map_label(campaign),
        "players": public_players(campaign),
        "options": json_safe(_public_options(campaign.options)),
        "schedule": json_safe(campaign.config.get("schedule")),
        "status": status(campaign),
    }


def public_record(campaign: Campaign, *, entries: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The whole record; ``entries``: turn entries already made (the website reuses them)."""
    game = games.get(campaign.game_name)
    players = public_players(campaign)
    commitments = Commitments(campaign)
    entries = dict(entries or {})
    turns = [entries.get(t) or turn_entry(campaign, game, t, players, commitments)
             for t in campaign.resolved_turns()]
    return whole_record(campaign, header(campaign, game), turns)


def whole_record(campaign: Campaign, head: dict[str, Any], turns: list[dict[str, Any]]) -> dict[str, Any]:
    """The header, the outcome, the hidden rolls once the game is over (null before), the public
    notices of the audit log, the turns."""
    return dict(head, outcome=turns[-1]["outcome"] if turns else None,
                secret_dice=revealed_secret_dice(campaign, turns), notices=json_safe(campaign_notices(campaign)),
                turns=turns)


def dumps(record: dict[str, Any]) -> str:
    """Compact JSON, one turn a line: indenting would need Python's slow encoder (1.5 s of a 2.5 s
    update of a 105-turn campaign); `python -m json.tool` shows it indented."""
    head = json.dumps({k: v for k, v in record.items() if k != "turns"}, ensure_ascii=False,
                      separators=(",", ":"))
    turns = ",\n".join(json.dumps(t, ensure_ascii=False, separators=(",", ":")) for t in record.get("turns", []))
    return head[:-1] + (",\n" if head != "{}" else "\n") + '"turns":[\n' + turns + "\n]}\n"


def export(campaign: Campaign, out: str) -> dict[str, Any]:
    """`gm export`: write the public record to ``out`` (.json)."""
    if not out.lower().endswith(".json"):
        raise UsageError(f"{out}: the record is JSON; name the file FILE.json")
    if Path(out).is_dir():
        raise UsageError(f"{out}: is a folder; name the file FILE.json")
    record = public_record(campaign)
    atomic_write(out, dumps(record))
    return record
