"""Thurn und Taxis: maps, the loader's errors, orders, set-up positions, a seeded game by bots."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
import yaml

from gm.store.dice import Dice
from gm.store.errors import MapErrors, OrderErrors, UsageError
from gm.games import get
from gm.games.thurn_und_taxis import maps
from gm.store.orders import read_frame
from gm.store.viewing import visible_events

GAME = get("thurn-und-taxis")


def new_state(players=("ann", "bob"), map_name="map1", seed=b"tt", **setup):
    state = GAME.setup(map_name, list(players), {}, Dice(seed))
    return GAME.apply_setup(state, setup) if setup else state


def errors_of(state, player, text):
    with pytest.raises(OrderErrors) as caught:
        GAME.parse(state, player, read_frame(text, "ann.txt").lines)
    return caught.value.lines()


def play(state, player, text, seed=b"turn"):
    orders = GAME.parse(state, player, read_frame(text).lines)
    return GAME.resolve(state, {player: orders}, Dice(seed))


# ---- maps ---------------------------------------------------------------------------------
def test_map1_is_the_base_game_board():
    m = maps.load("map1")
    assert len(m.cities) == 22 and len(m.roads()) == 45 and len(m.full_deck()) == 66
    assert len(m.areas) == 9 and not m.reconstruction
    assert m.area_cities("Baiern") == ["Augsburg", "Ingolstadt", "Kempten", "München", "Nürnberg", "Passau",
                                       "Regensburg", "Würzburg"]
    assert m.areas["Baiern"]["colour"] == "white" and m.areas["Baden"]["colour"] == "purple"
    assert sum(len(v) for v in m.tile_stacks().values()) == 30  # the published count of tiles
    assert sorted(len(m.cities[c].roads) for c in ("München", "Lodz")) == [1, 6]
    assert m.city("karlsruhe") == "Carlsruhe" and m.city("NURNBERG") == "Nürnberg"


def test_map2_is_a_marked_reconstruction():
    m = maps.load("map2")
    assert m.reconstruction and "Reconstruction" in m.note
    assert len(m.cities) == 23 and len(m.full_deck()) == 69
    assert {c for c, city in m.cities.items() if city.area is None} == {"Frankfurt", "Hamburg", "Bremen", "Lübeck"}
    assert m.tile_stacks()["route 8+"] == [5, 4, 3, 2] and m.all_areas_needed() == list(m.areas)
    assert "Würzburg" in m.cities
    text = (maps.MAP_DIR / "map2.yaml").read_text(encoding="utf-8")
    assert "RECONSTRUCTION" in text.splitlines()[0]


def test_game_lists_its_maps():
    assert GAME.maps() == ["map1", "map2"] and GAME.default_map() == "map1"


BAD_MAP = """\
name: bad
areas:
  Baiern: {colour: white, rgb: "#zzzzzz"}
  Leer: {colour: grey}
cities:
  Ulm: {area: Baiern, at: [1, 2], roads: [Augsburg, Munchen, Ulm]}
  Augsburg: {area: Bairen, at: [1, 3], roads: [Ulm, Nowhere]}
  Munchen: {area: Baiern, at: [2, 3], roads: []}
  Ulm: {area: Baiern, at: [1, 2], roads: []}
route_tiles: {5: [2, 1]}
area_tiles:
  X: {areas: [Baiern, Nowhere], points: [3]}
