"""Tie-breaks by the verifiable dice: each tied company rolls a die, highest first, re-rolling ties."""
from __future__ import annotations

from gm.store.dice import Dice


def tie_order(dice: Dice, what: str, players: list[str]) -> tuple[list[str], list[dict]]:
    """(players from first to last, the rolls made) — rolled in the order ``players`` are given."""
    rolls: list[dict] = []
    values = {}
    for p in players:
        values[p] = dice.roll(f"tie {what} {p}", 6)
        rolls.append({"player": p, "value": values[p]})
    order: list[str] = []
    for value in sorted(set(values.values()), reverse=True):
        group = [p for p in players if values[p] == value]
        if len(group) > 1:
            sub, more = tie_order(dice, what, group)
            rolls += more
            order += sub
        else:
            order += group
    return order, rolls
