"""The campaign website without a browser: what is written, what is refused, and the incremental
update after one more turn (tests/test_site_browser.py opens the pages in Chromium)."""
from __future__ import annotations

import json
import re
import shutil

import pytest
from click.testing import CliRunner

from gm.turn import engine
from gm.store.campaign import Campaign
from gm.cli import main
from gm.delivery.site import MARKER, build, update
from test_site_support import GAME_NAMES, MASTER, copy_campaign, play, public_text, seeded_campaign


def test_site_has_every_page_and_nothing_private(tmp_path):
    camp = seeded_campaign("railway-rivals")
    result = CliRunner().invoke(main, ["site", str(camp), "-o", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    site = tmp_path / "site"
    assert result.output.strip() == (f"Wrote the site to {site}/: index.html, 3 turn pages, dice.html (9 rolls), "
                                     "record.json")
    names = {p.name for p in site.iterdir()}
    assert {"index.html", "dice.html", "record.json", "site.css", "site.js", "dice.js", MARKER,
            "turn-000.html", "turn-001.html", "turn-002.html"} <= names
    assert sorted(p.name for p in (site / "img").iterdir()) == ["000-map.png", "001-map.png", "002-map.png"]
    first, middle, last = ((site / f"turn-00{t}.html").read_text() for t in range(3))
    assert 'rel="prev"' not in first and 'href="turn-001.html"' in first
    assert 'href="turn-000.html"' in middle and 'href="turn-002.html"' in middle
    assert 'rel="next"' not in last
    index = (site / "index.html").read_text()
    assert all(f'href="turn-00{t}.html"' in index for t in range(3))
    assert "Ann" in index and "Still missing" in index
    text = public_text(site)
    assert "@example.org" not in text and MASTER.hex() not in text and "@{" not in text
    # no page loads anything from elsewhere
    assert not re.search(r'(src|href)="(https?:)?//', text)


def test_folder_not_made_by_gm_is_refused_and_left_alone(tmp_path):
    target = tmp_path / "www"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["site", str(seeded_campaign("network")), "-o", str(target)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"Error: {target}: exists and is not a site made by gm (no {MARKER}); nothing was changed: "
        "choose a new or empty folder"]
    assert [p.name for p in target.iterdir()] == ["notes.txt"] and (target / "notes.txt").read_text() == "mine"
    file_target = tmp_path / "file"
    file_target.write_text("x")
    result = CliRunner().invoke(main, ["site", str(seeded_campaign("network")), "-o", str(file_target)])
    assert result.exit_code == 2 and "is a file" in result.output and file_target.read_text() == "x"


def test_another_campaigns_site_is_refused(tmp_path):
    build(Campaign(seeded_campaign("network")), tmp_path / "site")
    before = sorted(p.name for p in (tmp_path / "site").iterdir())
    result = CliRunner().invoke(main, ["site", str(seeded_campaign("network-king")), "-o", str(tmp_path / "site")])
    assert result.exit_code == 2 and "holds the site of another campaign" in result.output
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == before


def test_empty_folder_and_a_campaign_with_no_resolved_turn(tmp_path):
    (tmp_path / "site").mkdir()
    engine.new_campaign(tmp_path / "c", "network", ["ann:Ann:ann@example.org", "bob:Bob"], master=MASTER)
    result = build(Campaign(tmp_path / "c"), tmp_path / "site")
    index = (tmp_path / "site" / "index.html").read_text()
    assert "Turn 1 is being played" in index and 'href="turn-000.html"' in index
    assert result.turns_written == [0]
    record = json.loads((tmp_path / "site" / "record.json").read_text())
    assert record["status"]["missing"] == ["ann"] and record["outcome"] is None


def test_update_writes_only_what_one_more_turn_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-05T18:00Z")
    campaign = copy_campaign("railway-rivals", tmp_path)
    site = tmp_path / "site"
    build(campaign, site)
    old = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
    campaign = play(campaign, 1)
    result = update(campaign, site)
    assert result.turns_written == [3]
    assert result.pages_written == ["turn-002.html", "turn-003.html", "index.html", "players.html", "dice.html",
                                   "record.json"]
    for path, mtime in old.items():
        if path.name.startswith(("turn-000", "turn-001", "000-", "001-", "002-")):
            assert path.stat().st_mtime_ns == mtime, path
    assert 'href="turn-003.html"' in (site / "turn-002.html").read_text()
    # the update gives the same site as a full build
    build(campaign, tmp_path / "full")
    for path in (tmp_path / "full").rglob("*"):
        if path.is_file() and path.name != MARKER:
            assert path.read_bytes() == (site / path.relative_to(tmp_path / "full")).read_bytes(), path
    # nothing changed: nothing but the index, dice page and record is written again
    assert update(campaign, site).pages_written == ["index.html", "players.html", "dice.html", "record.json"]


def test_update_after_a_rollback_removes_the_turn_it_undid(tmp_path):
    campaign = copy_campaign("railway-rivals", tmp_path)
    site = tmp_path / "site"
    build(campaign, site)
    (site / "mine.txt").write_text("a file the GM keeps beside the site")
    shutil.rmtree(campaign.turn_dir(2))  # what `gm rollback` leaves
    result = update(Campaign(campaign.path), site)
    assert set(result.removed) == {"turn-002.html", "img/002-map.png"}
    assert not (site / "turn-002.html").exists() and (site / "mine.txt").exists()
    assert 'rel="next"' not in (site / "turn-001.html").read_text()
    assert result.pages_written[0] == "turn-001.html"


def test_public_press_goes_into_the_record_and_onto_its_turn_page(tmp_path, monkeypatch):
    """gm.store.press gives each turn's public press to the record; a stand-in for it here."""
    from gm.delivery import record as record_module
    said = {"from": "p2", "from_name": "Bob", "to": "all", "to_name": "all", "text": "Beware <the> red line!",
            "at": "2026-12-01T10:00:00+00:00", "grey": False}
    monkeypatch.setattr(record_module, "press_for",
                        lambda campaign, turn, viewer: [said] if turn == 1 and viewer == "public" else [])
    build(Campaign(seeded_campaign("network")), tmp_path / "site")
    record = json.loads((tmp_path / "site" / "record.json").read_text())
    assert [t["press"] for t in record["turns"]] == [[], [said], []]
    page = (tmp_path / "site" / "turn-001.html").read_text()
    assert "Beware &lt;the&gt; red line!" in page and "Bob" in page
    assert "Beware" not in (tmp_path / "site" / "turn-002.html").read_text()


def test_site_folder_from_campaign_yaml(tmp_path):
    from gm.delivery.site import configured_folder
    campaign = copy_campaign("network", tmp_path)
    assert configured_folder(campaign) is None
    campaign.config["site"] = "www"
    assert configured_folder(campaign) == campaign.path / "www"
    campaign.config["site"] = str(tmp_path / "elsewhere")
    assert configured_folder(campaign) == tmp_path / "elsewhere"
    update(campaign, configured_folder(campaign))
    assert (tmp_path / "elsewhere" / "index.html").exists()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_standings_in_the_games_own_terms(name):
    from gm.delivery.record import public_record
    from gm.delivery.site.standings import standings
    record = public_record(Campaign(seeded_campaign(name)))
    view = record["turns"][-1]["view"]
    blocks = standings(name, view, record["players"])
    assert blocks and all(b["rows"] for b in blocks)
    ids = {p["id"] for p in record["players"]}
    named = {c["player"] for b in blocks for row in b["rows"] for c in row if isinstance(c, dict)}
    assert named == ids
    first = blocks[0]
    if name == "railway-rivals":
        cash = {row[0]["player"]: row[1] for row in first["rows"]}
        assert cash == view["cash"] and "<svg" in first["chart"]
    if name == "imperial-network":
        assert {row[0]["player"]: row[1] for row in first["rows"]} == view["capital"]


def test_update_notices_a_turn_changed_in_the_campaign(tmp_path):
    """A dice log edited after the fact: the update rewrites that turn, and the record shows the
    edit (which the dice page then flags)."""
    import yaml
    campaign = copy_campaign("railway-rivals", tmp_path)
    build(campaign, tmp_path / "site")
    path = campaign.turn_dir(1) / "dice.yaml"
    log = yaml.safe_load(path.read_text())
    log["rolls"][0]["value"] = log["rolls"][0]["value"] % 6 + 1
    path.write_text(yaml.safe_dump(log))
    result = update(campaign, tmp_path / "site")
    assert result.turns_written == [1] and "turn-000.html" in result.pages_written
    record = json.loads((tmp_path / "site" / "record.json").read_text())
    assert record["turns"][1]["dice"]["rolls"][0]["value"] == log["rolls"][0]["value"]
    row = re.search(r'<tr class="roll" id="r-1-0"[^>]*>', (tmp_path / "site" / "dice.html").read_text()).group(0)
    assert f'data-value="{log["rolls"][0]["value"]}"' in row
