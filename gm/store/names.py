"""Matching names the way players write them: ignoring case and accents, with "did you mean"."""
from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable


def fold(name: str) -> str:
    """Case- and accent-insensitive key: 'Lübeck ' -> 'lubeck'."""
    decomposed = unicodedata.normalize("NFKD", str(name))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().replace("ß", "ss").split())


def did_you_mean(name: str, choices: Iterable[str]) -> str | None:
    """The closest choice to ``name`` (folded), or None when nothing is close."""
    by_key: dict[str, str] = {}
    for choice in choices:
        by_key.setdefault(fold(choice), choice)
    close = difflib.get_close_matches(fold(name), list(by_key), n=1, cutoff=0.6)
    return by_key[close[0]] if close else None


def suggestion(name: str, choices: Iterable[str]) -> str:
    """' (did you mean "X"?)' or '' — ready to append to an error message."""
    best = did_you_mean(name, choices)
    return f' (did you mean "{best}"?)' if best else ""


def match(name: str, choices: Iterable[str]) -> str | None:
    """The choice equal to ``name`` ignoring case and accents, or None."""
    key = fold(name)
    for choice in choices:
        if fold(choice) == key:
            return choice
    return None
