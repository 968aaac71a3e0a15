"""Hidden rolls on the website and in the record: during play only their count and commitment,
nothing of their seeds or rolls anywhere on the site; once the game is over, every secret seed and
roll, checked here in Python (tests/test_site_browser.py checks them in Chromium)."""
from __future__ import annotations

import json
import shutil

import jsonschema
import pytest
import yaml

from gm import games
from gm.turn import engine
from gm.store.campaign import Campaign
from gm.store.dice import commitment, turn_seed, verify_log
from gm.delivery.site import build, update
from test_record import SCHEMA
from test_site_support import MASTER, finished_campaign, play, players_for, public_text, seeded_campaign

SECRET_GAMES = [n for n in games.names() if games.get(n).secret_dice]  # the games that roll hidden dice


def secret_probes(campaign: Campaign, turns: list[int] | None = None) -> list[str]:
    """What would betray a secret seed or roll on a page or in the record: each turn's secret seed
    in hex, and each secret roll as the dice page and the record would write it."""
    turns = campaign.resolved_turns() if turns is None else turns
    probes = [turn_seed(MASTER, t, secret=True).hex() for t in turns]
    for t in campaign.secret_dice_turns():
        for r in campaign.secret_rolls(t) or []:
            probes.append(f'data-label="{r["label"]}" data-index="{r["index"]}"')
            probes.append(json.dumps({k: r[k] for k in ("label", "index", "sides", "value")}, separators=(",", ":")))
    return probes


@pytest.mark.parametrize("name", SECRET_GAMES)
def test_an_unfinished_games_site_has_no_secret_seed_or_roll(name, tmp_path):
    campaign = Campaign(seeded_campaign(name))
    assert campaign.secret_dice_turns(), "the test needs a game that made hidden rolls"
    build(campaign, tmp_path / "site")
    text = public_text(tmp_path / "site")
    found = [p for p in secret_probes(campaign) if p in text]
    assert found == []
    record = json.loads((tmp_path / "site" / "record.json").read_text())
    assert record["secret_dice"] is None
    # only the count and the commitment, as published with the turn
    for entry in record["turns"]:
        log = campaign.dice_log(entry["turn"])
        assert entry["dice"].get("secret_rolls") == log.get("secret_rolls")
        assert entry["dice"].get("secret_commitment") == log.get("secret_commitment")
        if log.get("secret_commitment"):
            assert log["secret_commitment"] in (tmp_path / "site" / f"turn-{entry['turn']:03d}.html").read_text()
            assert log["secret_commitment"] in (tmp_path / "site" / "dice.html").read_text()
    assert 'data-secret="1"' not in (tmp_path / "site" / "dice.html").read_text()


def test_a_finished_games_site_reveals_every_secret_seed_and_roll(tmp_path):
    campaign = Campaign(finished_campaign("network-king"))
    assert engine_finished(campaign) and campaign.secret_dice_turns()
    result = build(campaign, tmp_path / "site")
    record = json.loads((tmp_path / "site" / "record.json").read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(record)
    revealed = record["secret_dice"]
    assert [s["turn"] for s in revealed] == campaign.secret_dice_turns()
    for s in revealed:
        seed = turn_seed(MASTER, s["turn"], secret=True)
        assert s["seed"] == seed.hex() and s["commitment"] == commitment(seed)
        assert s["commitment"] == campaign.dice_log(s["turn"])["secret_commitment"]
        logged = campaign.secret_rolls(s["turn"])
        assert s["rolls"] == [{k: r[k] for k in ("label", "index", "sides", "value")} for r in logged]
        assert s["announced"] == len(logged) and verify_log(b"", logged, secret_seed=seed) == []
        # the seed is the one the final reports revealed
        final = campaign.turn_dir(campaign.last_turn) / "reports" / "public.html"
        assert s["seed"] in final.read_text()
    assert result.secret_rolls == sum(len(s["rolls"]) for s in revealed) > 0
    text = public_text(tmp_path / "site")
    # the probes of the test above do find them here
    assert all(p in text for p in secret_probes(campaign, campaign.secret_dice_turns()))
    dice = (tmp_path / "site" / "dice.html").read_text()
    assert dice.count('data-secret="1"') == len(revealed)
    last = (tmp_path / "site" / f"turn-{campaign.last_turn:03d}.html").read_text()
    assert 'href="dice.html#hidden-h"' in last


def engine_finished(campaign: Campaign) -> bool:
    from gm import games
    return games.get(campaign.game_name).finished(campaign.state())


def test_the_update_that_ends_the_game_reveals_them_and_a_rollback_hides_them_again(tmp_path):
    from gm import games
    game = games.get("network-king")
    engine.new_campaign(tmp_path / "c", "network-king", players_for(game), master=MASTER, name="Ends")
    campaign, site = Campaign(tmp_path / "c"), tmp_path / "site"
    build(campaign, site)
    while not game.finished(campaign.state()):
        assert 'data-secret="1"' not in (site / "dice.html").read_text()
        campaign = play(campaign, 1)
        update(campaign, site)
    assert 'data-secret="1"' in (site / "dice.html").read_text()
    assert json.loads((site / "record.json").read_text())["secret_dice"]
    last = campaign.last_turn
    shutil.rmtree(campaign.turn_dir(last))  # what `gm rollback` leaves of the final turn
    update(Campaign(campaign.path), site)
    text = public_text(site)
    assert 'data-secret="1"' not in (site / "dice.html").read_text()
    assert json.loads((site / "record.json").read_text())["secret_dice"] is None
    assert not [p for p in secret_probes(Campaign(campaign.path)) if p in text]


def test_revealed_seeds_are_read_from_the_final_dice_log_when_it_lists_them(tmp_path):
    """Where the engine may publish them (secret_seeds in the final turn's dice.yaml): read from
    there, so an edited one shows on the dice page (and fails there)."""
    shutil.copytree(finished_campaign("network-king"), tmp_path / "c")
    campaign = Campaign(tmp_path / "c")
    path = campaign.turn_dir(campaign.last_turn) / "dice.yaml"
    log = yaml.safe_load(path.read_text())
    log["secret_seeds"] = [{"turn": t, "seed": "cd" * 32} for t in campaign.secret_dice_turns()]
    path.write_text(yaml.safe_dump(log))
    from gm.delivery.record import public_record
    record = public_record(campaign)
    assert {s["seed"] for s in record["secret_dice"]} == {"cd" * 32}
