"""Atomic file writes, and the one YAML reader and writer of gm (YAML that a person can read)."""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import yaml

# LibYAML (C) when PyYAML was built with it: five to ten times faster than the pure-Python classes,
# which stay as the fallback and write the very same text (tests compare both). A file LibYAML
# refuses is read again by pure Python, whose message and place are the ones reported (LibYAML
# places an error at an unfinished file's end on the line after it).
LIBYAML = hasattr(yaml, "CSafeLoader") and hasattr(yaml, "CSafeDumper")


class AliasBomb(yaml.MarkedYAMLError):
    """Aliases (``*name``) that would make a file stand for far more values than it holds: a few
    lines of anchors and aliases can expand to billions ("alias bomb"). Refused before anything is
    built; callers report it like any YAML error (it has a ``problem_mark``)."""


def _may_alias(text: str) -> bool:
    # no anchor, no alias: the usual case costs two substring searches
    return "&" in text and "*" in text


def _check_size(node: Any, text: str) -> None:
    """Refuse a node tree whose aliases expand it beyond a few times what the text could hold
    (gm's own older files share a few small lists; those stay readable). Sizes are counted once
    per node, so a bomb is found without expanding it."""
    limit = 4 * len(text) + 10_000
    sizes: dict[int, int] = {}

    def size(item: Any) -> int:
        known = sizes.get(id(item))
        if known is not None:
            return known
        if isinstance(item, yaml.SequenceNode):
            total = 1 + sum(size(child) for child in item.value)
        elif isinstance(item, yaml.MappingNode):
            total = 1 + sum(size(key) + size(value) for key, value in item.value)
        else:
            total = 1
        if total > limit:
            raise AliasBomb(problem=f"aliases (*name) here expand the file to over {limit:,} values; "
                                    "write the values out instead", problem_mark=item.start_mark)
        sizes[id(item)] = total
        return total

    if node is not None:
        size(node)


def _loader(pure: bool) -> type:
    return yaml.SafeLoader if pure or not LIBYAML else yaml.CSafeLoader


def load_yaml(text: str, *, pure: bool = False) -> Any:
    """Plain data from YAML text, with the safe loader (LibYAML when present); raises yaml.YAMLError
    (with ``problem_mark``) on bad YAML, AliasBomb where aliases expand it too far."""
    try:
        if not _may_alias(text):
            return yaml.load(text, Loader=_loader(pure))
        loader = _checked(_loader(pure))(text)
        try:
            node = loader.get_single_node()
            return None if node is None else loader.construct_document(node)
        finally:
            loader.dispose()
    except AliasBomb:
        raise
    except yaml.YAMLError:
        if pure or not LIBYAML:
            raise
        return load_yaml(text, pure=True)  # the error as pure Python words and places it


def compose_yaml(text: str, *, loader: type | None = None) -> Any:
    """The YAML node tree of ``text`` (for readers that report line and column), alias bombs refused."""
    loader = loader or _loader(False)
    try:
        node = yaml.compose(text, Loader=loader)
    except yaml.YAMLError:
        if loader is yaml.SafeLoader:
            raise
        return compose_yaml(text, loader=yaml.SafeLoader)
    if _may_alias(text):
        _check_size(node, text)
    return node


def _checked(base: type) -> type:
    class Loader(base):
        """``base`` whose get_single_node refuses alias bombs (AliasBomb, a MarkedYAMLError)."""

        def __init__(self, text: str):
            super().__init__(text)
            self.gm_text = text

        def get_single_node(self):
            try:
                node = super().get_single_node()
            except yaml.YAMLError:
                if base is yaml.SafeLoader:
                    raise
                yaml.compose(self.gm_text, Loader=yaml.SafeLoader)  # raises the error as pure Python places it
                raise
            if _may_alias(self.gm_text):
                _check_size(node, self.gm_text)
            return node

    return Loader


_CHECKED_PURE = _checked(yaml.SafeLoader)
_CHECKED_FAST = _checked(yaml.CSafeLoader) if LIBYAML else _CHECKED_PURE


def yaml_loader(text: str, *, pure: bool = False):
    """A safe loader over ``text`` for readers that walk its nodes themselves (``get_single_node``,
    ``construct_object``, ``dispose``); ``get_single_node`` raises AliasBomb as load_yaml does."""
    return (_CHECKED_PURE if pure else _CHECKED_FAST)(text)


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


