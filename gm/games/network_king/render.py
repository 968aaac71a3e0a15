"""The board image: three studios as columns, each side's hires, laid-off cards turned sideways.

Drawing only: everything shown comes from a view (``views.view``); no rule is decided here.
"""
from __future__ import annotations

import textwrap
from typing import Any

from ..base import player_names

SLOT_W, SLOT_H = 1.7, 1.7  # room for one card, upright or sideways
CARD_LONG, CARD_SHORT = 1.5, 1.05
PER_ROW = 2
COLUMN_W = SLOT_W * PER_ROW + 0.5
SIDE_COLOURS = ("#2f6db5", "#c0392b")


def _rows(n: int) -> int:
    return max(1, -(-n // PER_ROW))


def draw_board(view: dict[str, Any], campaign_players: list[dict] | None = None):
    """``campaign_players`` ([{id, name, colour}]) give the names people know each other by."""
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch

    players = view["players"]
    name = player_names(campaign_players, players)
    studios = list(view["studios"])
    while len(studios) < 3:
        studios.append({"name": f"unopened studio {len(studios) + 1}",
                        "hires": {p: [] for p in players}, "vowels": {p: 0 for p in players},
                        "unopened": True})
    rows = {p: max(_rows(len(s["hires"].get(p, []))) for s in studios) for p in players}
    top_h, bottom_h = rows[players[1]] * SLOT_H, rows[players[0]] * SLOT_H
    height = top_h + bottom_h + 2.2
    width = COLUMN_W * 3
    fig = Figure(figsize=(width * 0.9, height * 0.9))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.axis("off")
    middle = bottom_h + 0.6
    owners = view.get("studio_owner") or {}
    for column, studio in enumerate(studios):
        x0 = column * COLUMN_W + 0.25
        ax.add_patch(FancyBboxPatch((x0 - 0.1, 0.1), COLUMN_W - 0.3, height - 0.3,
                                    boxstyle="round,pad=0.02", facecolor="#f4f1ea",
                                    edgecolor="#999999", linewidth=1))
        owner = owners.get(studio["name"])
        held = "controlled by" if view.get("winner") else "held now by"
        heading = studio["name"] + (f"\n{held} {name.get(owner, owner)}" if owner else "")
        ax.text(x0 + (COLUMN_W - 0.5) / 2, height - 0.35, heading, ha="center", va="top",
                fontsize=10, fontweight="bold", style="italic" if studio.get("unopened") else "normal")
        counts = studio.get("vowels", {})
        ax.plot([x0, x0 + COLUMN_W - 0.5], [middle, middle], color="#666666", linewidth=1, linestyle="--")
        ax.text(x0 + (COLUMN_W - 0.5) / 2, middle + 0.12,
                f"{name[players[1]]}: {counts.get(players[1], 0)} vowels", ha="center", va="bottom",
                fontsize=8, color=SIDE_COLOURS[1])
        ax.text(x0 + (COLUMN_W - 0.5) / 2, middle - 0.12,
                f"{name[players[0]]}: {counts.get(players[0], 0)} vowels", ha="center", va="top",
                fontsize=8, color=SIDE_COLOURS[0])
        for side, (player, colour) in enumerate(zip(players, SIDE_COLOURS)):
            for i, hire in enumerate(studio["hires"].get(player, [])):
                row, col = divmod(i, PER_ROW)
                cx = x0 + col * SLOT_W + SLOT_W / 2
                # the first player's hires grow down from the middle line, the second's up
                cy = (middle - 0.45 - SLOT_H / 2 - row * SLOT_H if side == 0
                      else middle + 0.45 + SLOT_H / 2 + row * SLOT_H)
                _card(ax, FancyBboxPatch, cx, cy, hire, colour)
    return fig


def _card(ax, patch, cx: float, cy: float, hire: dict, colour: str) -> None:
    sideways = hire["laid_off"]
    w, h = (CARD_LONG, CARD_SHORT) if sideways else (CARD_SHORT, CARD_LONG)
    ax.add_patch(patch((cx - w / 2, cy - h / 2), w, h, boxstyle="round,pad=0.03",
                       facecolor="#dddddd" if sideways else "white", edgecolor=colour,
                       linewidth=2, linestyle="--" if sideways else "-"))
    name = "\n".join(textwrap.wrap(hire["card"], 11)) or "?"
    label = f"{name}\n\n{hire['profession']}" + ("\n(laid off)" if sideways else "")
    ax.text(cx, cy, label, ha="center", va="center", fontsize=6.5, rotation=90 if sideways else 0,
            color="#555555" if sideways else "black")
