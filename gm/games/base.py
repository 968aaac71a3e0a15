"""What a game plug-in provides. The engine calls only these; it knows nothing of any game.

State is plain data (dicts, lists, str, int, bool, None) that survives a YAML round trip.
Viewers: ``None`` is the GM (sees everything), ``"public"`` is anyone, else a player id.

Events (what ``resolve`` returns) follow one convention in every game (docs/plugins.md):
- ``kind``: a short tag ("build", "race", "draw"); ``text``: one readable sentence;
- players are named in ``text`` as ``player_ref(id)`` placeholders (``@{id}``), which the report
  layer fills in with the player's name; a game never writes a bare id where it means a person;
- ``to``: optional list of the viewers ("public" and/or player ids) who may read the event; the GM
  reads every event; an event without ``to`` is for everyone. A game that shows others a shorter
  version emits it as a second event whose ``to`` names those others.
"""
from __future__ import annotations

import os
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gm.store.dice import Dice
from gm.store.orders import OrderLine

from gm.store.viewing import GM_VIEWER  # noqa: F401  (how reports and the CLI name the GM; games see None)
_HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")

State = dict[str, Any]
Orders = Any  # plain data, game-defined
Event = dict[str, Any]
# outcome(state): None while the game goes on, else who won and how everybody finished
Outcome = dict[str, Any]


def player_ref(player: str) -> str:
    """How an event's text names a player: the report layer puts the player's name in its place."""
    return "@{" + player + "}"


@dataclass(frozen=True)
class Option:
    """A campaign option: ``gm new --option key=value``."""

    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    kind: type = str  # str, int or bool: how a --option value is read
    low: int | None = None   # an int option's smallest value (checked by the engine, once)
    high: int | None = None  # and its largest

    def read(self, name: str, text: Any) -> Any:
        from gm.store.errors import UsageError
        if not isinstance(text, str):
            value = text
        elif self.kind is bool:
            low = text.strip().lower()
            if low not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                raise UsageError(f"option {name} takes true or false, not {text!r}")
            value = low in ("true", "yes", "on", "1")
        elif self.kind is int:
            try:
                value = int(text)
            except ValueError:
                raise UsageError(f"option {name} takes a whole number, not {text!r}") from None
        else:
            value = text
        if self.choices and value not in self.choices:
            raise UsageError(f"option {name} is one of {', '.join(map(str, self.choices))}, not {text!r}")
        if self.kind is int and isinstance(value, int):
            if self.low is not None and value < self.low or self.high is not None and value > self.high:
                span = (f"{self.low} to {self.high}" if self.low is not None and self.high is not None
                        else f"at least {self.low}" if self.low is not None else f"at most {self.high}")
                raise UsageError(f"option {name} takes a whole number {span}, not {text!r}")
        return value


