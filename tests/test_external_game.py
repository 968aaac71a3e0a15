"""A game in a distribution of its own: the test game (tests/support/guessgame.py) is built as the
separate distribution `gm-guess` (its own pyproject.toml, entry point `guess = guessgame:GAME` in the
group `gm.games`) and installed with pip, beside a wheel of gm built from this checkout as it is,
into a fresh virtual environment. No file of gm is touched: `gm games`, `gm new`, `gm check`,
`gm resolve` and the conformance tests find the game through its entry point alone."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PYPROJECT = """\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "gm-guess"
version = "1.0"
description = "Guess, a tiny game for gm, in a distribution of its own"

[project.entry-points."gm.games"]
guess = "guessgame:GAME"

[tool.setuptools]
py-modules = ["guessgame"]
"""


def _run(args, cwd, env=None, code=0):
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == code, (args, result.returncode, result.stdout, result.stderr)
    return result


def _wheel(source: Path, out: Path) -> Path:
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w",
          out, source], cwd=source.parent)
    return max(out.glob("*.whl"), key=lambda p: p.stat().st_mtime)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """A fresh environment with gm and gm-guess installed by pip from their wheels; gm's own
    dependencies borrowed from this environment (a path line: this checkout's editable gm unseen)."""
    tmp = tmp_path_factory.mktemp("external")
    gm_source, guess_source, dist = tmp / "gm-source", tmp / "guess-source", tmp / "dist"
    shutil.copytree(ROOT / "gm", gm_source / "gm", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, gm_source / name)
    guess_source.mkdir()
    shutil.copy(ROOT / "tests" / "support" / "guessgame.py", guess_source / "guessgame.py")
    (guess_source / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    wheels = [_wheel(gm_source, dist), _wheel(guess_source, dist)]
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", *wheels],
         cwd=tmp)
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp)
                .stdout.strip())
    (site / "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    away = tmp / "elsewhere"
    away.mkdir()
    environ = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": "", "GM_CACHE_DIR": str(tmp / "cache"),
               "GM_NOW": "2026-12-05T18:00Z"}
    return {"python": python, "gm": venv / "bin" / "gm", "site": site, "away": away, "env": environ}


def test_the_game_is_its_own_distribution_and_gm_names_it_nowhere(env):
    where = _run([env["python"], "-c", "import gm, guessgame; from gm import games; "
                  "print(gm.__file__); print(guessgame.__file__); print(games.installed()['guess'])"],
                 cwd=env["away"], env=env["env"]).stdout.split()
    assert all(w.startswith(str(env["site"])) for w in where[:2]), where
    assert where[2] == "guessgame:GAME"
    installed_gm = env["site"] / "gm"
    assert not [p for p in installed_gm.rglob("*") if p.is_file() and b"guessgame" in p.read_bytes()]


def test_gm_games_new_check_and_resolve_find_the_game_by_its_entry_point(env):
    gm, away, environ = env["gm"], env["away"], env["env"]
    listed = _run([gm, "games"], cwd=away, env=environ).stdout
    assert "guess — Guess (1-4 players, simultaneous)" in listed and "railway-rivals — " in listed
    wrong = _run([gm, "new", "gues", "c", "--player", "ann"], cwd=away, env=environ, code=2).stderr
    assert 'unknown game \'gues\' (did you mean "guess"?)' in wrong and len(wrong.strip().splitlines()) == 1
    _run([gm, "new", "guess", "c", "--player", "ann", "--player", "bob"], cwd=away, env=environ)
    for player, guess in (("ann", 3), ("bob", 9)):
        (away / f"{player}.txt").write_text(f"player: {player}\nturn: 1\nguess {guess}\n", encoding="utf-8")
    bad = _run([gm, "check", "c", away / "bob.txt"], cwd=away, env=environ, code=1).stderr
    assert "bob.txt:3:7: a guess is 1 to 6, not '9'" in bad
    (away / "bob.txt").write_text("player: bob\nturn: 1\nguess 5\n", encoding="utf-8")
    for player in ("ann", "bob"):
        _run([gm, "submit", "c", away / f"{player}.txt"], cwd=away, env=environ)
    _run([gm, "resolve", "c"], cwd=away, env=environ)
    shown = json.loads(_run([gm, "show", "c", "--json"], cwd=away, env=environ).stdout)
    assert shown["game"] == "guess" and shown["turn"] == 1
    assert shown["state"]["guesses"] == {"ann": 3, "bob": 5} and 1 <= shown["state"]["last_roll"] <= 6
    report = (away / "c" / "turns" / "001" / "reports" / "public.txt").read_text(encoding="utf-8")
    assert f"The die shows {shown['state']['last_roll']}." in report


def test_the_conformance_tests_pass_for_the_installed_game(env):
    result = _run([env["python"], "-m", "pytest", "-o", "addopts=", "-v", "-p", "no:cacheprovider", "-k", "guess",
                   ROOT / "tests" / "test_conformance.py"], cwd=env["away"], env=env["env"])
    ran = dict(re.findall(r"::(test_\w+)\[guess\] (PASSED|SKIPPED|FAILED|ERROR)", result.stdout))
    assert {name for name, outcome in ran.items() if outcome == "PASSED"} >= {
        "test_random_playouts_end_repeat_and_have_an_outcome", "test_views_are_plain_data",
        "test_campaign_reports_and_images_render", "test_the_flags_say_what_the_game_has"}, result.stdout
    # Guess hides nothing once a turn is resolved (hidden_information is False): no perturb() to run
    assert ran.get("test_hidden_information_never_reaches_another_viewer") == "SKIPPED", result.stdout
