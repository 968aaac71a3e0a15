"""Checking a campaign after the fact: re-resolving every turn through the turn runner with the
settings that were in force (`gm replay`), and recomputing every roll (`gm dice verify`).
Each turn is replayed from the stored state before it, so both cost in proportion to the turns."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from gm import games
from gm.turn import runner
from gm.store.campaign import Campaign, turn_dir_name
from gm.store.dice import commitment, turn_seed, verify_digest, verify_log
from gm.turn.engine import nmr_event, stored_orders, turn_settings
from gm.store.errors import GMError
from gm.store.viewing import hidden_rolls_seen, split_rolls


def first_difference(stored: Any, replayed: Any, path: str = "") -> str | None:
    """Where two plain values first differ, with both values in full."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in list(stored) + [k for k in replayed if k not in stored]:
            if key not in stored or key not in replayed:
                return f"{path}{key}: only in the {'stored' if key in stored else 'replayed'} data"
            diff = first_difference(stored[key], replayed[key], f"{path}{key}.")
            if diff:
                return diff
        return None
    if isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        for n, (a, b) in enumerate(zip(stored, replayed)):
            diff = first_difference(a, b, f"{path.rstrip('.')}[{n}].")
            if diff:
                return diff
        return None
    if stored != replayed or type(stored) is not type(replayed):
        return (f"{path.rstrip('.') or 'value'}: stored {json.dumps(stored, default=str)}, "
                f"replayed {json.dumps(replayed, default=str)}")
    return None


def replay(campaign: Campaign) -> list[str]:
    """Re-resolve every turn from the stored orders and seeds; the differences found."""
    game = games.get(campaign.game_name)
    master = campaign.master_secret()
    turns = campaign.resolved_turns()
    problems = _gaps(turns)
    settings = campaign.settings(0) or turn_settings(campaign, game)
    try:
        state0 = runner.start(game, campaign.map_name, campaign.player_ids, settings["options"],
                              runner.turn_dice(master, 0), settings.get("names"))
    except GMError as exc:
        return problems + [f"turn 0 (set-up): cannot set up again: {exc}"]
    _compare(problems, "turn 0 (set-up): state", campaign.state(0), state0)
    problems += _report_digests(campaign, 0)
    for turn in turns[1:]:
        try:
            problems += _replay_turn(campaign, game, master, turn)
        except GMError as exc:
            problems.append(f"turn {turn}: cannot be replayed: {exc}")
        except Exception as exc:  # a hand-edited state can break a game's assumptions: a drift, not a crash
            problems.append(f"turn {turn}: cannot be replayed from the stored state of turn {turn - 1} "
                            f"({type(exc).__name__}: {exc})")
    return problems


def _gaps(turns: list[int]) -> list[str]:
    return [f"turn {t}: missing (turns/{turn_dir_name(t)}/state.yaml is gone)"
            for t in range(turns[-1] + 1 if turns else 0) if t not in turns]


def _replay_turn(campaign: Campaign, game, master: bytes, turn: int) -> list[str]:
    problems: list[str] = []
    before = campaign.state(turn - 1)
    recorded = campaign.settings(turn) or {}
    policy = recorded.get("applied_policy") or ("bot" if turn_settings(campaign, game)["nmr_policy"] == "bot"
                                                else "default")
    orders = stored_orders(campaign, game, before, turn)
    if "missing" in recorded:
        # who was missing is part of the record: stored orders added later do not change the past
        orders = {p: o for p, o in orders.items() if p not in recorded["missing"]}
    orders, missing = runner.fill_missing(game, before, orders, policy, recorded.get("seat_policies"))
    dice = runner.turn_dice(master, turn)
    after, events = runner.step(game, before, orders, dice)
    events = [nmr_event(p) for p in missing] + events
    _compare(problems, f"turn {turn}: state", campaign.state(turn), after)
    _compare(problems, f"turn {turn}: events", campaign.events(turn), events)
    logged = campaign.dice_log(turn).get("rolls", [])
    rolled, secret = split_rolls(dice.log)
    if logged != rolled:
        problems.append(f"turn {turn}: the dice rolled differ from turns/{turn_dir_name(turn)}/dice.yaml")
    if secret and campaign.secret_rolls(turn) != secret:
        problems.append(f"turn {turn}: the secret rolls differ from secret/dice/{turn_dir_name(turn)}.yaml")
    return problems + _report_digests(campaign, turn)


def _compare(problems: list[str], what: str, stored: Any, replayed: Any) -> None:
    diff = first_difference(stored, replayed)
    if diff:
        problems.append(f"{what}: {diff}")


