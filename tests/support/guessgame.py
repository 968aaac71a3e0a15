"""A tiny simultaneous game with hidden orders, for testing the engine without a real game.

Each turn every player writes `guess N` (1-6); a d6 is rolled; a right guess scores a point.
Three turns. A player's guess is secret until the turn is resolved.

It is written as a third party writes a game: it imports only gm's plug-in interface (gm.games.base,
gm.store.orders, gm.store.errors), and tests/test_external_game.py installs it as a distribution of its
own (entry point ``guess = guessgame:GAME`` in the group ``gm.games``).
"""
from __future__ import annotations

import random

from gm.games.base import Game, Option, player_ref
from gm.store.orders import collect


VIEW_KEYS = ("players", "turn", "turns", "score", "last_roll", "guesses")


class Guess(Game):
    name = "guess"
    title = "Guess"
    min_players = 1
    max_players = 4
    options = {"turns": Option(3, "How many turns", kind=int)}

    def setup(self, map_name, players, options, dice, names=None):
        return {"players": list(players), "turn": 0, "turns": options["turns"], "score": {p: 0 for p in players},
                "last_roll": None, "guesses": {}}

    def due(self, state):
        return [] if state["turn"] >= state["turns"] else list(state["players"])

    def phase(self, state):
        return "over" if not self.due(state) else "guessing"

    def view(self, state, viewer):
        return {key: state[key] for key in VIEW_KEYS}  # the guesses shown are last turn's: nothing is hidden

    def parse(self, state, player, lines):
        errors, guess = [], None
        for line in lines:
            words = line.text.split()
            if words[0].lower() != "guess" or len(words) != 2:
                errors.append(line.syntax(f"expected 'guess N', not {line.text!r}"))
            elif not words[1].isdigit() or not 1 <= int(words[1]) <= 6:
                errors.append(line.error(f"a guess is 1 to 6, not {words[1]!r}", len(words[0]) + 1))
            elif guess is not None:
                errors.append(line.error("only one guess a turn"))
            else:
                guess = int(words[1])
        if guess is None and not errors:
            errors.append(lines[0].error("no guess") if lines else _no_lines())
        collect(errors)
        return {"guess": guess}

    def resolve(self, state, orders, dice):
        roll = dice.roll(f"turn {state['turn'] + 1}", 6)
        state = dict(state, turn=state["turn"] + 1, last_roll=roll,
                     guesses={p: (o or {}).get("guess") for p, o in orders.items()})
        state["score"] = dict(state["score"])
        events = [{"kind": "roll", "text": f"The die shows {roll}."}]
        for p, o in orders.items():
            if o and o["guess"] == roll:
                state["score"][p] += 1
                events.append({"kind": "right", "player": p, "text": f"{player_ref(p)} guessed right."})
        return state, events

    def outcome(self, state):
        if self.due(state):
            return None
        points = sorted(set(state["score"].values()), reverse=True)
        ranking = [[p for p in state["players"] if state["score"][p] == n] for n in points]
        best = points[0]
        return {"winners": ranking[0], "ranking": ranking,
                "reason": f"most right guesses ({best} of {state['turns']})"}

    def default_orders(self, state, player):
        return None

    def bot_orders(self, state, player):
        return {"guess": 6}  # the bot always guesses six

    def order_form(self, view, player):
        return "guess ?   # 1 to 6"

    def random_orders(self, state, player, rng: random.Random):
        return f"guess {rng.randint(1, 6)}"


def _no_lines():
    from gm.store.errors import OrderSyntaxError
    return OrderSyntaxError("no orders in the file", line=1, col=1)


GAME = Guess()
