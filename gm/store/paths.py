"""Where the project's shipped files live: templates and maps inside the package, example orders
in the source checkout."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # gm/, two up from gm/store/paths.py
TEMPLATES = PACKAGE / "templates"  # shipped inside the package (a wheel carries them)
MAPS = PACKAGE / "maps"
ROOT = PACKAGE.parent  # the source checkout: example orders for the demo and tests (not installed)
ORDERS = ROOT / "orders"
