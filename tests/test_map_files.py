"""`gm map check` and `gm map render` for every game's data files in its package's maps/, not only hex maps."""
from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from PIL import Image

from gm import games
from gm.cli import main


def maps(name: str) -> Path:
    """A game's shipped maps and data files (its package's maps/)."""
    return games.get(name).maps_folder()


def run(*args, code=0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result


def test_every_shipped_data_file_checks_clean():
    files = sorted(p for n in games.names() if games.get(n).maps_folder() for p in maps(n).glob("*.yaml"))
    assert len(files) >= 7
    for path in files:
        assert run("map", "check", path).output.strip().endswith(": ok"), path


def test_an_imperial_network_map_is_checked_as_one_not_as_a_hex_map(tmp_path):
    folder = tmp_path / "imperial-network"
    folder.mkdir()
    text = (maps("imperial-network") / "europe-1920.yaml").read_text(encoding="utf-8")
    broken = folder / "europe.yaml"
    broken.write_text(text.replace("[Berlin, Stettin,", "[Berlinn, Stettin,", 1), encoding="utf-8")
    assert "[Berlinn, Stettin," in broken.read_text(encoding="utf-8")
    out = run("map", "check", broken, code=1).output
    row = next(n for n, line in enumerate(text.splitlines(), start=1) if "[Berlin, Stettin," in line)
    assert f"europe.yaml:{row}:5: rail line" in out and "unknown city 'Berlinn' (did you mean \"Berlin\"?)" in out
    assert "grid" not in out  # not read as a Railway Rivals hex map


def test_blank_pictures_of_thurn_und_taxis_and_imperial_network_maps(tmp_path):
    for path in (maps("thurn-und-taxis") / "map1.yaml", maps("thurn-und-taxis") / "map2.yaml",
                 maps("imperial-network") / "europe-1920.yaml"):
        out = tmp_path / f"{path.parent.name}-{path.stem}.png"
        run("map", "render", path, "-o", out)
        with Image.open(out) as image:
            assert image.format == "PNG" and image.size[0] >= 800


def test_files_that_are_not_maps_say_so(tmp_path):
    for path in (maps("imperial-network") / "cards.yaml", maps("network-king") / "professions.yaml"):
        out = run("map", "render", path, "-o", tmp_path / "x.png", code=2).output
        assert "draws no picture from this file (it is not a map)" in out
    assert not (tmp_path / "x.png").exists()


def test_a_broken_profession_table_is_reported(tmp_path):
    table = tmp_path / "professions.yaml"
    table.write_text("professions:\n  Wizardry: [wizard]\n", encoding="utf-8")
    out = run("map", "check", table, "--game", "network-king", code=1).output
    assert "unknown profession 'Wizardry'" in out


def test_every_error_of_an_imperial_network_card_file_is_located(tmp_path):
    folder = tmp_path / "imperial-network"
    folder.mkdir()
    text = (maps("imperial-network") / "cards.yaml").read_text(encoding="utf-8")
    broken = text.replace("station:  {cost: 20,", "station:  {cost: -20,", 1)
    broken = broken.replace("train_cost: 30", "train_cost: x", 1)
    assert broken.count("-20") == 1 and "train_cost: x" in broken
    (folder / "cards.yaml").write_text(broken, encoding="utf-8")
    out = run("map", "check", folder / "cards.yaml", code=1).output
    rows = {key: n for n, line in enumerate(broken.splitlines(), start=1)
            for key in ("station:", "train_cost:") if line.startswith(key) or line.startswith("  " + key)}
    assert f"cards.yaml:{rows['station:']}:3: station cost must be a whole number of at least 1, not -20" in out
    assert f"cards.yaml:{rows['train_cost:']}:1: train_cost must be a whole number of at least 1, not 'x'" in out


def test_gm_maps_points_every_game_at_a_collection_of_its_own(tmp_path, monkeypatch):
    (tmp_path / "railway-rivals").mkdir()
    shutil.copy(maps("railway-rivals") / "tutorial.yaml", tmp_path / "railway-rivals" / "rohan.yaml")
    monkeypatch.setenv("GM_MAPS", str(tmp_path))
    game = games.get("railway-rivals")
    assert game.maps_folder() == tmp_path / "railway-rivals" and game.maps() == ["rohan"]
    assert run("map", "check", tmp_path / "railway-rivals" / "rohan.yaml").output.strip().endswith(": ok")
    monkeypatch.delenv("GM_MAPS")
    assert "tutorial" in game.maps() and game.maps_folder().parent == game.package_files()
