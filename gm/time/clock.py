"""The one clock every command reads. ``GM_NOW`` (ISO 8601 with a zone, e.g. 2026-12-05T18:00Z)
overrides it, so tests and dry runs can move through a campaign's weeks in seconds."""
from __future__ import annotations

import datetime as dt
import os

from gm.store.errors import UsageError


def now() -> dt.datetime:
    """The current moment, timezone-aware (UTC unless GM_NOW names another zone), whole seconds."""
    given = os.environ.get("GM_NOW", "").strip()
    if not given:
        return dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    return parse_moment(given, "GM_NOW")


def parse_moment(text: str, what: str) -> dt.datetime:
    """An ISO 8601 moment with a zone ('Z' or an offset); a clear error otherwise."""
    value = text.strip()
    try:
        moment = dt.datetime.fromisoformat(value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value)
    except ValueError:
        raise UsageError(f"{what}: {text!r} is not a moment like 2026-12-05T18:00Z") from None
    if moment.tzinfo is None:
        raise UsageError(f"{what}: {text!r} needs a zone, e.g. 2026-12-05T18:00Z or +01:00")
    if not in_range(moment):
        raise UsageError(f"{what}: {text!r} is out of range; gm takes years {FIRST_YEAR} to {LAST_YEAR}")
    return moment


FIRST_YEAR, LAST_YEAR = 1970, 9000  # moments outside (year 1, 9999) overflow once a period is added


def in_range(moment: dt.datetime) -> bool:
    """Whether gm can compute with ``moment`` (add a grace, a turn, show it in any zone)."""
    try:
        return FIRST_YEAR <= moment.astimezone(dt.timezone.utc).year <= LAST_YEAR
    except (OverflowError, ValueError):
        return False


def stamp() -> str:
    """Now as a log stamp: 2026-12-05T18:00:00+00:00."""
    return now().isoformat(timespec="seconds")
