"""Standings in each game's own terms, read from the PUBLIC view of the last turn only (what any
reader of the public reports knows). One function per game; a game without one shows the outcome
when it is over. A block is {title, head, rows, chart}; a cell naming a player is {"player": id}.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gm.delivery.site.charts import line_chart

Block = dict[str, Any]


def _p(pid: str, note: str = "") -> dict[str, str]:
    """A cell naming a player; ``note``: what the game calls them besides (a company's name)."""
    return {"player": pid, "note": note}


def _ids(view: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    listed = view.get("players")
    return list(listed) if isinstance(listed, list) and listed else [p["id"] for p in players]


def _series(history: Any, ids: list[str], players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chart lines from a history: a list of {player: value} or a {player: [values]}."""
    names = {p["id"]: p for p in players}
    out = []
    for pid in ids:
        if isinstance(history, dict):
            values = list(history.get(pid) or [])
        else:
            values = [row.get(pid) if isinstance(row, dict) else None for row in history or []]
        info = names.get(pid, {})
        out.append({"name": info.get("name", pid), "colour": info.get("colour", ""), "values": values})
    return out


def railway_rivals(view: dict[str, Any], players: list[dict[str, Any]]) -> list[Block]:
    ids = _ids(view, players)
    cash = view.get("cash") or {}
    won = view.get("races_won") or {}
    entered = view.get("races_entered") or {}
    towns = view.get("towns_reached") or {}
    reached = {p: sum(1 for who in towns.values() if p in (who or [])) for p in ids}
    order = sorted(ids, key=lambda p: (-(cash.get(p) or 0), -(won.get(p) or 0)))
    companies = view.get("companies") or {}
    names = {p["id"]: p["name"] for p in players}

    def company(p: str) -> str:
        name = (companies.get(p) or {}).get("name") or ""
        return name if name != names.get(p) else ""

    rows = [[_p(p, company(p)), cash.get(p, ""), won.get(p, 0), entered.get(p, 0), reached[p]] for p in order]
    chart = line_chart(_series(view.get("cash_history"), ids, players), title="Cash after each turn",
                       x_label="turn", y_label="cash")
    return [{"title": "Companies", "head": ["Company", "Cash", "Races won", "Races entered", "Towns reached"],
             "rows": rows, "chart": chart}]


def thurn_und_taxis(view: dict[str, Any], players: list[dict[str, Any]]) -> list[Block]:
    ids = _ids(view, players)
    scores = view.get("scores") or {}
    left = view.get("houses_left") or {}
    houses = view.get("houses") or {}
    tiles = view.get("tiles") or {}
    hand = view.get("hand_sizes") or {}

    def tile_points(p: str) -> int:
        return sum(t.get("points", 0) if isinstance(t, dict) else t if isinstance(t, int) else 0
                   for t in tiles.get(p) or [])

    routes = view.get("routes") or {}
    head = ["Player", "Houses placed", "Houses left", "Bonus tiles", "Route being built", "Cards in hand"]
    if scores:
        head.insert(1, "Score")
    order = sorted(ids, key=lambda p: -(scores.get(p) or 0)) if scores else ids
    rows = []
    for p in order:
        route = " – ".join(map(str, routes.get(p) or [])) or "none"
        row = [_p(p), len(houses.get(p) or []), left.get(p, ""), tile_points(p), route, hand.get(p, "")]
        if scores:
            row.insert(1, scores.get(p, ""))
        rows.append(row)
    return [{"title": "Scores" if scores else "Postal network so far", "head": head, "rows": rows, "chart": ""}]


def imperial_network(view: dict[str, Any], players: list[dict[str, Any]]) -> list[Block]:
    ids = _ids(view, players)
    capital = view.get("capital") or {}
    cash = view.get("cash") or {}
    trains = view.get("trains_owned") or {}
    buildings = view.get("buildings") or {}
    order = sorted(ids, key=lambda p: -(capital.get(p) or 0))
    rows = [[_p(p), capital.get(p, ""), cash.get(p, ""), trains.get(p, ""), len(buildings.get(p) or {})]
            for p in order]
    history = view.get("capital_history") or {}
    chart = line_chart(_series(history, ids, players), title="Capital after each turn",
                       x_label="turn", y_label="capital", x_start=1)
    return [{"title": "Nations", "head": ["Player", "Capital", "Cash", "Trains", "Buildings"],
             "rows": rows, "chart": chart}]


def network(view: dict[str, Any], players: list[dict[str, Any]]) -> list[Block]:
    sides = view.get("sides") or {}
    placed = view.get("placed") or {}
    networks = view.get("networks") or {}
    to_move = view.get("to_move")
    winner = view.get("winner")
    rows = []
    for side, pid in sides.items():
        line = networks.get(side)
        state = ("won" if winner == side else "to move" if to_move == side and not winner else "")
        rows.append([_p(pid), side, placed.get(side, 0), " ".join(line) if line else "none yet", state])
    return [{"title": f"Position after move {view.get('ply', 0)}",
             "head": ["Player", "Side", "Pieces placed", "Network", ""], "rows": rows, "chart": ""}]


def network_king(view: dict[str, Any], players: list[dict[str, Any]]) -> list[Block]:
    ids = _ids(view, players)
    owner = view.get("studio_owner") or {}
    hand = view.get("hand_sizes") or {}
    deck = view.get("deck_sizes") or {}
    to_move = view.get("to_move")
    rows = []
    for p in ids:
        owned = sorted(name for name, who in owner.items() if who == p)  # an unopened studio counts too
        rows.append([_p(p), len(owned), ", ".join(owned) or "none", hand.get(p, ""), deck.get(p, ""),
                     "to move" if to_move == p else ""])
    return [{"title": "Studios", "head": ["Player", "Studios", "Which", "Hand", "Deck", ""], "rows": rows,
             "chart": ""}]


BY_GAME: dict[str, Callable[[dict[str, Any], list[dict[str, Any]]], list[Block]]] = {
    "railway-rivals": railway_rivals,
    "thurn-und-taxis": thurn_und_taxis,
    "imperial-network": imperial_network,
    "network": network,
    "network-king": network_king,
}


def standings(game_name: str, view: dict[str, Any] | None, players: list[dict[str, Any]]) -> list[Block]:
    """The game's standings from a public view (none before set-up or for a game without any)."""
    if not view or game_name not in BY_GAME:
        return []
    return BY_GAME[game_name](view, players)


def outcome_rows(outcome: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The final ranking: [{place, players}] with shared places kept together."""
    if not outcome:
        return []
    rows, place = [], 1
    for group in outcome.get("ranking") or []:
        rows.append({"place": place, "players": list(group)})
        place += len(group)
    return rows
