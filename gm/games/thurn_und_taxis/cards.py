"""The city cards: the shuffled deck, the six-card display, the discard pile.

The top of the deck is ``deck[0]``. Every shuffle is one verifiable secret shuffle labelled
``shuffle deck`` (its rolls are revealed when the game is over). While orders are checked the
hidden cards are ``UNKNOWN``: the checker never learns what the deck holds.
"""
from __future__ import annotations

from typing import Any

from gm.store.dice import Dice

DISPLAY_SIZE = 6
UNKNOWN = "?"  # a card the order checker cannot see (the deck, a freshly turned-up display card)
SHUFFLE = "shuffle deck"


def new_deck(cards: list[str], dice: Dice) -> list[str]:
    return dice.shuffle(SHUFFLE, cards, secret=True)


class Piles:
    """Deck, discard pile and display of a working state, changed in place; events appended."""

    def __init__(self, state: dict[str, Any], dice: Dice | None, events: list[dict], *, checking: bool):
        self.state, self.dice, self.events, self.checking = state, dice, events, checking

    @property
    def deck(self) -> list[str]:
        return self.state["deck"]

    @property
    def display(self) -> list[str]:
        return self.state["display"]

    def drawable(self) -> int:
        """How many cards one could still draw from the deck (after reshuffling)."""
        return len(self.state["deck"]) + len(self.state["discard"])

    def reshuffle(self) -> None:
        discard = self.state["discard"]
        if not discard:
            return
        if self.checking:
            self.state["deck"] = [UNKNOWN] * len(discard)
        else:
            self.state["deck"] = self.dice.shuffle(SHUFFLE, discard, secret=True)
        self.state["discard"] = []
        self.events.append({"kind": "reshuffle", "size": len(self.state["deck"]),
                            "text": f"The deck ran out: the discard pile ({len(self.state['deck'])} cards) "
                                    "was shuffled into a new deck."})

    def take_from_deck(self) -> str | None:
        """The top card (reshuffling the discard pile first when the deck is empty), or None."""
        if not self.state["deck"]:
            self.reshuffle()
        if not self.state["deck"]:
            return None
        return self.state["deck"].pop(0)

    def take_from_display(self, index: int) -> tuple[str, str | None]:
        """Take the display card at ``index``; its place is refilled from the deck at once."""
        card = self.display[index]
        new = self.take_from_deck()
        if new is None:
            del self.display[index]
        else:
            self.display[index] = new
        return card, new

    def discard(self, cards: list[str]) -> None:
        self.state["discard"].extend(cards)

    def replace_display(self) -> list[str]:
        """The Administrator: the whole display goes to the discard pile, six new cards come up."""
        old = list(self.display)
        self.discard(old)
        self.state["display"] = []
        self.fill_display()
        return old

    def fill_display(self) -> None:
        while len(self.display) < DISPLAY_SIZE:
            card = self.take_from_deck()
            if card is None:
                break
            self.display.append(card)

