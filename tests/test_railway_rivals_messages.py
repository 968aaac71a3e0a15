"""Railway Rivals order errors name what the player wrote (issue 24 item 9): towns by name and hex,
the two ends of a straight run, a race no track joins; and the sign-off hint only under lines that
were not read as orders."""
from __future__ import annotations

from pathlib import Path

import pytest

from gm.games import get
from gm.store.dice import Dice
from gm.store.errors import OrderErrors
from gm.store.orders import read_frame
from gm.turn import runner

GAME = get("railway-rivals")
RACECOURSE = str(Path(__file__).resolve().parent / "cases" / "railway-rivals" / "maps" / "racecourse.yaml")


def scotland_errors(text: str) -> list[str]:
    state = runner.start(GAME, "scotland", ["ann", "bob"], {}, runner.turn_dice(bytes(32), 0))
    checked = runner.check(GAME, state, "player: ann\n" + text, file="a.txt", players=["ann", "bob"], turn=1)
    return [str(e) for e in checked.problems]


def test_a_town_is_named_as_the_player_wrote_it():
    assert scotland_errors("round 1: (1930) Inveraray\n") == [
        "a.txt:2:17: Inveraray (1129) is not next to 1930 nor on a straight hex line from it: "
        "list the hexes in between"]


def test_a_failure_inside_a_straight_run_names_the_run_written():
    errors = scotland_errors("round 1: (Inverness) 1721\n")
    assert len(errors) == 1 and errors[0].startswith("a.txt:2:22: round 1 builds")
    assert errors[0].endswith("; 1720 lies on the straight line you wrote from Inverness (1717) to 1721")
    # the hex written last is what the player wrote: nothing to add
    assert "straight line you wrote" not in scotland_errors("round 1: (Inverness) 1718 1719 1720 1721\n")[0]


def racecourse_state(track: list[list[str]]) -> dict:
    state = GAME.setup(RACECOURSE, ["blue", "red"], {}, Dice(b"s" * 32))
    return GAME.apply_setup(state, {"stage": "operate", "track": {"blue": track},
                                    "schedule": [[{"id": 1, "from": 11, "to": 21}, {"id": 2, "from": 21, "to": 31}]]})


def race_errors(state: dict, text: str) -> list[str]:
    with pytest.raises(OrderErrors) as caught:
        GAME.parse(state, "red", read_frame(text, "red.txt").lines)
    return caught.value.lines()


def test_a_race_no_track_joins_says_so():
    westby_to_eastby = [[f"{c:02d}05", f"{c + 1:02d}05"] for c in range(2, 12)]
    state = racecourse_state(westby_to_eastby)
    assert race_errors(state, "race 2: Eastby 1305 1405 Farby\n") == [
        "red.txt:1:8: race 2 cannot be run this round: no track joins Eastby (21) and Farby (31) yet "
        "(the race is carried over to the next round)"]


def test_a_route_off_the_track_inside_a_straight_run_names_the_run():
    state = racecourse_state([[f"{c:02d}05", f"{c + 1:02d}05"] for c in range(2, 22)])
    errors = race_errors(state, "race 1: Westby 0305 0308\n")
    assert errors[0] == ("red.txt:1:21: the route leaves the track: there is no track from 0305 to 0306; "
                         "0306 lies on the straight line you wrote from 0305 to 0308")


def test_the_sign_off_hint_is_only_for_lines_not_read_as_orders():
    """A valid but illegal last line (`play:` before the draws are done) is an order, not a sign-off;
    'Cheers, / Ann' still gets the hint."""
    tut = get("thurn-und-taxis")
    players = ["ann", "bob"]
    state = runner.start(tut, None, players, {}, runner.turn_dice(bytes(32), 0))

    def check(text: str) -> list[str]:
        return [e.message for e in runner.check(tut, state, "player: ann\n" + text, file="a.txt",
                                                players=players, turn=1).problems]

    illegal = check("official: postmaster\ndraw: deck\nplay: Zurich right\n")
    assert illegal and all("sign-off" not in m for m in illegal)
    signed = check("official: postmaster\ndraw: deck\nCheers,\nAnn\n")
    assert any("if this is your sign-off" in m for m in signed)
