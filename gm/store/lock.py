"""The campaign lock: one gm process changes a campaign at a time; a second one is refused.

An OS lock (``fcntl.flock``) on ``DIR/.lock`` held for the lock's whole life: the kernel grants it
to one open file at a time, and frees it when the holder exits, however it exits, so a killed
process's lock frees itself and nobody ever "takes over" a lock by deleting it. The file holds
the holder's process id only to name it in the refusal. The holder removes the file before it
lets go; a process that locked the old, removed file finds it is no longer the one at the path
and tries again, so two processes never both hold the lock.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from gm.store.errors import CampaignError, LockedError

LOCK_FILE = ".lock"
_ATTEMPTS = 100


@contextlib.contextmanager
def campaign_lock(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock for the ``with`` block; LockedError at once when another holds it."""
    path = Path(folder) / LOCK_FILE
    fd = _acquire(Path(folder), path)
    try:
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # still holding the lock: nobody can be between this and the close
        os.close(fd)


def _acquire(folder: Path, path: Path) -> int:
    for _attempt in range(_ATTEMPTS):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            raise CampaignError(f"{folder}: cannot take the campaign lock ({path}: {exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            who = f"another gm (process {holder})" if holder else "another gm"
            raise LockedError(f"{folder}: {who} is working on this campaign; try again when it has finished") from None
        except OSError as exc:
            os.close(fd)
            raise CampaignError(f"{folder}: cannot take the campaign lock ({path}: {exc.strerror})") from None
        if _still_at(fd, path):
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
            return fd
        os.close(fd)  # we locked a file its holder had just removed: try the one at the path now
    raise LockedError(f"{folder}: cannot take the campaign lock ({path}); try again")


def _still_at(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _holder(fd: int) -> int | None:
    try:
        return int(os.pread(fd, 32, 0).decode("ascii").strip() or 0) or None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
