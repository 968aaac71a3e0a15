"""Network King: the two-player business-card TCG (rules: docs/rules/network-king.md).

Hidden information: hands and decks live in the state, and ``views.view`` is the one place
that decides who sees them.
"""
from __future__ import annotations

import random
from typing import Any

from gm.store.dice import Dice
from gm.store.errors import OrderError, UsageError
from gm.store.orders import OrderLine, collect, read_frame
from gm.games.base import Game, Option, Outcome, State, player_ref
from . import bot, views
from .board import settle
from .cards import (DeckListOption, ProfessionTable, card_label, read_deck_lines, read_deck_option,
                    title_table)
from .orders import parse_draft
from .play import play_turn
from .play import check as check_turn
from .board import opponent
from .setup_state import apply_overrides
from .standings import standings

HAND_SIZE = 5
STARTERS = ("die", "first", "second")


class NetworkKing(Game):
    name = "network-king"
    title = "Network King"
    sequential = True
    min_players = max_players = 2
    hidden_information = True
    secret_dice = True
    pictures = True
    pictures_name_players = True
    image_name = "board"
    options = {
        "deck_p1": DeckListOption(None, "the first player's deck list: a file of 'Name | Job Title' lines, "
                          "at least 10 (left out: the deck comes as their first orders)"),
        "deck_p2": DeckListOption(None, "the second player's deck list (as deck_p1)"),
        "professions": Option(None, "the job-title keyword table "
                              "(default: the professions.yaml shipped in the game's maps/)"),
        "starter": Option("die", "who starts (and wins ties): die (a die roll), first or second "
                          "player; play a match of two games, first then second, to even the "
                          "starting player's edge", choices=STARTERS),
    }

    # ---- set-up ----------------------------------------------------------------------------
    def setup(self, map_name, players, options, dice: Dice, names=None) -> State:
        self.check_players(players)
        table_file = options.get("professions") or None
        table = ProfessionTable.load(table_file)
        starter = options.get("starter") or "die"
        if starter not in STARTERS:
            raise UsageError(f"option starter is one of {', '.join(STARTERS)}, not {starter!r}")
        state: State = {
            "players": list(players), "starter": starter, "starting_player": None, "to_move": None,
            "skip_next": {p: False for p in players},
            "hands": {p: [] for p in players}, "decks": {p: None for p in players},
            "studios": [], "studio_owner": {}, "winner": None,
            "title_professions": {}, "professions_file": table_file,
        }
        for seat, player in zip(("deck_p1", "deck_p2"), players):
            if options.get(seat) not in (None, ""):
                state["decks"][player] = read_deck_option(options[seat], seat, table)
        if all(state["decks"][p] is not None for p in players):
            _start(state, dice, table)
        return state

    def due(self, state: State) -> list[str]:
        if state.get("winner"):
            return []
        if self.phase(state) == "decks":
            return [p for p in state["players"] if state["decks"][p] is None]
        return [state["to_move"]] if state["to_move"] else []

    def phase(self, state: State) -> str:
        if state.get("winner"):
            return "over"
        return "decks" if state["starting_player"] is None else "play"

    def summary(self, state: State) -> str:
        phase = self.phase(state)
        if phase == "decks":
            return "waiting for deck lists from " + ", ".join(player_ref(p) for p in self.due(state))
        if phase == "over":
            held = sum(1 for owner in state["studio_owner"].values() if owner == state["winner"])
            return f"{player_ref(state['winner'])} won, holding {held} of 3 studios"
        sizes = ", ".join(f"{player_ref(p)} {len(state['hands'][p])}" for p in state["players"])
        return f"{player_ref(state['to_move'])} to hire (cards in hand: {sizes})"

    def outcome(self, state: State) -> Outcome | None:
        winner = state.get("winner")
        if not winner:
            return None
        held = sum(1 for owner in state["studio_owner"].values() if owner == winner)
        return {"winners": [winner], "ranking": [[winner], [opponent(state, winner)]],
                "reason": f"controls {held} of 3 studios"}

    def simulation_figures(self, finals: list[State]) -> dict[str, float]:
        """Self-play balance: the starting player's edge (they win ties and empty studios)."""
        done = [s for s in finals if s.get("winner")]
        if not done:
            return {}
        per_game = lambda count: round(sum(count(s) for s in done) / len(done), 3)  # noqa: E731
        return {
            "starting player wins": per_game(lambda s: s["winner"] == s["starting_player"]),
            "first seat starts": per_game(lambda s: s["starting_player"] == s["players"][0]),
            "wins with all 3 studios": per_game(lambda s: list(s["studio_owner"].values()).count(s["winner"]) == 3),
            "studios tied or empty, per game": per_game(_ties),
            "studios never opened, per game": per_game(lambda s: 3 - len(s["studios"])),
        }

    # ---- orders ----------------------------------------------------------------------------
    def parse(self, state: State, player: str, lines: list[OrderLine]):
        first = lines[0] if lines else None

        def refuse(message: str):
            err = first.error(message) if first else OrderError(message)
            collect([err])

        if state.get("winner"):
            refuse("the game is over: no more orders")
        if player not in state["players"]:
            refuse(f"{player!r} does not play in this game")
        if self.phase(state) == "decks":
            return self._parse_deck(state, player, lines, refuse)
        if player != state["to_move"]:
            refuse("it is your opponent's turn, not yours: you will get an order form when it is yours")
        draft, errors = parse_draft(lines)
        if draft.hire is None:
            if not errors:
                refuse("no hire: a turn is 'hire CARD to STUDIO [as PROFESSION]'")
            collect(errors)
        orders, problems = check_turn(state, player, draft)  # checked even after a syntax error,
        collect(errors + problems)  # so that one reply lists every error of the file
        return orders

    def _parse_deck(self, state, player, lines, refuse):
        if state["decks"][player] is not None:
            refuse("your deck list is already in; the game starts when both are")
        table = ProfessionTable.load(state.get("professions_file"))
        cards, problems = read_deck_lines([(ln.number, ln.text) for ln in lines], table, player=True)
        by_number = {ln.number: ln for ln in lines}
        errors = []
        for number, offset, message in problems:
            line = by_number.get(number)
            errors.append(line.error(message, offset) if line else OrderError(message))
        collect(errors)
        return {"deck": cards}

    def default_orders(self, state: State, player: str):
        if self.phase(state) != "play" or player != state["to_move"]:
            return None
        return self.parse(state, player, read_frame(bot.nmr_text(state, player)).lines)

    def bot_orders(self, state: State, player: str):
        """The `bot` NMR policy: the self-play bot's turn, chosen the same way on every replay."""
        if self.phase(state) != "play" or player != state["to_move"]:
            return None
        text = bot.good_turn(self, state, player, bot.position_rng(state))
        return self.parse(state, player, read_frame(text).lines)

    def random_orders(self, state: State, player: str, rng: random.Random) -> str:
        """Self-play: the best of a few random legal turns (bot.good_turn); a random deck list
        while decks are due."""
        return bot.good_turn(self, state, player, rng)

    def order_form(self, view: State, player: str) -> str:
        from .forms import order_form
        return order_form(view, player)

    # ---- resolution ------------------------------------------------------------------------
    def resolve(self, state: State, orders: dict[str, Any], dice: Dice):
        if self.phase(state) == "decks":
            return _resolve_decks(state, orders, dice)
        player = state["to_move"]
        mine = orders.get(player) or self.default_orders(state, player)
        return play_turn(state, player, mine)

    # ---- views -----------------------------------------------------------------------------
    def standings(self, view, players):
        return standings(view, players)

    def view(self, state: State, viewer: str | None) -> State:
        return views.view(state, viewer)

    def check_map_file(self, path: str) -> list[str]:
        """Network King has no map; its data file under maps/ is the profession keyword table."""
        try:
            ProfessionTable.load(path)
        except UsageError as exc:
            return [str(exc)]
        return []

    def render(self, view: State, viewer: str | None, *, events=None, players: list[dict] | None = None):
        from .picture import BoardPicture  # PNG by Pillow, other formats by matplotlib (render.py)
        return BoardPicture(view, players)

    def apply_setup(self, state: State, overrides: dict[str, Any]) -> State:
        return apply_overrides(state, overrides)


