"""Railway Rivals, the operating stage: the schedule over many seeds, a whole six-company game by
bots with money accounted for, reports of race rounds in every format, and fuzzed race orders."""
from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.store.dice import Dice, turn_seed
from gm.store.errors import OrderErrors
from gm.games import get
from gm.games.railway_rivals.hexmaps import load_map
from gm.store.orders import read_frame
from gm.turn.report import FORMATS, dice_block, render_report, template_context
from gm.games.railway_rivals.operate.schedule import (draw_pairing, draw_schedule, may_race, round_sizes,
                                              schedule_problems, town_numbers)

GAME = get("railway-rivals")
ROOT = Path(__file__).resolve().parents[1]
RACECOURSE = str(ROOT / "tests" / "cases" / "railway-rivals" / "maps" / "racecourse.yaml")
SIX = ["blue", "red", "green", "yellow", "purple", "orange"]
MASTER = b"operating stage test".ljust(32, b".")


# ---- the schedule ------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32), map_name=st.sampled_from(["scotland", "tutorial", RACECOURSE]))
def test_schedule_meets_every_constraint(seed: bytes, map_name: str) -> None:
    hexmap = load_map(map_name)
    schedule, rules = draw_schedule(hexmap, 6, Dice(seed))
    assert rules == {"min_distance": 7, "sectors": True}  # every shipped map can meet the full rule
    assert schedule_problems(hexmap, schedule, rules) == []
    standard = [r for rnd in schedule for r in rnd if not r["special"]]
    assert sorted(r["from"] for r in standard) == sorted(r["to"] for r in standard) == town_numbers(hexmap)
    for race in standard:
        a, b = hexmap.towns[race["from"]], hexmap.towns[race["to"]]
        assert race["from"] // 10 != race["to"] // 10 and hexmap.grid.distance(a.hex, b.hex) >= 7
    assert [len([r for r in rnd if not r["special"]]) for rnd in schedule] == round_sizes(len(standard), 6)
    assert all(sum(r["special"] for r in rnd) == (1 if hexmap.specials else 0) for rnd in schedule)
    assert draw_schedule(hexmap, 6, Dice(seed)) == (schedule, rules)  # the dice decide it all


