"""The one in-memory turn runner. Every caller that plays turns — the campaign engine, `gm replay`,
`gm case run`, `gm simulate` and the tests — starts, checks orders, fills missing orders, steps
and asks for the outcome here, the same way; no other module calls a game's ``resolve``.

No files, no templates: plain data in, plain data out.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from gm.store import fileio
from gm.store.dice import Dice, turn_seed
from gm.store.errors import GMError, InputError, OrderError, OrderErrors, OrderSyntaxError, UsageError, located_lines
from gm.games.base import Event, Game, Orders, Outcome, State
from gm.store.names import suggestion
from gm.store.orders import canonical_text, frame_player, preamble_note, read_frame, signoff_hint

# what replaces the orders of a due player who sent none
NMR_POLICIES = ("default", "bot")


class GameBug(GMError):
    """A game broke the plug-in contract (not plain data, a malformed outcome): a bug, not bad input."""


# ---- set-up ------------------------------------------------------------------------------------
def read_options(game: Game, given: dict[str, Any]) -> dict[str, Any]:
    """Every option of ``game``: the given ones read and checked (names, kinds, choices, ranges),
    the rest at their defaults. The one place options are checked, for every game."""
    options = {name: opt.default for name, opt in game.options.items()}
    for key, value in given.items():
        if key not in game.options:
            known = ", ".join(sorted(game.options)) or "none"
            raise UsageError(f"unknown option {key!r} for {game.name}{suggestion(key, game.options)}; "
                             f"options: {known}")
        options[key] = game.options[key].read(key, value)
    return options


def turn_dice(master: bytes, turn: int, fixed: list[int] | None = None) -> Dice:
    """The verifiable dice of ``turn``; ``fixed`` values (rules cases) are used first and, being
    one shared list, run on from turn to turn."""
    return Dice(turn_seed(master, turn), secret_seed=turn_seed(master, turn, secret=True),
                fixed=fixed if fixed is not None else ())


def start(game: Game, map_name: str | None, players: list[str], options: dict[str, Any], dice: Dice,
          names: dict[str, str] | None = None) -> State:
    """The set-up state: options checked, players checked, the game's set-up made plain.
    ``names`` (display names at set-up) is passed on only when given, so a game written before
    games took names still sets up."""
    game.check_players(players)
    extra = {"names": dict(names)} if names else {}
    return plain(game.setup(map_name, players, read_options(game, options), dice, **extra))


# ---- orders ------------------------------------------------------------------------------------
@dataclass
class Checked:
    """One order text after checking: the player it is for, the parsed orders or every error."""

    file: str
    player: str | None
    text: str
    orders: Any = None
    problems: list[OrderError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    # the orders to store: headers and game lines, never the password (gm.store.orders.canonical_text)
    canonical: str = ""

    @property
    def errors(self) -> list[str]:
        """Each error as one located line (FILE:LINE:COL: message), capped with "and N more"."""
        return located_lines(self.problems)


def check(game: Game, state: State, text: str, *, file: str, players: list[str] | list[dict[str, Any]],
          turn: int, player: str | None = None) -> Checked:
    """Check one order text against ``state`` (the state before ``turn``); every error of the file
    is collected. ``players``: ids, or the campaign's players (then ``player:`` may also give a
    display name, in any case); ``player``: who sent it when the text may lack a header."""
    table = [p if isinstance(p, dict) else {"id": p, "name": p} for p in players]
    frame = read_frame(text, file)
    errors: list[OrderError] = list(frame.errors)
    who, problems = frame_player(frame, table, player)
    errors += problems
    checked = Checked(file, who, text)
    if frame.turn is not None and frame.turn != turn:
        errors.append(OrderSyntaxError(f"these orders are for turn {frame.turn}, but the campaign is at turn {turn}",
                                       line=frame.header_lines["turn"], col=1, file=file))
    if who is not None and frame.turn in (None, turn):  # orders for another turn: that error alone
        head = frame.header_lines.get("player", 1)
        errors += _parse(game, state, who, frame.lines, checked, file=file, line=head, turn=turn)
    errors.sort(key=lambda e: (e.line or 0, e.col or 0))
    signoff_hint(frame, errors)
    checked.problems = errors
    note = preamble_note(frame)
    if note:
        checked.notes.insert(0, note)
    if errors:
        checked.orders = None
    elif not frame.lines and not any(n.startswith("you ") for n in checked.notes):
        checked.notes.append("there are no order lines below the headers: nothing is done for you this turn")
    if not errors:
        checked.canonical = canonical_text(frame, player=who, turn=turn)
    return checked


def _parse(game: Game, state: State, who: str, lines, checked: Checked, *, file: str, line: int,
           turn: int) -> list[OrderError]:
    due = game.due(state)
    if not due:
        return [OrderError("the game is over: no more orders are taken", line=line, col=1, file=file)]
    if who not in due:
        return [OrderError(f"{who} has no orders due on turn {turn} (waiting for {', '.join(due)})",
                           line=line, col=1, file=file)]
    try:
        checked.orders = game.parse(state, who, lines)
        checked.notes = game.check_notes(checked.orders)
    except OrderErrors as exc:
        return [_locate(e, file) for e in exc.errors]
    except OrderError as exc:
        return [_locate(exc, file)]
    return []


def _locate(error: OrderError, file: str) -> OrderError:
    error.file = error.file or file
    return error


def fill_missing(game: Game, state: State, orders: dict[str, Orders], policy: str,
                 seats: dict[str, str] | None = None) -> tuple[dict[str, Orders], list[str]]:
    """Orders for every due player: those given, and for each missing player the game's bot orders
    (policy ``bot``) or default orders (``default``); ``seats`` gives some players a policy of
    their own (a dropped player's seat). Returns (orders, the missing players)."""
    seats = seats or {}
    for chosen in [policy, *seats.values()]:
        if chosen not in NMR_POLICIES:
            raise UsageError(f"the missed-turn policy is one of {', '.join(NMR_POLICIES)}, not {chosen!r}")
    due = game.due(state)
    missing = [p for p in due if p not in orders]
    full = {p: orders[p] for p in due if p in orders}
    for p in missing:
        bot = seats.get(p, policy) == "bot"
        full[p] = game.bot_orders(state, p) if bot else game.default_orders(state, p)
        if full[p] is None and game.sequential:
            raise InputError(f"{p} sent no usable orders and {game.title} has no default move")
    return full, missing


# ---- a turn ------------------------------------------------------------------------------------
def step(game: Game, state: State, orders: dict[str, Orders], dice: Dice) -> tuple[State, list[Event]]:
    """Resolve one turn: the game works on a copy, and what it returns is made plain data."""
    if not game.due(state):
        raise InputError("the game is over: there is no turn to resolve")
    new_state, events = game.resolve(copy.deepcopy(state), orders, dice)
    return plain(new_state), plain(list(events))


def outcome(game: Game, state: State, players: list[str]) -> Outcome | None:
    """The game's outcome, checked against the contract: None while it goes on."""
    result = game.outcome(state)
    finished = game.finished(state)
    if result is None:
        if finished:
            raise GameBug(f"{game.name}: the game is over but outcome() says it goes on")
        return None
    if not finished:
        raise GameBug(f"{game.name}: outcome() gives a result while the game goes on")
    players = set(players)
    winners, ranking = list(result.get("winners", [])), [list(r) for r in result.get("ranking", [])]
    if not set(winners) <= players or any(not set(r) <= players for r in ranking):
        raise GameBug(f"{game.name}: outcome() names someone who is not a player: {result}")
    if not isinstance(result.get("reason"), str) or not result["reason"]:
        raise GameBug(f"{game.name}: outcome() gives no reason")
    return {"winners": winners, "ranking": ranking, "reason": result["reason"]}


# ---- plain data ----------------------------------------------------------------------------------
def plain(data: Any, where: str = "state") -> Any:
    """``data`` as it reads back from a YAML or JSON file: a copy in which tuples are lists; anything
    that is not plain data (objects, sets) is refused as a game bug. One walk, no serialising."""
    try:
        return fileio.plain(data)
    except fileio.NotPlainData as exc:
        raise GameBug(f"{where}: {exc}") from None