def _ties(state: State) -> int:
    """Studios whose two sides count the same vowels (never-opened ones included)."""
    from .board import side_vowels
    a, b = state["players"]
    opened = sum(1 for s in state["studios"] if side_vowels(s, a) == side_vowels(s, b))
    return opened + 3 - len(state["studios"])


def _start(state: State, dice: Dice, table: ProfessionTable) -> list[dict]:
    """Both decks are in: draw the starting player, shuffle, deal five each."""
    a, b = state["players"]
    starter = state.get("starter", "die")
    if starter == "die":
        state["starting_player"] = a if dice.roll("starting player", 2) == 1 else b
    else:  # chosen by the GM (a match of two games): no die is rolled
        state["starting_player"] = a if starter == "first" else b
    cards = []
    for p in state["players"]:
        deck = dice.shuffle(f"shuffle deck {p}", state["decks"][p], secret=True)
        state["hands"][p], state["decks"][p] = deck[:HAND_SIZE], deck[HAND_SIZE:]
        cards += deck
    try:
        state["title_professions"] = title_table(cards, table)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    state["to_move"] = state["starting_player"]
    settle(state)
    how = "drawn by die" if starter == "die" else f"the {starter} player, as the campaign sets"
    events = [{"text": f"{player_ref(state['starting_player'])} starts ({how}). Each player "
               f"shuffled their deck and drew {HAND_SIZE} cards.", "kind": "start"}]
    for p in state["players"]:  # what each drew is theirs alone
        drawn = ", ".join(card_label(c) for c in state["hands"][p])
        events.append({"text": f"{player_ref(p)} drew {drawn}.", "kind": "draw", "player": p, "to": [p]})
    return events


def _resolve_decks(state: State, orders: dict[str, Any], dice: Dice):
    import copy
    state = copy.deepcopy(state)
    events = []
    for p in state["players"]:
        if state["decks"][p] is None and orders.get(p):
            state["decks"][p] = list(orders[p]["deck"])
            events.append({"text": f"{player_ref(p)} sent a deck of {len(orders[p]['deck'])} cards.",
                           "kind": "deck", "player": p})
    if all(state["decks"][p] is not None for p in state["players"]):
        events += _start(state, dice, ProfessionTable.load(state.get("professions_file")))
    return state, events


GAME = NetworkKing()
