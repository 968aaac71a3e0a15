"""The turn flow, game-agnostic: set up, check and store orders, resolve, report, replay, verify.

``cli.py`` calls these functions; they raise GMError subclasses for everything a person can get
wrong and never print.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import clock, games
from .campaign import DEFAULT_COLOURS, Campaign, create_folder, parse_player_spec, turn_dir_name
from .dice import Dice, commitment, new_master_secret, turn_seed
from .errors import CampaignError, InputError, OrderError, OrderErrors, OrderSyntaxError, UsageError
from .fileio import write_yaml
from .games.base import GM_VIEWER, Game
from .names import suggestion
from .orders import read_frame



# ---- set-up --------------------------------------------------------------------------------
def read_options(game: Game, given: dict[str, Any]) -> dict[str, Any]:
    """Every option of ``game``: the given ones read and checked, the rest at their defaults."""
    options = {name: opt.default for name, opt in game.options.items()}
    for key, value in given.items():
        if key not in game.options:
            known = ", ".join(sorted(game.options)) or "none"
            raise UsageError(f"unknown option {key!r} for {game.name}{suggestion(key, game.options)}; "
                             f"options: {known}")
        options[key] = game.options[key].read(key, value)
    return options


def parse_option_specs(specs: list[str]) -> dict[str, str]:
    out = {}
    for spec in specs:
        key, sep, value = spec.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes KEY=VALUE, not {spec!r}")
        out[key.strip()] = value.strip().strip('"')
    return out


def new_campaign(path: str | Path, game_name: str, player_specs: list[str], *, map_name: str | None = None,
                 options: dict[str, Any] | None = None, master: bytes | None = None,
                 name: str | None = None) -> Campaign:
    game = games.get(game_name)
    players = [parse_player_spec(s) for s in player_specs]
    ids = [p["id"] for p in players]
    if len(set(ids)) != len(ids):
        raise UsageError(f"player ids must differ: {', '.join(ids)}")
    game.check_players(ids)
    for n, p in enumerate(players):
        p["colour"] = DEFAULT_COLOURS[n % len(DEFAULT_COLOURS)]
    shipped = game.maps()
    if map_name is None:
        map_name = game.default_map()
    elif shipped and map_name not in shipped and not Path(map_name).is_file():
        raise UsageError(f"unknown map {map_name!r} for {game.name}{suggestion(map_name, shipped)}; "
                         f"maps: {', '.join(shipped)}")
    elif not shipped and not Path(map_name).is_file():
        raise UsageError(f"{game.name} has no maps to choose from")
    if map_name and Path(map_name).is_file():
        map_name = str(Path(map_name).resolve())
    opts = read_options(game, options or {})
    master = master if master is not None else new_master_secret()
    dice = _turn_dice(master, 0)
    state = game.setup(map_name, ids, opts, dice)  # before anything is written: bad options fail cleanly
    config = {"name": name or Path(path).name, "game": game.name, "map": map_name, "players": players,
              "options": opts, "nmr_policy": "default", "deadline": None}
    campaign = create_folder(Path(path), config, master)
    _write_resolved(campaign, game, 0, state, [], dice)
    return campaign


def _turn_dice(master: bytes, turn: int, fixed: list[int] | None = None) -> Dice:
    return Dice(turn_seed(master, turn), secret_seed=turn_seed(master, turn, secret=True),
                fixed=fixed if fixed is not None else ())


# ---- orders --------------------------------------------------------------------------------
@dataclass
class Checked:
    """One order file after checking."""

    file: str
    player: str | None
    text: str
    orders: Any = None
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def read_order_file(file: str) -> str:
    try:
        raw = Path(file).read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{file}: no such order file") from None
    except OSError as exc:
        raise UsageError(f"{file}: cannot read ({exc.strerror})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def check_text(campaign: Campaign, game: Game, state: dict, text: str, file: str,
               player: str | None = None, *, turn: int | None = None) -> Checked:
    """Check one order text against ``state`` (the state before ``turn``, by default the current
    turn); collects every error of the file."""
    frame = read_frame(text, file)
    errors: list[OrderError] = list(frame.errors)
    who = frame.player
    if who is not None and player is not None and who != player:
        errors.append(OrderSyntaxError(f"the file says 'player: {who}' but --player says {player}",
                                       line=frame.header_lines["player"], col=1, file=file))
    who = who or player
    checked = Checked(file, who, text)
    head = frame.header_lines.get("player", 1)
    if who is None:
        errors.append(OrderSyntaxError("no 'player:' header: add a line 'player: ID' or give --player ID",
                                       line=1, col=1, file=file))
    elif who not in campaign.player_ids:
        errors.append(OrderSyntaxError(f"unknown player {who!r}{suggestion(who, campaign.player_ids)}",
                                       line=head, col=1, file=file))
        who = None
    turn = campaign.current_turn if turn is None else turn
    if frame.turn is not None and frame.turn != turn:
        errors.append(OrderSyntaxError(f"these orders are for turn {frame.turn}, but the campaign is at turn {turn}",
                                       line=frame.header_lines["turn"], col=1, file=file))
    if who is not None:
        due = game.due(state)
        if not due:
            errors.append(OrderError("the game is over: no more orders are taken", line=head, col=1, file=file))
        elif who not in due:
            waiting = ", ".join(due)
            errors.append(OrderError(f"{who} has no orders due on turn {turn} (waiting for {waiting})",
                                     line=head, col=1, file=file))
        else:
            try:
                checked.orders = game.parse(state, who, frame.lines)
                checked.notes = game.check_notes(checked.orders)
            except OrderErrors as exc:
                for e in exc.errors:
                    e.file = e.file or file
                errors.extend(exc.errors)
            except OrderError as exc:
                exc.file = exc.file or file
                errors.append(exc)
    errors.sort(key=lambda e: (e.line or 0, e.col or 0))
    checked.errors = [e.located() for e in errors]
    return checked


def check_files(campaign: Campaign, files: list[str], player: str | None = None) -> list[Checked]:
    game = games.get(campaign.game_name)
    state = campaign.state()
    if player is not None:
        campaign.player(player)
    return [check_text(campaign, game, state, read_order_file(f), f, player) for f in files]


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
            campaign.store_orders(turn, r.player, r.text, errors=r.errors or None)
            if as_gm:
                from .mail.receipts import receipt
                campaign.record_audit(turn, {
                    "at": clock.stamp(), "turn": turn,
                    "player": r.player, "file": r.file, "receipt": receipt(r.text), "by": "gm"})
        return results


# ---- resolving -----------------------------------------------------------------------------
@dataclass
class Resolved:
    turn: int
    nmr: list[str]
    events: list[dict]
    finished: bool
    files: list[str]


def _orders_for_turn(campaign: Campaign, game: Game, state: dict, turn: int, *,
                     force: bool) -> tuple[dict[str, Any], list[str]]:
    from .deadlines import read_policy, resolve_refusal
    due = game.due(state)
    stored = campaign.stored_orders(turn)
    missing = [p for p in due if p not in stored or campaign.forced_errors(turn, p)]
    if missing and not force:
        refusal = resolve_refusal(campaign)
        if refusal:
            raise InputError(refusal)
    bots = read_policy(campaign) == "bot"
    orders: dict[str, Any] = {}
    for p in due:
        if p in missing:
            orders[p] = game.bot_orders(state, p) if bots else game.default_orders(state, p)
            if orders[p] is None and game.sequential:
                raise InputError(f"turn {turn}: {p} sent no usable orders and {game.title} has no default "
                                 f"move; store orders with `gm submit {campaign.path} FILE --player {p}`")
            continue
        checked = check_text(campaign, game, state, stored[p], f"turns/{turn_dir_name(turn)}/orders/{p}.txt", p,
                             turn=turn)
        if not checked.ok:
            raise CampaignError(f"{checked.errors[0]} (stored orders no longer check; resubmit them)")
        orders[p] = checked.orders
    return orders, missing


def resolve(campaign: Campaign, *, force: bool = False, fail_after: str | None = None) -> Resolved:
    game = games.get(campaign.game_name)
    with campaign.lock():
        turn = campaign.current_turn
        state = campaign.state(turn - 1)
        if not game.due(state):
            raise InputError(f"the game is over (turn {turn - 1} was the last); nothing to resolve")
        orders, nmr = _orders_for_turn(campaign, game, state, turn, force=force)
        dice = _turn_dice(campaign.master_secret(), turn)
        new_state, events = game.resolve(copy.deepcopy(state), orders, dice)
        names = {p["id"]: p["name"] for p in campaign.players}
        events = [{"engine": True, "kind": "nmr", "player": p,
                   "text": f"{names[p]} sent no orders this turn (missed turn)."} for p in nmr] + list(events)
        files = _write_resolved(campaign, game, turn, new_state, events, dice, fail_after=fail_after)
        return Resolved(turn, nmr, events, game.finished(new_state), files)


def _write_resolved(campaign: Campaign, game: Game, turn: int, state: dict, events: list[dict], dice: Dice,
                    fail_after: str | None = None) -> list[str]:
    state = _plain(state)
    events = _plain(events)
    dice_log = {"turn": turn, "seed": dice.seed.hex(), "commitment": commitment(dice.seed),
                "rolls": [r for r in dice.log if not r.get("secret")]}
    secret_rolls = [r for r in dice.log if r.get("secret")]
    if secret_rolls:
        write_yaml(campaign.path / "secret" / "dice" / f"{turn_dir_name(turn)}.yaml",
                   {"turn": turn, "rolls": secret_rolls})
    reports = build_reports(campaign, game, turn, state, events, dice_log)
    campaign.write_turn(turn, state=state, dice=dice_log, events=events, reports=reports, fail_after=fail_after)
    return sorted(reports)


def _plain(data: Any) -> Any:
    """Data as it will read back from YAML (tuples become lists; proves it is plain)."""
    from .fileio import NotPlainData, plain
    try:
        return plain(data)
    except NotPlainData as exc:  # pragma: no cover - a game bug, not a user error
        raise CampaignError(f"the game produced state that is not plain data: {exc}") from None


# ---- reports and views ---------------------------------------------------------------------
def viewers(campaign: Campaign) -> list[str]:
    return campaign.player_ids + ["public", GM_VIEWER]


def _game_viewer(viewer: str) -> str | None:
    return None if viewer == GM_VIEWER else viewer


def image_file(game: Game, viewer: str) -> str:
    return f"{game.image_name}-{viewer}.png" if game.images_per_viewer else f"{game.image_name}.png"


def report_context(campaign: Campaign, game: Game, turn: int, state: dict, events: list[dict],
                   dice_log: dict, viewer: str, *, image: str | None) -> dict[str, Any]:
    """What a report template receives, for one viewer of one resolved turn of ``campaign``."""
    from .report import dice_block, template_context
    master = campaign.master_secret()
    finished = game.finished(state)
    next_seed = None if finished else turn_seed(master, turn + 1)
    seed = bytes.fromhex(dice_log["seed"]) if dice_log.get("seed") else None
    dice = dice_block(turn, seed, next_seed, dice_log.get("rolls", []))
    if finished:
        dice["secret_seeds"] = _secret_seeds(campaign, turn)
    players = public_players(campaign)
    return template_context(game, state, events, viewer, turn=turn, campaign=campaign.name, players=players,
                            dice=dice, image=image, receipts=_receipts(campaign, turn),
                            audit=campaign.audit_log(turn) if viewer == GM_VIEWER else [])


def _receipts(campaign: Campaign, turn: int) -> list[dict[str, str]]:
    """Each player's receipt for the orders this turn applied: anyone can check theirs."""
    if turn == 0:
        return []
    from .mail.receipts import turn_receipts
    names = {p["id"]: p["name"] for p in campaign.players}
    stored = {p: t for p, t in campaign.stored_orders(turn).items() if not campaign.forced_errors(turn, p)}
    return [{"player": p, "name": names.get(p, p), "receipt": r} for p, r in turn_receipts(stored).items()]


