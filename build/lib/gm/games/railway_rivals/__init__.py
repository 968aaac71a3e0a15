"""Railway Rivals: hex-map railway building and racing (rules in docs/rules/railway-rivals.md).

Part 1, the building stage: six build turns of three simultaneous rounds each.
"""
from .game import RailwayRivals

GAME = RailwayRivals()

__all__ = ["GAME", "RailwayRivals"]
