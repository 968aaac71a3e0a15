"""Company colours: the names players may choose and how they are drawn."""
from __future__ import annotations

# the first eight match the engine's default player colours, in the same order
COLOURS: dict[str, str] = {
    "blue": "#1f5fbf", "red": "#c0392b", "green": "#2e8b57", "yellow": "#d4a017", "purple": "#7d3c98",
    "orange": "#e67e22", "teal": "#16a085", "grey": "#555555", "black": "#111111", "brown": "#8b4513",
    "pink": "#d63384", "cyan": "#00a3c4",
}
FOREIGN_COLOUR = "#8a8a8a"


def default_colours(players: list[str]) -> dict[str, str]:
    """A player whose id is a colour name gets that colour; the others the first free colours in order."""
    chosen: dict[str, str] = {}
    for p in players:
        if p.lower() in COLOURS and p.lower() not in chosen.values():
            chosen[p] = p.lower()
    free = [c for c in COLOURS if c not in chosen.values()]
    for p in players:
        if p not in chosen:
            chosen[p] = free.pop(0)
    return {p: chosen[p] for p in players}
