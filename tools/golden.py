"""`make golden`: rewrite the golden transcripts in tests/golden/ (read the diff before committing).

Usage: python tools/golden.py [GAME...]
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support import golden  # noqa: E402

for name in sys.argv[1:] or sorted(golden.SAMPLES):
    print(f"{name}: {golden.write(name)} report files written to tests/golden/{name}/")
