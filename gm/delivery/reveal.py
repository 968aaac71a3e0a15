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
the public record carries only each turn's count, commitment and digest of secret rolls. Whether
they are shown is the one door's to say (``gm.store.viewing.hidden_dice_public``).
"""
from __future__ import annotations

from typing import Any

from gm.store.campaign import Campaign
from gm.store.dice import turn_seed
from gm.store.errors import CampaignError
from gm.store.receipts import turn_receipts
from gm.store.viewing import PUBLIC, hidden_dice_public, hidden_rolls_seen, visible_dice

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


def revealed_secret_dice(campaign: Campaign, entries: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Once the game is over (the last turn's entry is ``finished``): every turn's secret seed,
    the commitment and digest published with the turn, how many rolls it announced, and the rolls.
    None while the game goes on: then nothing of them is read (the one door,
    ``gm.store.viewing.hidden_rolls_seen``, decides)."""
    finished = bool(entries) and bool(entries[-1].get("finished"))
    if not hidden_dice_public(finished):
        return None
    resolved = {e["turn"] for e in entries}
    announced = {e["turn"]: e["dice"] for e in entries if "secret_commitment" in e["dice"]}
    turns = sorted(set(announced) | {t for t in campaign.secret_dice_turns() if t in resolved})
    seeds = _revealed_seeds(campaign, entries[-1]["turn"], turns)
    final = visible_dice(campaign.dice_log(entries[-1]["turn"]), PUBLIC)
    published = {e["turn"]: e["rolls"] for e in final.get("revealed_secret_rolls") or []}
    out = []
    for t in turns:
        # the final dice log publishes them (gm.turn.publish.reveal_secret_dice); a game finished before
        # it did has them only in secret/, read for the reasons above
        rolls = published[t] if t in published else hidden_rolls_seen(finished, campaign.secret_rolls(t))
        said = announced.get(t, {})
        out.append({"turn": t, "seed": seeds.get(t), "commitment": said.get("secret_commitment"),
                    "announced": int(said.get("secret_rolls") or 0), "rolls_digest": said.get("secret_rolls_digest"),
                    "rolls": rolls})
    return out


def _revealed_seeds(campaign: Campaign, last: int, turns: list[int]) -> dict[int, str]:
    """The secret seeds as revealed at the end: from the final turn's public dice log when it lists
    them (``secret_seeds: [{turn, seed}]``), else derived as the final reports print them."""
    listed = visible_dice(campaign.dice_log(last), PUBLIC).get("secret_seeds")
    if listed is not None:
        return {s["turn"]: s["seed"] for s in listed}
    try:
        master = campaign.master_secret()
    except CampaignError:
        return {}  # a copy without secret/: the seeds cannot be told, and the dice page says so
    return {t: turn_seed(master, t, secret=True).hex() for t in turns}