def _secret_seeds(campaign: Campaign, last: int) -> list[dict[str, Any]]:
    """At the game's end the hidden shuffles' seeds are revealed, for every turn that used them."""
    folder = campaign.path / "secret" / "dice"
    if not folder.is_dir():
        return []
    master = campaign.master_secret()
    turns = sorted(int(f.stem) for f in folder.glob("*.yaml") if f.stem.isdigit() and int(f.stem) <= last)
    return [{"turn": t, "seed": turn_seed(master, t, secret=True).hex()} for t in turns]


def build_reports(campaign: Campaign, game: Game, turn: int, state: dict, events: list[dict],
                  dice_log: dict) -> dict[str, str | bytes]:
    from .report import FORMATS, render_report  # jinja2 only when reports are written
    from .viewing import extra_pictures, picture, seen_by
    out: dict[str, str | bytes] = {}
    template_dirs = (campaign.path / "templates",)
    images: dict[str, bytes] = {}
    players = public_players(campaign)
    for viewer in viewers(campaign):
        seen = seen_by(game, state, events, viewer, players)
        name = image_file(game, viewer)
        if name not in images:
            data = picture(game, seen)
            if data is not None:
                images[name] = data
        image = name if name in images else None
        extra = []
        for stem, data in extra_pictures(game, seen).items():
            extra_name = f"{stem}.png" if not game.images_per_viewer else f"{stem}-{viewer}.png"
            images.setdefault(extra_name, data)
            extra.append(extra_name)
        context = report_context(campaign, game, turn, state, events, dice_log, viewer, image=image)
        context["extra_images"] = extra
        for fmt, ext in FORMATS.items():
            out[f"{viewer}.{ext}"] = render_report(context, fmt, game_name=game.name, template_dirs=template_dirs)
    out.update(images)
    return out


