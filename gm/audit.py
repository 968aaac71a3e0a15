"""Checking a campaign after the fact: re-resolving every turn (`gm replay`) and recomputing
every roll (`gm dice verify`)."""
from __future__ import annotations

import copy
import json
from typing import Any

from . import games
from .campaign import Campaign, turn_dir_name
from .dice import commitment, turn_seed, verify_log
from .engine import _orders_for_turn, _plain, _turn_dice
from .fileio import load_yaml


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}{key}: only in {'stored' if key in a else 'replayed'} state"
            diff = _first_difference(a[key], b[key], f"{path}{key}.")
            if diff:
                return diff
        return None
    if a != b:
        return f"{path.rstrip('.') or 'state'}: stored {json.dumps(a, default=str)[:80]}, " \
               f"replayed {json.dumps(b, default=str)[:80]}"
    return None


def replay(campaign: Campaign) -> list[str]:
    """Re-resolve every turn from the stored orders and seeds; the differences found."""
    game = games.get(campaign.game_name)
    master = campaign.master_secret()
    problems = []
    dice = _turn_dice(master, 0)
    state0 = _plain(game.setup(campaign.map_name, campaign.player_ids, campaign.options, dice))
    diff = _first_difference(campaign.state(0), state0)
    if diff:
        problems.append(f"turn 0 (set-up): {diff}")
    for turn in campaign.resolved_turns()[1:]:
        before = campaign.state(turn - 1)
        orders, _ = _orders_for_turn(campaign, game, before, turn, force=True)
        dice = _turn_dice(master, turn)
        after, _events = game.resolve(copy.deepcopy(before), orders, dice)
        diff = _first_difference(campaign.state(turn), _plain(after))
        if diff:
            problems.append(f"turn {turn}: {diff}")
        logged = campaign.dice_log(turn).get("rolls", [])
        if logged != [r for r in dice.log if not r.get("secret")]:
            problems.append(f"turn {turn}: the dice rolled differ from turns/{turn_dir_name(turn)}/dice.yaml")
    return problems


def verify_dice(campaign: Campaign) -> tuple[int, list[str]]:
    """(rolls checked, problems): every logged roll recomputed from its turn's seed."""
    master = campaign.master_secret()
    checked, problems = 0, []
    for turn in campaign.resolved_turns():
        log = campaign.dice_log(turn)
        where = f"turns/{turn_dir_name(turn)}/dice.yaml"
        try:
            seed = bytes.fromhex(str(log.get("seed", "")))
        except ValueError:
            problems.append(f"{where}: the seed is not hex")
            continue
        if seed != turn_seed(master, turn):
            problems.append(f"{where}: the seed is not the one the master secret gives for turn {turn}")
        if log.get("commitment") and log["commitment"] != commitment(seed):
            problems.append(f"{where}: the commitment does not match the seed")
        rolls = log.get("rolls") or []
        problems += [f"{where}: {p}" for p in verify_log(seed, rolls)]
        checked += len(rolls)
        secret_path = campaign.path / "secret" / "dice" / f"{turn_dir_name(turn)}.yaml"
        if secret_path.exists():
            secret_rolls = (load_yaml(secret_path.read_text()) or {}).get("rolls", [])
            problems += [f"{secret_path.relative_to(campaign.path)}: {p}"
                         for p in verify_log(seed, secret_rolls, secret_seed=turn_seed(master, turn, secret=True))]
            checked += len(secret_rolls)
    return checked, problems
