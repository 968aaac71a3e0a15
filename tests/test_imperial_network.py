"""Imperial Network: the map and card loaders, order errors, views, the bot, rendering, simulate."""
from __future__ import annotations

import subprocess
import sys

import pytest

from gm.store.dice import Dice, turn_seed
from gm.store.errors import MapErrors, OrderErrors, UsageError
from gm.games.imperial_network import GAME
from gm.games.imperial_network.cards import load_cards
from gm.games.imperial_network.data import load_map
from gm.store.orders import read_frame

OPTIONS = {"fatherland": "also", "turn_limit": 40}


def new_state(players=("a", "b", "c")):
    return GAME.setup(None, list(players), OPTIONS, Dice(turn_seed(bytes(32), 0)))


def parse(state, player, text):
    return GAME.parse(state, player, read_frame(text, "orders.txt").lines)


def errors_of(state, player, text) -> list[str]:
    with pytest.raises(OrderErrors) as info:
        parse(state, player, text)
    return [str(e) for e in info.value.errors]


# ---- data ---------------------------------------------------------------------------------------
def test_shipped_map_is_real_and_consistent():
    gmap = load_map("europe-1920")
    assert 45 <= len(gmap.cities) <= 55
    kinds = {c.kind for c in gmap.cities.values()}
    assert kinds == {"prussian", "german", "allied", "foreign"}
    assert all(10 <= c.value <= 50 for c in gmap.cities.values())
    for city, ns in gmap.neighbours.items():
        assert all(city in gmap.neighbours[n] for n in ns)  # symmetric
    assert gmap.line("Hamburg", "Bremen") and gmap.line("Erfurt", "Leipzig") and gmap.line("Leipzig", "Dresden")
    assert [gmap.cities[c].value for c in ("Hamburg", "Bremen", "Erfurt", "Leipzig", "Dresden")] == [40, 20, 10, 20, 30]
    assert gmap.front_line("Denmark") == ["Kiel"]
    assert gmap.city("munich") == "München" and gmap.city("KOELN") == "Köln"


