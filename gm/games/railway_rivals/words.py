"""How the game writes things, once: company names, counts with their nouns, ordinals, capitals."""
from __future__ import annotations

from typing import Any

from gm.store.names import fold

IRREGULAR = {"hex": "hexes", "half hex": "half hexes", "company": "companies", "entry": "entries",
             "race": "races"}


def company_name(state: dict[str, Any], player: str) -> str:
    return state["companies"][player]["name"]


def company_names(state: dict[str, Any]) -> dict[str, str]:
    """{player id: company name} for every company."""
    return {p: c["name"] for p, c in state["companies"].items()}


def company_by_word(companies: dict[str, dict], word: str) -> str | None:
    """The player whose id, company name or colour ``word`` is (ignoring case and accents), or None."""
    key = fold(word)
    for player, company in companies.items():
        if key in (fold(player), fold(company.get("name") or ""), fold(company.get("colour") or "")):
            return player
    return None


def plural(noun: str) -> str:
    return IRREGULAR.get(noun, noun + "s")


def count(n: int, noun: str) -> str:
    """'1 pip', '2 pips', '1 hex', '3 hexes'."""
    return f"{n} {noun if n == 1 else plural(noun)}"


def ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}.get(n, f"{n}th")


def capital(text: str) -> str:
    """The sentence with its first letter a capital."""
    return text[:1].upper() + text[1:]
