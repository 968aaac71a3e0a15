"""What the web door does for one signed-in player, without HTTP: their page (the report their mail
holds, the deadline, their orders or the order form, press), checking orders through the one turn
runner, and storing them on the path mail intake takes (gm.turn.engine.store_clean).

On the web the ``player:`` and ``turn:`` lines are optional (the session says who, the page which
turn); present, they must match: a ``player:`` line naming someone else is refused (Forbidden).
"""
from __future__ import annotations

import contextlib
import json
import datetime as dt
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gm import games
from gm.delivery.web.cache import files, open_campaign
from gm.store.campaign import Campaign
from gm.store.errors import GMError, LockedError, OrderError, UsageError
from gm.store.gm_messages import keep_message, kept_text
from gm.store.logbook import append_entry
from gm.store.orders import read_frame
from gm.store.players import find_player
from gm.store.press import add_press, press_mode
from gm.store.receipts import receipt
from gm.store.viewing import press_seen_by, seen_by
from gm.time import clock
from gm.time.deadlines import deadline_status
from gm.time.zones import campaign_zone, read_zone_name, show_moment
from gm.turn.engine import check_text, store_clean
from gm.turn.publish import public_players, report_text

ORDERS_FILE = "orders"           # how errors name the text on the page: "orders:LINE:COL: ..."
LOCK_WAIT = 10.0                 # seconds to wait for another gm process (a `gm run`) to finish
WEB_LOG = "web/log.yaml"         # the web door's record: one entry per stored order text or message
_IMG_SRC = re.compile(r'<img\b[^>]*?\bsrc="([A-Za-z0-9._-]+\.png)"', re.IGNORECASE)
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


class Forbidden(GMError):
    """The signed-in player asked to read or write what is another player's."""


class Busy(GMError):
    """Another gm process holds the campaign's lock for longer than a page should wait."""


@dataclass
class CheckResult:
    errors: list[dict[str, Any]]
    notes: list[str]
    located: list[str] = field(default_factory=list)  # each error as one line, FILE:LINE:COL: message

    @property
    def ok(self) -> bool:
        return not self.errors

    def as_json(self) -> dict[str, Any]:
        return {"errors": self.errors, "notes": self.notes}


def _campaign_lock(campaign: Campaign) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(str(campaign.path.resolve()), threading.Lock())


def _state_before(campaign: Campaign) -> tuple[Any, dict[str, Any], int]:
    """The game, the state the current turn's orders are checked against (read once per state file;
    a game's parse changes nothing) and the current turn."""
    game = games.get(campaign.game_name)
    last = campaign.last_turn
    state = files.get(campaign.turn_dir(last) / "state.yaml", lambda: campaign.state(last))
    return game, state, last + 1


def own_header(campaign: Campaign, player: str, text: str) -> None:
    """Refuse orders whose ``player:`` line names another player of the campaign."""
    named = read_frame(text, ORDERS_FILE).player
    if named is None:
        return
    try:
        who = find_player(campaign.players, named)
    except UsageError:
        return  # not a player at all: the checker reports it with its line
    if who != player:
        raise Forbidden(f"these orders say 'player: {named}', but you are signed in as {player}; "
                        "you can write only your own orders")


def check(campaign: Campaign, player: str, text: str) -> CheckResult:
    """Check ``text`` as ``player``'s orders for the current turn; every error with line and column."""
    own_header(campaign, player, text)
    game, state, turn = _state_before(campaign)
    try:
        checked = check_text(campaign, game, state, text, ORDERS_FILE, player, turn=turn)
    except OrderError as exc:  # not text at all
        return CheckResult([_error(exc)], [], [exc.located()])
    return CheckResult([_error(e) for e in checked.problems], list(checked.notes), checked.errors)


def _error(error: OrderError) -> dict[str, Any]:
    return {"line": error.line, "col": error.col, "message": error.message}


def submit(campaign: Campaign, player: str, text: str) -> tuple[CheckResult, str | None]:
    """Check and, when clean, store ``text`` as mail intake stores it; (the check, the receipt)."""
    own_header(campaign, player, text)
    with _campaign_lock(campaign), _waiting_lock(campaign):
        campaign = open_campaign(campaign.path)  # as it is now, under the lock: a turn may have been resolved
        result = check(campaign, player, text)
        if not result.ok:
            return result, None
        turn = campaign.current_turn
        code = store_clean(campaign, turn, player, text)
        record(campaign, {"at": clock.stamp(), "kind": "orders", "player": player, "turn": turn, "receipt": code})
        return result, code


@contextlib.contextmanager
def _waiting_lock(campaign: Campaign) -> Iterator[None]:
    """The campaign's lock, waiting a little for another gm process (a `gm run`) to let go."""
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        held = campaign.lock()
        try:
            held.__enter__()
            break
        except LockedError:
            if time.monotonic() > deadline:
                raise Busy("the GM's tools are working on this campaign right now; try again in a minute "
                           "(your text is kept in the form)") from None
            time.sleep(0.05)
    try:
        yield
    finally:
        held.__exit__(None, None, None)


