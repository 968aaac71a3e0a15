"""Atomic file writes and YAML that a person can read."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str):
    # strings of digits (hex labels like 0508 and 1205) always quoted alike, so no reader takes one for a number
    style = "|" if "\n" in data else "'" if data.isascii() and data.isdigit() else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


def _list_presenter(dumper: yaml.SafeDumper, data: list):
    node = dumper.represent_list(data)
    # a list of plain values on one line, as PyYAML does unless a value is quoted ('0508')
    if node.value and all(isinstance(n, yaml.ScalarNode) and n.style != "|" for n in node.value):
        node.flow_style = True
    return node


_Dumper.add_representer(str, _str_presenter)
_Dumper.add_representer(list, _list_presenter)
_Dumper.add_representer(tuple, lambda d, data: _list_presenter(d, list(data)))


def dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()  # what open() would give; mkstemp alone makes files private (0600)


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
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_yaml(path: Path | str, data: Any) -> None:
    atomic_write(path, dump_yaml(data))
