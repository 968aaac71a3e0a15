"""One company's network while its orders are checked or carried out: what it may build next.

The same checks serve the order checker (against the state at the start of the turn) and the
resolution (against the state as the rounds unfold), so a checked order fails at resolution only
where rivals changed the position (a ferry built first).
"""
from __future__ import annotations

from collections import Counter, deque
from typing import Any

from gm.hexmap.model import Ferry, HexMap

from ..words import company_names, count
from ..links import link_key, link_pips, link_problem, pips_breakdown, place_name


def track_links(state: dict[str, Any], player: str) -> set[tuple[str, str]]:
    return {link_key(a, b) for a, b in state["track"].get(player, [])}


def track_hexes(links: set[tuple[str, str]]) -> set[str]:
    return {h for link in links for h in link}


def starting_points(hexmap: HexMap) -> list[str]:
    """Where a company with no track may begin: the map's starting points, or any town if it has none."""
    return list(hexmap.start) or [t.hex for t in hexmap.town_list()]


def planning_builder(state: dict[str, Any], hexmap: HexMap, player: str) -> tuple["Builder", dict[str, set]]:
    """(the company's builder, its rivals' links) against the state at the start of the turn: what the
    order checker and the bots plan with."""
    rivals = {p: track_links(state, p) for p in state["players"] if p != player}
    return Builder(hexmap, state, player, ferry_owner=dict(state["ferries"]), rival_links=rivals), rivals


class Builder:
    """A company's own links and network hexes, grown step by step as its orders are applied."""

    def __init__(self, hexmap: HexMap, state: dict[str, Any], player: str, *,
                 ferry_owner: dict[str, str], rival_links: dict[str, set[tuple[str, str]]]):
        self.hexmap = hexmap
        self.player = player
        self.names = company_names(state)
        self.leapfrog = bool(state["options"].get("leapfrog"))
        self.leap_length = int(state["options"].get("leap_length", 3))
        self.leaps_per_rival = int(state["options"].get("leaps_per_rival", 2))
        self.links = track_links(state, player)
        self.hexes = track_hexes(self.links)
        self.ferry_owner = ferry_owner  # shared by every company while a turn is resolved
        for ferry in hexmap.ferries:
            if ferry_owner.get(ferry.id) == player:
                self.hexes.update(ferry.ends)
        leaps = state.get("leaps", {}).get(player, [])
        self.hexes.update(leap["to"] for leap in leaps)
        self.leaps_used = Counter(leap["over"] for leap in leaps)
        self.rival_links = rival_links  # rivals' track at the start of the turn: leaps follow it
        # the order checker's allowances, so that one mistake gives one error: links built past the
        # die (already reported) may be ordered again; after a segment that could not be read, where
        # the network reaches is unknown, so a later start off the track is not reported
        self.tentative: set[tuple[str, str]] = set()
        self.uncertain = False

    # ---- checks: each returns a reason, or None when the step is allowed -------------------
    def start_problem(self, label: str) -> str | None:
        if self.hexes:
            if label in self.hexes:
                return None
            return f"{place_name(self.hexmap, label)} is not on your track; a segment starts where your track is"
        starts = starting_points(self.hexmap)
        if label in starts:
            return None
        shown = ", ".join(place_name(self.hexmap, h) for h in starts[:8]) + (" ..." if len(starts) > 8 else "")
        return (f"you have no track yet, so your first segment starts at a starting point "
                f"({shown}), not {place_name(self.hexmap, label)}")

    def build_problem(self, a: str, b: str) -> tuple[int, str | None]:
        """(pips, problem) of building from a to b."""
        problem = link_problem(self.hexmap, a, b)
        if problem:
            return 0, problem
        if link_key(a, b) in self.links and link_key(a, b) not in self.tentative:
            return 0, f"you already have track {place_name(self.hexmap, a)}-{place_name(self.hexmap, b)}"
        return link_pips(self.hexmap, a, b), None

    def explain_pips(self, a: str, b: str) -> str:
        return pips_breakdown(self.hexmap, a, b)

    def ferry_problem(self, here: str, ferry: Ferry) -> str | None:
        if here not in ferry.ends:
            return (f"ferry {ferry.id} runs between {place_name(self.hexmap, ferry.ends[0])} and "
                    f"{place_name(self.hexmap, ferry.ends[1])}, not from {place_name(self.hexmap, here)}")
        owner = self.ferry_owner.get(ferry.id)
        if owner is not None and owner != self.player:
            return f"ferry {ferry.id} belongs to {self.names.get(owner, owner)}"
        return None

    def leap_problem(self, here: str, target: str, over: str | None) -> tuple[str | None, str | None]:
        """(rival leapt over, problem)."""
        if not self.leapfrog:
            return None, "leaps are not allowed in this game (option leapfrog is off)"
        if target == here:
            return None, f"a leap goes somewhere else than {place_name(self.hexmap, here)}"
        if target in self.hexes:
            return None, f"you already reach {place_name(self.hexmap, target)}: no need to leap there"
        rivals = [over] if over else sorted(self.rival_links)
        found = [r for r in rivals if r != self.player and self._along(self.rival_links.get(r, set()), here, target)]
        if not found:
            whose = f"{self.names.get(over, over)}'s" if over else "a rival's"
            return None, (f"{place_name(self.hexmap, target)} is not within {count(self.leap_length, 'hex')} of "
                          f"{place_name(self.hexmap, here)} "
                          f"along {whose} track (as it stood at the start of the turn)")
        if len(found) > 1:
            return None, (f"the leap to {target} could follow the track of "
                          f"{' or '.join(self.names.get(r, r) for r in found)}: add 'over' and the company, "
                          f"e.g. 'leap {target} over {found[0]}'")
        rival = found[0]
        if self.leaps_used[rival] >= self.leaps_per_rival:
            return None, (f"you have used your {self.leaps_per_rival} leaps over "
                          f"{self.names.get(rival, rival)}'s track")
        return rival, None

    def _along(self, links: set[tuple[str, str]], start: str, target: str) -> bool:
        """True when target is at most leap_length links from start along ``links``."""
        if not links:
            return False
        seen, queue = {start}, deque([(start, 0)])
        while queue:
            here, depth = queue.popleft()
            if here == target:
                return True
            if depth == self.leap_length:
                continue
            for n in self.hexmap.grid.neighbours(here):
                if n not in seen and link_key(here, n) in links:
                    seen.add(n)
                    queue.append((n, depth + 1))
        return False

    # ---- applying a step: each returns True when the step brings the network into a new hex --
    def add_link(self, a: str, b: str) -> bool:
        self.links.add(link_key(a, b))
        self.tentative.discard(link_key(a, b))
        new = b not in self.hexes
        self.hexes.update((a, b))
        return new

    def add_ferry(self, ferry: Ferry, here: str) -> bool:
        self.ferry_owner[ferry.id] = self.player
        other = ferry.ends[1] if here == ferry.ends[0] else ferry.ends[0]
        new = other not in self.hexes
        self.hexes.update(ferry.ends)
        return new

    def add_leap(self, rival: str, target: str) -> bool:
        self.leaps_used[rival] += 1
        new = target not in self.hexes
        self.hexes.add(target)
        return new