def record(campaign: Campaign, entry: dict[str, Any]) -> None:
    append_entry(campaign.path / WEB_LOG, entry)


def send_press(campaign: Campaign, player: str, to: str, text: str) -> dict[str, Any]:
    """Press from the web, recorded as a mailed `press TO: TEXT` is (gm.store.press)."""
    with _campaign_lock(campaign), _waiting_lock(campaign):
        campaign = open_campaign(campaign.path)
        game, state, turn = _state_before(campaign)
        if not game.due(state):
            raise UsageError("the game is over: press is no longer passed on")
        return add_press(campaign, turn, player, to, text, at=clock.now())


def message_to_gm(campaign: Campaign, player: str, text: str) -> None:
    """A note for the GM: kept with the messages players mail to the GM (`gm inbox`), and in
    CAMPAIGN/web/log.yaml (kind: message)."""
    text = text.strip()
    if not text:
        raise UsageError("the message is empty")
    if len(text) > 4000:
        raise UsageError(f"the message is too long ({len(text)} characters; at most 4000)")
    with _campaign_lock(campaign):
        at, said = clock.stamp(), kept_text(text)
        keep_message(campaign, {"at": at, "turn": campaign.current_turn, "player": player,
                                "subject": "(sent from the web page)", "text": said})
        record(campaign, {"at": at, "kind": "message", "player": player, "turn": campaign.current_turn,
                          "text": said})


# ---- the player's page -----------------------------------------------------------------------
@dataclass
class Page:
    campaign: str
    player: str
    name: str
    turn: int                  # the turn whose orders are collected
    report_turn: int           # the turn the report is of
    report: str                # the text report, as the mail holds it
    images: list[str]          # the pictures the player's report shows, as the mail holds them
    due: bool
    orders: str                # the stored orders, else the order form
    receipt: str | None
    deadline: str | None
    left: str | None
    composer: list[dict[str, str]]
    press: list[dict[str, Any]]
    press_to: list[dict[str, str]]
    press_mode: str


def report_images(campaign: Campaign, turn: int, player: str) -> list[str]:
    """The pictures the player's report shows (the names in its HTML report, as the mail holds it)."""
    html = campaign.turn_dir(turn) / "reports" / f"{player}.html"
    if not html.is_file():
        return []
    names = dict.fromkeys(_IMG_SRC.findall(html.read_text(encoding="utf-8")))
    return [n for n in names if (html.parent / n).is_file()]


def player_page(campaign: Campaign, player: str, *, now: dt.datetime | None = None) -> Page:
    game = games.get(campaign.game_name)
    last = campaign.last_turn
    state = campaign.state(last)
    seat = campaign.player(player)
    seen = seen_by(game, state, [], player, public_players(campaign))
    due = player in game.due(state)
    path = campaign.turn_dir(last) / "reports" / f"{player}.txt"
    if path.is_file():
        report = path.read_text(encoding="utf-8")
    else:  # a report never written for this seat (added later): built through the same door
        report = report_text(campaign, last, player, "text")
    stored = campaign.stored_orders(last + 1).get(player)
    info = deadline_status(campaign, now)
    zone = read_zone_name(campaign, seat["zone"], f"player {player}: zone") if seat.get("zone") \
        else campaign_zone(campaign)
    mode = press_mode(campaign)
    others = [{"id": p["id"], "name": str(p.get("name") or p["id"])} for p in campaign.players if p["id"] != player]
    return Page(campaign=campaign.name, player=player, name=str(seat.get("name") or player), turn=last + 1,
                report_turn=last, report=report, images=report_images(campaign, last, player), due=due,
                orders=stored if stored is not None else seen.order_form, receipt=receipt(stored) if stored else None,
                deadline=show_moment(info.deadline, zone) if info.deadline and due else None,
                left=info.left if info.deadline and due else None,
                composer=game.map_composer(seen.view, player) if due else [],
                press=press_seen_by(campaign, last + 1, player), press_to=others, press_mode=mode)


def image_allowed(campaign: Campaign, player: str, name: str) -> bool:
    """Whether ``name`` is a picture of ``player``'s latest report (else another viewer's: refused)."""
    return name in report_images(campaign, campaign.last_turn, player)


_hotspots: dict[tuple[str, float], dict[str, Any] | None] = {}


def hotspots(campaign: Campaign, name: str) -> dict[str, Any] | None:
    """Where each place sits in a picture, as its PNG says (gm:hotspots), for clicking on the map."""
    path = campaign.turn_dir(campaign.last_turn) / "reports" / name
    try:
        key = (str(path), path.stat().st_mtime)
    except FileNotFoundError:
        return None
    if key not in _hotspots:
        from PIL import Image  # only when a page with a picture is shown
        with Image.open(path) as image:
            raw = getattr(image, "text", {}).get("gm:hotspots")
        _hotspots[key] = json.loads(raw) if raw else None
    return _hotspots[key]
