"""A message over mail.max_bytes is refused without reading its body, and its body is never kept:
inbox/HASH.eml holds its header block only (at most HEAD_BYTES), and inbox/HASH.too-large.json
(written by gm, so a sender cannot forge it) holds its size, its SHA-256 and why it was refused.
The message keeps the name and the digest of the whole message, so a second fetch knows it."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from gm.store.fileio import atomic_write

HEAD_BYTES = 64 * 1024
SUFFIX = ".too-large.json"
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")


def why(size: int, cap: int) -> str:
    return (f"the message is too large ({size:,} bytes; the limit is {cap:,}); "
            "send the orders as plain text, without attachments")


def note_path(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".eml") + SUFFIX)


def keep_head(path: Path, raw: bytes, digest: str, cap: int) -> None:
    """Keep the note, then the headers (in that order: a headers-only file never lacks its note)."""
    end = _BLANK_LINE.search(raw, 0, HEAD_BYTES + 4)
    head = raw[:end.start()] if end else raw[:HEAD_BYTES].rpartition(b"\n")[0]
    note = {"digest": digest, "size": len(raw), "limit": cap, "why": why(len(raw), cap),
            "kept": f"the headers only ({len(head):,} bytes); the body was not kept"}
    atomic_write(note_path(path), json.dumps(note, indent=1) + "\n")
    atomic_write(path, head + b"\n\n(body not kept: " + str(len(raw)).encode() + b" bytes, over the limit)\n")


def read_note(path: Path) -> dict[str, Any] | None:
    """The note of a message kept as headers only, or None for a message kept whole."""
    try:
        note = json.loads(note_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(note, dict) or not isinstance(note.get("size"), int) or not isinstance(note.get("digest"), str):
        return None
    return note
