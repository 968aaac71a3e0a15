"""Issue 24 items 6 and 7 on the website: a players' page (how to write this game's orders, from the
game's own text; the mail commands; how to check the dice), the players' colours as the game's
pictures draw them, the latest public map on the front page, and tables that scroll inside themselves
with a visible cue at 360 px (in Chromium: skipped outside CI when missing, failing in CI)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gm import games
from gm.delivery.help import COMMANDS
from gm.delivery.site import build
from gm.store.campaign import Campaign
from test_site_support import GAME_NAMES, copy_campaign, seeded_campaign, start_chromium


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("players-sites")
    out = {}
    for name in GAME_NAMES:
        out[name] = root / name
        build(Campaign(seeded_campaign(name)), out[name])
    return out


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_site_has_a_players_page_linked_from_every_page(name, sites):
    folder = sites[name]
    page = (folder / "players.html").read_text()
    for usage, _ in COMMANDS:
        assert f"<code>{usage}</code>" in page
    assert 'href="dice.html"' in page and "hashlib.sha256" in page
    assert "GM's guide is\nfor the GM" in page or "the GM's guide is" in page
    for other in ["index.html", "dice.html", *sorted(p.name for p in folder.glob("turn-*.html"))]:
        assert 'href="players.html"' in (folder / other).read_text(), other
    assert "players.html" in ((folder / ".gm-site.json").read_text())  # gm's own file: removed with the site


def test_the_players_page_explains_the_game_s_own_orders(sites):
    """The game's text (its templates' players.html.j2), else the general one; no game is named in the
    site's code."""
    rr = (sites["railway-rivals"] / "players.html").read_text()
    assert "round 1: (2522) 2523" in rr and "race 3: Isengard" in rr
    network = (sites["network"] / "players.html").read_text()
    assert "round 1:" not in network and "blank order form" in network
    site_code = "".join(p.read_text() for p in Path("gm/delivery/site").rglob("*.py")
                        if p.name != "standings.py")  # (standings are moving into the games: issue 24)
    assert not any(title in site_code for title in ("Railway Rivals", "railway-rivals", "railway_rivals"))


def test_a_gm_s_own_players_text_wins(tmp_path):
    camp = copy_campaign("network", tmp_path)
    (camp.path / "templates" / "network").mkdir(parents=True)
    (camp.path / "templates" / "network" / "players.html.j2").write_text("<p>House rules: {{ game }}</p>\n")
    build(camp, tmp_path / "site")
    assert "<p>House rules: Network</p>" in (tmp_path / "site" / "players.html").read_text()


def test_colours_are_the_game_s_once_a_company_chooses_one(tmp_path):
    """Railway Rivals: a company that writes `company: ..., purple` is purple on the map; the site's
    swatches follow from that turn on (earlier turn pages keep the colours their map has)."""
    camp = copy_campaign("railway-rivals", tmp_path)
    game = games.get("railway-rivals")
    state = camp.state()
    before = game.player_colours(game.view(state, "public"))
    camp.store_orders(camp.current_turn, "p1", "player: p1\ncompany: Purple Line, purple\n")
    from gm.turn import engine
    engine.resolve(camp, force=True)
    after = game.player_colours(game.view(camp.state(), "public"))
    assert after["p1"] != before["p1"]
    build(camp, tmp_path / "site")

    def swatch(page: str) -> str:
        html = (tmp_path / "site" / page).read_text()
        found = re.search(r'class="swatch" style="background:(#[0-9a-fA-F]{6})"[^>]*></span>\s*Ann', html)
        assert found, page
        return found.group(1).lower()
    last = f"turn-{camp.last_turn:03d}.html"
    assert swatch("index.html") == swatch(last) == after["p1"].lower()
    assert swatch(f"turn-{camp.last_turn - 1:03d}.html") == before["p1"].lower()


def test_the_front_page_shows_the_latest_public_map(sites):
    folder = sites["railway-rivals"]
    index = (folder / "index.html").read_text()
    last = max(int(p.stem.split("-")[1]) for p in folder.glob("turn-*.html"))
    assert f'<figure class="latest"><a href="turn-{last:03d}.html"><img src="img/{last:03d}-map.png"' in index
    assert (folder / "img" / f"{last:03d}-map.png").is_file()


@pytest.fixture(scope="module")
def phone():
    chromium = start_chromium()
    with chromium:
        yield chromium.page(360)


def test_tables_scroll_inside_themselves_with_a_visible_cue_at_360_px(phone, sites):
    for name, page in (("railway-rivals", "index.html"), ("railway-rivals", "dice.html"),
                       ("railway-rivals", "players.html")):
        phone.open(sites[name] / page)
        size = phone.overflow()
        assert size["scroll"] <= size["inner"], (name, page, size)  # the page itself never scrolls sideways
        boxes = phone.evaluate("""[...document.querySelectorAll('.scroll, .report table')].map(b => ({
            wide: b.scrollWidth > b.clientWidth + 1, cue: getComputedStyle(b).backgroundImage,
            overflow: getComputedStyle(b).overflowX}))""")
        assert boxes, (name, page)
        for box in boxes:
            assert box["overflow"] == "auto" and box["cue"].count("gradient") == 4, box
        if page == "index.html":
            assert any(box["wide"] for box in boxes)  # the standings are wider than a phone