def _report_digests(campaign: Campaign, turn: int) -> list[str]:
    """Reports must be as written: each file against the digest recorded when the turn was resolved."""
    folder = campaign.turn_dir(turn) / "reports"
    listing = folder / "digests.yaml"
    if not listing.exists():
        return []  # a turn resolved before digests were recorded
    problems = []
    for line in listing.read_text(encoding="utf-8").splitlines():
        name, _, digest = line.partition(": ")
        path = folder / name
        where = f"turns/{turn_dir_name(turn)}/reports/{name}"
        if not path.is_file():
            problems.append(f"turn {turn}: {where} is missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != digest.strip():
            problems.append(f"turn {turn}: {where} was changed after the turn was resolved")
    return problems


def _verify_revealed(campaign: Campaign, master: bytes, where: str, log: dict) -> list[str]:
    """The final turn's log reveals the hidden rolls: each seed must be the master's and each turn's
    rolls those kept in secret/ (a published roll changed after the fact is caught here)."""
    problems = []
    for entry in log.get("secret_seeds") or []:
        t = int(entry.get("turn", -1))
        if entry.get("seed") != turn_seed(master, t, secret=True).hex():
            problems.append(f"{where}: the revealed secret seed of turn {t} is not the master secret's")
    for entry in log.get("revealed_secret_rolls") or []:
        t = int(entry.get("turn", -1))
        if hidden_rolls_seen(True, entry.get("rolls")) != hidden_rolls_seen(True, campaign.secret_rolls(t)):
            problems.append(f"{where}: the revealed hidden rolls of turn {t} differ from "
                            f"secret/dice/{turn_dir_name(t)}.yaml")
    return problems


def verify_dice(campaign: Campaign) -> tuple[int, list[str]]:
    """(rolls checked, problems): every logged roll recomputed from its turn's seed and every roll
    list against the digest published with it; every turn up to the last must be there, and a
    turn that made secret rolls must still have their log. A turn without a digest passes only in
    a campaign none of whose turns has one (resolved before gm published them)."""
    master = campaign.master_secret()
    turns = campaign.resolved_turns()
    checked, problems = 0, _gaps(turns)
    digests = any(_has_digest(campaign, t) for t in turns)
    for turn in turns:
        n, found = _verify_turn(campaign, master, turn, digests)
        checked += n
        problems += found
    return checked, problems


def _has_digest(campaign: Campaign, turn: int) -> bool:
    try:
        return bool(campaign.dice_log(turn).get("rolls_digest"))
    except (GMError, AttributeError):
        return False


def _check_digest(seed: bytes, rolls: list, log: dict, key: str, where: str, what: str, required: bool) -> list[str]:
    if log.get(key):
        return [f"{where}: {p}" for p in verify_digest(seed, rolls, log[key], what)]
    return [f"{where}: no digest of its {what} ({key}), though the campaign's other turns have one"] if required else []


def _verify_turn(campaign: Campaign, master: bytes, turn: int, digests: bool = False) -> tuple[int, list[str]]:
    where = f"turns/{turn_dir_name(turn)}/dice.yaml"
    try:
        log = campaign.dice_log(turn)
        seed = bytes.fromhex(str(log.get("seed", "")))
    except GMError as exc:
        return 0, [str(exc)]
    except (ValueError, AttributeError):
        return 0, [f"{where}: the seed is missing or not hex"]
    problems = []
    if seed != turn_seed(master, turn):
        problems.append(f"{where}: the seed is not the one the master secret gives for turn {turn}")
    if log.get("commitment") and log["commitment"] != commitment(seed):
        problems.append(f"{where}: the commitment does not match the seed")
    rolls = log.get("rolls") or []
    try:
        problems += [f"{where}: {p}" for p in verify_log(seed, rolls)]
    except (KeyError, TypeError, ValueError) as exc:
        problems.append(f"{where}: a roll is malformed ({type(exc).__name__}: {exc})")
    checked = len(rolls)
    problems += _check_digest(seed, rolls, log, "rolls_digest", where, "rolls", digests)
    problems += _verify_revealed(campaign, master, where, log)
    secret_rolls = campaign.secret_rolls(turn)
    secret_where = f"secret/dice/{turn_dir_name(turn)}.yaml"
    expected = int(log.get("secret_rolls") or 0)
    if secret_rolls is None:
        if expected:
            problems.append(f"{secret_where}: missing, but {where} records {expected} secret roll(s)")
        return checked, problems
    miscounted = bool(expected) and len(secret_rolls) != expected
    if miscounted:
        problems.append(f"{secret_where}: {len(secret_rolls)} roll(s), but {where} records {expected}")
    secret_seed = turn_seed(master, turn, secret=True)
    if log.get("secret_commitment") and log["secret_commitment"] != commitment(secret_seed):
        problems.append(f"{where}: the secret commitment does not match the master secret")
    problems += [f"{secret_where}: {p}" for p in verify_log(seed, secret_rolls, secret_seed=secret_seed)]
    if not miscounted:  # a roll missing or added is told once, above
        problems += _check_digest(secret_seed, secret_rolls, log, "secret_rolls_digest", secret_where, "hidden rolls",
                                  digests and bool(expected))
    return checked + len(secret_rolls), problems
