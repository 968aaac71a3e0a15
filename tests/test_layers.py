"""The house in layers (docs/architecture.md): the import contracts of pyproject.toml hold, so CI
fails on an import that runs up a layer or closes a circle, not only `make lint`."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["cli", "automation", "delivery", "turn", "time", "games", "hexmap", "store"]


def test_import_contracts_hold():
    tool = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if tool is None:
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    result = subprocess.run([tool, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def _gm_imports(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").startswith("gm."):
            out.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("gm.")]
    return out


def test_no_module_imports_up_a_layer_even_inside_a_function():
    """The same rule read straight from the source, function-level imports included: a second
    opinion that needs no tool, and names the line."""
    rank = {name: i for i, name in enumerate(LAYERS)}
    wrong = []
    for path in sorted((ROOT / "gm").rglob("*.py")):
        parts = path.relative_to(ROOT / "gm").parts
        if len(parts) < 2 or parts[0] not in rank:
            continue
        mine = rank[parts[0]]
        for line, module in _gm_imports(path):
            layer = module.split(".")[1]
            if layer in rank and rank[layer] < mine:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {module} (layer {layer} is above {parts[0]})")
    assert not wrong, "\n".join(wrong)


def test_the_tree_shows_the_layers():
    for name in LAYERS:
        assert (ROOT / "gm" / name / "__init__.py").is_file(), name
    loose = sorted(p.name for p in (ROOT / "gm").glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert loose == [], f"modules outside every layer: {loose}"