def public_players(campaign: Campaign) -> list[dict[str, Any]]:
    """What every reader may know of the players (reports, pictures): id, name and colour; never
    e-mail addresses or passwords."""
    return [{"id": p["id"], "name": p.get("name", p["id"]), "colour": p.get("colour", "")} for p in campaign.players]


def resolve_viewer(campaign: Campaign, player: str | None, public: bool) -> str:
    if player is not None and public:
        raise UsageError("give --player ID or --public, not both")
    if player is not None:
        campaign.player(player)
        return player
    return "public" if public else GM_VIEWER


def report_text(campaign: Campaign, turn: int | None, viewer: str, fmt: str, *,
                image_base: str | None = None, forum_folder: str | None = None) -> str:
    """A turn's report for ``viewer``. ``image_base``: images are referenced at that URL (a forum
    post); ``forum_folder``: forum-sized copies of the images are written there to upload."""
    from .report import render_report
    game = games.get(campaign.game_name)
    turn = campaign.check_turn(turn)
    state = campaign.state(turn)
    name = image_file(game, viewer)
    image = name if (campaign.turn_dir(turn) / "reports" / name).exists() else None
    context = report_context(campaign, game, turn, state, campaign.events(turn), campaign.dice_log(turn),
                             viewer, image=image)
    reports = campaign.turn_dir(turn) / "reports"
    context["extra_images"] = sorted(p.name for p in reports.glob("*.png")
                                     if p.name != name and not p.name.startswith(f"{game.image_name}-"))
    if forum_folder:
        from .forum import write_forum_images
        write_forum_images(reports, turn, [n for n in [image, *context["extra_images"]] if n], Path(forum_folder))
    if image_base:
        from .forum import image_url
        context["image"] = image_url(image_base, turn, image) if image else None
        context["extra_images"] = [image_url(image_base, turn, n) for n in context["extra_images"]]
    return render_report(context, fmt, game_name=game.name, template_dirs=(campaign.path / "templates",))