def _str_presenter(dumper, data: str):
    # LibYAML escapes characters beyond U+FFFF (emoji) where pure Python writes them as they are, in
    # every style but double quotes: there both escape them, so such strings go double-quoted
    if not data.isascii() and _ASTRAL.search(data):
        style = '"'
    elif data.isascii() and data.isdigit():
        style = "'"  # strings of digits (hex labels 0508 and 1205) quoted alike: never read as numbers
    else:
        style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


def _list_presenter(dumper, data: list):
    node = dumper.represent_list(data)
    # a list of plain values on one line, as PyYAML does unless a value is quoted ('0508')
    if node.value and all(isinstance(n, yaml.ScalarNode) and n.style != "|" for n in node.value):
        node.flow_style = True
    return node


def _dumper(base: type) -> type:
    class Dumper(base):
        def ignore_aliases(self, data: Any) -> bool:  # shared lists are written out twice: never &id001
            return True

    Dumper.add_representer(str, _str_presenter)
    Dumper.add_representer(list, _list_presenter)
    Dumper.add_representer(tuple, lambda d, data: _list_presenter(d, list(data)))
    return Dumper


_PURE_DUMPER = _dumper(yaml.SafeDumper)
_FAST_DUMPER = _dumper(yaml.CSafeDumper) if LIBYAML else _PURE_DUMPER


def dump_yaml(data: Any, *, pure: bool = False) -> str:
    """YAML a person can read: keys in their order, multi-line strings as blocks, no anchors."""
    dumper = _PURE_DUMPER if pure else _FAST_DUMPER
    return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


class NotPlainData(TypeError):
    """Data that YAML (and JSON views) would not give back as it is."""


_SCALARS = frozenset({str, int, float, bool, type(None)})
_KEYS = frozenset({str, int, bool, type(None)})


def plain(data: Any) -> Any:
    """``data`` as it would read back from gm's YAML, without a YAML round trip: a fresh copy in
    which tuples are lists; raises NotPlainData, naming where, for anything else than dicts (keys
    str, int, bool or None), lists, tuples, str, int, float, bool and None. Shared parts come back
    as separate copies, as from a file."""
    try:
        return _plain(data)
    except NotPlainData:
        raise NotPlainData(_where_not_plain(data, "data")) from None


def _plain(data: Any) -> Any:
    kind = type(data)
    if kind in _SCALARS:
        return data
    if kind is dict:
        out = {}
        for key, value in data.items():
            if type(key) not in _KEYS:
                raise NotPlainData()
            out[key] = _plain(value)
        return out
    if kind is list or kind is tuple:
        return [_plain(value) for value in data]
    raise NotPlainData()


def _where_not_plain(data: Any, where: str) -> str:
    kind = type(data)
    if kind is dict:
        for key, value in data.items():
            if type(key) not in _KEYS:
                return f"{where}: the key {key!r} (a {type(key).__name__}) is not plain data"
            if not _is_plain(value):
                return _where_not_plain(value, f"{where}[{key!r}]")
    elif kind is list or kind is tuple:
        for n, value in enumerate(data):
            if not _is_plain(value):
                return _where_not_plain(value, f"{where}[{n}]")
    return f"{where}: a {kind.__name__} ({data!r:.60}) is not plain data"


def _is_plain(data: Any) -> bool:
    try:
        _plain(data)
    except NotPlainData:
        return False
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()  # what open() would give; mkstemp alone makes files private (0600)


_writes = 0


def named(exc: OSError, path: Path | str) -> OSError:
    """``exc`` as raised by a write to ``path``, with the file named (a failed write() names none)."""
    return type(exc)(exc.errno, exc.strerror, str(path)) if exc.errno else exc


def crash_point() -> None:
    """For the crash tests only: with GM_TEST_CRASH_AT=N in the environment the process kills
    itself (SIGKILL: no clean-up runs) just before its N-th write takes effect. Every write that
    changes a campaign passes here: each atomic_write's rename, each append to a log, a turn's swap."""
    global _writes
    at = os.environ.get("GM_TEST_CRASH_AT")
    if not at:
        return
    _writes += 1
    if _writes == int(at):
        import signal
        os.kill(os.getpid(), signal.SIGKILL)


def atomic_write(path: Path | str, data: str | bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.chmod(tmp, _FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        crash_point()
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError) and exc.filename is None:  # a write or sync failed: name the file
            raise named(exc, path) from None
        raise


def write_yaml(path: Path | str, data: Any) -> None:
    atomic_write(path, dump_yaml(data))

