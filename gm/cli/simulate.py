"""`gm simulate GAME`: seeded self-play between bots, printing the game's balance figures.

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import json
import sys

import click


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--games", "n_games", type=int, default=100, show_default=True, help="how many games to play")
@click.option("--players", type=int, default=None, help="players in each game (default: the most the game takes, "
              "at most 4)")
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the first game")
@click.option("--map", "map_name", help="a shipped map's name or a map file (default: the game's first)")
@click.option("--jobs", type=int, default=1, show_default=True, help="games played at once (one per core)")
@click.option("--option", "option_specs", multiple=True, metavar="KEY=VALUE", help="a game option")
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON")
def simulate(game_name: str, n_games: int, players: int | None, seed: int, map_name: str | None, jobs: int,
             option_specs: tuple[str, ...], as_json: bool) -> None:
    """Play seeded games between bots and print balance figures (the same for any --jobs).

    Example: gm simulate railway-rivals --games 200 --players 4 --jobs 2
    """
    from gm import games
    from gm.turn import simulate as self_play
    from gm.turn.engine import parse_option_specs
    game = games.get(game_name)
    n_players = players if players is not None else max(game.min_players, min(game.max_players, 4))
    options = parse_option_specs(list(option_specs))
    with click.progressbar(length=max(n_games, 0), label="playing", file=sys.stderr) as bar:
        figures = self_play.run(game.name, n_games, n_players, seed, options, jobs=jobs, map_name=map_name,
                                progress=bar.update)
    if as_json:
        click.echo(json.dumps(figures, indent=2))
    else:
        for line in self_play.describe(figures):
            click.echo(line)
