"""What the public record adds so that players can check the GM (docs/site.md):

- each turn's orders: who sent orders and their receipt (SHA-256 of the orders in canonical form,
  ``gm.store.receipts``), who sent none and what replaced them (the missed-turn policy applied);
- once the game is over, the hidden rolls (shuffles made with ``secret=True``): each turn's secret
  seed, the commitment published with the turn, and every secret roll, for the dice page to check.

Why reading ``secret/dice/`` is safe once the game is over, and only then: the engine itself
reveals every secret seed in the reports of the final turn, to every reader (``secret_seeds`` in
``gm.turn.publish.report_context``); every secret roll is a function of that seed, its label, its k
and its sides, so the rolls add nothing the seed does not already tell, and with the game over no
play depends on what they hid. Only those four fields of each roll are taken; nothing else in
``secret/`` (the master secret, passwords) is read here but through ``Campaign.master_secret``
to derive the seeds the final reports print. While the game goes on nothing of them is read:
the public record carries only each turn's commitment and count of secret rolls.
"""
from __future__ import annotations

from typing import Any

from gm.store.campaign import Campaign
from gm.store.dice import ROLL_KEYS, turn_seed
from gm.store.errors import CampaignError
from gm.store.receipts import turn_receipts

SENT, MISSING = "sent", "missing"


def turn_orders(campaign: Campaign, turn: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every player the turn waited for, in seat order: ``{player, status: "sent", receipt}`` for
    orders applied, ``{player, status: "missing", receipt: None, policy}`` for a player whose
    orders were missing (or did not check) and were replaced by the policy applied ("default":
    the game's default orders, "bot": the bot's; None for a turn resolved before gm recorded it).
    Who was missing comes from the turn's settings.yaml, as `gm replay` reads it."""
    if turn == 0:
        return []
    settings = campaign.settings(turn) or {}
    if "missing" in settings:
        missing = [str(p) for p in settings.get("missing") or []]
        policy, seats = settings.get("applied_policy"), settings.get("seat_policies") or {}
    else:  # an older turn: the engine's missed-turn events say who was missing
        missing = [str(e["player"]) for e in events if e.get("kind") == "nmr" and e.get("engine") and e.get("player")]
        policy, seats = None, {}
    stored = {p: text for p, text in campaign.stored_orders(turn).items()
              if p not in missing and not campaign.forced_errors(turn, p)}
    rows = {p: {"player": p, "status": SENT, "receipt": r} for p, r in turn_receipts(stored).items()}
    for p in missing:
        rows[p] = {"player": p, "status": MISSING, "receipt": None, "policy": seats.get(p, policy)}
    seats_order = {p: n for n, p in enumerate(campaign.player_ids)}
    return [rows[p] for p in sorted(rows, key=lambda p: (seats_order.get(p, len(seats_order)), p))]


def secret_announced(log: dict[str, Any]) -> dict[str, Any]:
    """What a turn's public dice log says of its secret rolls during play: how many, and the
    commitment to their seed (empty when the turn made none)."""
    out: dict[str, Any] = {}
    if log.get("secret_rolls") or log.get("secret_commitment"):
        out["secret_rolls"] = int(log.get("secret_rolls") or 0)
        out["secret_commitment"] = log.get("secret_commitment")
    return out


def revealed_secret_dice(campaign: Campaign, entries: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Once the game is over (the last turn's entry is ``finished``): every turn's secret seed,
    the commitment published with the turn, how many rolls it announced, and the rolls. None while
    the game goes on: then nothing of them is read."""
    if not entries or not entries[-1].get("finished"):
        return None
    resolved = {e["turn"] for e in entries}
    announced = {e["turn"]: e["dice"] for e in entries if "secret_commitment" in e["dice"]}
    turns = sorted(set(announced) | {t for t in campaign.secret_dice_turns() if t in resolved})
    seeds = _revealed_seeds(campaign, entries[-1]["turn"], turns)
    published = {int(e["turn"]): e.get("rolls") or [] for e in campaign.dice_log(entries[-1]["turn"]).get(
        "revealed_secret_rolls") or [] if isinstance(e, dict) and "turn" in e}
    out = []
    for t in turns:
        # the final dice log publishes them (gm.turn.publish.reveal_secret_dice); a game finished before
        # it did has them only in secret/, read for the reasons above
        rolls = published[t] if t in published else campaign.secret_rolls(t) or []
        out.append({"turn": t, "seed": seeds.get(t), "commitment": announced.get(t, {}).get("secret_commitment"),
                    "announced": int(announced.get(t, {}).get("secret_rolls") or 0),
                    "rolls": [{k: r.get(k) for k in ROLL_KEYS} for r in rolls]})
    return out


def _revealed_seeds(campaign: Campaign, last: int, turns: list[int]) -> dict[int, str]:
    """The secret seeds as revealed at the end: from the final turn's public dice log when it lists
    them (``secret_seeds: [{turn, seed}]``), else derived as the final reports print them."""
    listed = campaign.dice_log(last).get("secret_seeds")
    if isinstance(listed, list):
        return {int(s["turn"]): str(s.get("seed") or "") for s in listed if isinstance(s, dict) and "turn" in s}
    try:
        master = campaign.master_secret()
    except CampaignError:
        return {}  # a copy without secret/: the seeds cannot be told, and the dice page says so
    return {t: turn_seed(master, t, secret=True).hex() for t in turns}
