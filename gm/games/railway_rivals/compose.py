"""How a page that shows the map with clickable hexes writes this game's order lines (the web door's
map clicks; the hook is Game.map_composer). Composing only: every rule stays in the checker."""
from __future__ import annotations

from typing import Any

from .operate.entries import open_races


def map_composer(view: dict[str, Any], player: str) -> list[dict[str, str]]:
    """One entry per order line a click route can write: a build round `round N: (START) HEX ...`,
    an expansion `expand: (START) HEX ...` or a race entry `race ID: START HEX ... DESTINATION`."""
    if player not in view.get("players", []):
        return []
    if view.get("stage") == "build":
        return [{"label": f"Round {n} (die {die})", "line": f"round {n}:", "first": " ({})", "then": " {}"}
                for n, die in enumerate(view.get("build_dice") or [], start=1)]
    if view.get("stage") != "operate":
        return []
    if view.get("operate_phase") == "expansion":
        return [{"label": "Expansion", "line": "expand:", "first": " ({})", "then": " {}"}]
    return [{"label": f"Race {race['id']}", "line": f"race {race['id']}:", "first": " {}", "then": " {}"}
            for race in open_races(view)]
