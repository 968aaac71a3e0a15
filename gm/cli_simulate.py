"""`gm simulate GAME`: seeded self-play between bots, printing the game's balance figures."""
from __future__ import annotations

import importlib
import json
import sys

import click

from .errors import UsageError


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--games", "n_games", type=int, default=100, show_default=True, help="how many games to play")
@click.option("--players", type=int, default=4, show_default=True, help="players in each game")
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the first game")
@click.option("--option", "option_specs", multiple=True, metavar="KEY=VALUE", help="a game option")
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON")
def simulate(game_name: str, n_games: int, players: int, seed: int, option_specs: tuple[str, ...],
             as_json: bool) -> None:
    """Play seeded games between bots and print balance figures.

    Example: gm simulate imperial-network --games 1000 --players 4 --seed 1
    """
    from . import games
    from .engine import parse_option_specs
    game = games.get(game_name)
    try:
        module = importlib.import_module(games.REGISTRY[game_name] + ".simulate")
    except ModuleNotFoundError:
        raise UsageError(f"{game.title} has no self-play simulation") from None
    options = parse_option_specs(list(option_specs))
    with click.progressbar(length=n_games, label="playing", file=sys.stderr) as bar:
        figures = module.run(game, n_games, players, seed, options, progress=bar.update)
    if as_json:
        click.echo(json.dumps(figures, indent=2))
    else:
        for line in module.describe(figures):
            click.echo(line)
