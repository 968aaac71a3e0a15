"""Railway Rivals resolution: a seeded six-company build stage, money, partial orders, NMR, speed."""
from __future__ import annotations

import copy
import random
import statistics
import time
from pathlib import Path

import pytest
import yaml

from gm.store.dice import Dice, turn_seed
from gm.store.errors import UsageError
from gm.games import get
from gm.games.railway_rivals.hexmaps import load_map
from gm.store.orders import read_frame

GAME = get("railway-rivals")
MAPS = Path(__file__).parent / "cases" / "railway-rivals" / "maps"
SIX = ["blue", "red", "green", "yellow", "purple", "orange"]
MASTER = bytes(range(32))


def biggest_map() -> str:
    """The shipped map with the most hexes: the campaign map, where six companies have room."""
    return max(GAME.maps(), key=lambda name: len(load_map(name).grid))


def parse(state: dict, player: str, text: str) -> dict:
    return GAME.parse(state, player, read_frame(text, f"{player}.txt").lines)


def play_build_stage(seed: int, map_name: str, players=SIX) -> list[tuple[dict, dict]]:
    """(state before, state after) of every build turn, every company ordered by the bot."""
    rng = random.Random(seed)
    state = GAME.setup(map_name, players, {}, Dice(turn_seed(MASTER, 0)))
    turns = []
    turn = 1
    while GAME.due(state) and state["stage"] == "build":
        orders = {p: parse(state, p, GAME.random_orders(state, p, rng)) for p in GAME.due(state)}
        after, _events = GAME.resolve(state, orders, Dice(turn_seed(MASTER, turn)))
        turns.append((state, after))
        state, turn = after, turn + 1
    return turns


@pytest.fixture(scope="module")
def stage() -> list[tuple[dict, dict]]:
    return play_build_stage(11, biggest_map())


def test_six_build_turns_then_the_operating_stage(stage) -> None:
    assert len(stage) == 6
    final = stage[-1][1]
    assert final["stage"] == "operate" and final["build_dice"] == [] and GAME.phase(final) == "race round 1"
    assert all(final["track"][p] for p in SIX)  # every company built something


def test_money_is_conserved(stage) -> None:
    for before, after in stage:
        payments = after["payments"]
        for p in SIX:
            received = sum(x["amount"] for x in payments if x["to"] == p)
            paid = sum(x["amount"] for x in payments if x["from"] == p)
            assert after["cash"][p] - before["cash"][p] == received - paid
        between = [x for x in payments if x["from"] in SIX and x["to"] in SIX]
        assert all(x["from"] != x["to"] and x["amount"] > 0 for x in between)
        bank_in = sum(x["amount"] for x in payments if x["to"] == "bank")
        bank_out = sum(x["amount"] for x in payments if x["from"] == "bank")
        assert sum(after["cash"].values()) - sum(before["cash"].values()) == bank_out - bank_in


def test_rivals_do_pay_each_other(stage) -> None:
    """The seeded stage is a real test of payments: companies meet and pay."""
    assert any(x["from"] in SIX and x["to"] in SIX for _, after in stage for x in after["payments"])


def test_state_is_plain_data_and_the_same_seed_gives_the_same_game(stage) -> None:
    for _, after in stage:
        assert yaml.safe_load(yaml.safe_dump(after)) == after
    again = play_build_stage(11, biggest_map())
    assert [after for _, after in again] == [after for _, after in stage]


def test_resolve_changes_nothing_it_is_given() -> None:
    state = GAME.setup(biggest_map(), SIX, {}, Dice(turn_seed(MASTER, 0)))
    rng = random.Random(3)
    orders = {p: parse(state, p, GAME.random_orders(state, p, rng)) for p in SIX}
    frozen_state, frozen_orders = copy.deepcopy(state), copy.deepcopy(orders)
    first = GAME.resolve(state, orders, Dice(turn_seed(MASTER, 1)))
    assert state == frozen_state and orders == frozen_orders
    assert GAME.resolve(state, orders, Dice(turn_seed(MASTER, 1))) == first


def test_one_build_turn_of_six_companies_resolves_well_under_a_fifth_of_a_second(stage) -> None:
    before, _ = stage[3]
    rng = random.Random(5)
    orders = {p: parse(before, p, GAME.random_orders(before, p, rng)) for p in SIX}
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        GAME.resolve(before, orders, Dice(turn_seed(MASTER, 4)))
        timings.append(time.perf_counter() - start)
    assert statistics.median(timings) < 0.2


def shire(players=("blue", "red"), dice=(4, 1, 1), options=None, **setup) -> dict:
    state = GAME.setup(str(MAPS / "shire.yaml"), list(players), options or {}, Dice(b"t" * 32, fixed=list(dice)))
    return GAME.apply_setup(state, setup) if setup else state


