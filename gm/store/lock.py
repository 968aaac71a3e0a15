"""The campaign lock: one gm process changes a campaign at a time; a second one waits briefly,
then is refused in one line.

An OS lock (``fcntl.flock``) on ``DIR/.lock`` held for the lock's whole life: the kernel grants it
to one open file at a time, and frees it when the holder exits, however it exits, so a killed
process's lock frees itself and nobody ever "takes over" a lock by deleting it. The refusal
names the holder as the kernel lists it (/proc/locks); the file stays empty, so taking and letting
go of the lock costs a fraction of a millisecond. The holder removes the file before it lets go;
a process that locked the old, removed file finds it is no longer the one at the path and tries
again, so two processes never both hold the lock.

Within one process the lock is re-entrant: a step that holds it may call a function that takes
it again (a `gm run` pass holds it around the decision to resolve and the resolve itself).
A second process waits up to ``GM_LOCK_WAIT`` seconds (default 10) for the holder to finish.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from gm.store.errors import CampaignError, LockedError, UsageError

LOCK_FILE = ".lock"
_ATTEMPTS = 100
DEFAULT_WAIT = 10.0
_held: dict[str, tuple[int, int, int]] = {}  # folder -> (pid, fd, depth): the locks this process holds


def lock_wait() -> float:
    """How long a command waits for another gm to let go of a campaign (GM_LOCK_WAIT, seconds)."""
    text = os.environ.get("GM_LOCK_WAIT", "").strip()
    if not text:
        return DEFAULT_WAIT
    try:
        wait = float(text)
    except ValueError:
        raise UsageError(f"GM_LOCK_WAIT: {text!r} is a number of seconds, like 10") from None
    if not 0 <= wait <= 3600:
        raise UsageError(f"GM_LOCK_WAIT: {text!r} is a number of seconds from 0 to 3600")
    return wait


def holds_lock(folder: Path) -> bool:
    """Whether this process holds ``folder``'s lock now."""
    held = _held.get(os.path.abspath(folder))
    return held is not None and held[0] == os.getpid()


@contextlib.contextmanager
def campaign_lock(folder: Path, *, wait: float | None = None) -> Iterator[bool]:
    """Hold ``folder``'s lock for the ``with`` block (yields True when this call took it, False when
    this process already held it); waits up to ``wait`` seconds (GM_LOCK_WAIT) for another
    process, then raises LockedError with one line."""
    key = os.path.abspath(folder)
    held = _held.get(key)
    if held is not None and held[0] == os.getpid():
        _held[key] = (held[0], held[1], held[2] + 1)
        try:
            yield False
        finally:
            pid, fd, depth = _held[key]
            _held[key] = (pid, fd, depth - 1)
        return
    path = Path(folder) / LOCK_FILE
    fd = _acquire(Path(folder), path, lock_wait() if wait is None else wait)
    _held[key] = (os.getpid(), fd, 1)
    try:
        yield True
    finally:
        _held.pop(key, None)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # still holding the lock: nobody can be between this and the close
        os.close(fd)


def _acquire(folder: Path, path: Path, wait: float) -> int:
    give_up = time.monotonic() + wait
    pause = 0.001
    attempts = 0
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            raise CampaignError(f"{folder}: cannot take the campaign lock ({path}: {exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if time.monotonic() < give_up:
                os.close(fd)
                time.sleep(pause)
                pause = min(pause * 2, 0.1)
                continue
            holder = _holder(fd)
            os.close(fd)
            who = f"another gm (process {holder})" if holder else "another gm"
            raise LockedError(f"{folder}: {who} is working on this campaign; try again when it has finished") from None
        except OSError as exc:
            os.close(fd)
            raise CampaignError(f"{folder}: cannot take the campaign lock ({path}: {exc.strerror})") from None
        if _still_at(fd, path):
            return fd  # nothing written into it: a file with data costs ~10 ms to remove on ext4
        os.close(fd)  # we locked a file its holder had just removed: try the one at the path now
        attempts += 1
        if attempts >= _ATTEMPTS:
            raise LockedError(f"{folder}: cannot take the campaign lock ({path}); try again")


def _still_at(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _holder(fd: int) -> int | None:
    """The process holding the lock on ``fd``'s file, as the kernel lists it (/proc/locks); an
    older gm wrote its process id into the file instead."""
    try:
        st = os.fstat(fd)
        with open("/proc/locks", encoding="ascii", errors="replace") as table:
            for line in table:
                fields = line.split()
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5].rsplit(":", 1)[-1] == str(st.st_ino):
                    pid = int(fields[4])
                    if pid > 0:
                        return pid
    except (OSError, ValueError):
        pass
    try:
        return int(os.pread(fd, 32, 0).decode("ascii").strip() or 0) or None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
