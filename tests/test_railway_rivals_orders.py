"""The Railway Rivals order reader and checker: syntax, exact error positions, and a fuzz test."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.store.dice import Dice
from gm.store.errors import OrderError, OrderErrors
from gm.games import get
from gm.store.orders import read_frame

GAME = get("railway-rivals")
MAPS = Path(__file__).parent / "cases" / "railway-rivals" / "maps"
HELMS_DEEP = str(MAPS / "helms-deep.yaml")


def new_game(map_name: str = HELMS_DEEP, players=("blue", "red"), dice=(6, 6, 6), **setup) -> dict:
    state = GAME.setup(map_name, list(players), {}, Dice(b"s" * 32, fixed=list(dice)))
    return GAME.apply_setup(state, setup) if setup else state


def parse(state: dict, text: str, player: str = "blue") -> dict:
    return GAME.parse(state, player, read_frame(text, "orders.txt").lines)


def errors_of(state: dict, text: str, player: str = "blue") -> list[str]:
    with pytest.raises(OrderErrors) as caught:
        parse(state, text, player)
    return caught.value.lines()


AT_2522 = {"track": {"blue": [["2519", "2520"], ["2520", "2521"], ["2521", "2522"]]}}


def test_the_rules_example_line_reads_as_written() -> None:
    state = new_game(**AT_2522)
    orders = parse(state, "Round 3: (2522) - 2523 - Helm's Deep; (2522) - 2924. Total 6")
    first, second = orders["rounds"][2]
    assert first["start"] == "2522" and [s["hex"] for s in first["steps"]] == ["2523", "2524"]
    # the straight line 2522-2924 is expanded into its four single steps
    assert second["start"] == "2522" and [s["hex"] for s in second["steps"]] == ["2622", "2723", "2823", "2924"]
    assert orders["totals"][2]["value"] == 6
    assert "round 3: 6 of 6 pips; pays nothing" in orders["notes"]


def test_dashed_hexes_quoted_names_and_accents() -> None:
    state = new_game(**AT_2522)
    orders = parse(state, 'round 1: (2522)-2523-"HELM\'S DEEP"\nround 2: (helm\'s deep) 2525 edoras')
    assert [s["hex"] for s in orders["rounds"][0][0]["steps"]] == ["2523", "2524"]
    assert orders["rounds"][1][0]["start"] == "2524"
    assert [s["hex"] for s in orders["rounds"][1][0]["steps"]] == ["2525", "2526"]
    tutorial = new_game("tutorial", dice=(6, 6, 6), track={"blue": [["1808", "1809"]]})
    steps = parse(tutorial, "round 1: (1809) ANORIEN 1911")["rounds"][0][0]["steps"]
    assert [s["hex"] for s in steps] == ["1910", "1911"]


def test_town_numbers_stand_for_their_towns() -> None:
    state = new_game(**AT_2522)
    orders = parse(state, "round 1: (2522) 2523 12")
    assert orders["rounds"][0][0]["steps"][-1]["hex"] == "2524"


def test_every_error_with_file_line_and_column() -> None:
    state = new_game(dice=(3, 3, 3))
    text = (
        "player: blue\n"
        "round 1: (Isengard) 2520 2521 2522\n"      # 1 + 1 + 3 on a die of 3
        "round 2: (2520) 2620 Edras\n"
        "rund 3: (2520) 2620\n"
        "round 3: (2520) 2722\n"
        "round 3:\n"
        "company: Great Western, gren\n"
    )
    assert errors_of(state, text) == [
        "orders.txt:2:31: round 1 builds 5 pips but its die is 3: 2522 needs 3 pips (1 + river 2) "
        "but only 1 of the die's 3 is left",
        "orders.txt:3:22: unknown town 'Edras' (did you mean \"Edoras\"?)",
        "orders.txt:4:1: expected 'round 1:' to 'round 3:' or 'company: NAME, COLOUR', not 'rund' "
        "(did you mean \"round\"?)",
        "orders.txt:5:17: 2722 is not next to 2520 nor on a straight hex line from it: list the hexes in between",
        "orders.txt:6:1: round 3 is given twice (first on line 5)",
        "orders.txt:7:25: unknown colour 'gren' (did you mean \"green\"?); colours: blue, red, green, yellow, "
        "purple, orange, teal, grey, black, brown, pink, cyan",
    ]


def test_building_into_the_sea_and_off_your_network() -> None:
    state = new_game("tutorial", track={"blue": [["1903", "1904"]]})
    assert errors_of(state, "round 1: (1904) 2004 2003\nround 2: (1106) 1107") == [
        "orders.txt:1:22: 2003 is a lake: no track can be built there",
        "orders.txt:2:10: 1106 is not on your track; a segment starts where your track is",
    ]


def test_total_and_unknown_words() -> None:
    state = new_game()
    assert errors_of(state, "round 1: (Isengard) 2520 total 2\nround 2: ferry\nround 4: (2520)") == [
        "orders.txt:1:32: 'total 2' but the builds of round 1 cost 1 pip",
        "orders.txt:2:10: a segment starts with the hex or town it leaves from, in brackets: (2519) 2518 2517 ...",
        "orders.txt:3:7: a build turn has rounds 1 to 3, not '4'",
    ]


def test_leaps_need_the_option() -> None:
    state = new_game(track={"blue": [["2519", "2520"]], "red": [["2520", "2620"], ["2620", "2720"]]})
    assert errors_of(state, "round 1: (2520) leap 2720") == [
        "orders.txt:1:17: leaps are not allowed in this game (option leapfrog is off)"]


def test_the_blank_order_form_checks_clean() -> None:
    state = new_game("tutorial")
    form = GAME.order_form(GAME.view(state, "blue"), "blue")
    frame = read_frame(form, "form.txt")
    assert frame.player == "blue" and frame.turn == 1
    orders = GAME.parse(state, "blue", frame.lines)
    assert orders["rounds"] == [[], [], []]
    assert "round 2:          # die 6" in form and "start at a starting point" in form


def test_bot_orders_always_check(tmp_path) -> None:
    rng = random.Random(7)
    state = new_game("tutorial", players=("blue", "red", "green"))
    for turn in range(3):
        orders = {p: parse(state, GAME.random_orders(state, p, rng), p) for p in state["players"]}
        state, _ = GAME.resolve(state, orders, Dice(bytes([turn]) * 32))
    assert all(state["track"][p] for p in state["players"])


def test_no_orders_after_the_building_stage() -> None:
    state = new_game(stage="operate")
    assert errors_of(state, "round 1: (Isengard) 2520") == [
        "orders.txt:1:1: the building stage is over: no build orders are taken"]


WORDS = st.sampled_from(["round", "1:", "2:", "3:", "round 1:", "(", ")", ";", "-", "total", "6", "x",
                         "(2522)", "2523", "2924", "Helm's", "Deep", "\"Helm's Deep\"", "\"", "ferry", "F1",
                         "leap", "over", "red", "company:", ",", "green", "Edoras", "0000", "99", "12",
                         "(Isengard)", "2520", "2620", "–", "..", "round 9:", "9999"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(WORDS, max_size=12).map(" ".join), max_size=5), st.text(max_size=40))
def test_fuzz_only_order_errors_escape(lines: list[str], noise: str) -> None:
    state = FUZZ_STATE
    for text in ("\n".join(lines), "\n".join(lines + [noise]), noise):
        try:
            parse(state, text)
        except (OrderErrors, OrderError):
            pass


FUZZ_STATE = new_game(track={**AT_2522["track"], "red": [["2522", "2523"], ["2523", "2524"], ["2524", "2525"]]})
FUZZ_STATE["options"]["leapfrog"] = True


SHIRE = str(MAPS / "shire.yaml")


def test_a_round_over_its_die_is_one_error_not_three() -> None:
    """Round 2 builds again the link that round 1 could not pay for, and round 3 goes on from there."""
    state = new_game(SHIRE, dice=(2, 2, 6))
    assert errors_of(state, "round 1: (Alpha) 0302 0402 0502\nround 2: (0402) 0502 0602\nround 3: (0602) 0702") == [
        "orders.txt:1:28: round 1 builds 3 pips but its die is 2: 0502 needs 1 pip but only 0 of the die's 2 "
        "are left"]


def test_a_misspelt_town_is_one_error_not_two() -> None:
    state = new_game(SHIRE, dice=(2, 2, 6))
    assert errors_of(state, "round 1: (Alpha) 0302\nround 2: (0302) 0402 0502 Charlei\nround 3: (Charlie) 0702") == [
        "orders.txt:2:27: unknown town 'Charlei' (did you mean \"Charlie\"?)"]
    assert errors_of(state, "round 1: (Alpha) 0302\nround 2 (0302) 0402\nround 3: (0402) 0502") == [
        "orders.txt:2:1: write the round as 'round 1:' (a number and a colon), e.g. round 1: (0202) 0302 0401"]


def test_a_start_off_the_track_is_still_an_error_when_nothing_else_is_wrong() -> None:
    state = new_game(SHIRE, dice=(2, 2, 6))
    assert errors_of(state, "round 1: (Alpha) 0302\nround 3: (Charlie) 0702") == [
        "orders.txt:2:10: Charlie (0602) is not on your track; a segment starts where your track is"]
