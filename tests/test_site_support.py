"""Seeded campaigns of every game for the website and record tests, made once per test run and
shared by tests/test_site.py, tests/test_site_browser.py and tests/test_record.py (no tests here).
A test that changes a campaign works on its own copy (``copy_campaign``)."""
from __future__ import annotations

import atexit
import functools
import os
import random
import shutil
import tempfile
from pathlib import Path

import pytest

from gm import games
from gm.turn import engine
from gm.store.campaign import Campaign
from gm.delivery.site.browser import Browser, BrowserError

MASTER = bytes(range(32))
GAME_NAMES = [n for n in games.names() if games.get(n).pictures]  # the site shows each turn's picture
_ROOT = Path(tempfile.mkdtemp(prefix="gm-site-tests-"))
atexit.register(shutil.rmtree, _ROOT, True)


def players_for(game) -> list[str]:
    n = max(game.min_players, min(game.max_players, 3))
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    return [f"p{i + 1}:{names[i]}:{names[i].lower()}@example.org" for i in range(n)]


def play(campaign: Campaign, turns: int, seed: int = 5) -> Campaign:
    """Resolve ``turns`` more turns of seeded random orders (fewer when the game ends)."""
    game = games.get(campaign.game_name)
    rng = random.Random(seed + campaign.current_turn)
    for _ in range(turns):
        state = campaign.state()
        due = game.due(state)
        if not due:
            break
        for player in due:
            campaign.store_orders(campaign.current_turn, player,
                                  f"player: {player}\n" + game.random_orders(state, player, rng))
        engine.resolve(campaign)
    return Campaign(campaign.path)


def seeded_campaign(name: str, turns: int = 2) -> Path:
    """A campaign of ``name`` with ``turns`` resolved turns after set-up (do not change it)."""
    return _made(name, turns)


@functools.lru_cache(maxsize=None)
def _made(name: str, turns: int) -> Path:
    game = games.get(name)
    folder = _ROOT / f"{name}-{turns}"
    engine.new_campaign(folder, name, players_for(game), master=MASTER, name=f"{game.title} test")
    play(Campaign(folder), turns)
    return folder


FINISHED = 500  # turns enough for Network King (about a dozen) to end: play stops when a game is over


def finished_campaign(name: str) -> Path:
    """A campaign of ``name`` played by seeded random orders to its end (do not change it)."""
    return _made(name, FINISHED)


def copy_campaign(name: str, where: Path, turns: int = 2) -> Campaign:
    target = where / f"{name}-copy"
    shutil.copytree(seeded_campaign(name, turns), target)
    return Campaign(target)


def public_text(folder: Path) -> str:
    """Every text file of a site, for searching it for what must not be there."""
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*"))
                     if p.is_file() and p.suffix in (".html", ".json", ".js", ".css"))


def start_chromium() -> Browser:
    """Headless Chromium for a test module: outside CI a machine without it skips the module; in
    CI (CI=true) the tests fail, so the check cannot silently vanish."""
    try:
        return Browser()
    except BrowserError as exc:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(f"headless Chromium must run in CI: {exc}")
        pytest.skip(f"no headless Chromium here: {exc}")
