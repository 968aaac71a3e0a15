"""The campaign's turn flow, game-agnostic: set up, check and store orders, resolve, status.

Turns are played by the one turn runner (``gm.turn.runner``); reports and pictures are written by
``gm.turn.publish``. ``cli.py`` calls these functions; they raise GMError subclasses for everything a
person can get wrong and never print.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gm import games
from gm.games.base import Game, player_ref
from gm.store.campaign import DEFAULT_COLOURS, Campaign, create_folder, parse_player_spec, turn_dir_name
from gm.store.dice import new_master_secret
from gm.store.errors import CampaignError, InputError, OrderError, UsageError
from gm.store.names import suggestion
from gm.store.orders import decode_order_bytes
from gm.store.receipts import canonical_orders, receipt
from gm.store.viewing import GM_VIEWER, fill_names, game_viewer, visible_events
from gm.time import clock
from gm.time.deadlines import deadline_status, dropped_players, read_policy, resolve_refusal
from gm.turn import runner
from gm.turn.publish import public_players, write_resolved
from gm.turn.runner import Checked, read_options  # noqa: F401  (the engine's callers check and read options here)


# ---- set-up --------------------------------------------------------------------------------
def parse_option_specs(specs: list[str]) -> dict[str, str]:
    out = {}
    for spec in specs:
        key, sep, value = spec.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes KEY=VALUE, not {spec!r}")
        out[key.strip()] = value.strip().strip('"')
    return out


def choose_map(game: Game, map_name: str | None) -> str | None:
    shipped = game.maps()
    if map_name is None:
        return game.default_map()
    if Path(map_name).is_file():
        return str(Path(map_name).resolve())
    if not shipped:
        raise UsageError(f"{game.name} has no maps to choose from")
    if map_name not in shipped:
        raise UsageError(f"unknown map {map_name!r} for {game.name}{suggestion(map_name, shipped)}; "
                         f"maps: {', '.join(shipped)}")
    return map_name


def new_campaign(path: str | Path, game_name: str, player_specs: list[str], *, map_name: str | None = None,
                 options: dict[str, Any] | None = None, master: bytes | None = None,
                 name: str | None = None) -> Campaign:
    game = games.get(game_name)
    players = [parse_player_spec(s) for s in player_specs]
    ids = [p["id"] for p in players]
    if len(set(ids)) != len(ids):
        raise UsageError(f"player ids must differ: {', '.join(ids)}")
    for n, p in enumerate(players):
        p["colour"] = DEFAULT_COLOURS[n % len(DEFAULT_COLOURS)]
    map_name = choose_map(game, map_name)
    opts = read_options(game, options or {})
    master = master if master is not None else new_master_secret()
    dice = runner.turn_dice(master, 0)
    names = {p["id"]: p["name"] for p in players}
    state = runner.start(game, map_name, ids, opts, dice, names)  # before anything is written: bad input fails cleanly
    config = {"name": name or Path(path).name, "game": game.name, "map": map_name, "players": players,
              "options": opts, "nmr_policy": "default", "deadline": None}
    campaign = create_folder(Path(path), config, master)
    write_resolved(campaign, game, 0, state, [], dice, settings={**turn_settings(campaign, game), "names": names})
    return campaign


# ---- orders --------------------------------------------------------------------------------
def read_order_file(file: str) -> str:
    try:
        raw = Path(file).read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{file}: no such order file") from None
    except OSError as exc:
        raise UsageError(f"{file}: cannot read ({exc.strerror})") from None
    return decode_order_bytes(raw, file)


def check_text(campaign: Campaign, game: Game, state: dict, text: str, file: str,
               player: str | None = None, *, turn: int | None = None) -> Checked:
    """Check one order text against ``state`` (the state before ``turn``, by default the current
    turn); collects every error of the file."""
    turn = campaign.current_turn if turn is None else turn
    return runner.check(game, state, text, file=file, players=campaign.players, turn=turn, player=player)


def check_files(campaign: Campaign, files: list[str], player: str | None = None) -> list[Checked]:
    game = games.get(campaign.game_name)
    state = campaign.state()
    if player is not None:
        campaign.player(player)
    out = []
    for f in files:
        try:
            out.append(check_text(campaign, game, state, read_order_file(f), f, player))
        except OrderError as exc:  # not text at all (a picture, a UTF-32 file without a mark)
            out.append(Checked(f, player, "", problems=[exc]))
    return out


def submit_files(campaign: Campaign, files: list[str], player: str | None = None, *,
                 force: bool = False, as_gm: bool = False) -> list[Checked]:
    """Check and store orders; without ``force`` nothing is stored unless every file is clean.
    ``as_gm``: the GM entered or edited these orders for the player; recorded in the audit log,
    which the GM's report shows."""
    with campaign.lock():
        results = check_files(campaign, files, player)
        if not force and any(not r.ok for r in results):
            return results
        turn = campaign.current_turn
        for r in results:
            if r.player is None or r.player not in campaign.player_ids:
                continue
            campaign.store_orders(turn, r.player, r.canonical or r.text, errors=r.errors or None)
            if as_gm:
                campaign.record_audit(turn, {"at": clock.stamp(), "turn": turn, "player": r.player,
                                             "file": r.file, "receipt": receipt(r.text), "by": "gm"})
        return results


def store_clean(campaign: Campaign, turn: int, player: str, text: str) -> str:
    """Store a player's clean orders as every intake does (mail, the web door): the canonical
    text (game lines only, no password) under 'player:' and 'turn:' headers; the receipt."""
    canonical = canonical_orders(text)
    stored_text = f"player: {player}\nturn: {turn}\n" + (canonical + "\n" if canonical else "")
    campaign.store_orders(turn, player, stored_text)
    return receipt(stored_text)


