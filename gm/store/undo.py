"""What `gm rollback` leaves in a turn's folder: CAMPAIGN/turns/NNN/undone.yaml.

    undone: [{at: 2026-12-09T10:00:00+00:00, moved_to: audit/rollback-turn-003-...}]  # each undo
    anchor: 2026-12-08T18:00:00+00:00     # the deadline the turn had when it was resolved
    deadline: 2026-12-10T20:00:00+00:00   # the deadline the undo left for it
    stale: [ann, bob]                     # stored orders from before the undo, not sent again

While the turn waits to be resolved again, `stale` holds the due players whose orders were
stored before the undo: their orders stand (they are played at the deadline), but an early
resolve waits until each of them has sent orders again (storing orders takes the player off the
list). After the resolve the file stays as the record that the turn was undone (the site says so).

And CAMPAIGN/audit/deadlines.yaml, one line appended per resolve: the deadline the turn was resolved
under and the one it set for the next turn, so an undo can put the schedule back where it was.
(Kept outside the turn's folder, which a resolve writes whole or not at all.)
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from gm.store.fileio import load_yaml, write_yaml
from gm.store.logbook import append_entry, read_entries

UNDONE = "undone.yaml"
DEADLINES = "deadlines.yaml"


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        return {}  # a torn bookkeeping file: as if the turn had never been undone
    return data if isinstance(data, dict) else {}


def read_undone(turn_dir: Path) -> dict[str, Any]:
    return _read(turn_dir / UNDONE)


def mark_undone(turn_dir: Path, *, at: str, moved_to: str, anchor: str | None, deadline: str | None,
                stale: list[str]) -> dict[str, Any]:
    data = read_undone(turn_dir)
    data = {"undone": [*(data.get("undone") or []), {"at": at, "moved_to": moved_to}],
            "anchor": anchor, "deadline": deadline, "stale": sorted(stale)}
    write_yaml(turn_dir / UNDONE, data)
    return data


def mark_resent(turn_dir: Path, player: str) -> None:
    """``player`` has sent orders for the undone turn again: no longer waited for by an early resolve."""
    data = read_undone(turn_dir)
    if player in (data.get("stale") or []):
        data["stale"] = [p for p in data["stale"] if p != player]
        write_yaml(turn_dir / UNDONE, data)


def _deadlines_log(campaign_path: Path) -> Path:
    return campaign_path / "audit" / DEADLINES


def read_turn_deadlines(campaign_path: Path, turn: int) -> dict[str, Any]:
    """The deadlines recorded when ``turn`` was last resolved ({} when none was recorded)."""
    found = [e for e in read_entries(_deadlines_log(campaign_path)) if e.get("turn") == turn]
    return found[-1] if found else {}


def write_turn_deadlines(campaign_path: Path, turn: int, *, deadline: str | None, following: str | None) -> None:
    append_entry(_deadlines_log(campaign_path), {"turn": turn, "deadline": deadline, "next": following})
