"""A folder written whole: files staged beside it, one sync, then one atomic swap (a turn's folder)."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from gm.store.fileio import crash_point, named

STAGE_SUFFIX = ".staged"


class StagedFolder:
    """Files written beside ``folder`` in a hidden staging folder, then put in its place at once.

    The entries of ``folder`` that ``keep(name)`` accepts are carried over (hard links, else copies);
    ``publish()`` makes every written byte durable with one sync of the file system (not one per
    file), then swaps the staging folder with ``folder`` in one atomic rename (Linux's
    RENAME_EXCHANGE) and removes the old one. Killed at any moment, ``folder`` is the old one or the
    new one, whole; a killed run's staging folder is removed by the next StagedFolder of ``folder``.
    Where the swap is not available, entries are moved in one by one with ``last`` moved last.
    Nothing is written through a symbolic link: the staging folder is new, and a linked ``folder``
    is refused.
    """

    def __init__(self, folder: Path, *, keep, last: str):
        self.folder, self.last = Path(folder), last
        if self.folder.is_symlink():
            raise OSError(f"{self.folder} is a symbolic link; gm writes only into real folders")
        self.stage = self.folder.parent / f".{self.folder.name}{STAGE_SUFFIX}"
        self.folder.parent.mkdir(parents=True, exist_ok=True)
        for entry in self.folder.parent.iterdir():  # left by a killed process (callers hold a lock)
            if entry.name.startswith(".") and entry.name.endswith(STAGE_SUFFIX):
                _remove(entry)
        if self.folder.is_dir():
            top = os.path.abspath(self.folder)
            shutil.copytree(self.folder, self.stage, symlinks=True, copy_function=_link_or_copy,
                            ignore=lambda where, names: [n for n in names if _is_temporary(n) or (
                                os.path.abspath(where) == top and not keep(n))])
        else:
            self.stage.mkdir()
        self.written: list[Path] = []

    def write(self, name: str, data: str | bytes) -> None:
        """Write ``name`` (a path inside the folder, e.g. reports/ann.txt) into the staging folder."""
        parts = Path(name).parts
        if not parts or Path(name).is_absolute() or any(p in ("..", ".", "") for p in parts):
            raise ValueError(f"{name!r} is not a file name inside {self.folder}")
        path = self.stage.joinpath(*parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with open(path, "wb") as handle:
                handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        except OSError as exc:
            raise (named(exc, path) if exc.filename is None else exc) from None
        self.written.append(path)

    def publish(self) -> None:
        _sync(self.stage, self.written)
        crash_point()
        if not self.folder.exists():
            os.rename(self.stage, self.folder)
        elif _exchange(self.stage, self.folder):
            _remove(self.stage)  # the old folder, now under the staging name
        else:
            self._move_in()
        _fsync_dir(self.folder.parent)

    def discard(self) -> None:
        _remove(self.stage)

    def _move_in(self) -> None:
        """Without an atomic swap: each new entry replaces the old one, ``last`` at the end."""
        names = sorted({p.relative_to(self.stage).parts[0] for p in self.written}, key=lambda n: n == self.last)
        for name in names:
            target = self.folder / name
            _remove(target)
            os.rename(self.stage / name, target)
            if name == self.last:
                _fsync_dir(self.folder)
        _fsync_dir(self.folder)
        _remove(self.stage)


def _is_temporary(name: str) -> bool:
    return name.startswith(".") and (name.endswith(".tmp") or name.endswith(STAGE_SUFFIX))


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        shutil.copy2(source, target, follow_symlinks=False)


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _libc():
    if sys.platform != "linux":
        return None
    import ctypes
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


_AT_FDCWD, _RENAME_EXCHANGE = -100, 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2); False where the system cannot."""
    libc = _libc()
    if libc is None or not hasattr(libc, "renameat2"):
        return False
    done = libc.renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return done == 0


def _sync(folder: Path, written: list[Path]) -> None:
    """Every file written durable: one syncfs of the folder's file system, else an fsync each."""
    libc = _libc()
    if libc is not None and hasattr(libc, "syncfs"):
        fd = os.open(folder, os.O_RDONLY)
        try:
            if libc.syncfs(fd) == 0:
                return
        finally:
            os.close(fd)
    for path in written:
        with open(path, "rb") as handle:
            os.fsync(handle.fileno())
    for path in {p.parent for p in written} | {folder}:
        _fsync_dir(path)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder
    finally:
        os.close(fd)
