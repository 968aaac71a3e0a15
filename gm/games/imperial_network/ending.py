"""How a finished game is told: who won, the places by capital, why; and the game's own balance
figures over many finished bot games (`gm simulate`)."""
from __future__ import annotations

from typing import Any

from gm.games.base import Outcome, State, player_ref
from .cards import Cards
from .rules import capital


def ranking(state: State, cards: Cards) -> list[list[str]]:
    """Places by capital, best first; equal capital shares a place."""
    caps = {p: capital(state, cards, p) for p in state["players"]}
    return [[p for p in state["players"] if caps[p] == c] for c in sorted(set(caps.values()), reverse=True)]


def outcome(state: State, cards: Cards) -> Outcome | None:
    """None while the game goes on; else the winners (none when the Empire is exhausted)."""
    if state["winners"] is None:
        return None
    places = ranking(state, cards)
    caps = ", ".join(f"{player_ref(p)} {capital(state, cards, p)} RM" for place in places for p in place)
    limit = state.get("options", {}).get("turn_limit")
    reason = {
        "capital": "the highest capital after the last turn (a player owned every train)",
        "turn limit": f"the highest capital when the turn limit ({limit}) was reached",
        "fatherland": "Fatherland victory: every neighbouring country was annexed, so every player wins",
        "exhaustion": "the Empire was exhausted by the war, so every player loses",
    }.get(state["ended_by"], str(state["ended_by"]))
    return {"winners": list(state["winners"]), "ranking": places, "reason": f"{reason} (capital: {caps})"}


def simulation_figures(finals: list[State], cards: Cards | None) -> dict[str, Any]:
    """How games end, and seat win rates by the drawn seat order among games won on capital."""
    if not finals or cards is None:
        return {}
    n = len(finals)
    ended = [s["ended_by"] for s in finals]
    figures: dict[str, Any] = {
        "lost to exhaustion": round(ended.count("exhaustion") / n, 3),
        "Fatherland victory (every player wins)": round(ended.count("fatherland") / n, 3),
        "ended by the turn limit": round(ended.count("turn limit") / n, 3),
        "mean final capital (RM)": round(sum(capital(s, cards, p) for s in finals for p in s["players"])
                                         / sum(len(s["players"]) for s in finals), 1),
    }
    on_capital = [s for s in finals if s["ended_by"] in ("capital", "turn limit") and s["winners"]]
    seats = len(finals[0]["seats"])
    wins = [0.0] * seats
    for s in on_capital:
        for w in s["winners"]:  # a shared win is shared out
            wins[s["seats"].index(w)] += 1 / len(s["winners"])
    figures["games won on capital"] = len(on_capital)
    for i, w in enumerate(wins):
        figures[f"seat {i + 1} (drawn seat order) win rate, of games won on capital"] = \
            round(w / max(len(on_capital), 1), 3)
    return figures