def test_map_loader_reports_every_problem(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("""
home: Berlin
countries: {Prussia: prussian, France: foreign, Italy: foreign}
cities:
  Berlin: {country: Prussia, value: 50}
  Paris: {country: France, value: 60}
  Mailand: {country: Italy, value: 40}
  Lyon: {country: Frankreich, value: 20}
lines:
  - [Berlin, Pariss, 2]
  - [Berlin, Berlin, 1]
""")
    with pytest.raises(MapErrors) as info:
        load_map(str(bad))
    text = str(info.value)
    assert "value must be a whole number from 10 to 50, not 60" in text
    assert "unknown country 'Frankreich'" in text
    assert "unknown city 'Pariss'" in text
    assert "two different cities" in text
    assert "country Italy cannot be reached by rail from Berlin" in text


def test_cards_loader_checks_against_the_map(tmp_path):
    gmap = load_map("europe-1920")
    bad = tmp_path / "cards.yaml"
    bad.write_text("""
buildings: {station: {cost: 20, copies: 2}, factory: {cost: 30, copies: 2}, barracks: {cost: 0, copies: 1}}
trains: {supply: 20, start: 4}
start_cash: 100
troops_per_barracks: 2
train_cost: 30
operating_permits: {Frankreich: 30}
connection_permits: {Odd: {cost: 10, bonus: 10, cities: [Hamburgg, Berlin]}}
events: [{id: x, name: X, kind: heatwave, turns: 1}]
wars: {France: 5}
war_deck: {1: 3, 7: 1}
""")
    with pytest.raises(MapErrors) as info:
        load_cards(gmap, str(bad))
    text = str(info.value)
    for part in ("barracks cost must be", "Frankreich", "Hamburgg", "heatwave", "war power is 1 to 3",
                 "troop numbers are 1 to 4"):
        assert part in text
    deck = load_cards(gmap).network_deck()
    assert len(deck) == len(set(deck))


# ---- orders -------------------------------------------------------------------------------------
def test_order_errors_are_located_and_suggest():
    state = new_state()
    errs = errors_of(state, "a", "buy: station Hamburgg\ntrains: Hamburg-Bremen, Bremen-Hamburg\n"
                                 "route: Hamburg Dresden\nfrob: 1\n")
    assert errs[0] == "orders.txt:1:14: unknown city 'Hamburgg' (did you mean \"Hamburg\"?)"
    assert errs[1] == "orders.txt:2:25: the ranked list names Bremen-Hamburg twice"
    assert errs[2].startswith("orders.txt:3:8: no line between Hamburg and Dresden")
    assert errs[3].startswith("orders.txt:4:1: expected one of buy:")
    assert "(did you mean" in errors_of(state, "a", "buy: statoin Berlin")[0]


def test_parse_changes_nothing_and_reads_every_order():
    import copy
    state = new_state()
    state = GAME.apply_setup(state, {"market": ["station-1", "factory-1", "barracks-1", "permit Italy"],
                                     "hand": {"a": ["station-2"]}})
    before = copy.deepcopy(state)
    orders = parse(state, "a", "buy: station Hamburg; factory Leipzig; permit Italy; barracks\n"
                               "place: station Bremen\ntrains: Hamburg-Bremen\nroute: Hamburg Bremen\nfactory: 2\n")
    assert state == before
    assert [b.get("kind", b.get("card")) for b in orders["buy"]] == ["station", "factory", "permit Italy", "barracks"]
    assert orders["place"] == [{"kind": "station", "city": "Bremen"}]
    assert orders["trains"] == ["Bremen-Hamburg"] and orders["routes"] == [["Hamburg", "Bremen"]]
    assert orders["factory"] == 2


def test_apply_setup_refuses_bad_positions():
    state = new_state()
    with pytest.raises(UsageError, match="unknown city 'Hamburgg'"):
        GAME.apply_setup(state, {"buildings": {"a": {"Hamburgg": "station"}}})
    with pytest.raises(UsageError, match="cannot be set"):
        GAME.apply_setup(state, {"treasure": 3})


# ---- views, bot, images -------------------------------------------------------------------------
def test_views_hide_the_decks_only():
    state = GAME.apply_setup(new_state(), {"hand": {"b": ["station-2"]}})
    for viewer in ("public", "a"):
        view = GAME.view(state, viewer)
        assert "deck" not in view and "war_deck" not in view
        assert view["deck_size"] == len(state["deck"]) and view["war_deck_size"] == len(state["war_deck"])
        # unused cards were bought in the open, and others may buy them: public
        assert view["hand"]["b"] == ["station-2"] and view["hand_sizes"]["b"] == 1
    assert GAME.view(state, None)["deck"] == state["deck"]


def bot_game(players=("a", "b", "c", "d"), seed=b"test", options=OPTIONS):
    """The states of one game between bots, from set-up to the end."""
    import random
    rng = random.Random(seed)
    state = GAME.setup(None, list(players), options, Dice(turn_seed(seed.ljust(32, b"."), 0)))
    states = [state]
    for turn in range(1, 200):
        if not GAME.due(state):
            return states
        orders = {p: parse(state, p, GAME.random_orders(state, p, rng)) for p in GAME.due(state)}
        state, _ = GAME.resolve(state, orders, Dice(turn_seed(seed.ljust(32, b"."), turn)))
        states.append(state)
    raise AssertionError("no end")


def test_bot_orders_are_legal_through_a_whole_game():
    states = bot_game()
    state = states[-1]
    assert state["winners"] is not None and state["ended_by"] in ("capital", "exhaustion", "fatherland", "turn limit")
    assert len(state["capital_history"]["a"]) == state["turn"]
    outcome = GAME.outcome(state)
    assert outcome["winners"] == state["winners"] and outcome["reason"]
    assert sorted(p for place in outcome["ranking"] for p in place) == ["a", "b", "c", "d"]
    assert all(GAME.outcome(s) is None for s in states[:-1])
    figures = GAME.simulation_figures([state])
    assert set(figures) >= {"lost to exhaustion", "mean final capital (RM)"}
    assert figures["mean final capital (RM)"] == sum(GAME.view(state, None)["capital"].values()) / 4


def test_render_draws_and_matplotlib_stays_lazy():
    code = ("import sys; import gm.games.imperial_network as m; "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported eagerly'")
    subprocess.run([sys.executable, "-c", code], check=True)
    fig = GAME.render(GAME.view(new_state(), "public"), "public")
    assert len(fig.axes) == 2  # the map and the capital chart


# ---- fuzz: only the documented error type escapes the order reader ------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

WORDS = ["buy:", "trains:", "route:", "factory:", "convert:", "place:", "station", "factory", "barracks",
         "permit", "link", "from", "b", "Hamburg", "Bremen", "Hamburg-Bremen", "Berlin-", "-", ";", ",",
         "all", "none", "3", "Italy", "Wien", "Kiel", "x", ""]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join), max_size=5))
def test_order_reader_raises_only_order_errors(lines):
    state = _FUZZ_STATE
    try:
        parse(state, "a", "\n".join(lines))
    except OrderErrors as exc:
        assert all(str(e).startswith("orders.txt:") for e in exc.errors)


_FUZZ_STATE = GAME.apply_setup(new_state(), {"market": ["station-1", "factory-1", "barracks-1", "link Rhine line"],
                                             "hand": {"b": ["station-2"]}})


