"""One conformance test over every registered game (after OpenSpiel), played through the one turn
runner: seeded random legal playouts to the end; plain data; same seed, same states; a finished
game takes no orders and has an outcome, an unfinished one has none; every template and image
renders; and hidden information stays hidden (tests/support/hidden_<game>.py)."""
from __future__ import annotations

import copy
import importlib
import random

import pytest
import yaml

from gm import games
from gm.turn import audit, engine, runner
from gm.store.campaign import Campaign
from gm.turn.publish import public_players, viewers
from gm.turn.report import FORMATS, dice_block, render_report, template_context
from gm.store.viewing import picture, seen_by

GAME_NAMES = games.names()
MAX_TURNS = 3000


def _players(game) -> list[str]:
    return [f"p{i + 1}" for i in range(max(game.min_players, min(game.max_players, 3)))]


def playout(game, seed: int) -> tuple[list[str], list[dict], list[list[dict]]]:
    """(players, states, events of each turn) of one seeded random game, from set-up to the end."""
    rng = random.Random(seed)
    players = _players(game)
    master = seed.to_bytes(32, "big")
    state = runner.start(game, game.default_map(), players, {}, runner.turn_dice(master, 0))
    states, events_by_turn = [state], [[]]
    for turn in range(1, MAX_TURNS + 1):
        if not game.due(state):
            return players, states, events_by_turn
        orders = {}
        for player in game.due(state):
            checked = runner.check(game, state, game.random_orders(state, player, rng), file="random",
                                   players=players, turn=turn, player=player)
            assert checked.ok, checked.errors
            orders[player] = checked.orders
        before = copy.deepcopy(state)
        state, events = runner.step(game, state, orders, runner.turn_dice(master, turn))
        assert before == states[-1], "resolve changed the state it was given"
        assert all(isinstance(e.get("text"), str) and e["text"] and isinstance(e.get("kind"), str)
                   for e in events), events
        assert yaml.safe_load(yaml.safe_dump(state)) == state, "state is not plain YAML data"
        states.append(state)
        events_by_turn.append(events)
    raise AssertionError(f"{game.name}: no end after {MAX_TURNS} turns")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_playouts_end_repeat_and_have_an_outcome(name):
    game = games.get(name)
    for seed in (1, 2):
        players, first, _ = playout(game, seed)
        # a finished game waits for nobody, so the engine takes no more orders (tests/test_cli.py)
        assert game.finished(first[-1]) and game.due(first[-1]) == []
        result = runner.outcome(game, first[-1], players)
        assert result is not None and set(result["winners"]) <= set(players)
        assert [p for place in result["ranking"] for p in place] and result["reason"]
        for state in first[:-1][:: max(1, len(first) // 8)]:
            assert runner.outcome(game, state, players) is None
        assert playout(game, seed)[1] == first, "same seed, different game"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_views_are_plain_data(name):
    game = games.get(name)
    players, states, _ = playout(game, 3)
    for state in states[:: max(1, len(states) // 10)] + [states[-1]]:
        for viewer in [None, "public"] + players:
            view = game.view(state, viewer)
            assert yaml.safe_load(yaml.safe_dump(view)) == view


@pytest.mark.parametrize("name", GAME_NAMES)
def test_campaign_reports_and_images_render(name, tmp_path):
    """A short campaign through the engine: every report format for every viewer, every image."""
    game = games.get(name)
    camp = tmp_path / "c"
    engine.new_campaign(camp, name, _players(game), master=bytes(32))
    campaign = Campaign(camp)
    rng = random.Random(7)
    for _ in range(4):
        state = campaign.state()
        if not game.due(state):
            break
        for player in game.due(state):
            text = f"player: {player}\n" + game.random_orders(state, player, rng)
            checked = engine.check_text(campaign, game, state, text, "random.txt")
            assert checked.ok, checked.errors
            campaign.store_orders(campaign.current_turn, player, text)
        engine.resolve(campaign)
    for turn in campaign.resolved_turns():
        reports = campaign.turn_dir(turn) / "reports"
        for viewer in viewers(campaign):
            for ext in ("txt", "md", "bbcode", "html"):
                text = (reports / f"{viewer}.{ext}").read_text()
                assert text.strip() and "@{" not in text, f"{viewer}.{ext}: a player placeholder left unfilled"
    assert audit.replay(campaign) == []
    assert audit.verify_dice(campaign)[1] == []


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_flags_say_what_the_game_has(name):
    """The capability flags the generic tests read are true to the game: secret dice rolled when
    (and only when) ``secret_dice`` says so, a picture when ``pictures`` does, one player due at a
    time in a ``sequential`` game, everybody at once in the first turn of a simultaneous one."""
    game = games.get(name)
    rng, players, master = random.Random(5), _players(game), bytes(32)
    dice = runner.turn_dice(master, 0)
    state = runner.start(game, game.default_map(), players, {}, dice)
    secret = [r for r in dice.log if r.get("secret")]
    dues = []
    for turn in range(1, MAX_TURNS + 1):
        due = game.due(state)
        if not due:
            break
        dues.append(due)
        orders = {p: runner.check(game, state, game.random_orders(state, p, rng), file="random", players=players,
                                  turn=turn, player=p).orders for p in due}
        dice = runner.turn_dice(master, turn)
        state, _ = runner.step(game, state, orders, dice)
        secret += [r for r in dice.log if r.get("secret")]
    if game.sequential:  # one player at a time (a set-up turn may take everybody's orders at once)
        assert sum(len(d) == 1 for d in dues) >= len(dues) - 1, f"{name} is sequential but waits for {dues}"
    else:
        assert dues[0] == players, f"{name} is simultaneous but its first turn waits for {dues[0]}"
    assert bool(secret) == game.secret_dice, f"{name}: secret_dice is {game.secret_dice}, secret rolls: {len(secret)}"
    image = game.render(game.view(state, "public"), "public", players=None)
    assert (image is not None) == game.pictures, f"{name}: pictures is {game.pictures}, render gave {image!r}"


# ---- hidden information ---------------------------------------------------------------------------
def _hidden_module(name: str) -> str:
    """tests/support/hidden_<module>.py, <module> the last part of the game's module path."""
    return "hidden_" + games.installed()[name].partition(":")[0].strip().rsplit(".", 1)[-1]


def _hidden(name: str):
    try:
        return importlib.import_module(f"support.{_hidden_module(name)}")
    except ModuleNotFoundError:
        return None


def _everything(game, state, events, viewer, players, *, pictures: bool) -> dict:
    """All a viewer gets of a state: JSON view, order form, events, every report format, picture."""
    seen = seen_by(game, state, events, viewer, players)
    out = {"view": seen.view, "form": seen.order_form, "events": seen.events}
    dice = dice_block(1, bytes(32), bytes(32), [])
    context = template_context(game, state, events, viewer, turn=1, campaign="c", players=players, dice=dice,
                               seen=seen)
    for fmt in FORMATS:
        out[fmt] = render_report(context, fmt, game_name=game.name)
    if pictures:
        out["picture"] = picture(game, seen)
    return out


@pytest.mark.parametrize("name", GAME_NAMES)
def test_hidden_information_never_reaches_another_viewer(name):
    """Change what a viewer may not see (other hands, deck order, secret draws): nothing that viewer
    gets — JSON, order form, events, reports in every format, picture — may change. A game whose
    ``hidden_information`` flag is set must say what it hides (tests/support/hidden_<module>.py)."""
    game = games.get(name)
    hidden = _hidden(name)
    if hidden is None:
        assert not game.hidden_information, f"{name} hides information: tests/support/{_hidden_module(name)}.py " \
                                            f"must give perturb(state, viewer, rng)"
        pytest.skip(f"{name} hides nothing (hidden_information is False) and has no {_hidden_module(name)}")
    players, states, events = playout(game, 5)
    perturb = hidden.perturb
    rng = random.Random(11)
    public = [{"id": p, "name": p.upper(), "colour": ""} for p in players]
    picked = sorted({1, len(states) // 2, len(states) - 2} & set(range(1, len(states))))
    changed = 0
    for n in picked:
        for viewer in players + ["public"]:
            other = perturb(copy.deepcopy(states[n]), viewer, rng)
            if other is None:
                continue
            assert other != states[n], "perturb() returned the state unchanged"
            changed += 1
            pictures = n == picked[-1] and game.pictures
            assert _everything(game, other, events[n], viewer, public, pictures=pictures) == \
                _everything(game, states[n], events[n], viewer, public, pictures=pictures), \
                f"{name}: turn {n}: {viewer} sees something hidden from them"
    if game.hidden_information:
        assert changed, f"{name} says it hides information, but perturb() changed nothing"


def test_public_players_never_carry_addresses(tmp_path):
    camp = tmp_path / "c"
    engine.new_campaign(camp, "guess", ["ann:Ann:ann@example.org", "bob:Bob:bob@example.org"], master=bytes(32))
    assert all(set(p) == {"id", "name", "colour"} for p in public_players(Campaign(camp)))
