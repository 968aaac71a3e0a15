"""Self-play: seeded games between bots, and the balance figures the rules document records."""
from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from ...dice import Dice, turn_seed
from ...errors import UsageError
from ...orders import read_frame

MAX_TURNS = 500


def play_one(game, players: list[str], seed: str, options: dict[str, Any]) -> dict[str, Any]:
    """One bot game: its final state."""
    master = hashlib.sha256(f"simulate:{seed}".encode()).digest()
    rng = random.Random(master)  # each bot weighs its choices a little differently (no herding)
    state = game.setup(None, players, options, Dice(turn_seed(master, 0)))
    for turn in range(1, MAX_TURNS + 1):
        due = game.due(state)
        if not due:
            break
        orders = {p: game.parse(state, p, read_frame(game.random_orders(state, p, rng)).lines) for p in due}
        state, _ = game.resolve(state, orders, Dice(turn_seed(master, turn)))
    return state


def run(game, games: int, players: int, seed: int = 0, options: dict[str, Any] | None = None,
        progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    if not game.min_players <= players <= game.max_players:
        raise UsageError(f"{game.title} takes {game.min_players} to {game.max_players} players, not {players}")
    if games < 1:
        raise UsageError("--games must be at least 1")
    from ...engine import read_options
    options = read_options(game, dict(options or {}))
    ids = [f"p{i + 1}" for i in range(players)]
    seat_wins = [0.0] * players
    results: dict[str, int] = {}
    turns = capital = decided = 0
    for g in range(games):
        state = play_one(game, ids, f"{seed}:{g}", options)
        results[state["result"]] = results.get(state["result"], 0) + 1
        turns += state["turn"]
        view = game.view(state, None)
        capital += sum(view["capital"].values()) / players
        if state["result"] in ("capital", "turn limit") and state["winner"]:
            decided += 1
            for w in state["winner"]:  # a shared win is shared out
                seat_wins[state["seats"].index(w)] += 1 / len(state["winner"])
        if progress:
            progress(1)
    return {"games": games, "players": players, "seed": seed,
            "seat_win_rate": [round(w / max(decided, 1), 3) for w in seat_wins], "decided_by_capital": decided,
            "exhaustion": round(results.get("exhaustion", 0) / games, 3),
            "fatherland": round(results.get("fatherland", 0) / games, 3),
            "turn_limit": round(results.get("turn limit", 0) / games, 3),
            "mean_turns": round(turns / games, 2), "mean_final_capital": round(capital / games, 1)}


def describe(figures: dict[str, Any]) -> list[str]:
    seats = ", ".join(f"seat {i + 1} {r:.1%}" for i, r in enumerate(figures["seat_win_rate"]))
    return [f"{figures['games']} games, {figures['players']} players, seed {figures['seed']}",
            f"win rate by seat, of the {figures['decided_by_capital']} games won on capital: {seats}",
            f"lost to exhaustion: {figures['exhaustion']:.1%}",
            f"Fatherland victory: {figures['fatherland']:.1%}",
            f"ended by the turn limit: {figures['turn_limit']:.1%}",
            f"mean game length: {figures['mean_turns']} turns",
            f"mean final capital: {figures['mean_final_capital']} RM"]
