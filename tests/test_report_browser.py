"""HTML reports as players read them: on a 360 px phone screen in real headless Chromium, nothing
makes the page scroll sideways (long receipts and seeds wrap, wide tables scroll inside
themselves). Outside CI a machine without Chromium skips; in CI (CI=true) these tests fail."""
from __future__ import annotations


import pytest

from gm.store.campaign import Campaign
from test_site_support import GAME_NAMES, seeded_campaign, start_chromium

PHONE = 360
# the page's own width against the screen's: window.innerWidth grows with the page under mobile
# emulation, so it cannot tell sideways scrolling
WIDTHS = "({page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth})"


@pytest.fixture(scope="module")
def phone():
    chromium = start_chromium()
    with chromium:
        yield chromium.page(PHONE)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_html_reports_fit_a_phone_screen(phone, name):
    campaign = Campaign(seeded_campaign(name))
    reports = campaign.turn_dir(campaign.last_turn) / "reports"
    pages = sorted(reports.glob("*.html"))
    assert {"gm.html", "public.html", "p1.html"} <= {p.name for p in pages}
    for page in pages:
        phone.open(page)
        widths = phone.evaluate(WIDTHS)
        assert widths["screen"] == PHONE and widths["page"] <= PHONE, (page.name, widths)
        assert phone.errors() == [], page.name
