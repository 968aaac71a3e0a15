"""Append-only logs: one entry per line, written as `- {JSON}` so the whole file is also a YAML list a
person can read. Adding an entry costs the same whatever the log's length (never a rewrite), and a
line torn by a crash is skipped when read, so the entries before it always survive."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from gm.store.errors import CampaignError
from gm.store.fileio import crash_point, named


class LinkedLogError(CampaignError):
    """A log that is a symbolic link (or sits in a linked folder): gm never writes through one."""


def check_plain(path: Path) -> None:
    """Refuse, with one line, a log that is a link or lies in a linked folder: appending through it
    would write wherever the link points (outside the campaign)."""
    for place in (path, path.parent):
        if place.is_symlink():
            raise LinkedLogError(f"{place}: is a symbolic link; gm writes its logs only to plain files "
                                 "in the campaign folder (remove the link)")


def _open_append(path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    check_plain(path)
    try:
        return os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:  # ELOOP: made a link between the check and the open
        raise LinkedLogError(f"{path}: cannot append to the log ({exc.strerror or exc})") from None


def append_line(path: Path, line: str) -> None:
    """One line of text at the end of a plain log (mail.log, run.log), on disk before returning."""
    fd = _open_append(path)
    try:
        crash_point()
        os.write(fd, (line.rstrip("\n") + "\n").encode("utf-8"))
        os.fsync(fd)
    except OSError as exc:
        raise (named(exc, path) if exc.filename is None else exc) from None
    finally:
        os.close(fd)


def append_entries(path: Path, entries: list[dict[str, Any]]) -> None:
    """Add entries at the end of the log, on disk (fsync) before returning."""
    if not entries:
        return
    data = "".join(f"- {json.dumps(e, ensure_ascii=False, sort_keys=True, default=str)}\n" for e in entries)
    fd = _open_append(path)
    try:
        if os.fstat(fd).st_size and not _ends_with_newline(fd):
            data = "\n" + data  # after a torn line: start clean, the torn one stays skipped
        crash_point()
        os.write(fd, data.encode("utf-8"))
        os.fsync(fd)
    except OSError as exc:
        raise (named(exc, path) if exc.filename is None else exc) from None
    finally:
        os.close(fd)


def append_entry(path: Path, entry: dict[str, Any]) -> None:
    append_entries(path, [entry])


def _ends_with_newline(fd: int) -> bool:
    size = os.fstat(fd).st_size
    return os.pread(fd, 1, size - 1) == b"\n"


def read_entries(path: Path) -> list[dict[str, Any]]:
    """Every whole entry of the log, oldest first; [] when there is no log yet."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    out = []
    for line in data.decode("utf-8", errors="replace").splitlines():
        if not line.startswith("- {"):
            continue
        try:
            entry = json.loads(line[2:])
        except ValueError:
            continue  # torn by a crash mid-write
        if isinstance(entry, dict):
            out.append(entry)
    return out
