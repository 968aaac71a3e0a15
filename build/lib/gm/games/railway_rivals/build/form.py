"""The blank order form a player fills in for the next build turn, with its three dice filled in."""
from __future__ import annotations

from typing import Any

from gm.hexmap.model import HexMap

from ..mapdata import ferry_cost
from .company import place_name, starting_points, track_links
from .examples import straight_line


def track_ends(state: dict[str, Any], player: str) -> list[str]:
    """Hexes where the company's track ends (or branches end): the usual places to build on from."""
    links = track_links(state, player)
    count: dict[str, int] = {}
    for a, b in links:
        count[a] = count.get(a, 0) + 1
        count[b] = count.get(b, 0) + 1
    return sorted(h for h, n in count.items() if n == 1)


def order_form(state: dict[str, Any], hexmap: HexMap, player: str) -> str:
    if state["stage"] != "build" or player not in state["players"]:
        return ""
    company = state["companies"][player]
    turn, dice = state["build_turn"], state["build_dice"]
    options = state["options"]
    ends = track_ends(state, player)
    line = straight_line(hexmap, ends[0] if ends else None) or straight_line(hexmap)
    jump = f"({line[0]}) {line[2]} for ({line[0]}) {line[1]} {line[2]}" if line else "(START) END"
    lines = [
        f"player: {player}",
        f"turn: {turn}",
        f"# Railway Rivals, build turn {turn} of {state['build_turns']}: {company['name']} ({company['colour']}), "
        f"cash {state['cash'][player]}.",
        f"# Dice: round 1 = {dice[0]}, round 2 = {dice[1]}, round 3 = {dice[2]}. Unused pips are lost.",
        "# One line per round: (START) HEX HEX \"TOWN\" ...; (START) ...   total N",
        "# START, in brackets, is a hex or town your track already reaches. A straight hex line may be",
        f"# written as its two ends: {jump}. 1 pip a hex; forest +1, swamp and mountain +2",
        "# per half hex; river +2, wide river +3. Name and colour (optional): company: NAME, COLOUR",
    ]
    if hexmap.ferries:
        free = [f for f in hexmap.ferries if f.id not in state["ferries"]]
        if free:
            shown = ", ".join(f"{f.id} {f.ends[0]}-{f.ends[1]} for {ferry_cost(f)}" for f in free)
            lines.append(f"# Ferries to build (cash, not pips): {shown}; e.g. ({free[0].ends[0]}) ferry {free[0].id}")
    if options.get("leapfrog"):
        lines.append(f"# Leapfrog is on: 'leap HEX' jumps up to {options['leap_length']} hexes along a rival's "
                     f"track ({options['leaps_per_rival']} leaps per rival).")
    if ends:
        shown = ", ".join(place_name(hexmap, h) for h in ends[:10]) + (" ..." if len(ends) > 10 else "")
        lines.append(f"# Your track ends at {shown}.")
    elif not state["track"].get(player):
        starts = starting_points(hexmap)
        shown = ", ".join(place_name(hexmap, h) for h in starts[:10]) + (" ..." if len(starts) > 10 else "")
        lines.append(f"# You have no track yet: start at a starting point: {shown}.")
    for number, die in enumerate(dice, start=1):
        lines.append(f"round {number}:          # die {die}")
    return "\n".join(lines) + "\n"
