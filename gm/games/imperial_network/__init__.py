"""Imperial Network: the 1920s rail-and-war economy game (rules: docs/rules/imperial-network.md).

Simultaneous: every player sends one message a turn with ranked buy and train lists, routes and
factory orders; the turn is resolved in forward (buying) and reverse (trains) seat order.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from gm.store.dice import Dice
from gm.store.orders import OrderLine, read_frame
from gm.store.errors import MapError, MapErrors, OrderErrors, UsageError
from gm.games.base import Event, Game, Option, Orders, State, player_ref
from . import bot, views
from .cards import Cards, load_cards
from .data import GameMap, load_map, shipped
from .ending import outcome, simulation_figures
from .orders import empty_orders, parse_orders
from .rules import counted
from .setup_state import apply_setup, new_game
from .turn import resolve_turn
from .standings import standings


# how a finished game ended, for `gm status`
ENDINGS = {"capital": "most capital at the end", "turn limit": "most capital at the turn limit",
           "fatherland": "Fatherland victory: every neighbour annexed",
           "exhaustion": "the Empire is exhausted: everybody loses"}


class ImperialNetwork(Game):
    name = "imperial-network"
    title = "Imperial Network"
    sequential = False
    min_players = 3
    max_players = 5
    hidden_information = True
    secret_dice = True
    pictures = True
    pictures_name_players = True
    image_name = "map"
    options = {
        "fatherland": Option("also", "Fatherland victory (every neighbour annexed): off, also, or only "
                             "(then owning all trains does not end the game)", ("off", "also", "only")),
        "turn_limit": Option(40, "the game also ends after this turn, highest capital winning (0: no limit)",
                             kind=int, low=0, high=500),
    }

    def maps(self) -> list[str]:
        return shipped()

    def default_map(self) -> str | None:
        return "europe-1920"

    def check_map_file(self, path: str) -> list[str]:
        """A map (countries, cities, lines) or a card file (checked against the shipped map)."""
        full = str(Path(path).resolve())
        try:
            if _is_card_file(full):
                load_cards(load_map(self.default_map()), full)
            else:
                load_map(full)
        except MapErrors as exc:
            return [str(e) for e in exc.errors]
        except (MapError, UsageError) as exc:
            return [str(exc)]
        return []

    def render_map_file(self, path: str, out: str) -> bool:
        full = str(Path(path).resolve())
        if _is_card_file(full):
            return False
        from gm.store.pictures import save
        from . import render  # matplotlib only when drawing
        save(render.draw_map(load_map(full), render.BLANK), out)
        return True

    def _data(self, state: State) -> tuple[GameMap, Cards]:
        gmap = load_map(state["map"])
        return gmap, load_cards(gmap)

    def setup(self, map_name, players, options, dice: Dice, names=None) -> State:
        self.check_players(players)
        name = map_name or self.default_map()
        gmap = load_map(name)
        return new_game(gmap, load_cards(gmap), name, players, options, dice)

    def due(self, state: State) -> list[str]:
        return [] if state["winners"] is not None else list(state["players"])

    def phase(self, state: State) -> str:
        if state["winners"] is not None:
            return "finished"
        if state["last_turn"]:
            return "last turn"
        return "war" if state["war"] else "peace"

    def finished(self, state: State) -> bool:
        return state["winners"] is not None

    def outcome(self, state: State) -> dict[str, Any] | None:
        return outcome(state, load_cards(load_map(state["map"])))

    def simulation_figures(self, finals: list[State]) -> dict[str, Any]:
        return simulation_figures(finals, load_cards(load_map(finals[0]["map"])) if finals else None)

    def summary(self, state: State) -> str:
        if state["winners"] is not None:
            won = " and ".join(player_ref(p) for p in state["winners"]) or "nobody"
            how = ENDINGS.get(state["ended_by"], str(state["ended_by"]))
            return f"{won} win{'s' if len(state['winners']) <= 1 else ''} ({how})"
        war = f", war against {state['war']['target']}" if state["war"] else ""
        return f"{self.phase(state)}{war}"

    def parse(self, state: State, player: str, lines: list[OrderLine]) -> Orders:
        gmap, cards = self._data(state)
        return parse_orders(state, gmap, cards, player, lines)

    def check_notes(self, orders: Orders) -> list[str]:
        return [f"buy (ranked): {counted(len(orders['buy']), 'choice')}; trains (ranked): "
                f"{counted(len(orders['trains']), 'line')}; routes: {len(orders['routes'])}"] \
            + list(orders.get("notes") or [])

    def resolve(self, state: State, orders: dict[str, Orders], dice: Dice) -> tuple[State, list[Event]]:
        if state["winners"] is not None:
            raise UsageError("the game is over: there is no turn to resolve")
        gmap, cards = self._data(state)
        return resolve_turn(state, gmap, cards, orders, dice, state["options"])

    def standings(self, view, players):
        return standings(view, players)

    def view(self, state: State, viewer: str | None) -> State:
        gmap, cards = self._data(state)
        return views.view(state, gmap, cards, viewer)

    def default_orders(self, state: State, player: str) -> Orders | None:
        if state["winners"] is not None:
            return None
        gmap, cards = self._data(state)
        text = bot.write_orders(state, gmap, cards, player)
        try:
            return parse_orders(state, gmap, cards, player, read_frame(text).lines)
        except OrderErrors:  # the bot must never stall a turn: nothing rather than a bad order
            return empty_orders()

    def random_orders(self, state: State, player: str, rng: random.Random) -> str:
        gmap, cards = self._data(state)
        return bot.write_orders(state, gmap, cards, player, rng)

    def apply_setup(self, state: State, overrides: dict[str, Any]) -> State:
        gmap, cards = self._data(state)
        return apply_setup(state, gmap, cards, overrides)

    def order_form(self, view: State, player: str) -> str:
        if view["winners"] is not None or player not in view["players"]:
            return ""
        return _form(view, load_map(view["map"]), player)

    def render(self, view: State, viewer: str | None, *, events: list[Event] | None = None,
               players: list[dict] | None = None):
        from . import render  # matplotlib only when drawing
        return render.draw_map(load_map(view["map"]), view, players)


def _form(state: State, gmap: GameMap, player: str) -> str:
    """The blank order form, from the player's view."""
    own = ", ".join(f"{k} {c}" for c, k in sorted(state["buildings"][player].items())) or "none"
    lines = [f"# market: {', '.join(state['market']) or 'empty'}",
             f"# your cash {state['cash'][player]} RM, trains {state['trains_owned'][player]}; buildings: {own}"]
    if state["hand"][player]:
        lines.append(f"# unused cards in your hand: {', '.join(state['hand'][player])}  (place: KIND CITY)")
    if state["war"]:
        target = state["war"]["target"]
        lines.append(f"# WAR against {target}: front line {', '.join(gmap.front_line(target))}")
        lines.append("# convert: CITY   (a factory becomes barracks at its cost again)")
    lines += ["# buy: ranked choices, e.g. station Hamburg; factory Leipzig; permit Italy",
              "buy: ", "# trains: ranked lines, e.g. Erfurt-Leipzig, Leipzig-Dresden",
              "trains: ", "# route: CITY CITY ... (one line per route)", "route: ",
              "factory: all"]
    text = "\n".join(lines) + "\n"
    return text.replace("route: \n", "# route: \n")  # an empty route would be an error; empty lists are not


GAME = ImperialNetwork()


def _is_card_file(path: str) -> bool:
    """A card file holds buildings and trains; a map file countries, cities and lines."""
    import yaml

    from gm.store.fileio import load_yaml
    try:
        data = load_yaml(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return Path(path).stem == "cards"
    return isinstance(data, dict) and ("buildings" in data or "trains" in data)

