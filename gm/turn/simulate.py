"""Self-play for every game (`gm simulate`): seeded games between bots, played by the one turn
runner, and the balance figures: seat win rates, shared wins, game length, and the game's own.

Each game is seeded by its number alone, so the figures are the same for any number of jobs.
"""
from __future__ import annotations

import hashlib
import random
import statistics
from pathlib import Path
from collections.abc import Callable
from typing import Any

from gm import games
from gm.turn import runner
from gm.turn.engine import choose_map
from gm.store.errors import UsageError

MAX_TURNS = 3000


def play_one(game_name: str, players: list[str], seed: str, options: dict[str, Any],
             map_name: str | None = None) -> dict[str, Any]:
    """One bot game to its end: its final state, length and outcome."""
    game = games.get(game_name)
    master = hashlib.sha256(f"simulate:{seed}".encode()).digest()
    rng = random.Random(master)  # each bot weighs its choices a little differently (no herding)
    state = runner.start(game, map_name or game.default_map(), players, options, runner.turn_dice(master, 0))
    turn = 0
    while game.due(state):
        turn += 1
        if turn > MAX_TURNS:
            raise UsageError(f"{game.title}: a bot game did not end in {MAX_TURNS} turns (seed {seed})")
        orders = {}
        for p in game.due(state):
            checked = runner.check(game, state, game.random_orders(state, p, rng), file=f"bot {p}",
                                   players=players, turn=turn, player=p)
            if not checked.ok:
                raise UsageError(f"{game.title}: the bot's orders were refused: {checked.errors[0]}")
            orders[p] = checked.orders
        state, _events = runner.step(game, state, orders, runner.turn_dice(master, turn))
    return {"state": state, "turns": turn, "outcome": runner.outcome(game, state, players)}


def _play(job: tuple[str, list[str], str, dict[str, Any], str | None]) -> dict[str, Any]:
    return play_one(*job)


def run(game_name: str, n_games: int, n_players: int, seed: int = 0, options: dict[str, Any] | None = None, *,
        jobs: int = 1, map_name: str | None = None,
        progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    game = games.get(game_name)
    if not game.min_players <= n_players <= game.max_players:
        span = (f"{game.min_players}" if game.min_players == game.max_players
                else f"{game.min_players} to {game.max_players}")
        raise UsageError(f"{game.title} takes {span} players, not {n_players}")
    if n_games < 1:
        raise UsageError("--games must be at least 1")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    options = runner.read_options(game, dict(options or {}))
    if map_name is not None:
        map_name = choose_map(game, map_name)
    players = [f"p{i + 1}" for i in range(n_players)]
    work = [(game_name, players, f"{seed}:{g}", options, map_name) for g in range(n_games)]
    results = []
    if jobs == 1:
        for job in work:
            results.append(_play(job))
            if progress:
                progress(1)
    else:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for result in pool.imap(_play, work, chunksize=max(1, n_games // (jobs * 8))):
                results.append(result)
                if progress:
                    progress(1)
    figures = seat_figures(players, results)
    figures.update(games=n_games, players=n_players, seed=seed, game=game_name,
                   map=map_name or game.default_map())
    figures["game_figures"] = game.simulation_figures([r["state"] for r in results])
    return figures


def seat_figures(players: list[str], results: list[dict[str, Any]]) -> dict[str, Any]:
    """Win rate by seat (a shared win shared out), shared wins, games nobody won, game length."""
    wins = dict.fromkeys(players, 0.0)
    shared = nobody = 0
    for r in results:
        winners = r["outcome"]["winners"]
        shared += len(winners) > 1
        nobody += not winners
        for w in winners:
            wins[w] += 1 / len(winners)
    lengths = [r["turns"] for r in results]
    n = len(results)
    return {"seat_win_rate": [round(wins[p] / n, 3) for p in players],
            "shared_wins": round(shared / n, 3), "no_winner": round(nobody / n, 3),
            "mean_turns": round(statistics.fmean(lengths), 2),
            "turns_stdev": round(statistics.pstdev(lengths), 2),
            "min_turns": min(lengths), "max_turns": max(lengths)}


def describe(figures: dict[str, Any]) -> list[str]:
    seats = ", ".join(f"seat {i + 1} {r:.1%}" for i, r in enumerate(figures["seat_win_rate"]))
    on = f" on {Path(str(figures['map'])).stem}" if figures.get("map") else ""
    lines = [f"{figures['game']}{on}: {figures['games']} games, {figures['players']} players, "
             f"seed {figures['seed']}",
             f"win rate by seat (shared wins shared out): {seats}",
             f"shared wins: {figures['shared_wins']:.1%}; nobody won: {figures['no_winner']:.1%}",
             f"game length: mean {figures['mean_turns']} turns, spread (s.d.) {figures['turns_stdev']}, "
             f"{figures['min_turns']} to {figures['max_turns']}"]
    for label, value in figures["game_figures"].items():
        share = isinstance(value, float) and 0 <= value <= 1 and "mean" not in label
        lines.append(f"{label}: {value:.1%}" if share else f"{label}: {value}")
    return lines