class Game:
    """Base class of a game plug-in. Subclasses set the class attributes and the methods.
    (A plain class, not a dataclass: subclasses override these as class attributes.)"""

    name: str = ""
    title: str = ""
    sequential: bool = False
    min_players: int = 2
    max_players: int = 2
    options: dict[str, Option] = {}
    # True when a player's image differs from the public one (hidden information on the board)
    images_per_viewer: bool = False
    # file name stem of the turn image in reports ("board" -> board.png)
    image_name: str = "map"

    # ---- what the game has: flags the generic tests read instead of lists of games ---------
    # some of the state is hidden from some viewers (hands, deck order); the conformance test then
    # changes what each viewer may not see (tests/support/hidden_<package>.py) and checks they get the same
    hidden_information: bool = False
    # the game rolls secret dice (dice.roll/shuffle(..., secret=True)), revealed only at the end
    secret_dice: bool = False
    # render() draws a picture of the board or map (False: the reports carry no image)
    pictures: bool = False
    # the picture writes the players' names (so it must use the campaign's names, never ids)
    pictures_name_players: bool = False

    # ---- the game's own files ------------------------------------------------------------
    def package_files(self) -> Path | None:
        """The folder of the game's own files: ``templates/`` (report templates, looked up before
        gm's generic ones) and ``maps/`` (shipped maps and data). By default the folder of the package
        the game's class is defined in; None for a game that is a lone module (it has no files)."""
        package = sys.modules[type(self).__module__].__package__
        if not package:
            return None
        return Path(sys.modules[package].__file__).parent

    def templates_folder(self) -> Path | None:
        """The game's report templates (``report.<ext>.j2``, partials ``_*.j2``), None when it has none."""
        files = self.package_files()
        return files / "templates" if files is not None and (files / "templates").is_dir() else None

    def maps_folder(self) -> Path | None:
        """Where the game's shipped maps and data files are: ``$GM_MAPS/<name>/`` when GM_MAPS is set
        (a GM's own collection of every game's maps), else the package's ``maps/``."""
        files = self.package_files()
        return maps_folder(self.name, files) if files is not None else None

    # ---- maps -----------------------------------------------------------------------------
    def maps(self) -> list[str]:
        """Names of the shipped maps ([] for a game with a fixed board)."""
        return []

    def check_map_file(self, path: str) -> list[str] | None:
        """Every error of a map file of this game, one located line each; None: no map files."""
        return None

    def render_map_file(self, path: str, out: str) -> bool:
        """Draw a blank map from a map file to ``out`` (.png/.svg); False when the game cannot."""
        return False

    def default_map(self) -> str | None:
        maps = self.maps()
        return maps[0] if maps else None

    def check_players(self, players: list[str]) -> None:
        """Raise UsageError when these player ids cannot play (count, names the game fixes)."""
        from gm.store.errors import UsageError
        if not self.min_players <= len(players) <= self.max_players:
            span = (str(self.min_players) if self.min_players == self.max_players
                    else f"{self.min_players} to {self.max_players}")
            raise UsageError(f"{self.title or self.name} takes {span} players, not {len(players)}")

    # ---- the game -------------------------------------------------------------------------
    def setup(self, map_name: str | None, players: list[str], options: dict[str, Any], dice: Dice,
              names: dict[str, str] | None = None) -> State:
        """The state before turn 1. ``names`` ({id: display name}, as the campaign had them at set-up)
        may name things after the players (a company called after its owner); it is recorded with turn 0,
        so a later change of name never changes a replay. A game that names nothing ignores it."""
        raise NotImplementedError

    def due(self, state: State) -> list[str]:
        """Players whose orders the current turn waits for ([] when the game is over)."""
        raise NotImplementedError

    def phase(self, state: State) -> str:
        return "play"

    def finished(self, state: State) -> bool:
        return not self.due(state)

    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on; at the end ``{"winners": [player ids], "ranking": [[ids],
        ...] (best first, ties share a place), "reason": "one readable line"}``. Several winners
        are a shared win; no winners (everybody lost) is ``winners: []``."""
        raise NotImplementedError

    def parse(self, state: State, player: str, lines: list[OrderLine]) -> Orders:
        """Check one player's order lines against ``state``; change nothing. Raise OrderErrors
        (every error of the file) when anything is wrong."""
        raise NotImplementedError

    def check_notes(self, orders: Orders) -> list[str]:
        """Lines `gm check` prints under clean orders (pips used, costs): what the orders will do."""
        return []

    def resolve(self, state: State, orders: dict[str, Orders], dice: Dice) -> tuple[State, list[Event]]:
        """Pure: a new state and the events of the turn. ``orders`` holds every due player."""
        raise NotImplementedError

    def view(self, state: State, viewer: str | None) -> State:
        """What ``viewer`` may see of ``state`` (named as in ``gm show --json``): an allow-list, built
        by every game itself (there is no default: a new game must decide what each viewer sees)."""
        raise NotImplementedError(f"{type(self).__name__} must say what each viewer sees: define view()")

    def standings(self, view: State, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The website's standings from the PUBLIC ``view`` of the last turn, in the game's own terms:
        a list of blocks ``{"title", "head": [column names], "rows": [[cells]], "chart": None or
        {"title", "x_label", "y_label", "x_start", "values": {player id: [value by step]}}}``; a cell
        naming a player is ``standings_player(id, note)``. ``players`` are the campaign's
        [{id, name, colour}]. Default: none (the site shows the outcome when the game is over)."""
        return []

    def default_orders(self, state: State, player: str) -> Orders | None:
        """Orders for a player whose orders did not arrive (NMR), or None to do nothing."""
        return None

    def bot_orders(self, state: State, player: str) -> Orders | None:
        """Orders for a missing player when the campaign's NMR policy is `bot` (default: the
        game's default orders)."""
        return self.default_orders(state, player)

    def missed_orders(self, state: State, player: str, policy: str) -> str | None:
        """What missing orders mean for ``player`` in this game under the missed-turn ``policy``
        (default or bot), in the game's own words, for reminders ("your company builds nothing and
        enters no race"); None: gm words it from default_orders (optional hook)."""
        return None

    def order_form(self, view: State, player: str) -> str:
        """A blank order form for the player's next orders (comment lines help them fill it in),
        built from ``view`` = ``self.view(state, player)``, never from the raw state."""
        return ""

    def map_composer(self, view: State, player: str) -> list[dict[str, str]]:
        """How a page showing the player's picture with clickable places (the PNG's ``gm:hotspots``
        note: each place's label and pixel centre) writes order lines from clicks: one entry per
        line, {"label": the button's text, "line": how the line starts ("round 2:"), "first": the
        first place ("({})" puts it in brackets), "then": each next place (" {}")}. The page only
        writes text; the checker judges it. [] (the default): no map clicks."""
        return []

    def render(self, view: State, viewer: str | None, *, events: list[Event] | None = None,
               players: list[dict[str, Any]] | None = None):
        """A picture (a matplotlib Figure or a Pillow image) of the board or map as ``viewer`` sees
        it, drawn from ``view`` = ``self.view(state, viewer)`` and the events that viewer may read;
        None: no image. ``players`` are the campaign's players as [{id, name, colour}] so that
        pictures name people as the reports do (see player_names and player_colours)."""
        return

    def player_colours(self, view: State) -> dict[str, str]:
        """Each player's colour as the game's pictures draw it ('#rrggbb'), where the game chooses it
        (a company's colour picked in its orders), from ``view``; {}: the campaign's colours."""
        return {}

    def picture_focus(self, view: State, viewer: str | None) -> list[str] | None:
        """The places of the map picture that concern ``viewer`` (their network's hexes), drawn from
        ``view``: a report mail carries the map around them, at full scale, instead of the whole map
        (the site and `gm map` keep it whole). None: the whole picture (the default)."""
        return None

    def extra_images(self, view: State, viewer: str | None, *,
                     players: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """More pictures for a turn's reports, by file stem (e.g. {"cash-chart": Figure}), drawn
        from ``view`` as ``render`` is: written as PNGs beside the map and listed to the templates
        as ``extra_images``."""
        return {}

    def simulation_figures(self, finals: list[State]) -> dict[str, Any]:
        """`gm simulate`: the game's own balance figures over the final states of bot games, as
        {readable label: number}; the engine adds seat win rates, shared wins and game length."""
        return {}

    def route_advice(self, state: State, player: str, origin: str, destination: str) -> str | None:
        """`gm route`: text advising ``player`` how to get from ``origin`` to ``destination``;
        None when the game has no routes."""
        return None

    def random_orders(self, state: State, player: str, rng: random.Random) -> str:
        """Text of some legal orders (conformance playouts, bots)."""
        raise NotImplementedError

    def apply_setup(self, state: State, overrides: dict[str, Any]) -> State:
        """Rules cases: replace state keys (as named in ``gm show --json``) and check the result
        is a legal state; raise UsageError otherwise."""
        new = dict(state)
        new.update(overrides)
        return new

    def summary(self, state: State) -> str:
        """One line for ``gm status``: what is going on (players as ``player_ref(id)``: status names them)."""
        return self.phase(state)


def maps_folder(game_name: str, package_folder: Path) -> Path:
    """A game's shipped maps: ``$GM_MAPS/<game_name>/`` when GM_MAPS is set, else ``maps/`` in its package."""
    chosen = os.environ.get("GM_MAPS")
    return Path(chosen) / game_name if chosen else package_folder / "maps"


def standings_player(pid: str, note: str = "") -> dict[str, str]:
    """A standings cell naming a player (the site writes the player's name); ``note``: what the game
    calls them besides (a company's name)."""
    return {"player": pid, "note": note}


def standings_ids(view: State, players: list[dict[str, Any]]) -> list[str]:
    """The players of a standings table: the view's ``players`` list in seat order, else the campaign's."""
    listed = view.get("players")
    return list(listed) if isinstance(listed, list) and listed else [p["id"] for p in players]


def player_names(players: list[dict[str, Any]] | None, ids: list[str]) -> dict[str, str]:
    """What pictures call each player: the campaign's name for them, else their id."""
    given = {p["id"]: p.get("name") for p in players or []}
    return {pid: str(given.get(pid) or pid) for pid in ids}


def player_colours(players: list[dict[str, Any]] | None, ids: list[str], palette: tuple[str, ...]) -> dict[str, str]:
    """Each player's colour: the campaign's ('#rrggbb') where it gives one, else the game's palette in turn."""
    given = {p["id"]: str(p.get("colour") or "") for p in players or []}
    return {pid: given[pid] if _HEX_COLOUR.match(given.get(pid, "")) else palette[i % len(palette)]
            for i, pid in enumerate(ids)}
