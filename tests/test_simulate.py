"""`gm simulate` for every game, through the one runner: the same figures for any number of jobs."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from gm import games
from gm.turn import simulate
from gm.cli import main


@pytest.mark.parametrize("name", games.names())
def test_every_game_simulates_with_seat_figures(name):
    game = games.get(name)
    figures = simulate.run(name, 2, game.min_players, seed=3)
    assert len(figures["seat_win_rate"]) == game.min_players
    assert abs(sum(figures["seat_win_rate"]) + figures["no_winner"] - 1) < 0.01
    assert figures["min_turns"] <= figures["mean_turns"] <= figures["max_turns"]


def test_the_same_figures_for_any_number_of_jobs():
    assert simulate.run("network", 6, 2, seed=1, jobs=1) == simulate.run("network", 6, 2, seed=1, jobs=2)


def test_bad_arguments_are_one_line():
    result = CliRunner().invoke(main, ["simulate", "network", "--players", "3"])
    assert result.exit_code == 2 and result.output.strip().endswith("Network takes 2 players, not 3")
    result = CliRunner().invoke(main, ["simulate", "network", "--jobs", "0"])
    assert result.exit_code == 2 and "--jobs must be at least 1" in result.output


def test_a_map_can_be_chosen_and_a_misspelt_one_is_named():
    figures = simulate.run("railway-rivals", 1, 4, seed=2, map_name="scotland")
    assert figures["map"] == "scotland"
    result = CliRunner().invoke(main, ["simulate", "railway-rivals", "--map", "scotlnd"])
    assert result.exit_code == 2 and 'did you mean "scotland"?' in result.output
