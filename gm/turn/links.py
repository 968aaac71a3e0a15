"""Where the campaign's website is, for links in reports and mail: ``site_url`` in campaign.yaml (the
address the GM publishes the `gm site` folder at, e.g. ``https://example.org/camp``). Without it,
nothing links to the site. The pages' names are the site's own (gm.delivery.site)."""
from __future__ import annotations

from gm.store.campaign import Campaign
from gm.store.errors import UsageError

PLAYERS_PAGE = "players.html"
DICE_PAGE = "dice.html"


def turn_page_name(turn: int) -> str:
    return f"turn-{turn:03d}.html"


def check_site_url(value: object, where: str = "site_url") -> str | None:
    """``value`` as a base address ending without '/', or None when unset; anything but an http(s)
    address is refused in one line."""
    if value in (None, "", False):
        return None
    text = str(value).strip()
    if not isinstance(value, str) or not text.lower().startswith(("http://", "https://")) or any(
            c.isspace() or c in '<>"' for c in text) or len(text) <= len("https://"):
        raise UsageError(f"{where} is the web address of the campaign's site (https://...), not {value!r}")
    return text.rstrip("/")


def site_url(campaign: Campaign) -> str | None:
    return check_site_url(campaign.config.get("site_url"), f"{campaign.path / 'campaign.yaml'}: site_url")


def turn_page_url(campaign: Campaign, turn: int) -> str | None:
    base = site_url(campaign)
    return f"{base}/{turn_page_name(turn)}" if base else None


def site_links(campaign: Campaign, turn: int | None = None) -> dict[str, str] | None:
    """{"site", "players", "dice" and, given a turn, "turn"}: the addresses reports and replies link
    to; None without ``site_url``."""
    base = site_url(campaign)
    if not base:
        return None
    links = {"site": f"{base}/", "players": f"{base}/{PLAYERS_PAGE}", "dice": f"{base}/{DICE_PAGE}"}
    if turn is not None:
        links["turn"] = f"{base}/{turn_page_name(turn)}"
    return links
