"""Issue 22 item 10: `gm site` never writes through a symbolic link inside the site folder. A link
standing where a page, picture, script or the site's mark goes is replaced by the file, its target
untouched; a linked sub-folder (img/) is refused in one line, with nothing written through it."""
from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner
from test_site_support import seeded_campaign

from gm.cli import main
from gm.delivery.site import MARKER


def _site(camp: Path, site: Path):
    return CliRunner().invoke(main, ["site", str(camp), "-o", str(site)])


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_link_in_place_of_a_file_is_replaced_never_written_through(tmp_path):
    camp = seeded_campaign("railway-rivals")
    site = tmp_path / "site"
    assert _site(camp, site).exit_code == 0
    outside = tmp_path / "outside"
    outside.mkdir()
    names = ["index.html", "dice.html", "record.json", "turn-001.html", "site.css", "site.js", "dice.js",
             MARKER, "img/001-map.png"]
    for name in names:
        target = outside / name.replace("/", "-")
        target.write_text(f"keep {name}")
        marker = (site / MARKER).read_bytes() if name == MARKER else None
        (site / name).unlink()
        if marker is not None:
            target.write_bytes(marker)  # the mark read through the link is still the site's own
        (site / name).symlink_to(target)
    before = _tree(outside)
    result = _site(camp, site)
    assert result.exit_code == 0, result.output
    assert _tree(outside) == before
    for name in names:
        assert not (site / name).is_symlink() and (site / name).is_file(), name


def test_a_linked_sub_folder_is_refused_in_one_line(tmp_path):
    camp = seeded_campaign("railway-rivals")
    site = tmp_path / "site"
    assert _site(camp, site).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    os.rename(site / "img", elsewhere)
    for picture in elsewhere.iterdir():
        picture.write_bytes(b"keep")
    (site / "img").symlink_to(elsewhere)
    before = _tree(elsewhere)
    result = _site(camp, site)
    assert result.exit_code == 2
    assert result.output == (f"Error: {site / 'img'}: is a symbolic link; gm writes the site only into real "
                             "folders (remove the link)\n")
    assert _tree(elsewhere) == before
