"""Where the project's shipped files live (templates, maps, example orders)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
MAPS = ROOT / "maps"
ORDERS = ROOT / "orders"
