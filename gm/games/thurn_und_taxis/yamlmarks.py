"""Reading YAML while remembering where each value sits, so map errors can name file:line:col."""
from __future__ import annotations

from typing import Any

import yaml

from gm.store.errors import MapError
from gm.store.fileio import yaml_loader

Path = tuple  # keys and list indexes from the top of the document down to one value


class Located:
    """Plain data read from YAML, with ``where(path)`` -> (line, col), both 1-based."""

    def __init__(self, data: Any, marks: dict[Path, tuple[int, int]], file: str,
                 errors: list[MapError]):
        self.data, self.marks, self.file, self.errors = data, marks, file, errors

    def where(self, path: Path) -> tuple[int | None, int | None]:
        # the nearest located ancestor when the exact value has no mark (a missing key)
        path = tuple(path)
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path, (None, None))

    def error(self, path: Path, message: str) -> MapError:
        line, col = self.where(path)
        return MapError(message, file=self.file, line=line, col=col)


def read(text: str, file: str) -> Located:
    """Parse ``text``; YAML syntax errors and duplicate keys come back in ``errors``."""
    errors: list[MapError] = []
    marks: dict[Path, tuple[int, int]] = {}
    loader = yaml_loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        problem = exc.problem or exc.context or "not valid YAML"
        errors.append(MapError(f"not valid YAML: {problem}", file=file, line=line, col=col))
        loader.dispose()
        return Located(None, marks, file, errors)
    data = None if node is None else _build(node, (), marks, errors, file, loader)
    loader.dispose()
    return Located(data, marks, file, errors)


def _build(node: yaml.Node, path: Path, marks: dict, errors: list, file: str, loader) -> Any:
    marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        first_line: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True) if isinstance(key_node, yaml.ScalarNode) \
                else str(key_node.value)
            if isinstance(key, list):
                key = str(key)
            if key in out:
                errors.append(MapError(f"{key!r} appears twice here (first on line {first_line[key]})",
                                       file=file, line=key_node.start_mark.line + 1,
                                       col=key_node.start_mark.column + 1))
                continue
            first_line[key] = key_node.start_mark.line + 1
            out[key] = _build(value_node, path + (key,), marks, errors, file, loader)
            # a key's own position is where errors about the key (not its value) point
            marks[path + (key, "<key>")] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), marks, errors, file, loader) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)
