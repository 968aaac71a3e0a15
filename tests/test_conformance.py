"""One conformance test over every registered game (after OpenSpiel): seeded random legal
playouts to the end; YAML round trips; same seed, same states; a finished game takes no orders;
every template and image renders."""
from __future__ import annotations

import copy
import random

import pytest
import yaml

from gm import audit, engine, games
from gm.campaign import Campaign
from gm.dice import Dice, turn_seed
from gm.orders import read_frame

MAX_TURNS = 3000
GAME_NAMES = games.names()


def _setup(game, seed: int):
    players = [f"p{i + 1}" for i in range(max(game.min_players, min(game.max_players, 3)))]
    master = seed.to_bytes(32, "big")
    options = engine.read_options(game, {})
    state = game.setup(game.default_map(), players, options, Dice(turn_seed(master, 0)))
    return players, master, state


def playout(game, seed: int):
    """States of one seeded random game, from set-up to the end."""
    rng = random.Random(seed)
    players, master, state = _setup(game, seed)
    states = [state]
    for turn in range(1, MAX_TURNS + 1):
        due = game.due(state)
        if not due:
            return states
        orders = {}
        for player in due:
            text = game.random_orders(state, player, rng)
            orders[player] = game.parse(state, player, read_frame(text, "random").lines)
        before = copy.deepcopy(state)
        state, events = game.resolve(state, orders, Dice(turn_seed(master, turn)))
        assert before == states[-1], "resolve changed the state it was given"
        assert all(isinstance(e.get("text"), str) and e["text"] for e in events), events
        assert yaml.safe_load(yaml.safe_dump(state)) == state, "state is not plain YAML data"
        states.append(state)
    raise AssertionError(f"{game.name}: no end after {MAX_TURNS} turns")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_playouts_end_and_repeat(name):
    game = games.get(name)
    for seed in (1, 2):
        first = playout(game, seed)
        # a finished game waits for nobody, so the engine takes no more orders (tests/test_cli.py)
        assert game.finished(first[-1]) and game.due(first[-1]) == []
        assert playout(game, seed) == first, "same seed, different game"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_views_are_plain_data(name, tmp_path):
    game = games.get(name)
    states = playout(game, 3)
    players = states[0].get("players") if isinstance(states[0].get("players"), list) else None
    for state in states[:: max(1, len(states) // 10)] + [states[-1]]:
        for viewer in [None, "public"] + list(players or []):
            view = game.view(state, viewer)
            assert yaml.safe_load(yaml.safe_dump(view)) == view


@pytest.mark.parametrize("name", GAME_NAMES)
def test_campaign_reports_and_images_render(name, tmp_path):
    """A short campaign through the engine: every report format for every viewer, every image."""
    game = games.get(name)
    n = max(game.min_players, min(game.max_players, 3))
    camp = tmp_path / "c"
    engine.new_campaign(camp, name, [f"p{i + 1}" for i in range(n)], master=bytes(32))
    campaign = Campaign(camp)
    rng = random.Random(7)
    for _ in range(4):
        state = campaign.state()
        due = game.due(state)
        if not due:
            break
        for player in due:
            text = f"player: {player}\n" + game.random_orders(state, player, rng)
            checked = engine.check_text(campaign, game, state, text, "random.txt")
            assert checked.ok, checked.errors
            campaign.store_orders(campaign.current_turn, player, text)
        engine.resolve(campaign)
    for turn in campaign.resolved_turns():
        reports = campaign.turn_dir(turn) / "reports"
        for viewer in engine.viewers(campaign):
            for ext in ("txt", "md", "bbcode", "html"):
                assert (reports / f"{viewer}.{ext}").read_text().strip()
    assert audit.replay(campaign) == []
    assert audit.verify_dice(campaign)[1] == []
