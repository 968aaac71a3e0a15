"""The board image: three studios as columns, each side's hires, laid-off cards turned sideways.

Drawing only: everything shown comes from a view (``views.view``); no rule is decided here.
The layout (in board units, shared with the Pillow drawing) is worked out by ``layout``.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from gm.games.base import player_colours, player_names

CARD_LONG, CARD_SHORT = 1.85, 1.35  # a card upright is CARD_SHORT wide; laid off, CARD_LONG wide
SLOT_W, SLOT_H = 2.05, 2.0          # room for one card, upright or sideways
PER_ROW = 2
PAD, GAP = 0.15, 0.3                # inside a studio's panel, each side; between panels
PANEL_W = SLOT_W * PER_ROW + 2 * PAD
COLUMN_W = PANEL_W + GAP
HEAD_H, MIDDLE_H, FOOT_H = 1.3, 0.9, 0.25
SCALE = 0.72                        # inches per board unit
SIDE_COLOURS = ("#2f6db5", "#c0392b")


@dataclass
class Card:
    cx: float
    cy: float
    w: float
    h: float
    colour: str
    laid_off: bool
    lines: list[str]  # the name wrapped, then the profession


@dataclass
class Studio:
    x0: float
    name: str  # wrapped to the panel
    held: str  # who holds it now (or at the end)
    unopened: bool
    counts: list[tuple[str, str, float]]  # (text, colour, y) for each side's vowel count


@dataclass
class Layout:
    width: float
    height: float
    middle: float
    studios: list[Studio]
    cards: list[Card]


def _rows(n: int) -> int:
    return max(1, -(-n // PER_ROW))


def _studios(view: dict[str, Any]) -> list[dict]:
    players = view["players"]
    studios = list(view["studios"])
    while len(studios) < 3:
        studios.append({"name": f"unopened studio {len(studios) + 1}",
                        "hires": {p: [] for p in players}, "vowels": {p: 0 for p in players},
                        "unopened": True})
    return studios


def _vowels(n: int) -> str:
    return "1 vowel" if n == 1 else f"{n} vowels"


def layout(view: dict[str, Any], campaign_players: list[dict] | None = None) -> Layout:
    """Where everything goes, y upwards: the first player's hires grow down from the middle line,
    the second's up."""
    players = view["players"]
    name = player_names(campaign_players, players)
    colour = player_colours(campaign_players, players, SIDE_COLOURS)
    studios = _studios(view)
    rows = {p: max(_rows(len(s["hires"].get(p, []))) for s in studios) for p in players}
    bottom_h, top_h = rows[players[0]] * SLOT_H, rows[players[1]] * SLOT_H
    height = FOOT_H + bottom_h + MIDDLE_H + top_h + HEAD_H
    middle = FOOT_H + bottom_h + MIDDLE_H / 2
    owners = view.get("studio_owner") or {}
    held = "controlled by" if view.get("winner") else "held now by"
    out = Layout(COLUMN_W * 3, height, middle, [], [])
    for column, studio in enumerate(studios):
        x0 = column * COLUMN_W + GAP / 2
        owner = owners.get(studio["name"])
        title = "\n".join(textwrap.wrap(studio["name"], 24)[:2])
        counts = studio.get("vowels", {})
        out.studios.append(Studio(x0, title, f"{held} {name.get(owner, owner)}" if owner else "",
                                  bool(studio.get("unopened")), [
            (f"{name[players[1]]}: {_vowels(counts.get(players[1], 0))}", colour[players[1]], middle + 0.22),
            (f"{name[players[0]]}: {_vowels(counts.get(players[0], 0))}", colour[players[0]], middle - 0.22)]))
        for side, player in enumerate(players):
            for i, hire in enumerate(studio["hires"].get(player, [])):
                row, col = divmod(i, PER_ROW)
                cx = x0 + PAD + col * SLOT_W + SLOT_W / 2
                away = MIDDLE_H / 2 + SLOT_H / 2 + row * SLOT_H
                out.cards.append(_card(cx, middle - away if side == 0 else middle + away, hire, colour[player]))
    return out


def _card(cx: float, cy: float, hire: dict, colour: str) -> Card:
    laid_off = bool(hire["laid_off"])
    w, h = (CARD_LONG, CARD_SHORT) if laid_off else (CARD_SHORT, CARD_LONG)
    lines = textwrap.wrap(hire["card"], 16 if laid_off else 11)[:3] or ["?"]
    return Card(cx, cy, w, h, colour, laid_off, lines + [hire["profession"]])


def draw_board(view: dict[str, Any], campaign_players: list[dict] | None = None):
    """``campaign_players`` ([{id, name, colour}]) give the names and colours people know."""
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch

    plan = layout(view, campaign_players)
    fig = Figure(figsize=(plan.width * SCALE, plan.height * SCALE))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, plan.width)
    ax.set_ylim(0, plan.height)
    ax.axis("off")
    inner = PANEL_W
    for studio in plan.studios:
        ax.add_patch(FancyBboxPatch((studio.x0, 0.08), inner, plan.height - 0.16,
                                    boxstyle="round,pad=0.02", facecolor="#f4f1ea",
                                    edgecolor="#999999", linewidth=1))
        ax.text(studio.x0 + inner / 2, plan.height - 0.2, studio.name, ha="center", va="top",
                fontsize=12, fontweight="bold", linespacing=1.15,
                style="italic" if studio.unopened else "normal")
        below = plan.height - 0.32 - 0.3 * (studio.name.count("\n") + 1)  # under the name's lines
        ax.text(studio.x0 + inner / 2, below, studio.held, ha="center", va="top", fontsize=9.5,
                color="#333333")
        ax.plot([studio.x0 + 0.1, studio.x0 + inner - 0.1], [plan.middle, plan.middle], color="#666666",
                linewidth=1, linestyle="--")
        for text, colour, y in studio.counts:
            ax.text(studio.x0 + inner / 2, y, text, ha="center", va="center", fontsize=10, color=colour)
    for card in plan.cards:
        _draw_card(ax, FancyBboxPatch, card)
    return fig


def _draw_card(ax, patch, card: Card) -> None:
    ax.add_patch(patch((card.cx - card.w / 2, card.cy - card.h / 2), card.w, card.h,
                       boxstyle="round,pad=0.03", facecolor="#dddddd" if card.laid_off else "white",
                       edgecolor=card.colour, linewidth=2.5, linestyle="--" if card.laid_off else "-"))
    ink = "#555555" if card.laid_off else "black"
    *name, profession = card.lines
    ax.text(card.cx, card.cy + 0.12, "\n".join(name), ha="center", va="bottom", fontsize=9.5,
            fontweight="bold", color=ink, linespacing=1.15)
    ax.text(card.cx, card.cy - 0.08, profession + ("\nlaid off" if card.laid_off else ""), ha="center",
            va="top", fontsize=8.5, color=ink, linespacing=1.3, style="italic" if card.laid_off else "normal")
