"""Railway Rivals against the game contract (gm/games/base.py): outcome, events, the view, options, NMR."""
from __future__ import annotations

import re

import pytest
import yaml

from gm.store.dice import Dice
from gm.turn.engine import read_options
from gm.store.errors import UsageError
from gm.games import get
from gm.games.railway_rivals.state import VIEW_KEYS
from gm.store.orders import read_frame

from test_railway_rivals_operate import RACECOURSE, play_whole_game

GAME = get("railway-rivals")
WESTBY_EASTBY = [[f"{c:02d}05", f"{c + 1:02d}05"] for c in range(2, 12)]


@pytest.fixture(scope="module")
def game() -> list:
    return play_whole_game(8, "tutorial", ["blue", "red", "green"])


def test_outcome_is_none_until_the_end_then_names_the_first_placed(game) -> None:
    assert all(GAME.outcome(before) is None for before, _, _ in game)
    final = game[-1][1]
    outcome = GAME.outcome(final)
    assert outcome is not None and set(outcome) == {"winners", "ranking", "reason"}
    assert outcome["winners"] == outcome["ranking"][0] == final["winner"]
    assert sorted(p for place in outcome["ranking"] for p in place) == sorted(final["players"])
    best = max(final["cash"].values())
    assert all(final["cash"][p] == best for p in outcome["winners"])
    assert "\n" not in outcome["reason"] and "most cash" in outcome["reason"]


def test_a_tie_shares_the_place() -> None:
    state = {"stage": "over", "ranking": [
        {"player": "red", "place": 1, "cash": 30, "races_won": 1, "races_entered": 2},
        {"player": "blue", "place": 1, "cash": 30, "races_won": 1, "races_entered": 2},
        {"player": "green", "place": 3, "cash": 5, "races_won": 0, "races_entered": 0}]}
    assert GAME.outcome(state)["ranking"] == [["red", "blue"], ["green"]]
    assert GAME.outcome(state)["winners"] == ["red", "blue"]


def test_every_event_has_a_kind_and_text_and_names_players_only_by_reference(game) -> None:
    ids = set(game[0][0]["players"])
    for _, _, events in game:
        assert "&id" not in yaml.safe_dump(events)
        for event in events:
            assert isinstance(event.get("kind"), str) and isinstance(event.get("text"), str), event
            assert "type" not in event and "to" not in event  # `to` says who may read an event
            refs = set(re.findall(r"@\{([^{}]+)\}", event["text"]))
            assert refs <= ids, event["text"]


def test_the_view_is_an_allow_list_that_holds_every_key(game) -> None:
    for _, after, _ in game:
        assert set(after) <= set(VIEW_KEYS), set(after) - set(VIEW_KEYS)
        assert "&id" not in yaml.safe_dump(after)  # plain data: no list shared between keys
        assert GAME.view(after, "blue") == GAME.view(after, "public") == GAME.view(after, None) == after


def test_the_order_form_and_the_map_come_from_the_view(game) -> None:
    before = game[2][0]
    view = GAME.view(before, "red")
    form = GAME.order_form(view, "red")
    assert form.startswith("player: red\nturn: 3\n")
    assert GAME.parse(before, "red", read_frame(form, "form").lines)["rounds"] == [[], [], []]
    players = [{"id": p, "name": p.title(), "colour": ""} for p in before["players"]]
    assert GAME.render(view, "red", events=[], players=players) is not None
    assert GAME.extra_images(view, "red", players=players) == {}


@pytest.mark.parametrize("option,value", [("build_turns", "0"), ("leap_length", "0"), ("interest_percent", "101"),
                                          ("starting_cash", "-1")])
def test_option_ranges_are_declared(option: str, value: str) -> None:
    with pytest.raises(UsageError, match=f"option {option} takes a whole number"):
        read_options(GAME, {option: value})


def test_the_game_has_no_missed_turn_option_of_its_own() -> None:
    assert "nmr" not in GAME.options
    with pytest.raises(UsageError, match="unknown option 'nmr'"):
        read_options(GAME, {"nmr": "bot"})