all_areas_tile: {except: [Bairen], points: [6]}
colours: 3
"""


def test_map_loader_reports_every_error_located():
    with pytest.raises(MapErrors) as caught:
        maps.parse_map(BAD_MAP, "bad.yaml")
    lines = [str(e) for e in caught.value.errors]
    assert lines == [
        "bad.yaml:3:32: area Baiern: rgb is written '#rrggbb', not '#zzzzzz'",
        "bad.yaml:4:9: area Leer has no city",
        "bad.yaml:6:53: road Ulm-Munchen is listed under Ulm but not under Munchen "
        "(roads go both ways: list it under both)",
        "bad.yaml:6:62: city Ulm: a road cannot lead to the city itself",
        "bad.yaml:7:20: city Augsburg: no area 'Bairen' (did you mean \"Baiern\"?)",
        "bad.yaml:7:53: city Augsburg: road to unknown city 'Nowhere'",
        "bad.yaml:9:3: 'Ulm' appears twice here (first on line 6)",
        "bad.yaml:12:23: area tile X: no area 'Nowhere'",
        "bad.yaml:13:27: all-areas tile: no area 'Bairen' (did you mean \"Baiern\"?)",
        "bad.yaml:14:1: unknown key 'colours'",
    ]


def test_map_loader_yaml_syntax_error_and_empty_file():
    with pytest.raises(MapErrors) as caught:
        maps.parse_map("cities: [Ulm\nareas: {", "broken.yaml")
    (only,) = caught.value.errors
    assert str(only).startswith("broken.yaml:2:") and "not valid YAML" in str(only)
    with pytest.raises(MapErrors, match="empty"):
        maps.parse_map("", "empty.yaml")


def test_map_loader_names_that_read_the_same():
    text = ("areas: {A: {colour: red}}\ncities:\n  Köln: {area: A, at: [0, 0], roads: [Koln]}\n"
            "  Koln: {area: A, at: [1, 0], roads: [Köln]}\nroute_tiles: {5: [2]}\n")
    with pytest.raises(MapErrors, match="reads the same as"):
        maps.parse_map(text, "same.yaml")


def test_unknown_map_name_suggests():
    with pytest.raises(MapErrors, match='did you mean "map1"'):
        maps.load("mapp1")


def test_map_check_command():
    ok = subprocess.run([sys.executable, "-m", "gm.games.thurn_und_taxis", str(maps.MAP_DIR / "map1.yaml"),
                         str(maps.MAP_DIR / "map2.yaml")], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.strip() == "ok"


def test_map_check_command_fails_on_a_bad_map(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_MAP, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "gm.games.thurn_und_taxis", str(bad)], capture_output=True, text=True)
    assert run.returncode == 1 and len(run.stdout.splitlines()) == 10


# ---- set-up and positions -----------------------------------------------------------------
def test_setup_shuffles_with_secret_dice_in_the_documented_order():
    dice = Dice(b"seed")
    state = GAME.setup("map1", ["ann", "bob"], {}, dice)
    assert [r["sides"] for r in dice.log] == list(range(66, 1, -1))
    assert all(r["label"] == "shuffle deck" and r.get("secret") for r in dice.log)
    assert len(state["display"]) == 6 and len(state["deck"]) == 60
    assert state["hands"] == {"ann": [], "bob": []} and state["houses_left"] == {"ann": 20, "bob": 20}
    assert GAME.due(state) == ["ann"]


def test_setup_players_count():
    with pytest.raises(UsageError, match="2 to 4 players"):
        GAME.setup("map1", ["a", "b", "c", "d", "e"], {}, Dice(b"x"))


@pytest.mark.parametrize("setup,message", [
    ({"routes": {"ann": ["Ulm", "Linz"]}}, "no road joins Ulm and Linz"),
    ({"routes": {"ann": ["Ulm", "Augsburg", "Ulm"]}}, "a city appears twice"),
    ({"hands": {"ann": ["Ulm", "Ulm", "Ulm", "Ulm"]}}, "4 Ulm cards in play, but the map has 3"),
    ({"hands": {"ann": ["Ulmm"]}}, 'no city \'Ulmm\' (did you mean "Ulm"?)'),
    ({"hands": {"zed": []}}, "no player 'zed'"),
    ({"cash": {}}, "'cash' cannot be set"),
    ({"carriage": {"ann": 8}}, "no carriage card 8"),
    ({"tiles": {"ann": [{"kind": "route 5", "points": 3}]}}, "worth one of [2, 1], not 3"),
    ({"display": ["Ulm"]}, "display: 1 cards while the deck still has cards"),
    ({"houses": {"ann": ["Ulm", "Ulm"]}}, "two houses in one city"),
])
def test_apply_setup_rejects_illegal_positions(setup, message):
    with pytest.raises(UsageError) as caught:
        new_state(**setup)
    assert message in str(caught.value)


def test_apply_setup_keeps_every_card_once():
    state = new_state(hands={"ann": ["Ulm", "Ulm"]}, routes={"bob": ["München", "Passau"]},
                      display=["Linz", "Basel", "Lodz", "Pilsen", "Zürich", "Budweis"])
    everything = state["deck"] + state["display"] + state["discard"] + state["hands"]["ann"] + state["routes"]["bob"]
    assert sorted(everything) == sorted(maps.load("map1").full_deck())
    assert state["houses_left"]["bob"] == 20 and state["to_move"] == "ann"


# ---- orders -------------------------------------------------------------------------------
def position():
    return new_state(display=["Ulm", "Passau", "Linz", "Basel", "Lodz", "Pilsen"], deck=["Zürich", "Budweis"],
                     hands={"ann": ["Salzburg", "Augsburg"]}, routes={"ann": ["München", "Passau"]})


def test_errors_name_line_column_rule_and_suggestion():
    lines = errors_of(position(), "ann", "official: carrier\nofficial: postmaster\ndraw: display Ulm\n"
                                         "play: Salzburg\nplay: Ulm right\nscore: houses Linz\n")
    assert lines == [
        "ann.txt:2:1: one official a turn: the Postal carrier is already called on line 1",
        "ann.txt:4:7: Salzburg fits at both ends of your route: add 'left' or 'right'",
        "ann.txt:5:11: no road joins Ulm to Salzburg, the right end of your route",
        "ann.txt:6:15: Linz is not on the route you score (München - Passau - Salzburg - Ulm)",
    ]


def test_errors_all_reported_and_nothing_changed():
    state = position()
    before = yaml.safe_dump(state)
    lines = errors_of(state, "ann", "draw: display Regensberg\nplay: Munich left\n")
    assert lines == ['ann.txt:1:15: no city \'Regensberg\' on this map (did you mean "Regensburg"?)',
                     'ann.txt:2:7: no city \'Munich\' on this map (did you mean "München"?)']
    assert yaml.safe_dump(state) == before


def test_not_your_turn_and_missing_steps():
    state = position()
    assert errors_of(state, "bob", "draw: deck\nplay: Ulm\n") == ["ann.txt:1:1: it is ann's turn, not bob's"]
    assert errors_of(state, "ann", "play: Augsburg left\n") == [
        "ann.txt:1:1: phase 1: draw 1 card before playing ('draw: deck' or 'draw: display CITY'); the orders draw 0"]
    assert errors_of(state, "ann", "draw: deck\n") == [
        "ann.txt:1:1: phase 2: play 1 card ('play: CITY left|right|new'); the orders play 0"]


def test_unseen_draw_is_noted_when_checking():
    orders = GAME.parse(position(), "ann", read_frame("draw: deck\nplay: Linz right\n").lines)
    assert orders["notes"] == ["line 2: Linz is not in your hand now: this play needs a card you draw this turn "
                               "to be Linz. If it is not, your route is kept where the rules allow: Salzburg is "
                               "played at the right end instead (the default play); the rest of the turn follows "
                               "the default rules (no scoring)."]
    carrier = GAME.parse(position(), "ann", read_frame("official: carrier\ndraw: deck\nplay: Salzburg right\n"
                                                       "play: Linz right\n").lines)
    assert "this second play is skipped" in carrier["notes"][0]


def test_failed_step_is_told_only_to_its_player():
    state = position()
    state, events = play(state, "ann", "draw: deck\nplay: Linz right\n")  # Zürich is drawn, not Linz
    failed = [e for e in events if e["kind"] == "step_failed"]
    assert failed and "line 2" in failed[0]["text"] and "Linz is not in your hand" in failed[0]["text"]
    names = {"ann": "Ann", "bob": "Bob"}
    assert not [e for e in visible_events(events, "bob", names) if e["kind"] == "step_failed"]
    assert [e for e in visible_events(events, "ann", names) if e["kind"] == "step_failed"]
    # the default play: Salzburg is the first card of the hand that extends München - Passau
    assert state["routes"]["ann"] == ["München", "Passau", "Salzburg"]


def test_order_form_reads_back_with_errors_only_where_blank():
    state = new_state()
    form = GAME.order_form(GAME.view(state, "ann"), "ann")
    assert "official: postmaster" in form and GAME.order_form(GAME.view(state, "bob"), "bob") == ""


# ---- a whole game -------------------------------------------------------------------------
def bot_game(seed: int, players=("ann", "bob", "cy"), map_name="map1"):
    rng = random.Random(seed)
    state = GAME.setup(map_name, list(players), {}, Dice(b"setup %d" % seed))
    history = [(state, [])]
    for turn in range(1, 3000):
        if GAME.finished(state):
            return history
        player = GAME.due(state)[0]
        orders = GAME.parse(state, player, read_frame(GAME.random_orders(state, player, rng)).lines)
        state, events = GAME.resolve(state, {player: orders}, Dice(b"turn %d %d" % (seed, turn)))
        history.append((state, events))
    raise AssertionError("no end")


@pytest.mark.parametrize("seed,map_name,players", [(3, "map1", ("ann", "bob", "cy")),
                                                   (4, "map2", ("ann", "bob", "cy", "dee"))])
def test_seeded_bot_game_runs_to_the_end(seed, map_name, players):
    history = bot_game(seed, players, map_name)
    final, _ = history[-1]
    assert final["finished"] and GAME.due(final) == [] and set(final["winners"]) <= set(players)
    outcome = GAME.outcome(final)
    assert outcome["winners"] == final["winners"] and sorted(sum(outcome["ranking"], [])) == sorted(players)
    assert GAME.outcome(history[-2][0]) is None
    trigger = final["end_triggered_by"]
    assert any(t["kind"] == "end" for t in final["tiles"][trigger])
    assert final["to_move"] is None and final["scores"] == {p: d["total"] for p, d in final["score_details"].items()}
    # every card is somewhere, once
    cards = final["deck"] + final["display"] + final["discard"]
    cards += [c for p in players for c in final["hands"][p] + final["routes"][p]]
    assert sorted(cards) == sorted(maps.load(map_name).full_deck())
    # equal turns: the game ended after the last player of a round
    assert history[-1][1][-1]["kind"] == "game_over"
    assert bot_game(seed, players, map_name)[-1][0] == final  # same seed, same game
    with pytest.raises(OrderErrors, match="the game is over"):
        GAME.parse(final, players[0], read_frame("draw: deck\n").lines)


def test_render_draws_the_viewers_route(tmp_path):
    state = new_state(routes={"ann": ["München", "Passau"]}, houses={"bob": ["Ulm"]})
    figure = GAME.render(GAME.view(state, "ann"), "ann")
    figure.savefig(tmp_path / "map.png")
    assert (tmp_path / "map.png").stat().st_size > 10000


def test_importing_the_game_does_not_import_matplotlib():
    code = "import sys, gm.games.thurn_und_taxis; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False"


# ---- through the command line ---------------------------------------------------------------
def test_a_campaign_on_map2_through_the_cli(tmp_path):
    from click.testing import CliRunner

    from gm.cli import main

    def gm(*args, code=0):
        result = CliRunner().invoke(main, [str(a) for a in args])
        assert result.exit_code == code, result.output
        return result.output

    camp = tmp_path / "camp"
    gm("new", "thurn-und-taxis", camp, "--player", "ann:Ann", "--player", "bob:Bob", "--map", "map2")
    shown = json.loads(gm("show", camp, "--player", "bob", "--json"))["state"]
    assert shown["map"] == "map2" and shown["hands"] == {"bob": []} and len(shown["display"]) == 6
    assert {"display", "hands", "routes", "houses", "carriage", "tiles", "tiles_left", "deck_size", "to_move",
            "scores", "winners"} <= set(shown)
    first = shown["display"][0]
    bad = tmp_path / "bad.txt"
    bad.write_text("player: ann\nturn: 1\ndraw: display Hamburgg\nplay: Hamburg\n", encoding="utf-8")
    out = gm("check", camp, bad, code=1)
    assert f"{bad}:3:1: your hand is empty: you must call the Postmaster ('official: postmaster')" in out
    assert f'{bad}:3:15: no city \'Hamburgg\' on this map (did you mean "Hamburg"?)' in out
    good = tmp_path / "ann.txt"
    good.write_text(f"player: ann\nturn: 1\nofficial: postmaster\ndraw: display {first}\ndraw: deck\n"
                    f"play: {first}\n", encoding="utf-8")
    gm("submit", camp, good)
    gm("resolve", camp)
    bob = gm("report", camp, "--player", "bob")
    ann = gm("report", camp, "--player", "ann")
    assert "Ann drew a card from the deck." in bob and "Ann drew a card from the deck." not in ann  # names shown
    assert "Map 2 is a reconstruction" not in bob  # the warning is on the image, the report names the map
    assert (camp / "turns" / "001" / "reports" / "map-bob.png").is_file()
    assert json.loads(gm("show", camp, "--json"))["state"]["routes"]["ann"] == [first]


def test_pictures_share_one_base_and_png_needs_no_matplotlib(tmp_path):
    """Issue 16: the PNG is drawn by Pillow (matplotlib stays unloaded); the viewers of one position
    share one base picture, each with an overlay of their own; SVG is still drawn by matplotlib."""
    code = ("import sys; from gm.games import get; from gm.store.dice import Dice\n"
            "from gm.store.viewing import picture, seen_by\n"
            "from gm.games.thurn_und_taxis import picture as pic\n"
            "g = get('thurn-und-taxis'); s = g.setup('map1', ['ann', 'bob'], {}, Dice(b'x'))\n"
            "s = g.apply_setup(s, {'routes': {'ann': ['München', 'Passau'], 'bob': ['Ulm']},\n"
            "                      'houses': {'bob': ['Ulm']}})\n"
            "ps = [{'id': 'ann', 'name': 'Ann', 'colour': ''}, {'id': 'bob', 'name': 'Bob', 'colour': ''}]\n"
            "png = {v: picture(g, seen_by(g, s, [], v, ps)) for v in ('ann', 'bob', 'public', 'gm')}\n"
            "assert len(pic._BASES) == 1, len(pic._BASES)\n"
            "assert png['ann'] != png['bob'] and all(p.startswith(b'\\x89PNG') for p in png.values())\n"
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
    from gm.store.viewing import picture, seen_by
    state = new_state(routes={"ann": ["München", "Passau"]})
    svg = picture(GAME, seen_by(GAME, state, [], "ann", [{"id": "ann", "name": "Ann", "colour": ""}]), "svg")
    assert b"<svg" in svg[:400]