# ---- resolving -----------------------------------------------------------------------------
@dataclass
class Resolved:
    turn: int
    nmr: list[str]
    events: list[dict]  # as the GM reads them, players named
    finished: bool
    files: list[str]


def turn_settings(campaign: Campaign, game: Game) -> dict[str, Any]:
    """What shapes a turn's resolution, recorded with the turn so `gm replay` uses what was in force.
    An old campaign's game option ``nmr: bot`` (from before the policy was the campaign's) is read
    as the campaign's policy."""
    options = campaign.options
    policy = read_policy(campaign)
    if "nmr" in options and "nmr" not in game.options:
        if options.pop("nmr") == "bot" and policy == "default":
            policy = "bot"
    return {"options": options, "nmr_policy": policy}


def stored_orders(campaign: Campaign, game: Game, state: dict, turn: int) -> dict[str, Any]:
    """The clean stored orders of ``turn``, parsed (orders stored with errors count as missing)."""
    orders: dict[str, Any] = {}
    for p, text in campaign.stored_orders(turn).items():
        if p not in game.due(state) or campaign.forced_errors(turn, p):
            continue
        checked = check_text(campaign, game, state, text, f"turns/{turn_dir_name(turn)}/orders/{p}.txt", p,
                             turn=turn)
        if not checked.ok:
            raise CampaignError(f"{checked.errors[0]} (stored orders no longer check; resubmit them)")
        orders[p] = checked.orders
    return orders


def resolve(campaign: Campaign, *, force: bool = False, fail_after: str | None = None) -> Resolved:
    game = games.get(campaign.game_name)
    with campaign.lock():
        turn = campaign.current_turn
        state = campaign.state(turn - 1)
        if not game.due(state):
            raise InputError(f"the game is over (turn {turn - 1} was the last); nothing to resolve")
        orders = stored_orders(campaign, game, state, turn)
        if not force and any(p not in orders for p in game.due(state)):
            refusal = resolve_refusal(campaign)
            if refusal:
                raise InputError(refusal)
        settings = turn_settings(campaign, game)
        policy = "bot" if settings["nmr_policy"] == "bot" else "default"  # hold + --force: default orders
        seats = dropped_players(campaign)  # a dropped player's seat has its own policy
        from gm.time.schedule import next_turn_opener  # the next deadline comes from the schedule
        open_next_turn = next_turn_opener(campaign)  # read first: a bad schedule changes nothing
        try:
            orders, missing = runner.fill_missing(game, state, orders, policy, seats)
        except InputError as exc:
            raise InputError(f"turn {turn}: {exc}; store orders with `gm submit {campaign.path} FILE --player ID`") \
                from None
        settings.update(applied_policy=policy, missing=missing, **({"seat_policies": seats} if seats else {}))
        dice = runner.turn_dice(campaign.master_secret(), turn)
        new_state, events = runner.step(game, state, orders, dice)
        events = [nmr_event(p) for p in missing] + events
        opening = open_next_turn(game.finished(new_state))  # refused here, before anything is written
        # the next deadline is part of the turn's own atomic swap (turns/NNN/opening.yaml): a crash
        # after the swap never leaves the passed deadline in force for another resolve
        files = write_resolved(campaign, game, turn, new_state, events, dice, settings=settings, opening=opening,
                               fail_after=fail_after)
        campaign.apply_opening()
        names = {p["id"]: p["name"] for p in campaign.players}
        return Resolved(turn, missing, visible_events(events, GM_VIEWER, names), game.finished(new_state), files)


def nmr_event(player: str) -> dict[str, Any]:
    return {"engine": True, "kind": "nmr", "player": player,
            "text": f"{player_ref(player)} sent no orders this turn (missed turn)."}


# ---- looking at a campaign -------------------------------------------------------------------
def resolve_viewer(campaign: Campaign, player: str | None, public: bool) -> str:
    if player is not None and public:
        raise UsageError("give --player ID or --public, not both")
    if player is not None:
        campaign.player(player)
        return player
    return "public" if public else GM_VIEWER


def show(campaign: Campaign, turn: int | None, viewer: str) -> dict[str, Any]:
    import json
    game = games.get(campaign.game_name)
    turn = campaign.check_turn(turn)
    state = campaign.state(turn)
    view = game.view(state, game_viewer(viewer))
    return {"game": game.name, "turn": turn, "phase": game.phase(state),
            "players": [{"id": p["id"], "name": p["name"]} for p in public_players(campaign)],
            "state": json.loads(json.dumps(view, default=str))}


def status(campaign: Campaign) -> dict[str, Any]:
    game = games.get(campaign.game_name)
    last = campaign.last_turn
    state = campaign.state(last)
    due = game.due(state)
    stored = campaign.stored_orders(last + 1)
    deadline = deadline_status(campaign).as_dict()
    names = {p["id"]: str(p.get("name") or p["id"]) for p in campaign.players}
    return {"campaign": campaign.name, "game": game.name, "turn": last + 1, "last_resolved": last,
            "phase": game.phase(state), "finished": game.finished(state),
            "summary": fill_names(game.summary(state), names),
            "due": due, "in": [p for p in due if p in stored], "missing": [p for p in due if p not in stored],
            "deadline": deadline["deadline"], "time_left": deadline["left"], "grace": deadline["grace"],
            "nmr_policy": deadline["policy"]}


def route_advice(campaign: Campaign, player: str, origin: str, destination: str) -> str:
    game = games.get(campaign.game_name)
    campaign.player(player)
    advice = game.route_advice(campaign.state(), player, origin, destination)
    if advice is None:
        raise UsageError(f"{game.title} has no routes to advise on")
    return advice