def test_a_partial_order_says_where_and_why_it_stopped() -> None:
    state = shire()
    orders = {"blue": parse(state, "blue", "round 1: (0609) 0710 ferry F1 1110"),
              "red": parse(state, "red", "round 1: (0609) 0610 0710 ferry F1 1110; (0609) 0509")}
    after, events = GAME.resolve(state, orders, Dice(b"u" * 32))
    red = next(e for e in events if e["kind"] == "build" and e["player"] == "red")
    stopped = red["segments"][0]["stopped"]
    assert stopped == {"hex": "1010", "kind": "ferry", "reason": "ferry F1 belongs to Blue", "at": "at ferry F1",
                       "from": "0710"}
    assert red["segments"][1]["stopped"] is None and red["segments"][1]["route"] == "(0609) 0509"
    assert "Stopped at ferry F1 (line 1): ferry F1 belongs to Blue." in red["text"]
    assert after["ferries"] == {"F1": "blue"}


def test_missed_orders_build_nothing_by_default() -> None:
    state = shire()
    assert GAME.default_orders(state, "red") is None
    after, _ = GAME.resolve(state, {"blue": parse(state, "blue", "round 1: (Alpha) 0203"), "red": None},
                            Dice(b"v" * 32))
    assert after["nmr"] == ["red"] and after["track"]["red"] == []


def test_missed_orders_get_the_bot_s_build_under_the_bot_policy() -> None:
    state = shire(dice=(4, 3, 5))
    default = GAME.bot_orders(state, "red")
    assert default["nmr"] is True and any(default["rounds"])
    assert GAME.bot_orders(state, "red") == default  # the same default on a replay
    after, events = GAME.resolve(state, {"blue": parse(state, "blue", ""), "red": default}, Dice(b"w" * 32))
    assert after["nmr"] == ["red"] and after["track"]["red"]
    assert any(e["kind"] == "default_build" and e["player"] == "red" for e in events)


@pytest.mark.parametrize("setup,message", [
    ({"track": {"blue": [["1502", "1503"]]}}, "set-up track of blue: 1502-1503: 1503 is sea"),
    ({"track": {"blue": [["0202", "0204"]]}}, "set-up track of blue: 0202-0204: 0204 is not next to Alpha (0202)"),
    ({"cash": {"bleu": 3}}, "set-up cash: 'bleu' is not a player (did you mean \"blue\"?)"),
    ({"build_dice": [1, 7, 2]}, "set-up build_dice must be three dice 1-6"),
    ({"towns_reached": {77: ["blue"]}}, "set-up towns_reached: 77 is not a town number on this map"),
    ({"trak": {}}, "cannot set 'trak' (did you mean \"track\"?)"),
])
def test_a_case_set_up_is_checked(setup: dict, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        shire(**setup)
    assert message in str(caught.value)


def test_the_map_image_is_drawn() -> None:
    state = shire()
    orders = {"blue": parse(state, "blue", "round 1: (0609) 0710 ferry F1 1110"), "red": None}
    after, events = GAME.resolve(state, orders, Dice(b"x" * 32))
    figure = GAME.render(GAME.view(after, None), None, events=events)
    assert figure.artists and any(t.get_text() == "Test Shire: after build turn 1 of 6" for t in figure.texts)


def test_the_campaign_s_bot_policy_builds_for_missing_companies(tmp_path) -> None:
    """nmr_policy: bot in campaign.yaml lets the bot build (the game has no missed-turn option of its own)."""
    from gm.turn import engine
    from gm.store.campaign import Campaign

    engine.new_campaign(tmp_path / "c", "railway-rivals", ["blue", "red"], map_name="tutorial", master=bytes(32))
    config = yaml.safe_load((tmp_path / "c" / "campaign.yaml").read_text(encoding="utf-8"))
    assert "nmr" not in config["options"]
    config["nmr_policy"] = "bot"
    (tmp_path / "c" / "campaign.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    resolved = engine.resolve(Campaign(tmp_path / "c"), force=True)
    state = Campaign(tmp_path / "c").state(1)
    assert resolved.nmr == ["blue", "red"] and state["track"]["blue"] and state["track"]["red"]


def test_the_map_title_names_the_turn_the_report_names_and_new_track_has_its_own_key() -> None:
    """The last build turn's map says 'after build turn 6 of 6', not the race round that comes next."""
    state = shire(build_turn=6)
    orders = {"blue": parse(state, "blue", "round 1: (0609) 0610"), "red": None}
    after, events = GAME.resolve(state, orders, Dice(b"x" * 32))
    assert after["stage"] == "operate" and after["last_turn"] == "build turn 6 of 6"
    figure = GAME.render(GAME.view(after, None), None, events=events)
    texts = {t.get_text() for t in figure.texts}
    assert "Test Shire: after build turn 6 of 6" in texts
    assert after["built"]["blue"] == [["0609", "0610"]]
