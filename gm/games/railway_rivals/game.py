"""Railway Rivals as a gm plug-in: the engine's calls, each a thin layer over the game's modules."""
from __future__ import annotations

import copy
import random

from gm.store.errors import IllegalOrderError, OrderErrors, UsageError
from .hexmaps import load_map, shipped_maps
from gm.store.orders import OrderLine, collect

from gm.games.base import Game, Outcome, State
from .build.bot import bot_orders_text
from .build.check import check_orders
from .build.form import order_form
from .build.orders import read_orders
from .build.turn import resolve_turn
from .operate.bot import expansion_orders_text, race_orders_text
from .operate.entries import open_races, read_entries
from .operate.expansion import read_expansion, resolve_expansion
from .operate.form import operating_form
from .palette import COLOURS
from .reading import capped
from .operate.round import expansion_budget, resolve_race_round, start_operating, upcoming
from .positions import apply_setup
from .state import OPTIONS, VIEW_KEYS, game_map, new_state, read_game_options
from .standings import standings


GAME_OVER = "the game is over: no orders are taken"


class RailwayRivals(Game):
    name = "railway-rivals"
    title = "Railway Rivals"
    sequential = False
    min_players = 2
    max_players = 6
    pictures = True
    options = OPTIONS
    image_name = "map"

    # ---- maps and set-up ---------------------------------------------------------------------
    def maps(self) -> list[str]:
        return shipped_maps()

    def check_map_file(self, path: str) -> list[str]:
        from gm.hexmap.mapfile import check_map  # `gm map check` only
        return [str(e) for e in check_map(path)]

    def render_map_file(self, path: str, out: str) -> bool:
        from gm.hexmap.render import render_blank  # lazy: matplotlib, only when drawing
        render_blank(path, out)
        return True

    def default_map(self) -> str | None:
        maps = self.maps()
        return "tutorial" if "tutorial" in maps else (maps[0] if maps else None)

    def setup(self, map_name, players, options, dice, names=None) -> State:
        self.check_players(players)
        map_name = map_name or self.default_map()
        if map_name is None:
            raise UsageError("Railway Rivals needs a map, and none is shipped: give --map FILE")
        unknown = [k for k in options if k not in OPTIONS]
        if unknown:
            raise UsageError(f"Railway Rivals has no option {unknown[0]!r}; options: {', '.join(OPTIONS)}")
        hexmap = load_map(map_name)
        return new_state(map_name, hexmap, list(players), read_game_options(dict(options), hexmap), dice,
                         names=names)

    def apply_setup(self, state, overrides) -> State:
        return apply_setup(state, overrides)

    # ---- turns -------------------------------------------------------------------------------
    def due(self, state) -> list[str]:
        return list(state["players"]) if state["stage"] in ("build", "operate") else []

    def phase(self, state) -> str:
        if state["stage"] == "build":
            return f"build turn {state['build_turn']}"
        if state["stage"] == "operate":
            if state["operate_phase"] == "expansion":
                return f"expansion after race round {state['race_round']}"
            return f"race round {state['race_round']}"
        return "over"

    def outcome(self, state) -> Outcome | None:
        """Most cash wins; ties go to races won, then races entered; still equal, they share the place."""
        if state["stage"] != "over":
            return None
        places: dict[int, list[str]] = {}
        for row in state["ranking"]:
            places.setdefault(row["place"], []).append(row["player"])
        ranking = [places[place] for place in sorted(places)]
        first = state["ranking"][0]
        reason = (f"most cash after the last race round ({first['cash']}), ties decided by races won, "
                  f"then races entered")
        return {"winners": list(ranking[0]), "ranking": ranking, "reason": reason}

    def turn_title(self, state) -> str:
        """What the turn about to be resolved is called in its report and on its map."""
        if state["stage"] == "build":
            return f"build turn {state['build_turn']} of {state['build_turns']}"
        if state["operate_phase"] == "expansion":
            return f"expansion after race round {state['race_round']}"
        return f"race round {state['race_round']} of {state['options']['race_rounds']}"

    def simulation_figures(self, finals) -> dict:
        """`gm simulate`: how the games of bots ended, in Railway Rivals' own terms."""
        over = [s for s in finals if s.get("stage") == "over" and s.get("ranking")]
        if not over:
            return {}
        cash = [sorted(s["cash"].values(), reverse=True) for s in over]
        entered = [sum(s["races_entered"].values()) for s in over]
        won = [sum(s["races_won"].values()) for s in over]
        return {
            "winner's cash (mean)": round(sum(c[0] for c in cash) / len(over), 1),
            "winning margin over the second (mean)": round(sum(c[0] - c[1] for c in cash if len(c) > 1) / len(over), 1),
            "companies overdrawn at the end (share)": round(sum(v < 0 for s in over for v in s["cash"].values())
                                                             / sum(len(s["cash"]) for s in over), 3),
            "race entries per game (mean)": round(sum(entered) / len(over), 1),
            "races won per game (mean)": round(sum(won) / len(over), 1),
        }

    def summary(self, state) -> str:
        if state["stage"] == "over":
            return "final cash: " + ", ".join(
                f"{x['place']}. {state['companies'][x['player']]['name']} {x['cash']}" for x in state["ranking"])
        if state["stage"] == "operate":
            if state["operate_phase"] == "expansion":
                return (f"expansion after race round {state['race_round']}: each company may spend up to "
                        f"{expansion_budget(state)}")
            return (f"race round {state['race_round']} of {state['options']['race_rounds']}: races "
                    f"{', '.join(str(r['id']) for r in open_races(state))}")
        return (f"build turn {state['build_turn']} of {state['build_turns']}, dice "
                f"{', '.join(map(str, state['build_dice']))}")

    def parse(self, state, player: str, lines: list[OrderLine]) -> dict:
        file = lines[0].file if lines else ""
        if state["stage"] == "operate":
            return self._parse_operating(state, player, lines, file)
        if state["stage"] != "build":
            raise OrderErrors([lines[0].error(GAME_OVER) if lines else IllegalOrderError(GAME_OVER, line=1, col=1,
                                                                                          file=file)])
        hexmap = game_map(state)
        orders, errors = read_orders(hexmap, state["companies"], lines)
        problems, notes = check_orders(state, hexmap, player, orders, file)
        collect(capped(errors + problems))
        orders["notes"] = notes
        return orders

    def _parse_operating(self, state, player: str, lines: list[OrderLine], file: str) -> dict:
        hexmap = game_map(state)
        if state["operate_phase"] == "expansion":
            orders, errors = read_expansion(state, hexmap, player, lines, file)
        else:
            orders, errors = read_entries(state, hexmap, player, lines)
        collect(capped(errors))
        return orders

    def check_notes(self, orders: dict) -> list[str]:
        """What `gm check` may print for clean orders: pips per round and the cash they cost."""
        return list((orders or {}).get("notes", []))

    def resolve(self, state, orders, dice):
        hexmap = game_map(state)
        if state["stage"] == "build":
            new, events = resolve_turn(state, hexmap, orders, dice)
            if new["stage"] == "operate":
                events[-1:-1] = start_operating(new, hexmap, dice)
        elif state["stage"] == "operate" and state["operate_phase"] == "expansion":
            new, events = resolve_expansion(state, hexmap, orders, dice)
        elif state["stage"] == "operate":
            new, events = resolve_race_round(state, hexmap, orders, dice)
        else:
            raise UsageError("the game is over: there is no turn to resolve")
        new["last_turn"] = self.turn_title(state)
        coming = upcoming(new, hexmap)
        if coming:
            events.append(coming)
        history = state.get("cash_history") or [dict(state["cash"])]
        new["cash_history"] = history + [dict(new["cash"])]
        return new, events

    def default_orders(self, state, player):
        """A missing company does nothing: it builds nothing, enters no race (and is listed in ``nmr``)."""
        return None

    def missed_orders(self, state, player, policy):
        if policy == "default":
            return "your company builds nothing and enters no race this turn"
        return None

    def bot_orders(self, state, player):
        """The bot's orders for a missing company (the campaign's ``nmr_policy: bot``)."""
        if state["stage"] not in ("build", "operate"):
            return None
        turn = len(state.get("cash_history") or [])
        rng = random.Random(f"nmr {state['build_turn']} {turn} {player}")  # the same default on a replay
        orders = self._parse_text(state, player, self.random_orders(state, player, rng))
        orders["nmr"] = True
        return orders

    def random_orders(self, state, player: str, rng: random.Random) -> str:
        if state["stage"] == "operate" and state["operate_phase"] == "expansion":
            return expansion_orders_text(state, game_map(state), player, rng)
        if state["stage"] == "operate":
            return race_orders_text(state, game_map(state), player, rng)
        if state["stage"] != "build":
            raise UsageError(GAME_OVER)
        return bot_orders_text(state, game_map(state), player, rng)

    def _parse_text(self, state, player: str, text: str) -> dict:
        from gm.store.orders import read_frame
        return self.parse(state, player, read_frame(text, f"<default {player}>").lines)

    def order_form(self, view, player: str) -> str:
        if view["stage"] == "operate" and player in view["players"]:
            return operating_form(view, game_map(view), player)
        return order_form(view, game_map(view), player)

    def map_composer(self, view, player: str) -> list[dict[str, str]]:
        from .compose import map_composer
        return map_composer(view, player)

    # ---- what players see --------------------------------------------------------------------
    def standings(self, view, players):
        return standings(view, players)

    def view(self, state, viewer) -> State:
        """Railway Rivals is open information: every viewer sees the same keys, listed in VIEW_KEYS."""
        return {key: copy.deepcopy(state[key]) for key in VIEW_KEYS if key in state}

    def cash_chart(self, view, viewer=None, *, players=None):
        """The cash-over-time chart (a Figure, or None before the first turn): for the final report."""
        from .chart import cash_chart  # matplotlib only when drawing
        return cash_chart(view)

    def extra_images(self, view, viewer, *, players=None):
        """The cash-over-time chart, once the game is over (the final report shows it)."""
        if view.get("stage") != "over":
            return {}
        chart = self.cash_chart(view, viewer, players=players)
        return {"cash-chart": chart} if chart is not None else {}

    def route_advice(self, state, player, origin, destination):
        from .operate.advice import advice_text
        return advice_text(state, game_map(state), player, origin, destination)

    def player_colours(self, view):
        """Each company's colour as the map draws it (the colour its orders chose)."""
        companies = view.get("companies") or {}
        return {p: COLOURS.get(c.get("colour"), c.get("colour")) for p, c in companies.items()
                if isinstance(c, dict) and c.get("colour")}

    def picture_focus(self, view, viewer):
        """A company's network: its track, its ferries' ends and where its leaps landed (None before it
        has any, and for the GM and the public)."""
        if viewer not in view.get("players", []):
            return None
        hexes = {h for link in view["track"].get(viewer, []) for h in link}
        hexmap = game_map(view)
        hexes |= {h for f in hexmap.ferries if (view.get("ferries") or {}).get(f.id) == viewer for h in f.ends}
        hexes |= {leap["to"] for leap in (view.get("leaps") or {}).get(viewer, [])}
        return sorted(hexes) or None

    def render(self, view, viewer, *, events=None, players=None):
        from .render import draw  # matplotlib only when drawing
        return draw(view, game_map(view), events, players=players)
