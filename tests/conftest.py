"""Shared fixtures: a tiny test-only game registered beside the real ones."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from gm import games  # noqa: E402

games.REGISTRY.setdefault("guess", "support.guessgame")


@pytest.fixture
def fixed_master() -> bytes:
    return bytes(range(32))
