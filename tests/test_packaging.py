"""The wheel is the whole of gm: installed into a fresh environment it runs a campaign from any
folder (maps and templates travel inside the package), and `python -m gm` is the `gm` command."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(args, cwd, **kw):
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300, **kw)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result.stdout


def test_a_wheel_in_a_fresh_environment_runs_a_campaign(tmp_path):
    # built from a copy of what the wheel is made of, so no build/ folder is left in the checkout
    source = tmp_path / "source"
    shutil.copytree(ROOT / "gm", source / "gm", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
          str(tmp_path / "dist"), str(source)], cwd=tmp_path)
    wheel = next((tmp_path / "dist").glob("gm-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    # each game's templates and maps travel inside its own package
    assert "gm/games/railway_rivals/maps/tutorial.yaml" in names and "gm/templates/report.txt.j2" in names
    assert "gm/games/railway_rivals/templates/report.html.j2" in names and "gm/delivery/site/static/dice.js" in names
    for package in ("imperial_network", "network", "network_king", "thurn_und_taxis"):
        assert f"gm/games/{package}/templates/report.txt.j2" in names, package
    assert {"gm/games/thurn_und_taxis/maps/map1.yaml", "gm/games/imperial_network/maps/cards.yaml",
            "gm/games/network_king/maps/professions.yaml", "gm/hexmap/README.md"} <= set(names)
    assert not any(n.startswith(("gm/maps/", "gm/templates/railway-rivals/")) for n in names)
    # the shipped games are found as any game is: entry points in the group gm.games
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    declared = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[gm.games]" in declared and "railway-rivals = gm.games.railway_rivals:GAME" in declared
    # a fresh environment: the wheel unpacked into its site-packages, the dependencies borrowed
    # from this one (a path line, so this checkout's own editable install is not seen)
    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     cwd=tmp_path).strip())
    zipfile.ZipFile(wheel).extractall(site)
    (site / "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": ""}
    where = _run([str(python), "-c", "import gm; print(gm.__file__)"], cwd=away, env=env)
    assert where.startswith(str(site)), where
    _run([str(python), "-m", "gm", "new", "railway-rivals", "c", "--map", "tutorial",
          "--player", "ann", "--player", "bob"], cwd=away, env=env)
    _run([str(python), "-m", "gm", "resolve", "c", "--force"], cwd=away, env=env)
    report = _run([str(python), "-m", "gm", "report", "c", "--public"], cwd=away, env=env)
    games_out = _run([str(python), "-m", "gm", "games"], cwd=away, env=env)
    assert all(f"{name} — " in games_out for name in ("imperial-network", "network", "network-king",
                                                      "railway-rivals", "thurn-und-taxis")), games_out
    assert "Ann" in report and (away / "c" / "turns" / "001" / "reports" / "map.png").is_file()
    assert "simulate" in _run([str(python), "-m", "gm", "--help"], cwd=away, env=env)
