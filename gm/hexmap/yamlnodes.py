"""Reading YAML with positions: every value keeps the file, line and column it came from.

PyYAML's composed node tree keeps marks; this module walks it and turns mistakes into located
MapErrors, collected rather than raised so that a file's every error is reported at once.
"""
from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from gm.store.errors import MapError
from gm.store.fileio import compose_yaml
from gm.store.names import suggestion

LABEL_RE = re.compile(r"^\d{4}$")
_constructor = yaml.constructor.SafeConstructor()
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml keeps the same marks, five times faster


class NodeReader:
    """Turns nodes into Python values, recording one MapError per mistake in ``errors``."""

    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text
        self.raw_lines = text.splitlines()
        self.errors: list[MapError] = []

    # --- errors ----------------------------------------------------------------------------
    def error(self, where: Node | None, message: str, *, line: int | None = None, col: int | None = None) -> None:
        if where is not None and line is None:
            line, col = where.start_mark.line + 1, where.start_mark.column + 1
        self.errors.append(MapError(message, file=self.file, line=line, col=col))

    def compose(self) -> Node | None:
        try:
            return compose_yaml(self.text, loader=_Loader)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            what = " ".join(str(exc.problem or exc.context or "not valid YAML").split())
            self.error(None, f"not valid YAML: {what}",
                       line=mark.line + 1 if mark else None, col=mark.column + 1 if mark else None)
        except yaml.YAMLError as exc:
            self.error(None, f"not valid YAML: {' '.join(str(exc).split())}")
        return None

    # --- shapes ----------------------------------------------------------------------------
    def value(self, node: Node) -> Any:
        try:
            return _constructor.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            self.error(node, f"cannot read this value: {' '.join(str(exc).split())}")
            return None

    def mapping(self, node: Node | None, what: str, allowed: tuple[str, ...] | None = None
                ) -> list[tuple[Any, Node, Node]]:
        """(key, key node, value node) for each entry; duplicate and unknown keys are errors."""
        if node is None or (isinstance(node, ScalarNode) and node.tag.endswith(":null")):
            return []
        if not isinstance(node, MappingNode):
            self.error(node, f"{what} must be a mapping of key: value")
            return []
        out: list[tuple[Any, Node, Node]] = []
        seen: dict[Any, Node] = {}
        for key_node, value_node in node.value:
            key = self.value(key_node) if isinstance(key_node, ScalarNode) else None
            if key is None:
                self.error(key_node, f"{what}: a key must be a plain word or number")
                continue
            if key in seen:
                self.error(key_node, f"{what}: duplicate key {key!r} (first at line {seen[key].start_mark.line + 1})")
                continue
            seen[key] = key_node
            if allowed is not None and key not in allowed:
                hint = suggestion(str(key), allowed) or f" (known keys: {', '.join(allowed)})"
                self.error(key_node, f"{what}: unknown key \"{key}\"{hint}")
                continue
            out.append((key, key_node, value_node))
        return out

    def sequence(self, node: Node | None, what: str) -> list[Node]:
        if node is None or (isinstance(node, ScalarNode) and node.tag.endswith(":null")):
            return []
        if not isinstance(node, SequenceNode):
            self.error(node, f"{what} must be a list [..]")
            return []
        return list(node.value)

    def integer(self, node: Node, what: str, *, low: int | None = None, high: int | None = None) -> int | None:
        value = self.value(node) if isinstance(node, ScalarNode) else None
        if not isinstance(value, int) or isinstance(value, bool):
            self.error(node, f"{what} must be a whole number")
            return None
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"{low} to {high}" if high is not None else f"at least {low}"
            self.error(node, f"{what} must be {span}, not {value}")
            return None
        return value

    def text_value(self, node: Node, what: str) -> str | None:
        value = self.value(node) if isinstance(node, ScalarNode) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(node.value)  # a name that happens to be a number is still a name
        if not isinstance(value, str) or not value.strip():
            self.error(node, f"{what} must be some text")
            return None
        return value.strip()

    def boolean(self, node: Node, what: str) -> bool | None:
        value = self.value(node) if isinstance(node, ScalarNode) else None
        if not isinstance(value, bool):
            self.error(node, f"{what} must be true or false")
            return None
        return value

    # --- hex labels --------------------------------------------------------------------------
    def label(self, node: Node, what: str) -> str | None:
        """A quoted CCRR label; an unquoted or malformed one is an error that says the fix."""
        if not isinstance(node, ScalarNode):
            self.error(node, f"{what}: expected a hex label in quotes, like \"0301\"")
            return None
        raw = node.value
        quoted = node.style in ("'", '"')
        if quoted and LABEL_RE.match(raw):
            return raw
        if not quoted and re.fullmatch(r"\d{1,4}", raw):
            fixed = raw.zfill(4)
            as_read = self.value(node)
            read = f" (YAML reads it as the number {as_read})" if isinstance(as_read, int) else ""
            self.error(node, f"{what}: hex {raw} is not quoted{read}: write \"{fixed}\", quoted")
            return None
        hint = f": write \"{raw.zfill(4)}\"" if re.fullmatch(r"\d{1,3}", raw) else ""
        self.error(node, f"{what}: {raw!r} is not a hex label (four digits CCRR in quotes, like \"0301\"){hint}")
        return None

    def block_position(self, node: Node, line_index: int, char_index: int) -> tuple[int, int]:
        """File line and column of character ``char_index`` of line ``line_index`` inside a string node."""
        if isinstance(node, ScalarNode) and node.style == "|":
            file_line = node.start_mark.line + 1 + line_index  # 0-based; content starts below the '|'
            content = node.value.split("\n")[line_index] if line_index < node.value.count("\n") + 1 else ""
            raw = self.raw_lines[file_line] if file_line < len(self.raw_lines) else content
            indent = max(len(raw) - len(content), 0)
            return file_line + 1, indent + char_index + 1
        if isinstance(node, ScalarNode) and line_index == 0:
            offset = 1 if node.style in ("'", '"') else 0
            return node.start_mark.line + 1, node.start_mark.column + 1 + offset + char_index
        return node.start_mark.line + 1, node.start_mark.column + 1
