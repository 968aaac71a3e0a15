"""Network: the 8x8 connection game (rules in docs/rules/network.md)."""
from .game import NetworkGame

GAME = NetworkGame()

__all__ = ["GAME", "NetworkGame"]
