"""Railway Rivals as a gm plug-in: the engine's calls, each a thin layer over the game's modules."""
from __future__ import annotations

import copy
import random
from typing import Any

from gm.errors import IllegalOrderError, OrderErrors, UsageError
from gm.hexmap.mapfile import load_map, shipped_maps
from gm.orders import OrderLine, collect

from ..base import Game
from .bot import bot_orders_text
from .build import resolve_turn
from .check import check_orders
from .form import order_form
from .orders import read_orders
from .state import OPTIONS, apply_setup, game_map, new_state, read_game_options


STAGE_OVER = "the building stage is over: no build orders are taken"


class RailwayRivals(Game):
    name = "railway-rivals"
    title = "Railway Rivals"
    sequential = False
    min_players = 2
    max_players = 6
    options = OPTIONS
    image_name = "map"

    # ---- maps and set-up ---------------------------------------------------------------------
    def maps(self) -> list[str]:
        return shipped_maps("railway-rivals")

    def default_map(self) -> str | None:
        maps = self.maps()
        return "tutorial" if "tutorial" in maps else (maps[0] if maps else None)

    def setup(self, map_name, players, options, dice) -> dict[str, Any]:
        self.check_players(players)
        map_name = map_name or self.default_map()
        if map_name is None:
            raise UsageError("Railway Rivals needs a map, and none is shipped: give --map FILE")
        unknown = [k for k in options if k not in OPTIONS]
        if unknown:
            raise UsageError(f"Railway Rivals has no option {unknown[0]!r}; options: {', '.join(OPTIONS)}")
        hexmap = load_map(map_name)
        return new_state(map_name, hexmap, list(players), read_game_options(dict(options), hexmap), dice)

    def apply_setup(self, state, overrides) -> dict[str, Any]:
        return apply_setup(state, overrides)

    # ---- turns -------------------------------------------------------------------------------
    def due(self, state) -> list[str]:
        return list(state["players"]) if state["stage"] == "build" else []

    def phase(self, state) -> str:
        return f"build turn {state['build_turn']}" if state["stage"] == "build" else "operate"

    def summary(self, state) -> str:
        if state["stage"] != "build":
            return "the building stage is over (the operating stage is not implemented yet)"
        return (f"build turn {state['build_turn']} of {state['build_turns']}, dice "
                f"{', '.join(map(str, state['build_dice']))}")

    def parse(self, state, player: str, lines: list[OrderLine]) -> dict[str, Any]:
        file = lines[0].file if lines else ""
        if state["stage"] != "build":
            raise OrderErrors([lines[0].error(STAGE_OVER) if lines else _stage_over(file)])
        hexmap = game_map(state)
        orders, errors = read_orders(hexmap, state["companies"], lines)
        problems, notes = check_orders(state, hexmap, player, orders, file)
        collect(errors + problems)
        orders["notes"] = notes
        return orders

    def check_notes(self, orders: dict[str, Any]) -> list[str]:
        """What `gm check` may print for clean orders: pips per round and the cash they cost."""
        return list((orders or {}).get("notes", []))

    def resolve(self, state, orders, dice):
        if state["stage"] != "build":
            raise UsageError("the building stage is over: there is no build turn to resolve")
        return resolve_turn(state, game_map(state), orders, dice)

    def default_orders(self, state, player):
        if state["stage"] != "build" or state["options"].get("nmr") != "bot":
            return None
        rng = random.Random(f"nmr {state['build_turn']} {player}")  # the same default on a replay
        orders = self._parse_text(state, player, bot_orders_text(state, game_map(state), player, rng))
        orders["nmr"] = True
        return orders

    def random_orders(self, state, player: str, rng: random.Random) -> str:
        if state["stage"] != "build":
            raise UsageError(STAGE_OVER)
        return bot_orders_text(state, game_map(state), player, rng)

    def _parse_text(self, state, player: str, text: str) -> dict[str, Any]:
        from gm.orders import read_frame
        return self.parse(state, player, read_frame(text, f"<default {player}>").lines)

    def order_form(self, state, player: str) -> str:
        return order_form(state, game_map(state), player)

    # ---- what players see --------------------------------------------------------------------
    def view(self, state, viewer):
        return copy.deepcopy(state)  # Railway Rivals hides nothing

    def render(self, state, viewer, *, events=None):
        from .render import draw  # matplotlib only when drawing
        return draw(self.view(state, viewer), game_map(state), events)


def _stage_over(file: str) -> IllegalOrderError:
    return IllegalOrderError(STAGE_OVER, line=1, col=1, file=file)
