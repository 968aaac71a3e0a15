"""One player's turn: the official, the draws, the plays, the scoring, the discards, the end.

The same ``TurnRun`` checks orders (``checking=True``: hidden cards are UNKNOWN, every problem is
collected and the step is applied as meant so later steps are checked against the player's plan)
and resolves them (``checking=False``: the first problem stops the player's own steps and the rest
of the turn follows the default rules; docs/rules/thurn-und-taxis.md, "Orders").
"""
from __future__ import annotations

import copy
from typing import Any

from gm.store.dice import Dice
from gm.games.base import player_ref
from . import scoring
from .cards import UNKNOWN, Piles
from .scoring import counted
from .maps import GameMap

OFFICIALS = {"postmaster": "Postmaster", "administrator": "Administrator", "carrier": "Postal carrier",
             "cartwright": "Cartwright"}
HAND_LIMIT = 3


class StepFailed(Exception):
    def __init__(self, step: dict | None, message: str):
        super().__init__(message)
        self.step, self.message = step, message


def _join(cards: list[str]) -> str:
    return ", ".join(cards) if cards else "none"


class TurnRun:
    def __init__(self, gmap: GameMap, state: dict[str, Any], player: str, dice: Dice | None, *, checking: bool):
        self.gmap, self.state, self.player, self.checking = gmap, state, player, checking
        self.events: list[dict[str, Any]] = []
        self.piles = Piles(state, dice, self.events, checking=checking)
        self.problems: list[tuple[dict | None, str, int | None]] = []
        self.notes: list[str] = []
        self.official: str | None = None
        self.draws = self.plays = self.discarded = 0
        self.scored = False
        self.discards_due = 0
        self.can_draw = 0

    @property
    def hand(self) -> list[str]:
        return self.state["hands"][self.player]

    @property
    def route(self) -> list[str]:
        return self.state["routes"][self.player]

    def _report(self, step: dict | None, problems: list[tuple[str, int | None]]) -> bool:
        """True when the step may go on. Resolving, the first problem stops the player's steps."""
        if problems and not self.checking:
            raise StepFailed(step, problems[0][0])
        self.problems.extend((step, msg, col) for msg, col in problems)
        return not problems

    def _note(self, step: dict, text: str) -> None:
        self.notes.append(f"line {step.get('line', '?')}: {text}")

    def needed_draws(self) -> int:
        return min(2 if self.official == "postmaster" else 1, self.can_draw)

    def needed_plays(self) -> int:
        return 2 if self.official == "carrier" else 1

    # ---- phase 0: the official ------------------------------------------------------------
    def begin(self, official: str | None, step: dict | None = None) -> None:
        self.can_draw = self.piles.drawable() + len(self.state["display"])
        if not self.hand and official != "postmaster" and self.can_draw:
            self._report(step, [("your hand is empty: you must call the Postmaster ('official: postmaster')",
                                 step.get("col") if step else None)])
        self.official = official
        if official is None:
            return
        p = self.player
        self.events.append({"kind": "official", "player": p, "official": official,
                            "text": f"{player_ref(p)} called the {OFFICIALS[official]}."})
        if official == "administrator":
            old = self.piles.replace_display()
            self.events.append({"kind": "new_display", "player": p, "discarded": old,
                                "display": list(self.state["display"]),
                                "text": f"The display ({_join(old)}) was discarded; turned up: "
                                        f"{_join(self.state['display'])}."})

    # ---- phase 1: draw --------------------------------------------------------------------
    def draw(self, step: dict) -> None:
        p = self.player
        if self.draws >= self.needed_draws():
            more = "" if self.official == "postmaster" else " (call the Postmaster to draw twice)"
            self._report(step, [(f"you draw {counted(self.needed_draws(), 'card')} this turn{more}", step.get("col"))])
            return
        if step["source"] == "deck":
            if not self.piles.drawable():
                self._report(step, [("the deck and the discard pile are empty: take a card from the display",
                                     step.get("col"))])
                return
            card = self.piles.take_from_deck()
            self.hand.append(card)
            others = [q for q in self.state["players"] if q != p] + ["public"]
            self.events.append({"kind": "draw", "player": p, "source": "deck", "card": card,
                                "text": f"{player_ref(p)} drew {card} from the deck.", "to": [p]})
            self.events.append({"kind": "draw", "player": p, "source": "deck",
                                "text": f"{player_ref(p)} drew a card from the deck.", "to": others})
        else:
            city, display = step["city"], self.state["display"]
            if city in display:
                index = display.index(city)
            elif self.checking and UNKNOWN in display:
                index = display.index(UNKNOWN)
                self._note(step, f"{city} must be among the display cards turned up this turn")
            else:
                self._report(step, [(f"{city} is not in the display ({_join(display)})", step.get("city_col"))])
                self.hand.append(city)
                self.draws += 1
                return
            _, new = self.piles.take_from_display(index)
            self.hand.append(city)
            shown = f"; {new} was turned up" if new else "; the deck is empty, the display shrinks"
            self.events.append({"kind": "draw", "player": p, "source": "display", "card": city, "new": new,
                                "text": f"{player_ref(p)} took {city} from the display{shown}."})
        self.draws += 1

    # ---- phase 2: play --------------------------------------------------------------------
    def fits(self, city: str) -> str | None:
        """Where ``city`` extends the route ('right' before 'left'), or None."""
        route = self.route
        if not route or city in route:
            return None
        if self.gmap.adjacent(route[-1], city):
            return "right"
        if self.gmap.adjacent(route[0], city):
            return "left"
        return None

    def play(self, step: dict) -> None:
        if self.plays >= self.needed_plays():
            self._report(step, [("you play one card a turn (call the Postal carrier to play two)", step.get("col"))])
            return
        city, end, col = step["city"], step.get("end"), step.get("city_col")
        problems: list[tuple[str, int | None]] = []
        assumed = city not in self.hand and self.checking and UNKNOWN in self.hand
        if city not in self.hand and not assumed:
            problems.append((f"{city} is not in your hand (your hand: {_join(self.hand)})", col))
        route, place = self.route, end
        if end == "new" or not route:
            place = "new"
        else:
            if city in route:
                problems.append((f"{city} is already in your route", col))
            left_ok = self.gmap.adjacent(route[0], city)
            right_ok = self.gmap.adjacent(route[-1], city)
            if end is None:
                if left_ok and right_ok and len(route) > 1:
                    problems.append((f"{city} fits at both ends of your route: add 'left' or 'right'", col))
                place = "left" if left_ok and not right_ok else "right"
                if not (left_ok or right_ok):
                    where = f"either end of your route ({route[0]} ... {route[-1]})"
                    problems.append((self._no_road(city, where), col))
            elif end == "left" and not left_ok:
                also = " (it fits at the right end)" if right_ok else ""
                where = f"{route[0]}, the left end of your route"
                problems.append((self._no_road(city, where) + also, step.get("end_col", col)))
            elif end == "right" and not right_ok:
                also = " (it fits at the left end)" if left_ok else ""
                where = f"{route[-1]}, the right end of your route"
                problems.append((self._no_road(city, where) + also, step.get("end_col", col)))
        if not self._report(step, problems) and not self.checking:
            return
        if city in self.hand:
            self.hand.remove(city)
        elif assumed:
            self._note(step, f"{city} is not in your hand now: this play needs a card you draw this turn to be "
                             f"{city}. {self._if_not_drawn()}")
            self.hand.remove(UNKNOWN)
        self._place(city, place, auto=step.get("auto", False))
        self.plays += 1

    def _if_not_drawn(self) -> str:
        """What happens instead of a play that needs a card still to be drawn (see resolve_turn)."""
        rest = "; the rest of the turn follows the default rules (no scoring)"
        if self.plays >= 1:
            return ("If it is not, this second play is skipped (the Postal carrier allows two plays, it does not "
                    "demand them)" + rest + ".")
        known = [c for c in self.hand if c != UNKNOWN]
        fitting = [(c, self.fits(c)) for c in known if self.fits(c)]
        if fitting:
            instead = f"{fitting[0][0]} is played at the {fitting[0][1]} end instead (the default play)"
        elif self.route:
            oldest = known[0] if known else "the card drawn"
            instead = (f"the card drawn is played if it extends the route; if not, no card of your hand extends it "
                       f"and the rules make you start a new route with {oldest}")
        else:
            instead = f"{known[0] if known else 'the card drawn'} begins your route instead (the default play)"
        return f"If it is not, your route is kept where the rules allow: {instead}{rest}."

    def _no_road(self, city: str, where: str) -> str:
        text = f"no road joins {city} to {where}"
        known = [c for c in self.hand if c != UNKNOWN]
        if known and UNKNOWN not in self.hand and not any(self.fits(c) for c in known):
            text += "; no card in your hand extends the route, so start a new one ('play: CITY new')"
        return text

    def _place(self, city: str, place: str, *, auto: bool) -> None:
        p, route = self.player, self.route
        how = " (default play)" if auto else ""
        if place == "new":
            if route:
                self.piles.discard(list(route))
                self.events.append({"kind": "restart", "player": p, "discarded": list(route), "card": city,
                                    "text": f"{player_ref(p)} discarded the route {' - '.join(route)} "
                                            f"and began a new one with {city}{how}."})
            else:
                self.events.append({"kind": "play", "player": p, "card": city, "end": "new",
                                    "text": f"{player_ref(p)} began a route with {city}{how}."})
            self.state["routes"][p] = [city]
            return
        if place == "left":
            route.insert(0, city)
        else:
            route.append(city)
        self.events.append({"kind": "play", "player": p, "card": city, "end": place,
                            "text": f"{player_ref(p)} played {city} at the {place} end{how}: {' - '.join(route)}."})

    def auto_play(self) -> None:
        """The default play: the first card in hand that extends the route, else a new route."""
        for city in self.hand:
            where = self.fits(city)
            if where:
                self.play({"step": "play", "city": city, "end": where, "auto": True})
                return
        self.play({"step": "play", "city": self.hand[0], "end": "new", "auto": True})

    # ---- phase 3: score and discard -------------------------------------------------------
    def score(self, step: dict) -> None:
        route = self.route
        if len(route) < scoring.MIN_ROUTE:
            self._report(step, [(f"a route of {counted(len(route), 'card')} cannot be scored: it needs "
                                 f"{scoring.MIN_ROUTE} or more", step.get("col"))])
            self.scored = True  # checking goes on as if it had scored: no second error on the discards
            self.discards_due = max(0, len(self.hand) - HAND_LIMIT)
            return
        houses, cols = step.get("houses", []), step.get("cols", [])
        found = scoring.house_problems(self.gmap, route, self.state["houses"][self.player], houses,
                                       self.state["houses_left"][self.player])
        problems = [(msg, cols[i] if i is not None and i < len(cols) else step.get("col")) for i, msg in found]
        if not self._report(step, problems):
            houses = [c for i, c in enumerate(houses) if c in route and c not in houses[:i]
                      and c not in self.state["houses"][self.player]][: self.state["houses_left"][self.player]]
        scoring.score_route(self.gmap, self.state, self.player, houses, self.official == "cartwright", self.events)
        self.scored = True
        self.discards_due = max(0, len(self.hand) - HAND_LIMIT)

    def discard(self, step: dict) -> None:
        cols = step.get("cols", [])
        dropped = []
        for i, city in enumerate(step["cities"]):
            col = cols[i] if i < len(cols) else step.get("col")
            problems: list[tuple[str, int | None]] = []
            if not self.scored:
                problems.append((f"you discard only after scoring, down to {HAND_LIMIT} cards", col))
            elif self.discarded >= self.discards_due:
                problems.append((f"you keep {HAND_LIMIT} cards: discard {self.discards_due}, not more", col))
            assumed = city not in self.hand and self.checking and UNKNOWN in self.hand
            if city not in self.hand and not assumed:
                problems.append((f"{city} is not in your hand (your hand: {_join(self.hand)})", col))
            if not self._report(step, problems):
                continue
            self.hand.remove(city if city in self.hand else UNKNOWN)
            if assumed:
                self._note(step, f"{city} is not in your hand now: this discard needs a card you draw to be {city}")
            self.discarded += 1
            dropped.append(city)
        if dropped:
            self.piles.discard(dropped)
            self.events.append({"kind": "discard", "player": self.player, "cards": dropped,
                                "text": f"{player_ref(self.player)} discarded {_join(dropped)}."})

    # ---- the whole turn -------------------------------------------------------------------
    def do(self, step: dict) -> None:
        getattr(self, step["step"])(step)

    def final_checks(self, steps: list[dict]) -> None:
        """Steps the orders left out (checking only: resolving completes them by default)."""
        def first(kinds: tuple[str, ...]) -> dict | None:
            return next((s for s in steps if s["step"] in kinds), steps[-1] if steps else None)
        if self.draws < self.needed_draws():
            self._report(first(("play", "score", "discard")),
                         [(f"phase 1: draw {counted(self.needed_draws(), 'card')} before playing ('draw: deck' or "
                           f"'draw: display CITY'); the orders draw {self.draws}", None)])
        if self.plays < self.needed_plays() and self.hand:
            self._report(first(("score", "discard")),
                         [(f"phase 2: play {counted(self.needed_plays(), 'card')} ('play: CITY left|right|new'); "
                           f"the orders play {self.plays}", None)])
        if self.scored and self.discarded < self.discards_due:
            self._report(first(("discard",)) if any(s["step"] == "discard" for s in steps) else first(("score",)),
                         [(f"after scoring you hold {counted(len(self.hand), 'card')}: discard "
                           f"{self.discards_due - self.discarded} more, down to {HAND_LIMIT}", None)])

    def complete_by_default(self) -> None:
        """What the player's orders did not do: draws from the deck, default plays, discards."""
        while self.draws < self.needed_draws():
            if self.piles.drawable():
                self.draw({"step": "draw", "source": "deck"})
            else:
                self.draw({"step": "draw", "source": "display", "city": self.state["display"][0]})
        while self.plays < 1 and self.hand:  # one play is a must; the Postal carrier's second is a may
            self.auto_play()
        if self.scored and len(self.hand) > HAND_LIMIT:
            # the cards that came into the hand last go first
            extra = self.hand[HAND_LIMIT:]
            self.discards_due = self.discarded + len(extra)
            self.discard({"step": "discard", "cities": list(reversed(extra))})

    def end_turn(self) -> None:
        players, p = self.state["players"], self.player
        i = players.index(p)
        if self.state.get("end_triggered_by") and i == len(players) - 1:
            scores, details, winners = scoring.final_scores(self.gmap, self.state)
            self.state.update(to_move=None, finished=True, scores=scores, score_details=details, winners=winners)
            ranking = ", ".join(f"{player_ref(q)} {scores[q]}" for q in sorted(players, key=lambda q: -scores[q]))
            who = " and ".join(player_ref(w) for w in winners)
            self.events.append({"kind": "game_over", "scores": scores, "winners": winners,
                                "text": f"The game is over: {ranking}. "
                                        + (f"{who} win (a shared win)." if len(winners) > 1 else f"{who} wins.")})
            return
        self.state["to_move"] = players[(i + 1) % len(players)]
        if i == len(players) - 1:
            self.state["round"] += 1