def _war_turn_state():
    """A resolved war turn in a Cold Winter: a barracks joined to the front, closed lines."""
    state = GAME.apply_setup(new_state(), {
        "seats": ["a", "b", "c"], "first": 0, "event": "cold-winter", "war": {"target": "France", "cards": [4, 4, 3]},
        "buildings": {"a": {"Karlsruhe": "barracks", "Köln": "factory", "Essen": "factory"}},
        "market": ["station-1", "factory-1", "barracks-1", "permit Italy"], "war_deck": [1, 1, 1, 2]})
    assert "Erfurt-Nürnberg" in GAME.view(state, "public")["closed_lines"]
    orders = {"a": parse(state, "a", "trains: Karlsruhe-Straßburg, Köln-Essen\nroute: Köln Essen\nbuy: barracks Metz"),
              "b": parse(state, "b", ""), "c": parse(state, "c", "")}
    new, events = GAME.resolve(state, orders, Dice(turn_seed(bytes(32), 1)))
    return new, events


def test_war_turn_reports_every_format_and_draws():
    from gm.turn.report import render_report, template_context
    state, events = _war_turn_state()
    assert state["war"]["connected"]["a"] == ["Karlsruhe"] and state["war"]["troops"] == 4
    players = [{"id": p, "name": p.upper(), "colour": ""} for p in state["players"]]
    for viewer in ("a", "public", "gm"):
        context = template_context(GAME, state, events, viewer, turn=state["turn"], campaign="test",
                                   players=players, image="map.png",
                                   dice={"turn": 1, "seed": "00", "commitment": "11", "next_turn": 2,
                                         "next_commitment": "22", "rolls": []})
        for fmt in ("text", "markdown", "bbcode", "html"):
            text = render_report(context, fmt, game_name=GAME.name)
            assert "11 troops needed" in text and "7 missing" in text
        assert "Köln - Essen: factory 40 (Köln, end) + 30 (Essen, end) = 70 RM" in render_report(
            context, "text", game_name=GAME.name)
    view = GAME.view(state, "public")
    assert view["front_line"] == ["Brüssel", "Metz", "Straßburg"]
    assert GAME.render(view, "public") is not None


def test_deck_order_reaches_no_player():
    """The decks' order is the only hidden information: reordering them changes nothing a player or
    the public gets through the one door (view, events, order form, picture)."""
    import random

    from gm.store.viewing import picture, seen_by
    from support.hidden_imperial_network import perturb
    states = bot_game(("a", "b", "c"), seed=b"hidden")
    public = [{"id": p, "name": p.upper(), "colour": ""} for p in ("a", "b", "c")]
    rng = random.Random(3)
    for n, state in enumerate(states[1:4]):
        for viewer in ("a", "b", "public"):
            other = perturb(state, viewer, rng)
            assert other is not None and other != state
            seen, again = (seen_by(GAME, s, [], viewer, public) for s in (state, other))
            assert (again.view, again.order_form) == (seen.view, seen.order_form)
            if n == 0 and viewer == "a":
                assert picture(GAME, again) == picture(GAME, seen)
    gm_view = seen_by(GAME, states[1], [], "gm", public).view
    assert gm_view["deck"] == states[1]["deck"]


# ---- issue 17: seeded fuzz of mutated order files, odd digits, 1 MB probes ----------------------
def test_fuzzed_orders_raise_only_order_errors():
    from support.order_fuzz import fuzz
    states = [(s, p) for s in bot_game(("a", "b", "c"), seed=b"fuzz")[:12:2] for p in ("a", "b", "c")]
    words = ["buy:", "trains:", "route:", "factory:", "convert:", "place:", "station", "factory", "barracks",
             "permit", "link", "from", "b", "Hamburg", "Kopenhagen", "Hamburg-Bremen", "all", "none", "3", "-"]
    figures = fuzz(GAME, states, range(2100), words)
    assert figures["files"] >= 2000
    print(f"\nImperial Network fuzz: {figures['files']} files; slowest mutated file {figures['slowest']:.3f} s, "
          f"slowest 1 MB probe {figures['slowest_probe']:.3f} s")


def test_only_ascii_digits_are_numbers_and_huge_ones_are_refused():
    state = new_state()
    for text in ("²", "３", "٣", "9" * 900, "-1", "1000"):
        errs = errors_of(state, "a", f"factory: {text}")
        assert len(errs) == 1 and errs[0].startswith("orders.txt:1:10: factory: takes a number of trains"), errs
    assert parse(state, "a", "factory: 12")["factory"] == 12


def test_errors_are_capped_and_long_lines_refused():
    state = new_state()
    errs = errors_of(state, "a", "frob: 1\n" * 200)
    assert len(errs) == 51
    assert errs[50] == "orders.txt:51:1: too many errors: this line and the 149 after it were not read"
    too_long = errors_of(state, "a", "route: " + "Berlin " * 300)
    assert too_long[0].startswith("orders.txt:1:1: this line is 2106 characters")
