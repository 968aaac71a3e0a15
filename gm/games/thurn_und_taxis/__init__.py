"""Thurn und Taxis: postal routes across southern (Map 1) or northern (Map 2) Germany, hidden hands.

Sequential: one player's turn at a time. Rules as this project plays them:
docs/rules/thurn-und-taxis.md.
"""
from __future__ import annotations

import random
from typing import Any

from gm.store.dice import Dice
from gm.store.errors import UsageError
from gm.store.orders import OrderLine
from gm.games.base import Event, Game, Orders, State, player_ref
from . import bot, maps, position, scoring, views
from .orders import parse_orders
from .turn import OFFICIALS, resolve_turn
from .standings import standings


class ThurnUndTaxis(Game):
    name = "thurn-und-taxis"
    title = "Thurn und Taxis"
    sequential = True
    min_players = 2
    max_players = 4
    hidden_information = True
    secret_dice = True
    pictures = True
    pictures_name_players = True
    options: dict = {}
    images_per_viewer = True  # the viewer's own route and hand are drawn
    image_name = "map"

    def maps(self) -> list[str]:
        return maps.shipped()

    def _map(self, state_or_name: Any) -> maps.GameMap:
        name = state_or_name["map"] if isinstance(state_or_name, dict) else state_or_name
        return maps.load(name)

    def setup(self, map_name: str | None, players: list[str], options: dict[str, Any], dice: Dice,
              names: dict[str, str] | None = None) -> State:
        self.check_players(players)
        if len(set(players)) != len(players):
            raise UsageError("every player needs an id of their own")
        name = map_name or self.default_map()
        return position.new_game(self._map(name), name, players, dice)

    def due(self, state: State) -> list[str]:
        return [] if state.get("finished") else [state["to_move"]]

    def phase(self, state: State) -> str:
        return "finished" if state.get("finished") else f"round {state['round']}"

    def finished(self, state: State) -> bool:
        return bool(state.get("finished"))

    def outcome(self, state: State) -> dict[str, Any] | None:
        won = views.winners(state)
        if won is None:
            return None
        scores = state["scores"]
        best = ", ".join(f"{player_ref(p)} {scores[p]}" for p in sorted(state["players"], key=lambda p: -scores[p]))
        tied = [p for p in state["players"] if scores[p] == scores[won[0]]]
        how = ("a shared win on equal scores" if len(won) > 1 else
               "the tie broken in favour of the end tile's holder and the players after them" if len(tied) > 1
               else "the highest score")
        return {"winners": won, "ranking": scoring.ranking(state, won), "reason": f"{how} ({best})"}

    def summary(self, state: State) -> str:
        if state.get("finished"):
            won = [player_ref(p) for p in views.winners(state) or []]
            return f"{' and '.join(won)} win{'s' if len(won) == 1 else ' (a shared win)'}"
        ending = " (last round)" if state.get("end_triggered_by") else ""
        return f"round {state['round']}{ending}: {player_ref(state['to_move'])} to move"

    def parse(self, state: State, player: str, lines: list[OrderLine]) -> Orders:
        return parse_orders(self._map(state), state, player, lines)

    def check_notes(self, orders: Orders) -> list[str]:
        return list(orders.get("notes") or [])

    def check_map_file(self, path: str) -> list[str]:
        return maps.check_file(path)

    def render_map_file(self, path: str, out: str) -> bool:
        from gm.store.pictures import save
        from . import render  # matplotlib only when drawing
        with open(path, encoding="utf-8") as f:
            gmap = maps.parse_map(f.read(), path)
        save(render.draw(gmap, None, None), out)
        return True

    def resolve(self, state: State, orders: dict[str, Orders], dice: Dice) -> tuple[State, list[Event]]:
        if state.get("finished"):
            raise UsageError("the game is over: there is no turn to resolve")
        player = state["to_move"]
        return resolve_turn(self._map(state), state, orders.get(player), dice)

    def standings(self, view, players):
        return standings(view, players)

    def view(self, state: State, viewer: str | None) -> State:
        return views.view(state, viewer)

    def default_orders(self, state: State, player: str) -> Orders | None:
        return None if state.get("finished") else bot.default_orders(state, player)

    def random_orders(self, state: State, player: str, rng: random.Random) -> str:
        return bot.random_orders(self._map(state), state, player, rng)

    def apply_setup(self, state: State, overrides: dict[str, Any]) -> State:
        return position.apply_setup(self._map(state), state, overrides)

    def order_form(self, view: State, player: str) -> str:
        if view.get("finished") or view["to_move"] != player or player not in view["hands"]:
            return ""
        gmap = self._map(view)
        hand = view["hands"][player]
        route = view["routes"][player]
        lines = [f"# your hand: {', '.join(hand) or 'empty (call the Postmaster)'}",
                 f"# the display: {', '.join(view['display'])}",
                 f"# your route: {' - '.join(route) or 'none yet'}"]
        if route:
            ends = sorted({c for c in gmap.cities[route[0]].roads} | {c for c in gmap.cities[route[-1]].roads})
            lines.append(f"# cities next to its ends: {', '.join(c for c in ends if c not in route)}")
        lines += ["# officials (one a turn): " + ", ".join(OFFICIALS)]
        if hand:
            lines += ["# official: ", "draw: ", "# draw: (a second draw with the Postmaster)"]
        else:
            lines += ["official: postmaster", "draw: ", "draw: "]
        lines += ["play: ", "# play: (a second play with the Postal carrier)",
                  "# score: houses CITY CITY", "# discard: CITY (after scoring, down to 3 cards)"]
        return "\n".join(lines) + "\n"

    def render(self, view: State, viewer: str | None, *, events: list[Event] | None = None,
               players: list[dict] | None = None):
        from .picture import MapPicture  # PNG by Pillow; SVG by matplotlib, imported only then
        return MapPicture(self._map(view), view, viewer, players)


GAME = ThurnUndTaxis()
