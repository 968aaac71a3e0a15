"""Standings on the website: each game's own ``standings(view, players)`` hook (docs/plugins.md),
read from the PUBLIC view of the last turn only (what any reader of the public reports knows), with
its charts drawn here. A game without standings shows the outcome when it is over. A block is
{title, head, rows, chart}; a cell naming a player is {"player": id, "note": ...}; ``chart`` is the
SVG markup ("" for none).
"""
from __future__ import annotations

from typing import Any

from gm import games
from gm.delivery.site.charts import line_chart

Block = dict[str, Any]


def _series(values: dict[str, list[Any]], players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chart lines, one a player in the game's order, named and coloured as the campaign has them."""
    info = {p["id"]: p for p in players}
    return [{"name": info.get(pid, {}).get("name", pid), "colour": info.get(pid, {}).get("colour", ""),
             "values": list(line or [])} for pid, line in values.items()]


def _drawn(chart: dict[str, Any] | None, players: list[dict[str, Any]]) -> str:
    if not chart:
        return ""
    return line_chart(_series(chart.get("values") or {}, players), title=str(chart.get("title", "")),
                      x_label=str(chart.get("x_label", "")), y_label=str(chart.get("y_label", "")),
                      x_start=int(chart.get("x_start", 0)))


def standings(game_name: str, view: dict[str, Any] | None, players: list[dict[str, Any]]) -> list[Block]:
    """The game's standings from a public view (none before set-up or for a game without any)."""
    if not view:
        return []
    blocks = games.get(game_name).standings(view, players)
    return [dict(block, chart=_drawn(block.get("chart"), players)) for block in blocks]


def outcome_rows(outcome: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The final ranking: [{place, players}] with shared places kept together."""
    if not outcome:
        return []
    rows, place = [], 1
    for group in outcome.get("ranking") or []:
        rows.append({"place": place, "players": list(group)})
        place += len(group)
    return rows
