"""The GM's housekeeping without editing files: move a deadline, change or replace a player, undo
the last turn. Every change is one entry in CAMPAIGN/audit/log.yaml and, where it concerns
players, a notice by mail (written to CAMPAIGN/outbox/notices/, sent by the next `gm run --send`).

A replacement keeps the seat: the seat's id stays the id in the game's state, on its dice, in its
turn folders and order files (a game's state cannot be renamed without changing its dice labels);
the new player takes the seat's name and address, and their own id is kept as the seat's alias.
"""
from __future__ import annotations

import datetime as dt
import re
import shutil
from typing import Any

import yaml

from gm import games
from gm.automation.runstate import forget_delivery
from gm.delivery.mail.notices import clear_notices, notify, queue_report, queued_notices  # noqa: F401
from gm.delivery.site import configured_folder, update as update_site
from gm.store.auditlog import audit, read_audit  # noqa: F401 (read_audit: the audit log, for callers)
from gm.store.campaign import Campaign, parse_player_spec, set_config_value, turn_dir_name  # noqa: F401
from gm.store.errors import GMError, InputError, UsageError
from gm.store.fileio import atomic_write, dump_yaml, write_yaml
from gm.store.undo import mark_undone, read_turn_deadlines
from gm.store.viewing import hidden_dice_public
from gm.time import clock
from gm.time.deadlines import deadline_status, parse_period, read_deadline
from gm.time.schedule import campaign_zone, check_future, read_early, show_moment, write_deadline


