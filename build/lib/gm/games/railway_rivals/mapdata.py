"""The Railway Rivals rules a map file carries: what foreign routes and ferries cost, and the sectors of
the town numbers. The shared hex package reads the numbers as the file gives them (``terms``); their
meaning and their defaults are the game's (the map format: maps/README.md)."""
from __future__ import annotations

from gm.hexmap.model import Ferry, Foreign, HexMap

FOREIGN_FEE_PER_HEX = 1  # thousands a hex of a foreign company's permitted route, in races
FERRY_COST = 6           # to build a ferry
FERRY_USE_FEE = 5        # a rival's ferry, each race it is used in


def foreign_fee(country: Foreign) -> int:
    """What a train pays a hex of ``country``'s permitted routes."""
    return int(country.terms.get("fee_per_hex", FOREIGN_FEE_PER_HEX))


def country_fee(hexmap: HexMap, name: str) -> int:
    """The fee a hex of the foreign country called ``name``."""
    return next(foreign_fee(c) for c in hexmap.foreign if c.name == name)


def ferry_cost(ferry: Ferry) -> int:
    """Cash to build ``ferry``."""
    return int(ferry.terms.get("cost", FERRY_COST))


def ferry_use_fee(ferry: Ferry) -> int:
    """What a rival's train pays to cross on ``ferry`` in a race."""
    return int(ferry.terms.get("use_fee", FERRY_USE_FEE))


def sector(number: int) -> int:
    """The sector of a town number: its first digit (34 -> 3); races run between sectors."""
    return int(number) // 10
