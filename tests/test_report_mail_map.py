"""Issue 24 items 6 and 11: a player's report (and so their report mail) carries the map around their
network at the whole map's scale, a fraction of the whole map's bytes; with ``site_url`` reports
link the turn's page (the whole map), the dice page and the players' page."""
from __future__ import annotations

import io
import random

import pytest
import yaml
from PIL import Image

from gm import games
from gm.delivery.mail.outbox import report_messages
from gm.games.railway_rivals.hexmaps import load_map
from gm.hexmap.raster import near_box, page_for
from gm.hexmap.style import DPI
from gm.store.campaign import Campaign
from gm.store.errors import UsageError
from gm.turn import engine, publish
from gm.turn.links import check_site_url

SIX = ["blue", "red", "green", "yellow", "purple", "orange"]
RR = games.get("railway-rivals")


@pytest.fixture(scope="module")
def scotland(tmp_path_factory) -> Campaign:
    folder = tmp_path_factory.mktemp("mailmap") / "scot"
    engine.new_campaign(folder, "railway-rivals", [f"{p}:{p.title()}:{p}@example.org" for p in SIX],
                        map_name="scotland", master=bytes(range(32)))
    config = yaml.safe_load((folder / "campaign.yaml").read_text())
    config.update(nmr_policy="bot", site_url="https://example.org/scot/")
    (folder / "campaign.yaml").write_text(yaml.safe_dump(config))
    for _ in range(3):
        engine.resolve(Campaign(folder), force=True)
    return Campaign(folder)


def _rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_a_player_s_mail_shows_the_map_around_their_network(scotland):
    turn = scotland.last_turn
    reports = scotland.turn_dir(turn) / "reports"
    whole = (reports / "map.png").read_bytes()
    messages = dict(report_messages(scotland, turn)[0])
    for player in SIX:
        near = reports / publish.near_image_file(RR, player)
        assert near.is_file(), player
        html = (reports / f"{player}.html").read_text()
        assert f'src="{near.name}"' in html and 'src="map.png"' not in html
        assert "https://example.org/scot/turn-003.html" in html  # the whole map, on the site
        mail = messages[f"report:{turn}:{player}"]
        inline = [part for part in mail.walk() if part.get_content_maintype() == "image"]
        assert [part.get_filename() for part in inline] == [near.name]
        assert len(bytes(mail)) < len(whole) * 1.37 / 2  # far less than the whole map alone, base64'd
    # at the same scale as the whole map: its pixels are the whole map's, around the network
    state = scotland.state(turn)
    view = RR.view(state, "blue")
    focus = RR.picture_focus(view, "blue")
    picture = RR.render(view, "blue", players=publish.public_players(scotland))
    box = near_box(load_map("scotland"), page_for(load_map("scotland"), picture.title, picture.entries), focus)
    full, part = _rgb(whole), _rgb((reports / publish.near_image_file(RR, "blue")).read_bytes())
    assert part.width < full.width and part.height < full.height
    left = (part.width - (box[2] - box[0])) // 2
    title = round(0.45 * DPI)
    window = (box[0] + 40, box[1] + 40, box[0] + 240, box[1] + 240)
    mine = part.crop((left + 40, title + 40, left + 240, title + 240))
    theirs = full.crop(window)
    differ = sum(1 for a, b in zip(mine.tobytes(), theirs.tobytes()) if abs(a - b) > 40)
    assert differ < 0.02 * 3 * 200 * 200, differ


def test_reports_link_the_site_when_site_url_is_set(scotland):
    reports = scotland.turn_dir(scotland.last_turn) / "reports"
    text = (reports / "red.txt").read_text()
    for url in ("https://example.org/scot/turn-003.html", "https://example.org/scot/dice.html",
                "https://example.org/scot/players.html"):
        assert url in text
    assert "GM's guide" not in text
    # `gm report` gives what was written
    assert publish.report_text(scotland, None, "red", "text") == text


def test_without_site_url_nothing_links_to_a_site(tmp_path):
    folder = tmp_path / "camp"
    engine.new_campaign(folder, "railway-rivals", ["blue:Blue:b@example.org", "red:Red:r@example.org"],
                        map_name="tutorial", master=bytes(32))
    engine.resolve(Campaign(folder), force=True)
    text = (folder / "turns" / "001" / "reports" / "blue.txt").read_text()
    assert "http" not in text and "players.html" not in text


@pytest.mark.parametrize("value", ["example.org", "ftp://x.org", "https://", "https://a b.org", 7])
def test_a_site_url_must_be_a_web_address(value):
    with pytest.raises(UsageError, match="site_url is the web address"):
        check_site_url(value)
    assert check_site_url("https://example.org/camp/") == "https://example.org/camp"


@pytest.mark.parametrize("name", [n for n in games.names() if n != "guess"])
def test_every_game_s_reports_link_the_players_page(name, tmp_path):
    game = games.get(name)
    players = [f"p{i}:P{i}:p{i}@example.org" for i in range(1, max(game.min_players, 2) + 1)]
    engine.new_campaign(tmp_path / "c", name, players, master=bytes(32))
    config = yaml.safe_load((tmp_path / "c" / "campaign.yaml").read_text())
    config.update(site_url="https://example.org/c", nmr_policy="bot")
    (tmp_path / "c" / "campaign.yaml").write_text(yaml.safe_dump(config))
    camp = Campaign(tmp_path / "c")
    state = camp.state()
    for player in game.due(state):
        camp.store_orders(1, player, f"player: {player}\n" + game.random_orders(state, player, random.Random(1)))
    engine.resolve(camp, force=True)
    for ext in ("txt", "html", "md", "bbcode"):
        text = (tmp_path / "c" / "turns" / "001" / "reports" / f"p1.{ext}").read_text()
        assert "https://example.org/c/players.html" in text and "https://example.org/c/turn-001.html" in text, ext
