"""The race schedule, drawn with the campaign's dice when the building stage ends.

Every town number is the start of exactly one standard race and the destination of exactly one:
the standard races are a pairing of the town numbers with themselves, each start paired with a
town of another sector at least ``min_distance`` hexes away. The pairing is drawn start by start
(in number order): a die picks the destination among those that still leave a complete pairing
possible, so the draw never fails or backtracks and every valid pairing can come up. Which
destinations keep a pairing possible is read off one current complete pairing (alternating cycles,
as in Dulmage-Mendelsohn), found once at the start. Then the races are shuffled into the rounds.
"""
from __future__ import annotations

from collections import deque
from typing import Any

from gm.store.dice import Dice
from gm.hexmap.model import HexMap

from ..mapdata import sector

MIN_DISTANCE = 7


def town_numbers(hexmap: HexMap) -> list[int]:
    return sorted(hexmap.towns)


def may_race(hexmap: HexMap, a: int, b: int, min_distance: int, sectors: bool) -> bool:
    """May a standard race run from town number a to town number b under these constraints?"""
    ha, hb = hexmap.towns[a].hex, hexmap.towns[b].hex
    if ha == hb:
        return False
    if sectors and sector(a) == sector(b):
        return False
    return hexmap.grid.distance(ha, hb) >= min_distance


def complete_pairing(numbers: list[int], allowed: dict[int, list[int]]) -> dict[int, int] | None:
    """Some pairing start -> destination using only allowed pairs (augmenting paths), or None."""
    owner: dict[int, int] = {}  # destination -> start

    def place(start: int, seen: set[int]) -> bool:
        for dest in allowed[start]:
            if dest in seen:
                continue
            seen.add(dest)
            if dest not in owner or place(owner[dest], seen):
                owner[dest] = start
                return True
        return False

    for start in numbers:
        if not place(start, set()):
            return None
    return {start: dest for dest, start in owner.items()}


def _still_possible(start: int, pairing: dict[int, int], allowed: dict[int, set[int]]
                    ) -> dict[int, list[int]]:
    """{destination: chain} for each destination ``start`` may take with a complete pairing left.

    ``chain`` is the starts whose destinations move along (b, ..., start): b gives up its destination
    to ``start``, each start of the chain takes the next one's, and the last takes ``start``'s.
    """
    # b -> c when b may take c's current destination; we need every b that reaches ``start``
    back: dict[int, int | None] = {start: None}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        for b in pairing:
            if b not in back and pairing[c] in allowed[b]:
                back[b] = c
                queue.append(b)
    options: dict[int, list[int]] = {pairing[start]: [start]}
    for b in back:
        if b != start and pairing[b] in allowed[start]:
            chain, here = [b], back[b]
            while here is not None:
                chain.append(here)
                here = back[here]
            options[pairing[b]] = chain
    return options


def draw_pairing(numbers: list[int], allowed: dict[int, list[int]], dice: Dice) -> dict[int, int] | None:
    pairing = complete_pairing(numbers, allowed)
    if pairing is None:
        return None
    allowed_sets = {n: set(v) for n, v in allowed.items()}
    drawn: dict[int, int] = {}
    for start in numbers:
        options = _still_possible(start, pairing, allowed_sets)
        choices = sorted(options)
        dest = choices[dice.roll(f"schedule: destination of {start}", len(choices)) - 1] if len(choices) > 1 \
            else choices[0]
        chain = options[dest]
        moved = [pairing[c] for c in chain[1:]]
        for c, new in zip(chain[:-1], moved):
            pairing[c] = new
        del pairing[start]
        drawn[start] = dest
    return drawn


def standard_races(hexmap: HexMap, dice: Dice) -> tuple[list[tuple[int, int]], dict[str, Any]]:
    """The standard races (start, destination) and the constraints they meet.

    When no pairing meets the full constraints (a small map) the distance is lowered a hex at a
    time, then the sector rule dropped; the constraints used are returned for the report.
    """
    numbers = town_numbers(hexmap)
    for sectors in (True, False):
        for distance in range(MIN_DISTANCE, -1, -1):
            allowed = {a: [b for b in numbers if may_race(hexmap, a, b, distance, sectors)] for a in numbers}
            if complete_pairing(numbers, allowed) is None:
                continue
            pairing = draw_pairing(numbers, allowed, dice)
            assert pairing is not None  # a complete pairing exists, so the draw completes
            return [(a, pairing[a]) for a in numbers], {"min_distance": distance, "sectors": sectors}
    return [], {"min_distance": None, "sectors": None}


def round_sizes(races: int, rounds: int) -> list[int]:
    """Races per round: as even as possible, the earlier rounds taking the odd ones."""
    return [races // rounds + (1 if r < races % rounds else 0) for r in range(rounds)]


def special_start(hexmap: HexMap, special: str, dice: Dice, round_no: int) -> int:
    """A town drawn by the dice, among those at least MIN_DISTANCE from the special (else any)."""
    numbers = town_numbers(hexmap)
    hexes = hexmap.specials[special].get("hexes") or []
    far = [n for n in numbers
           if all(hexmap.grid.distance(hexmap.towns[n].hex, h) >= MIN_DISTANCE for h in hexes)] or numbers
    return dice.choice(f"schedule: special run of round {round_no}", far)


def draw_schedule(hexmap: HexMap, rounds: int, dice: Dice) -> tuple[list[list[dict[str, Any]]], dict[str, Any]]:
    """The schedule (rounds of {id, from, to, special}) and the constraints the standard races meet.

    Dice, in this order: one die per start town with more than one possible destination
    ("schedule: destination of 11"), the shuffle of the races into rounds ("schedule: rounds"),
    then per round with a special run the die for its start town ("schedule: special run of round 1").
    """
    races, rules = standard_races(hexmap, dice)
    order = dice.shuffle("schedule: rounds", races)
    specials = sorted(hexmap.specials)
    schedule: list[list[dict[str, Any]]] = []
    number, at = 1, 0
    for size in round_sizes(len(order), rounds):
        this = []
        for a, b in order[at:at + size]:
            this.append({"id": number, "from": a, "to": b, "special": False})
            number += 1
        at += size
        schedule.append(this)
    for r in range(1, rounds + 1):
        if specials:
            special = specials[(r - 1) % len(specials)]
            schedule[r - 1].append({"id": number, "from": special_start(hexmap, special, dice, r), "to": special,
                                    "special": True})
            number += 1
    return schedule, rules


def schedule_problems(hexmap: HexMap, schedule: list[list[dict[str, Any]]], rules: dict[str, Any]) -> list[str]:
    """What is wrong with a schedule (empty when it meets every constraint): for tests and set-ups."""
    problems = []
    standard = [race for rnd in schedule for race in rnd if not race["special"]]
    numbers = town_numbers(hexmap)
    starts = sorted(r["from"] for r in standard)
    ends = sorted(r["to"] for r in standard)
    if standard and (starts != numbers or ends != numbers):
        problems.append("not every town number is once a start and once a destination")
    for race in standard:
        if not may_race(hexmap, race["from"], race["to"], rules["min_distance"], rules["sectors"]):
            problems.append(f"race {race['id']} {race['from']} -> {race['to']} breaks the constraints")
    for race in (r for rnd in schedule for r in rnd if r["special"]):
        if race["to"] not in hexmap.specials or race["from"] not in hexmap.towns:
            problems.append(f"special run {race['id']} does not go from a town to a special destination")
    ids = [r["id"] for rnd in schedule for r in rnd]
    if len(set(ids)) != len(ids):
        problems.append("two races share an id")
    return problems
