"""Pictures name players as the reports do (the campaign's names) and use the campaign's colours."""
from __future__ import annotations

import random

import pytest
from matplotlib.colors import to_hex

from gm import games
from gm.turn import runner
from gm.games.base import player_colours, player_names

PEOPLE = {"p1": ("Annabel Ferreira", "#123456"), "p2": ("Bartholomew Okafor", "#abcdef"),
          "p3": ("Cordelia Nakamura", "")}


def _played(name: str, turns: int = 3):
    """A game of two or three players after a few random turns (so charts and routes have something)."""
    game = games.get(name)
    ids = list(PEOPLE)[:max(game.min_players, min(game.max_players, 3))]
    master = bytes(32)
    state = runner.start(game, game.default_map(), ids, {}, runner.turn_dice(master, 0))
    rng = random.Random(4)
    for turn in range(1, turns + 1):
        if not game.due(state):
            break
        orders = {p: runner.check(game, state, game.random_orders(state, p, rng), file="x", players=ids, turn=turn,
                                  player=p).orders for p in game.due(state)}
        state, _ = runner.step(game, state, orders, runner.turn_dice(master, turn))
    return game, ids, game.view(state, None)  # pictures are drawn from a viewer's view (here the GM's)


def _texts(figure) -> str:
    if callable(getattr(figure, "figure", None)):  # a Pillow picture (Network King): its Figure twin
        figure = figure.figure()
    found = [t.get_text() for t in figure.findobj(lambda a: hasattr(a, "get_text"))]
    return "\n".join(found)


@pytest.mark.parametrize("name", [n for n in games.names() if games.get(n).pictures_name_players])
def test_pictures_show_the_campaign_s_names_not_ids(name):
    game, ids, state = _played(name)
    players = [{"id": p, "name": PEOPLE[p][0], "colour": PEOPLE[p][1]} for p in ids]
    text = _texts(game.render(state, None, players=players))
    for p in ids:
        assert PEOPLE[p][0] in text, (name, p)
    assert not any(f"{p}:" in text or f"{p} " in text.replace("\n", " ") + " " for p in ids), text


def test_pictures_use_the_campaign_s_colours():
    game, ids, state = _played("imperial-network")
    players = [{"id": p, "name": PEOPLE[p][0], "colour": PEOPLE[p][1]} for p in ids]
    figure = game.render(state, None, players=players)
    colours = {to_hex(line.get_color()) for line in figure.findobj(lambda a: hasattr(a, "get_xydata"))}
    assert {"#123456", "#abcdef"} <= colours


def test_names_and_colours_fall_back_to_ids_and_the_palette():
    given = [{"id": "a", "name": "Ann", "colour": "red"}, {"id": "b", "name": "", "colour": "#00ff00"}]
    assert player_names(given, ["a", "b", "c"]) == {"a": "Ann", "b": "b", "c": "c"}
    # only '#rrggbb' is taken from the campaign: the palette fills in the rest, in turn
    assert player_colours(given, ["a", "b", "c"], ("#111111", "#222222", "#333333")) == \
        {"a": "#111111", "b": "#00ff00", "c": "#333333"}
    assert player_names(None, ["a"]) == {"a": "a"}