def checking_copy(state: dict[str, Any], player: str) -> dict[str, Any]:
    """The state as ``player`` knows it: deck, discard pile and other hands hidden."""
    work = copy.deepcopy(state)
    work["deck"] = [UNKNOWN] * len(state["deck"])
    work["discard"] = [UNKNOWN] * len(state["discard"])
    work["hands"] = {p: (list(h) if p == player else [UNKNOWN] * len(h)) for p, h in state["hands"].items()}
    return work


def check_turn(gmap: GameMap, state: dict[str, Any], player: str, orders: dict[str, Any], *,
               complete: bool = True):
    """Problems (step, message, col) and notes of a player's orders, using what they may know;
    ``complete`` is False when some lines did not read (then nothing is missing, only wrong)."""
    run = TurnRun(gmap, checking_copy(state, player), player, None, checking=True)
    steps = orders["steps"]
    first = orders.get("official_step") or (steps[0] if steps else orders.get("first_line"))
    run.begin(orders.get("official"), first)
    for step in steps:
        run.do(step)
    if complete:
        run.final_checks(steps or [s for s in [orders.get("official_step") or orders.get("first_line")] if s])
    return run.problems, run.notes


def resolve_turn(gmap: GameMap, state: dict[str, Any], orders: dict[str, Any] | None, dice: Dice):
    """The new state and the events of the player to move's turn."""
    new = copy.deepcopy(state)
    player = new["to_move"]
    run = TurnRun(gmap, new, player, dice, checking=False)
    orders = orders or {"official": None, "steps": [], "default": True}
    official = orders.get("official")
    steps = list(orders.get("steps", []))
    if not run.hand and official != "postmaster":
        official, steps = "postmaster", []  # an empty hand must call the Postmaster (default orders)
    run.begin(official, orders.get("official_step"))
    if orders.get("default"):
        run.events.append({"kind": "default", "player": player,
                           "text": f"{player_ref(player)} played by the default rules: draws from the deck, "
                                   "the default play, no scoring."})
    for step in steps:
        try:
            run.do(step)
        except StepFailed as failed:
            where = f"line {step.get('line')} ({step.get('text', step['step'])!r})" if step.get("line") else "a step"
            skipped = " The second play was skipped." if step["step"] == "play" and run.plays >= 1 else ""
            run.events.append({"kind": "step_failed", "player": player, "line": step.get("line"),
                               "reason": failed.message, "to": [player],
                               "text": f"{player_ref(player)}'s {where} could not be carried out: {failed.message}."
                                       f"{skipped} The rest of the turn followed the default rules."})
            break
    run.complete_by_default()
    run.end_turn()
    return new, run.events
