"""What `gm rollback` leaves in a turn's folder: CAMPAIGN/turns/NNN/undone.yaml.

    undone: [{at: 2026-12-09T10:00:00+00:00, moved_to: audit/rollback-turn-003-...}]  # each undo
    anchor: 2026-12-08T18:00:00+00:00     # the deadline the turn had when it was resolved
    deadline: 2026-12-10T20:00:00+00:00   # the deadline the undo left for it
    stale: [ann, bob]                     # stored orders from before the undo, not sent again

While the turn waits to be resolved again, `stale` holds the due players whose orders were
stored before the undo: their orders stand (they are played at the deadline), but an early
resolve waits until each of them has sent orders again (storing orders takes the player off the
list). After the resolve the file stays as the record that the turn was undone (the site says so).

And CAMPAIGN/turns/NNN/deadline.yaml: the deadline turn NNN was resolved under and the one it
set for the next turn, so an undo can put the schedule back where it was.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from gm.store.fileio import load_yaml, write_yaml

UNDONE = "undone.yaml"
DEADLINES = "deadline.yaml"


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


def read_turn_deadlines(turn_dir: Path) -> dict[str, Any]:
    return _read(turn_dir / DEADLINES)


def write_turn_deadlines(turn_dir: Path, *, deadline: str | None, following: str | None) -> None:
    write_yaml(turn_dir / DEADLINES, {"deadline": deadline, "next": following})