def test_every_valid_pairing_can_come_up() -> None:
    """Fair: on a map small enough to list them all, each valid pairing is drawn by some seed."""
    hexmap = load_map(RACECOURSE)
    numbers = town_numbers(hexmap)
    allowed = {a: [b for b in numbers if may_race(hexmap, a, b, 7, True)] for a in numbers}
    valid = {perm for perm in itertools.permutations(numbers)
             if all(b in allowed[a] for a, b in zip(numbers, perm))}
    seen = Counter(tuple(draw_pairing(numbers, allowed, Dice(bytes([n % 256, n // 256]) * 16))[a] for a in numbers)
                   for n in range(3000))
    assert set(seen) == valid and len(valid) > 5


def test_no_pairing_at_all_gives_no_standard_races() -> None:
    assert draw_pairing([11, 12], {11: [12], 12: []}, Dice(b"x" * 32)) is None


def test_drawing_the_36_town_schedule_is_fast() -> None:
    hexmap = load_map("scotland")
    draw_schedule(hexmap, 6, Dice(b"w" * 32))  # warm the caches
    start = time.perf_counter()
    for n in range(10):
        draw_schedule(hexmap, 6, Dice(bytes([n]) * 32))
    assert (time.perf_counter() - start) / 10 < 0.1


# ---- a whole game by bots ----------------------------------------------------------------------
def play_whole_game(seed: int, map_name: str = "scotland", players=SIX):
    rng = random.Random(seed)
    state = GAME.setup(map_name, list(players), {}, Dice(turn_seed(MASTER, 0)))
    turns, turn = [], 1
    while GAME.due(state):
        orders = {p: GAME.parse(state, p, read_frame(GAME.random_orders(state, p, rng), p).lines)
                  for p in GAME.due(state)}
        after, events = GAME.resolve(state, orders, Dice(turn_seed(MASTER, turn)))
        turns.append((state, after, events))
        state, turn = after, turn + 1
        assert turn < 100
    return turns


@pytest.fixture(scope="module")
def game() -> list:
    return play_whole_game(5)


def test_the_game_runs_from_the_first_build_to_the_final_ranking(game) -> None:
    phases = [GAME.phase(before) for before, _, _ in game]
    assert phases[:6] == [f"build turn {n}" for n in range(1, 7)]
    expected = []
    for r in range(1, 7):
        expected.append(f"race round {r}")
        if r < 6:
            expected.append(f"expansion after race round {r}")
    assert phases[6:] == expected
    final = game[-1][1]
    assert final["stage"] == "over" and GAME.due(final) == [] and GAME.finished(final)
    assert sum(final["races_won"].values()) > 6 and all(final["races_entered"].values())
    keys = [(-x["cash"], -x["races_won"], -x["races_entered"]) for x in final["ranking"]]
    assert keys == sorted(keys) and final["winner"] == [final["ranking"][0]["player"]]
    assert len(final["cash_history"]) == len(game) + 1


def test_money_is_accounted_for_every_turn(game) -> None:
    """Cash moves only by payments; between companies it is conserved; the bank's side is prizes,
    bonuses, fees to foreign countries, pips, ferries and interest."""
    for before, after, _ in game:
        payments = after["payments"]
        for p in SIX:
            received = sum(x["amount"] for x in payments if x["to"] == p)
            paid = sum(x["amount"] for x in payments if x["from"] == p)
            assert after["cash"][p] - before["cash"][p] == received - paid
        bank = sum(x["amount"] for x in payments if x["from"] == "bank") - \
            sum(x["amount"] for x in payments if x["to"] == "bank")
        assert sum(after["cash"].values()) - sum(before["cash"].values()) == bank
        kinds = ("first", "runner-up", "interest", "expansion:", "ferry", "fees in race")
        assert all(x["reason"].startswith(kinds) for x in payments if "bank" in (x["from"], x["to"])), payments
        assert all(x["amount"] > 0 and x["from"] != x["to"] for x in payments)


def test_race_results_follow_their_dice(game) -> None:
    for before, after, _ in game:
        if GAME.phase(before).startswith("race round"):
            for result in after["results"].values():
                for f in result["finishers"]:
                    assert len(f["rolls"]) == f["turns"] and all(1 <= v <= 6 for v in f["rolls"])
                    assert f["place"] >= 1
                places = [f["place"] for f in result["finishers"]]
                assert places == sorted(places)
                paid = [f["winnings"] for f in result["finishers"] if f["winnings"]]
                assert not paid or max(paid) in (20, 15, 40, 30)


def test_fees_respect_the_cap(game) -> None:
    for _, after, _ in game:
        for race in (after.get("entries") or {}).values():
            for entry in race.values():
                assert all(f["amount"] <= 10 for f in entry["fees"] if f["to"] != "bank")


# ---- reports -----------------------------------------------------------------------------------
def context(state: dict, events: list[dict], viewer: str, turn: int) -> dict:
    players = [{"id": p, "name": p.title(), "colour": ""} for p in state["players"]]
    return template_context(GAME, state, events, viewer, turn=turn, campaign="Test", players=players,
                            dice=dice_block(turn, b"s" * 32, b"n" * 32, []))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_operating_reports_in_every_format(game, fmt: str) -> None:
    by_phase = {GAME.phase(before): (n, after, events) for n, (before, after, events) in enumerate(game, 1)}
    n, after, events = by_phase["build turn 6"]
    text = render_report(context(after, events, "blue", n), fmt, game_name=GAME.name)
    assert "Schedule" in text or "SCHEDULE" in text
    assert "race round 1" in text.lower() and "special run" in text.lower()
    n, after, events = by_phase["race round 2"]
    text = render_report(context(after, events, "blue", n), fmt, game_name=GAME.name)
    assert "race round 2" in text.lower() and "rolls" in text and "expansion after race round 2" in text.lower()
    race = next(e for e in events if e["kind"] == "race" and e["finishers"])
    assert len(race["lines"]) == len(race["finishers"])
    for f, line in zip(race["finishers"], race["lines"]):  # every train's route and where it stood each turn
        route, stood = line.split("; after each turn: ")
        assert " ran " in route and len(stood.split(", ")) == len(f["trace"]) == len(f["rolls"])
        assert fmt != "text" or f"    {line}\n" in text
        assert fmt != "bbcode" or f"\n{line}\n" in text  # each on its own line
    n, after, events = by_phase["expansion after race round 2"]
    text = render_report(context(after, events, "blue", n), fmt, game_name=GAME.name)
    assert "budget 8" in text.lower() and "race round 3" in text.lower()
    n, after, events = by_phase["race round 6"]
    text = render_report(context(after, events, "blue", n), fmt, game_name=GAME.name)
    assert "ranking" in text.lower() and "game is over" in text.lower()


# ---- order files -------------------------------------------------------------------------------
def racecourse_state() -> dict:
    state = GAME.setup(RACECOURSE, ["blue", "red"], {}, Dice(b"s" * 32))
    line = [[f"{c:02d}05", f"{c + 1:02d}05"] for c in range(2, 22)]
    return GAME.apply_setup(state, {"stage": "operate", "track": {"blue": line},
                                    "schedule": [[{"id": 1, "from": 11, "to": 21}, {"id": 2, "from": 21, "to": 31}]]})


FUZZ_STATE = racecourse_state()
WORDS = st.sampled_from(["race", "1:", "2:", "race 1:", "race 2:", "race 9:", "Westby", "Eastby", "Farby", "0305",
                         "0405", "1205", "1105", "ferry", "F1", "leap", "(", ")", ";", "-", "\"", "\"Westby\"",
                         "11", "21", "99", "0000", "round 1:", "expand:", "x", "–", "with", "powers", "blue",
                         "red", "race 1 with blue:", "race 2 powers blue:", "race 1 with red:"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(WORDS, max_size=14).map(" ".join), max_size=6), st.text(max_size=30))
def test_fuzz_race_orders_only_order_errors_escape(lines: list[str], noise: str) -> None:
    for text in ("\n".join(lines), "\n".join(lines + [noise])):
        try:
            GAME.parse(FUZZ_STATE, "red", read_frame(text, "fuzz.txt").lines)
        except OrderErrors as errors:
            assert all(e.line and e.col for e in errors.errors)


def test_the_order_checker_shows_the_fees() -> None:
    text = "race 1: Westby 0305 0405 0505 0605 0705 0805 0905 1005 1105 Eastby"
    orders = GAME.parse(FUZZ_STATE, "red", read_frame(text, "red.txt").lines)
    assert GAME.check_notes(orders) == ["race 1: 10 hexes, 12 pips; fees 10 (10 to Blue)", "fees 10 in all, cash 20"]


def test_bad_entries_get_line_and_column() -> None:
    text = ("race 1: Westby 0305 0405 0305\n"
            "race 3: Westby 0305\n"
            "race 2: Eastby 1305 1404\n")
    with pytest.raises(OrderErrors) as caught:
        GAME.parse(FUZZ_STATE, "red", read_frame(text, "red.txt").lines)
    assert caught.value.lines() == [
        "red.txt:1:26: the route enters 0305 twice",
        "red.txt:1:26: race 1 ends at Eastby (21) (1205), not at 0305",
        "red.txt:2:6: race 3 is not run this round; this round's races: 1, 2",
        "red.txt:3:21: the route leaves the track: there is no track from 1305 to 1404",
        "red.txt:3:21: race 2 ends at Farby (31) (2205), not at 1404"]


def test_the_cash_chart_draws_the_whole_game(game, tmp_path) -> None:
    final = game[-1][1]
    figure = GAME.cash_chart(GAME.view(final, None))
    lines = figure.axes[0].get_lines()
    company_lines = [line for line in lines if len(line.get_xdata()) == len(final["cash_history"])]
    assert len(company_lines) == len(SIX)
    assert [list(line.get_ydata()) for line in company_lines][0] == [row["blue"] for row in final["cash_history"]]
    figure.savefig(tmp_path / "cash.png")
    assert (tmp_path / "cash.png").stat().st_size > 10_000
    assert GAME.cash_chart(GAME.view(game[0][0], None)) is None  # nothing to draw before the first turn


def test_route_advice_fastest_and_cheapest() -> None:
    from gm.games.railway_rivals.operate.advice import advice_text, route_advice
    from gm.games.railway_rivals.state import game_map
    state = GAME.apply_setup(FUZZ_STATE, {"track": {
        "blue": [[f"{c:02d}05", f"{c + 1:02d}05"] for c in range(2, 22)],
        "red": [["0205", "0204"], ["0204", "0304"], ["0304", "0404"], ["0404", "0504"], ["0504", "0604"],
                ["0604", "0605"]]}})
    fastest, cheapest = route_advice(state, game_map(state), "red", "Westby", "0605")
    assert (cheapest["fee_total"], cheapest["pips"], cheapest["route"][1]) == (0, 6, "0204")
    assert (fastest["fee_total"], fastest["pips"], fastest["expected_turns"]) == (4, 4, 2)
    assert advice_text(state, game_map(state), "red", "Westby", "0605").startswith(
        "fastest: 0205 0305 0405 0505 0605\n  4 pips (about 2 turns), fees 4 (4 to Blue)")


def test_gm_route_advises_and_suggests(tmp_path):
    from click.testing import CliRunner

    from gm.turn import engine
    from gm.cli import main
    camp = tmp_path / "rr"
    engine.new_campaign(camp, "railway-rivals", ["blue", "red"], map_name="tutorial", master=bytes(32))
    result = CliRunner().invoke(main, ["route", str(camp), "Isengard", "Edoras", "--player", "blue"])
    assert result.exit_code == 1 and "no track joins Isengard and Edoras" in result.output
    result = CliRunner().invoke(main, ["route", str(camp), "Isengrad", "Edoras", "--player", "blue"])
    assert result.exit_code == 2 and 'did you mean "Isengard"?' in result.output


def test_route_advice_says_when_a_route_is_over_the_cap() -> None:
    from gm.games.railway_rivals.operate.advice import advice_text
    from gm.games.railway_rivals.state import game_map
    state = GAME.apply_setup(FUZZ_STATE, {"track": {"blue": [[f"{c:02d}05", f"{c + 1:02d}05"] for c in range(2, 22)]}})
    text = advice_text(state, game_map(state), "red", "Westby", "Farby")
    assert "fees 20 (20 to Blue)" in text
    assert "it cannot be entered alone: it pays 20 to Blue, over the cap of 10 to one rival" in text


def test_the_race_form_suggests_each_race_s_cheapest_enterable_route() -> None:
    view = GAME.view(FUZZ_STATE, "red")
    form = GAME.order_form(view, "red")
    assert "#   race 1: Westby (11) to Eastby (21): fees 10 (10 to Blue), 12 pips" in form
    assert "# race 1: 0205 0305 0405 0505 0605 0705 0805 0905 1005 1105 1205" in form
    assert "#   race 2: Eastby (21) to Farby (31)  (every route costs one rival more than 10" not in form
    chosen = form.replace("# race 1:", "race 1:")
    orders = GAME.parse(FUZZ_STATE, "red", read_frame(chosen, "form").lines)
    assert [e["race"] for e in orders["entries"]] == [1]


def test_a_special_run_is_entered_as_the_form_writes_it() -> None:
    """The form lists 'special run 13: ...'; any of the words may head the entry of any race."""
    route = "Westby 0305 0405 0505 0605 0705 0805 0905 1005 1105 Eastby"
    for header in ("special run 1:", "Special Run 1:", "run 1:", "race 1:"):
        orders = GAME.parse(FUZZ_STATE, "red", read_frame(f"{header} {route}", "red.txt").lines)
        assert [e["race"] for e in orders["entries"]] == [1], header