# ---- campaign.yaml, the audit log, notices -------------------------------------------------
def read_when(campaign: Campaign, text: str) -> dt.datetime:
    """An ISO moment; without a zone it is read in the campaign's zone."""
    value = text.strip().replace(" ", "T", 1)
    try:
        moment = dt.datetime.fromisoformat(value[:-1] + "+00:00" if value[-1:] in "Zz" else value)
    except ValueError:
        raise UsageError(f"cannot read the deadline {text!r}; write a moment such as 2026-12-05T18:00+01:00 "
                         "(without a zone it is read in the campaign's zone)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=campaign_zone(campaign))
    return moment


def _tell_deadline(campaign: Campaign, text: str) -> None:
    """Everyone is told; the notice names as due only the players whose orders are still missing."""
    info = deadline_status(campaign)
    missing = ", ".join(_names(campaign, info.missing)) or "nobody: every order is in"
    notify(campaign, campaign.player_ids, f"Turn {campaign.current_turn}: the deadline has changed",
           f"{text}\n\nOrders still due from: {missing}.\n", kind="deadline")


def _names(campaign: Campaign, ids: list[str]) -> list[str]:
    return [str(campaign.player(p).get("name") or p) for p in ids]


def change_deadline(campaign: Campaign, action: str, value: str | None = None) -> dt.datetime | None:
    """`gm deadline DIR set WHEN | extend DURATION | clear`; the new deadline (None when cleared)."""
    with campaign.lock():
        if not games.get(campaign.game_name).due(campaign.state()):
            raise InputError("the game is over: there is no turn to set a deadline for")
        old = read_deadline(campaign)
        zone = campaign_zone(campaign)
        if action == "set":
            new = check_future(read_when(campaign, value or ""), zone=zone)
        elif action == "extend":
            if old is None:
                raise InputError("there is no deadline to extend; set one with `gm deadline DIR set WHEN`")
            if str(value or "").strip().startswith("-"):
                raise UsageError("extend takes a period to add, like 1d or 12h; to shorten, use set")
            period = parse_period(value, "extend")
            if not period:
                raise UsageError("extend by a period longer than 0, like 1d or 12h")
            new = check_future(old + period, zone=zone)
        elif action == "clear":
            new = None
        else:  # click checks the choice; kept for callers from Python
            raise UsageError(f"gm deadline takes set, extend or clear, not {action!r}")
        write_deadline(campaign, new)
        audit(campaign, f"deadline {action}", at=clock.stamp(), turn=campaign.current_turn,
              old=old.isoformat() if old else None, new=new.isoformat() if new else None)
        turn = campaign.current_turn
        if new is None:
            _tell_deadline(campaign, f"The deadline for turn {turn} has been removed. The GM will announce "
                                     "when the turn is resolved.")
        else:
            _tell_deadline(campaign, f"The deadline for turn {turn} is now {show_moment(new, zone)}."
                           + (f" (It was {show_moment(old, zone)}.)" if old else ""))
        return new


# ---- gm player -------------------------------------------------------------------------------
def _write_players(campaign: Campaign, players: list[dict[str, Any]]) -> None:
    set_config_value(campaign, "players", players)


def _check_email(email: str) -> str:
    email = email.strip()
    if email and not re.fullmatch(r"[^@\s<>,]+@[^@\s<>,]+\.[^@\s<>,]+", email):
        raise UsageError(f"{email!r} is not an e-mail address like ann@example.org")
    return email


def _address_free(campaign: Campaign, email: str, seat: str) -> None:
    """Mail is matched to players by address: two seats may not share one."""
    for p in campaign.players:
        if p["id"] != seat and email and str(p.get("email") or "").strip().lower() == email.lower():
            raise InputError(f"the address {email} is already {p['id']}'s; each player needs their own")


def ids_in_use(campaign: Campaign) -> dict[str, str]:
    """Every id and alias a player answers to -> the seat it names."""
    out = {}
    for p in campaign.players:
        out[p["id"]] = p["id"]
        for alias in p.get("aliases") or []:
            out[str(alias)] = p["id"]
    return out


def seat_of(campaign: Campaign, pid: str) -> str:
    """The seat an id or alias names (orders headed with a replacement's own id)."""
    return ids_in_use(campaign).get(pid, pid)


def edit_player(campaign: Campaign, pid: str, *, name: str | None = None, email: str | None = None,
                replace: str | None = None, drop: str | None = None) -> list[str]:
    """`gm player DIR ID ...`: what changed, one line each. Checks everything before changing anything."""
    if not any(v is not None for v in (name, email, replace, drop)):
        raise UsageError("nothing to change: give --name, --email, --replace or --drop")
    if replace is not None and (name is not None or email is not None):
        raise UsageError("--replace carries the new player's name and address (NEWID:NAME:EMAIL); "
                         "leave out --name and --email")
    if drop is not None and drop not in ("bot", "default"):
        raise UsageError(f"--drop is bot or default, not {drop!r}")
    if name is not None and not name.strip():
        raise UsageError("--name cannot be empty")
    new_email = _check_email(email) if email is not None else None
    with campaign.lock():
        pid = seat_of(campaign, pid)
        campaign.player(pid)  # unknown id: one line with "did you mean"
        players = [dict(p) for p in campaign.players]
        seat = next(p for p in players if p["id"] == pid)
        if new_email:
            _address_free(campaign, new_email, pid)
        done: list[str] = []
        if replace is not None:
            done += _replace(campaign, players, seat, replace)
        if name is not None:
            done.append(f"{pid}: name {seat.get('name')!r} -> {name.strip()!r}")
            seat["name"] = name.strip()
        if new_email is not None:
            done.append(f"{pid}: e-mail changed")
            seat["email"] = new_email
        if drop is not None:
            seat["dropped"] = drop
            done.append(f"{pid}: dropped; from turn {campaign.current_turn} the seat plays by {drop} orders")
        _write_players(campaign, players)
        if replace is not None:
            _move_password(campaign, pid)
        audit(campaign, "player", at=clock.stamp(), player=pid, changes=done, turn=campaign.current_turn)
        _tell_player_change(campaign, pid, replace=replace is not None, email=email is not None, drop=drop)
        return done


def _replace(campaign: Campaign, players: list[dict[str, Any]], seat: dict[str, Any], spec: str) -> list[str]:
    new = parse_player_spec(spec)
    if new["id"] in ids_in_use(campaign) and new["id"] != seat["id"]:
        raise InputError(f"--replace {new['id']}: the id {new['id']!r} is already in use by "
                         f"{ids_in_use(campaign)[new['id']]}; choose another")
    _address_free(campaign, _check_email(new["email"]), seat["id"])
    history = list(seat.get("replaced") or [])
    history.append({"name": seat.get("name"), "turn": campaign.current_turn, "at": clock.stamp()})
    seat["replaced"] = history
    seat["previous_email"] = seat.get("email", "")
    seat["name"], seat["email"] = new["name"], new["email"]
    seat.pop("dropped", None)
    if new["id"] != seat["id"]:
        seat["aliases"] = sorted(set(seat.get("aliases") or []) | {new["id"]})
    return [f"{seat['id']}: replaced by {new['name']} ({new['id']}) from turn {campaign.current_turn}"]


def _move_password(campaign: Campaign, pid: str) -> None:
    """The old player's password hash goes into secret/replaced/ (the new player gets their own)."""
    path = campaign.path / "secret" / "passwords.yaml"
    if not path.exists():
        return
    hashes = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if pid in hashes:
        keep = campaign.path / "secret" / "replaced" / f"{pid}-{clock.now():%Y%m%dT%H%M%S}.yaml"
        write_yaml(keep, {pid: hashes.pop(pid)})
        atomic_write(path, dump_yaml(hashes))
        path.chmod(0o600)


def _tell_player_change(campaign: Campaign, pid: str, *, replace: bool, email: bool, drop: str | None) -> None:
    info = campaign.player(pid)
    name = info.get("name") or pid
    others = [p for p in campaign.player_ids if p != pid]
    if replace:
        old = (info.get("replaced") or [{}])[-1].get("name") or pid
        notify(campaign, others, f"{old} is replaced by {name}",
               f"{name} takes over {old}'s position from turn {campaign.current_turn}.\n", kind="replace")
        aliases = info.get("aliases") or []
        notify(campaign, [pid], f"Welcome to {campaign.name}",
               f"Dear {name},\n\nYou take over the position of {old} from turn {campaign.current_turn}.\n"
               f"Your orders begin with 'player: {pid}'" + (f" (or 'player: {aliases[-1]}')" if aliases else "")
               + f" and 'turn: {campaign.current_turn}'.\nThe GM sends you the latest report.\n", kind="welcome")
        if "@" in str(info.get("previous_email") or ""):  # to the player who left, by their own name
            notify(campaign, [pid], f"You have left {campaign.name}",
                   f"Dear {old},\n\nYour position has been handed to {name} from turn {campaign.current_turn}. "
                   "Thank you for playing.\n", kind="farewell", address={pid: str(info["previous_email"])},
                   names={pid: str(old)})
        if campaign.last_turn >= 0:  # the latest report, with its order form, to the new address
            queue_report(campaign, pid, campaign.last_turn, why="seat")
    if email and not replace:
        notify(campaign, [pid], "Your address for this campaign",
               "From now on the GM writes to you at this address.\n", kind="address")
    if drop:
        notify(campaign, others, f"{name} has left the game",
               f"From turn {campaign.current_turn} {name}'s position plays by the game's {drop} orders.\n",
               kind="drop")


# ---- gm rollback -----------------------------------------------------------------------------
def seeds_made_public(campaign: Campaign, turn: int) -> list[int]:
    """The turns whose secret seeds the reports of ``turn`` revealed: every turn with hidden rolls
    up to it when ``turn`` ended the game (the one door, ``hidden_dice_public``, says when), else none."""
    game = games.get(campaign.game_name)
    if not hidden_dice_public(game.finished(campaign.state(turn))):
        return []
    return [t for t in campaign.secret_dice_turns() if t <= turn]


def _turn_list(turns: list[int]) -> str:
    if len(turns) == 1:
        return f"turn {turns[0]}"
    if turns == list(range(turns[0], turns[-1] + 1)):
        return f"turns {turns[0]} to {turns[-1]}"
    return "turns " + ", ".join(map(str, turns))


def _undo_deadline(campaign: Campaign, turn: int) -> dt.datetime | None:
    """The deadline of a turn just undone: the one it had when it was resolved, while that is still
    ahead (it was resolved early); else the deadline in force (the next slot). A change is audited."""
    current = read_deadline(campaign)
    recorded = read_turn_deadlines(campaign.path, turn).get("deadline")
    before = dt.datetime.fromisoformat(str(recorded)) if recorded else None
    if before is None or before <= clock.now() or before == current:
        return current
    write_deadline(campaign, before)
    audit(campaign, "deadline undo", at=clock.stamp(), turn=turn, old=current.isoformat() if current else None,
          new=before.isoformat(), why=f"turn {turn} was undone: it gets back the deadline it had")
    return before


def rollback(campaign: Campaign, *, force: bool = False) -> dict[str, Any]:
    """Undo the last resolved turn T. Its state, dice log, events, reports and report messages
    move into audit/rollback-turn-T-<stamp>/ (secret rolls into secret/rollback/...), never
    deleted; its stored orders and the mail stay. Orders already stored for turn T+1 were written
    against the undone state: they move into the same folder. T's seed derives from the master
    secret and T, so resolving T again rolls the same dice.
    A final turn whose reports revealed the secret seeds is not undone without ``force``: the turn
    would be played again by players who know every hidden roll. Forced, the audit entry says
    which seeds were public (``seeds_public``), and the website and record say so too."""
    with campaign.lock():
        resolved = campaign.resolved_turns()
        if len(resolved) < 2:
            raise InputError("there is no resolved turn to roll back (only the set-up, turn 0)")
        turn = resolved[-1]
        public = seeds_made_public(campaign, turn)
        if public and not force:
            raise InputError(f"turn {turn} ended the game and its reports revealed the secret seeds of "
                             f"{_turn_list(public)}: played again, players would know every hidden roll; "
                             "nothing was changed (give --force to roll back anyway: the audit log and the "
                             "website will say the seeds were public)")
        stamp = clock.now().astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
        folder = campaign.path / "audit" / f"rollback-turn-{turn_dir_name(turn)}-{stamp}"
        while folder.exists():  # the same turn undone twice within a second
            folder = folder.with_name(folder.name + "-again")
        folder.mkdir(parents=True)
        source = campaign.turn_dir(turn)
        moved = []
        # state.yaml first: from this moment the turn counts as unresolved, whatever happens next
        for name in ("state.yaml", "dice.yaml", "events.yaml", "reports"):
            if (source / name).exists():
                shutil.move(str(source / name), str(folder / name))
                moved.append(f"turns/{turn_dir_name(turn)}/{name}")
        extra = [(campaign.path / "outbox" / f"turn-{turn_dir_name(turn)}", folder / "outbox"),
                 (campaign.turn_dir(turn + 1), folder / f"next-turn-{turn_dir_name(turn + 1)}"),
                 (campaign.path / "secret" / "dice" / f"{turn_dir_name(turn)}.yaml",
                  campaign.path / "secret" / "rollback" / folder.name / "secret-dice.yaml")]
        for src, dst in extra:
            if src.exists():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(src), str(dst))
                moved.append(str(src.relative_to(campaign.path)))
        extra_details = {"seeds_public": public, "forced": True} if public else {}
        deadline = _undo_deadline(campaign, turn)
        stored = campaign.stored_orders(turn)
        due = games.get(campaign.game_name).due(campaign.state())
        stale = [p for p in due if p in stored and not campaign.forced_errors(turn, p)]
        entry = audit(campaign, "rollback", at=clock.stamp(), turn=turn,
                      moved_to=str(folder.relative_to(campaign.path)), moved=moved,
                      deadline=deadline.isoformat() if deadline else None, waiting_for=stale, **extra_details)
        anchor = read_turn_deadlines(campaign.path, turn).get("deadline")
        mark_undone(campaign.turn_dir(turn), at=entry["at"], moved_to=entry["moved_to"], anchor=anchor,
                    deadline=deadline.isoformat() if deadline else None, stale=stale)
        forget_delivery(campaign, turn)
        when = (f"The deadline is {show_moment(deadline, campaign_zone(campaign))}." if deadline
                else "The GM will announce the new deadline.")
        seeds_note = (f"The secret seeds its reports revealed ({_turn_list(public)}) stay public: every hidden roll\n"
                      "of those turns is known to all players, and the website says so.\n" if public else "")
        again = (" The turn is resolved again at the deadline, or sooner once every player has sent\n"
                 "orders again (send the same orders to confirm them)." if read_early(campaign) and deadline
                 else " The turn is resolved again at the deadline." if deadline else "")
        notify(campaign, campaign.player_ids, f"Turn {turn} is undone and will be resolved again",
               f"The GM has undone turn {turn}: its results and report no longer count.\n"
               f"Your orders for turn {turn} stand; you may send new ones. {when}{again}\n"
               f"Turn {turn} is resolved again with the same dice seed (its commitment does not change), so\n"
               "the dice cannot come out differently; only different orders can change the result.\n"
               f"{seeds_note}"
               f"Orders sent for turn {turn + 1} no longer count: send them again after the new report.\n",
               kind="rollback")
        return dict(entry, site=_site_after_rollback(campaign))


def _site_after_rollback(campaign: Campaign) -> str | None:
    """With `site: FOLDER` in campaign.yaml, the website loses the undone turn at once (and shows
    a forced rollback's notice); a site that cannot be written is said, the rollback stands."""
    try:
        folder = configured_folder(campaign)
        if folder is None:
            return None
        update_site(Campaign(campaign.path), folder)
    except GMError as exc:
        return f"error: the website was not updated: {exc}"
    return f"the website in {folder} was updated"

