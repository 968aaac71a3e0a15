"""Network as a gm plug-in: the engine's calls, each a thin layer over ``play`` and ``notation``."""
from __future__ import annotations

import copy
import random

from gm.store.errors import IllegalOrderError, OrderError, OrderErrors, OrderSyntaxError, UsageError
from gm.store.names import suggestion
from gm.store.orders import OrderLine, collect
from gm.games.base import Game, Option, Outcome, State, player_names, player_ref
from .board import EMPTY, GOAL_WORDS, OTHER, PIECES, SIDES, TITLE, from_rows, read_rows
from .notation import EXAMPLES, canonical, read_move, read_position
from . import bot
from .play import TURN_ORDERS, new_state, order_problem, placing, play, settle
from .standings import standings

SETUP_KEYS = ("board", "to_move", "position", "placed", "history", "ply", "turn_order", "sides")
# what every viewer sees: Network hides nothing, but the view still names each key it passes on
VIEW_KEYS = ("board", "to_move", "placed", "winner", "end", "networks", "history", "last_move", "sides",
             "turn_order", "ply", "positions")
MAX_ERRORS = 25  # a file past this many errors is not read further (the reply says how much is left)
END_WORDS = {"repetition": "by repetition", "no legal move": "as neither side can move"}


class NetworkGame(Game):
    name = "network"
    title = "Network"
    sequential = True
    min_players = max_players = 2
    pictures = True
    image_name = "board"
    options = {
        "turn_order": Option("standard", "standard: Dark and Light alternate; equalized: Dark, Light, "
                             "Light, then Dark and Light alternate", choices=TURN_ORDERS),
        "position": Option("", "start from a position 'R8/R7/R6/R5/R4/R3/R2/R1 SIDE': row 8 first, "
                           "D dark, L light, . empty; SIDE d or l moves first"),
    }

    # ---- set-up -------------------------------------------------------------------------------
    def setup(self, map_name, players, options, dice, names=None) -> State:
        self.check_players(players)
        if map_name:
            raise UsageError(f"Network is played on its own 8x8 board: it takes no map (not {map_name!r})")
        for key in options:
            if key not in self.options:
                raise UsageError(f"Network has no option {key!r}{suggestion(key, self.options)}; "
                                 f"options: {', '.join(self.options)}")
        chosen = {key: option.read(key, options.get(key, option.default)) for key, option in self.options.items()}
        if chosen["position"]:
            cells, to_move = read_position(chosen["position"])
        else:
            cells, to_move = [EMPTY] * 64, "dark"
        sides = {"dark": players[0], "light": players[1]}
        return new_state(sides, cells, to_move, chosen["turn_order"])

    def apply_setup(self, state, overrides) -> State:
        for key in overrides:
            if key not in SETUP_KEYS:
                raise UsageError(f"a Network set-up cannot set {key!r}{suggestion(key, SETUP_KEYS)}: it "
                                 f"sets {', '.join(SETUP_KEYS)}; the rest is worked out from the board")
        new = copy.deepcopy(state)
        cells = from_rows(new["board"])
        if "position" in overrides:
            cells, new["to_move"] = read_position(overrides["position"])
        if "board" in overrides:
            cells, problems = read_rows(overrides["board"])
            if problems:
                raise UsageError("set-up board: " + "; ".join(problems))
        for key in ("to_move", "turn_order", "sides"):
            if key in overrides:
                new[key] = copy.deepcopy(overrides[key])
        if not (isinstance(new["sides"], dict) and sorted(new["sides"]) == sorted(SIDES)):
            raise UsageError("set-up sides must map dark and light to player ids")
        if "history" in overrides:
            if not isinstance(overrides["history"], list):
                raise UsageError("set-up history must be a list of moves like 'c3' or 'c3-d5'")
            new["history"] = [str(h) for h in overrides["history"]]
        new["ply"] = overrides.get("ply", sum(1 for c in cells if c != EMPTY))
        if not isinstance(new["ply"], int) or new["ply"] < 0:
            raise UsageError(f"set-up ply counts the moves made: a whole number, not {new['ply']!r}")
        new["last_move"] = None
        settle(new, cells)
        wanted = overrides.get("placed") or {}
        if not isinstance(wanted, dict):
            raise UsageError("set-up placed must map dark and light to piece counts")
        for side, number in wanted.items():
            if new["placed"].get(side) != number:
                raise UsageError(f"set-up placed: {side} has {new['placed'].get(side)} pieces on the "
                                 f"board, not {number} (pieces placed are the pieces on the board)")
        return new

    # ---- turns --------------------------------------------------------------------------------
    def due(self, state) -> list[str]:
        return [] if state["winner"] else [state["sides"][state["to_move"]]]

    def phase(self, state) -> str:
        if state["winner"]:
            return "over"
        return "placing" if placing(state, state["to_move"]) else "moving"

    def summary(self, state) -> str:
        winner, side = state["winner"], state["to_move"]
        if winner == "draw":
            return f"drawn {END_WORDS.get(state['end'], '')}".strip()
        if winner:
            return f"{TITLE[winner]} won with the network {' '.join(state['networks'][winner])}"
        if placing(state, side):
            return f"{TITLE[side]} to place ({state['placed'][side]} of {PIECES} pieces on the board)"
        return f"{TITLE[side]} to move a piece"

    def outcome(self, state) -> Outcome | None:
        """A network wins; a draw (repetition, no legal move) has no winner and ranks both players
        together (docs/rules/network.md)."""
        winner = state["winner"]
        if not winner:
            return None
        dark, light = state["sides"]["dark"], state["sides"]["light"]
        if winner == "draw":
            return {"winners": [], "ranking": [[dark, light]],
                    "reason": f"drawn {END_WORDS.get(state['end'], '')}".strip()}
        loser = state["sides"][OTHER[winner]]
        return {"winners": [state["sides"][winner]], "ranking": [[state["sides"][winner]], [loser]],
                "reason": f"{TITLE[winner]} completed the network {' '.join(state['networks'][winner])}"}

    def simulation_figures(self, finals) -> dict[str, float]:
        """Self-play balance: the first player's (Dark's) edge, draws, how far games get."""
        done = [s for s in finals if s["winner"]] or [{"winner": None}]
        share = lambda test: round(sum(1 for s in done if test(s)) / len(done), 3)  # noqa: E731
        return {
            "Dark (moves first) wins": share(lambda s: s["winner"] == "dark"),
            "Light wins": share(lambda s: s["winner"] == "light"),
            "draws": share(lambda s: s["winner"] == "draw"),
            "draws by repetition": share(lambda s: s.get("end") == "repetition"),
            "games reaching the moving stage": share(lambda s: any("-" in m for m in s.get("history", []))),
        }

    def side_of(self, state, player: str) -> str | None:
        return next((side for side in SIDES if state["sides"][side] == player), None)

    def parse(self, state, player: str, lines: list[OrderLine]) -> dict:
        if not lines:
            raise OrderErrors([OrderSyntaxError(f"no move given: write one move, {EXAMPLES}")])
        side = self.side_of(state, player)
        errors: list[OrderError] = []
        problem = self._turn_problem(state, player, side)
        if problem:
            errors.append(lines[0].error(problem))
        order = None
        for i, line in enumerate(lines):
            if len(errors) >= MAX_ERRORS:
                rest = len(lines) - i - 1
                errors.append(line.syntax(f"too many errors: reading stopped here ({rest} more "
                                          f"line{'' if rest == 1 else 's'} not read)"))
                break
            try:
                found, offsets = read_move(line)
            except OrderError as error:
                errors.append(error)
                continue
            if i > 0:
                errors.append(line.error(f"one move per turn: line {lines[0].number} already gives "
                                         f"{TITLE.get(side or '', player)}'s move"))
            elif not problem:
                illegal = order_problem(state, side, found)
                if illegal:
                    errors.append(line.error(illegal[1], offsets[illegal[0]]))
                order = found
        collect(errors)
        return order

    def _turn_problem(self, state, player: str, side: str | None) -> str | None:
        if side is None:
            return (f"{player!r} does not play in this game (Dark is {state['sides']['dark']!r}, "
                    f"Light is {state['sides']['light']!r})")
        if state["winner"]:
            return f"the game is over ({self.summary(state)}): no more moves"
        if state["to_move"] != side:
            return f"it is {TITLE[state['to_move']]}'s turn, not {TITLE[side]}'s"
        return None

    def resolve(self, state, orders, dice):
        if state["winner"]:
            raise IllegalOrderError(f"the game is over ({self.summary(state)}): no more moves")
        side = state["to_move"]
        order = orders.get(state["sides"][side])
        if order is None:  # a sequential game waits for the player to move
            who = player_ref(state["sides"][side])
            return copy.deepcopy(state), [{"text": f"{TITLE[side]} ({who}) has not moved yet.",
                                           "kind": "wait", "side": side}]
        return play(state, order)

    def default_orders(self, state, player):
        return None  # Network waits for the player to move: no move is made for them

    def bot_orders(self, state, player):
        """The `bot` NMR policy: the self-play bot's move, chosen the same way on every replay."""
        side = self.side_of(state, player)
        if self._turn_problem(state, player, side):
            return None
        return bot.choose(state, side, bot.position_rng(state))

    def random_orders(self, state, player: str, rng: random.Random) -> str:
        """The self-play bot's move (bot.py: wins when it can, blocks, else random), as text."""
        side = self.side_of(state, player)
        problem = self._turn_problem(state, player, side)
        if problem:
            raise UsageError(problem)
        order = bot.choose(state, side, rng)
        return ("place " if order["kind"] == "place" else "move ") + canonical(order).replace("-", " ")

    def order_form(self, view, player: str) -> str:
        side = self.side_of(view, player)
        if side is None:
            return ""
        lines = [f"# Network: you play {TITLE[side]}; your goals are {GOAL_WORDS[side]}."]
        problem = self._turn_problem(view, player, side)
        if problem:
            lines.append(f"# No orders are due from you: {problem}.")
        elif placing(view, side):
            lines += [f"# You have {view['placed'][side]} of {PIECES} pieces on the board: place one.",
                      "# Write one move below, e.g.  place c3   (or just: c3)"]
        else:
            lines += ["# All ten of your pieces are on the board: move one.",
                      "# Write one move below, e.g.  move c3 d5   (or: c3-d5)"]
        return "\n".join(lines) + "\n"

    # ---- what players see ---------------------------------------------------------------------
    def standings(self, view, players):
        return standings(view, players)

    def view(self, state, viewer) -> State:
        return {key: copy.deepcopy(state[key]) for key in VIEW_KEYS if key in state}  # hides nothing

    def render(self, view, viewer, *, events=None, players=None):
        from .picture import BoardPicture  # PNG by Pillow, other formats by matplotlib (render.py)
        names = player_names(players, [view["sides"][side] for side in SIDES])
        short = {side: _short(names[view["sides"][side]]) for side in SIDES}  # the caption is one line
        return BoardPicture(view, short)


def _short(name: str, most: int = 24) -> str:
    return name if len(name) <= most else name[:most - 1].rstrip() + "…"
