"""Games are found through the entry point group `gm.games`, imported only when asked for; the list
found is cached while sys.path is unchanged; no module of gm outside a game's own package names a game."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gm import games
from gm.cli import main
from gm.games import discovery
from gm.store.errors import UsageError

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = {"imperial-network": "imperial_network", "network": "network", "network-king": "network_king",
           "railway-rivals": "railway_rivals", "thurn-und-taxis": "thurn_und_taxis"}


def test_the_shipped_games_are_entry_points_like_any_other():
    found = discovery.scan()
    assert {name: f"gm.games.{package}:GAME" for name, package in SHIPPED.items()}.items() <= found.items()
    assert "guess" not in found  # the test game is only registered in this process (conftest)
    assert not hasattr(games, "REGISTRY")


def test_listing_the_games_imports_none_of_them():
    code = ("import sys; from gm import games; names = games.names(); "
            "print(sorted(m for m in sys.modules if m.startswith('gm.games.') and m.count('.') == 2))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "['gm.games.base', 'gm.games.discovery']"


def test_an_unknown_game_is_one_line_with_did_you_mean(tmp_path):
    result = CliRunner().invoke(main, ["new", "railway-rivls", str(tmp_path / "c"), "--player", "ann"])
    assert result.exit_code == 2
    line = result.output.strip()
    assert "\n" not in line and "unknown game 'railway-rivls' (did you mean \"railway-rivals\"?)" in line
    assert not (tmp_path / "c").exists()


def test_a_broken_entry_point_is_a_one_line_error():
    games.register("broken-import", "no_such_module_here:GAME")
    games.register("not-a-game", "gm.games.base:Option")
    try:
        with pytest.raises(UsageError, match="game 'broken-import' .* cannot be imported: No module named"):
            games.get("broken-import")
        with pytest.raises(UsageError, match="is not a gm game of that name"):
            games.get("not-a-game")
    finally:
        games._added.pop("broken-import")
        games._added.pop("not-a-game")


def test_the_table_is_read_from_the_cache_until_sys_path_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_CACHE_DIR", str(tmp_path / "cache"))
    scans = []
    real_scan = discovery.scan
    monkeypatch.setattr(discovery, "scan", lambda: scans.append(1) or real_scan())
    first = discovery.entry_points_table()
    assert len(scans) == 1 and list((tmp_path / "cache").glob("games-*.json"))
    assert discovery.entry_points_table() == first and len(scans) == 1  # from the cache
    extra = tmp_path / "site"
    extra.mkdir()
    monkeypatch.setattr(sys, "path", [*sys.path, str(extra)])
    discovery.entry_points_table()
    assert len(scans) == 2  # another sys.path: scanned again
    discovery.entry_points_table()
    assert len(scans) == 2
    (extra / "newly-installed.dist-info").mkdir()  # what installing a distribution does to its folder
    discovery.entry_points_table()
    assert len(scans) == 3
    monkeypatch.setenv("GM_CACHE_DIR", "off")
    assert discovery.entry_points_table() == first and len(scans) == 4


def test_a_game_installed_after_the_cache_was_written_is_still_found(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(games, "_table", None)
    monkeypatch.setattr(discovery, "scan", lambda: {})  # the cache says: nothing installed
    assert games.names() == sorted(games._added)
    monkeypatch.setattr(discovery, "scan", lambda: {"late": "support.guessgame:GAME"})
    with pytest.raises(UsageError, match="is not a gm game of that name"):  # found on a fresh look
        games.get("late")
    monkeypatch.setattr(games, "_table", None)


def _names_of_games() -> list[str]:
    """Every shipped game's name, package and title as regular expressions. A name that is also a
    plain word ("network": a player's network of track) is looked for only as code names it: quoted,
    as a module path or as a folder."""
    found = set()
    for name, package in SHIPPED.items():
        for word in {name, package, games.get(name).title}:
            if re.fullmatch(r"[a-z]+", word.lower()):
                w = re.escape(word)
                found |= {rf"[\"']{w}[\"']", rf"games\.{w}\b", rf"\b{w}/"}
            else:
                found.add(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
    return sorted(found)


def test_no_module_outside_a_games_own_package_names_a_game():
    """The core (everything in gm/ but gm/games/<game>/) names no game; the command line's help may
    name one in an example ("Example: gm new network ...")."""
    pattern = re.compile("|".join(_names_of_games()), re.I)
    own = tuple(f"gm/games/{package}/" for package in SHIPPED.values())
    hits = []
    for path in sorted((ROOT / "gm").rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if not path.is_file() or rel.startswith(own) or path.suffix not in (".py", ".j2", ".md", ".js", ".css"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line) and not (rel.startswith("gm/cli/") and re.search(r"\bgm \w+", line)):
                hits.append(f"{rel}:{number}: {line.strip()}")
    assert hits == []


def test_a_game_must_say_what_each_viewer_sees():
    """No default view: a game that forgot view() would otherwise show every viewer the whole state."""
    from gm.games.base import Game

    class Forgetful(Game):
        name = "forgetful"

    with pytest.raises(NotImplementedError, match="define view"):
        Forgetful().view({"secret": 1}, "public")