def show(campaign: Campaign, turn: int | None, viewer: str) -> dict[str, Any]:
    game = games.get(campaign.game_name)
    turn = campaign.check_turn(turn)
    state = campaign.state(turn)
    return {"game": game.name, "turn": turn, "phase": game.phase(state),
            "players": [{"id": p["id"], "name": p["name"]} for p in campaign.players],
            "state": json_safe(game.view(state, _game_viewer(viewer)))}


def json_safe(data: Any) -> Any:
    return json.loads(json.dumps(data, default=str))


def draw(campaign: Campaign, turn: int | None, viewer: str, out: str) -> None:
    game = games.get(campaign.game_name)
    suffix = Path(out).suffix.lower().lstrip(".")
    if suffix not in ("png", "svg"):
        raise UsageError(f"{out}: the image must end in .png or .svg")
    turn = campaign.check_turn(turn)
    state = campaign.state(turn)
    from .viewing import picture, seen_by
    data = picture(game, seen_by(game, state, campaign.events(turn), viewer, public_players(campaign)), suffix)
    if data is None:
        raise UsageError(f"{game.title} has no board image")
    from .fileio import atomic_write
    atomic_write(out, data)


def status(campaign: Campaign) -> dict[str, Any]:
    game = games.get(campaign.game_name)
    last = campaign.last_turn
    state = campaign.state(last)
    due = game.due(state)
    stored = campaign.stored_orders(last + 1)
    from .deadlines import deadline_status
    deadline = deadline_status(campaign).as_dict()
    return {"campaign": campaign.name, "game": game.name, "turn": last + 1, "last_resolved": last,
            "phase": game.phase(state), "finished": game.finished(state), "summary": game.summary(state),
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