def racecourse() -> dict:
    state = GAME.setup(RACECOURSE, ["blue", "red"], {}, Dice(b"s" * 32, fixed=[1, 1, 1]))
    return GAME.apply_setup(state, {"stage": "operate", "track": {"blue": WESTBY_EASTBY},
                                    "schedule": [[{"id": 1, "from": 11, "to": 21}], [{"id": 2, "from": 21, "to": 11}]]})


def test_missed_race_orders_enter_nothing_by_default_and_the_bot_s_races_under_the_bot_policy() -> None:
    state = racecourse()
    assert GAME.default_orders(state, "red") is None
    blue = GAME.parse(state, "blue", read_frame("", "blue").lines)
    bot = GAME.bot_orders(state, "red")
    assert bot["nmr"] is True and [e["race"] for e in bot["entries"]] == [1]
    after, _ = GAME.resolve(state, {"blue": blue, "red": bot}, Dice(b"t" * 32, fixed=[6, 6]))
    assert after["nmr"] == ["red"] and after["entries"]["1"]["red"]["paid"] == 10
    assert after["cash"] == {"blue": 30, "red": 30}


def test_the_map_s_rules_data_is_the_game_s() -> None:
    """The hex package keeps the numbers a map file gives (terms); the defaults and sectors are the game's."""
    from gm.hexmap.mapfile import parse_map
    from gm.games.railway_rivals.mapdata import country_fee, ferry_cost, ferry_use_fee, foreign_fee, sector

    text = ('name: T\ngrid: {columns: 3, rows: 2}\nterrain: |\n  ..~\n  ..~\n'
            'foreign:\n  - {name: Outland, hexes: ["0101"]}\n'
            '  - {name: Dear, hexes: ["0201"], fee_per_hex: 3}\n'
            'ferries:\n  - {id: F1, ends: ["0202", "0201"]}\n'
            '  - {id: F2, ends: ["0202", "0201"], cost: 9, use_fee: 2}\n')
    hexmap, errors = parse_map(text)
    assert errors == []
    outland, dear = hexmap.foreign
    assert outland.terms == {} and foreign_fee(outland) == 1 and country_fee(hexmap, "Dear") == 3
    plain, dear_ferry = hexmap.ferries
    assert (ferry_cost(plain), ferry_use_fee(plain)) == (6, 5)
    assert (ferry_cost(dear_ferry), ferry_use_fee(dear_ferry)) == (9, 2)
    assert sector(21) == 2 and not hasattr(hexmap, "sector")
    _, errors = parse_map(text.replace("fee_per_hex: 3", "fee_per_hex: -1"))
    assert [e.message for e in errors] == ["foreign Dear: fee_per_hex must be at least 0, not -1"]


def test_every_race_form_s_suggested_routes_can_be_entered(game) -> None:
    """Uncommenting the form's suggestions (up to the entries allowed) gives orders that check clean."""
    seen = 0
    for before, _, _ in game:
        if before["stage"] != "operate" or before["operate_phase"] != "races":
            continue
        for p in before["players"]:
            form = GAME.order_form(GAME.view(before, p), p)
            suggested = [line[2:] for line in form.splitlines() if line.startswith("# race ")]
            seen += len(suggested)
            text = "\n".join(suggested[:before["options"]["max_entries"]])
            orders = GAME.parse(before, p, read_frame(f"player: {p}\n{text}", "form").lines)
            assert len(orders["entries"]) == min(len(suggested), before["options"]["max_entries"])
    assert seen


def test_the_examples_in_build_forms_are_hexes_of_the_map(game) -> None:
    from gm.games.railway_rivals.state import game_map
    for before, _, _ in game:
        if before["stage"] != "build":
            continue
        grid = game_map(before).grid
        for p in before["players"]:
            form = GAME.order_form(GAME.view(before, p), p)
            labels = re.findall(r"\b\d{4}\b", form)
            assert labels and all(grid.contains(h) for h in labels), form


def test_simulation_figures_of_finished_games(game) -> None:
    final = game[-1][1]
    figures = GAME.simulation_figures([final, {"stage": "build"}])
    cash = sorted(final["cash"].values(), reverse=True)
    assert figures["winner's cash (mean)"] == cash[0]
    assert figures["winning margin over the second (mean)"] == cash[0] - cash[1]
    assert figures["race entries per game (mean)"] == sum(final["races_entered"].values())
    assert GAME.simulation_figures([{"stage": "build"}]) == {}
