"""Shared fixtures: a tiny test-only game registered beside the real ones."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# the map-layer cache of the tests lives and dies with the test run, never in the user's home
os.environ.setdefault("GM_CACHE_DIR", tempfile.mkdtemp(prefix="gm-test-cache-"))

from gm import games  # noqa: E402

if "guess" not in games.installed():  # tests/test_external_game.py runs the suite with it installed
    games.register("guess", "support.guessgame:GAME")


@pytest.fixture
def fixed_master() -> bytes:
    return bytes(range(32))
