"""The web door in a real browser: headless Chromium (the harness of gm/delivery/site/browser.py)
against the real server (`gm serve`, uvicorn, on 127.0.0.1). A player signs in through their link,
types orders and sees the server's errors as they type, stores them and sees the receipt, clicks a
route on the Railway Rivals map, and the page reads at 360 and 1280 px (no sideways scroll, no
console errors). Outside CI a machine without Chromium skips; in CI these fail."""
from __future__ import annotations

import json

import pytest

from test_site_support import start_chromium
from test_web_support import Server, link, make_campaign

WIDTHS = (360, 1280)


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    base = tmp_path_factory.mktemp("webb") / "campaigns"
    base.mkdir()
    make_campaign(base, "rr", "railway-rivals", ["ann", "bob", "cat", "dan"])
    return base


@pytest.fixture(scope="module")
def server(root):
    with Server(root) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    chromium = start_chromium()
    with chromium:
        yield chromium


def signed_in_tab(browser, server, root, player: str, width: int):
    """A fresh tab (its own cookie jar: a new browser context) signed in as ``player``."""
    context = browser.call("Target.createBrowserContext")["browserContextId"]
    target = browser.call("Target.createTarget", {"url": "about:blank", "browserContextId": context})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    from gm.delivery.site.browser import Page
    page = Page(browser, session, width, 900, dark=False)
    page.open(server.url + link(root / "rr", player))
    assert page.evaluate("location.pathname") == "/c/rr/me"
    return page


def type_orders(page, text: str) -> None:
    """Replace the orders as a person types: focus, select all, insert the text (input events fire)."""
    page.evaluate("(() => { const a = document.getElementById('orders'); a.focus(); a.select(); })()")
    page.call("Input.insertText", {"text": text})


def check_state(page) -> dict:
    return page.evaluate("""(() => ({state: document.getElementById('check').dataset.state,
        text: document.getElementById('check').textContent}))()""")


def assert_reads_well(page, where: str) -> None:
    assert page.errors() == [], where
    size = page.overflow()
    assert size["scroll"] <= size["inner"], (where, size)


@pytest.mark.parametrize("width", WIDTHS)
def test_sign_in_type_see_live_errors_store_and_see_the_receipt(browser, server, root, width):
    player = {360: "ann", 1280: "bob"}[width]
    start = {"ann": "0203", "bob": "0908"}[player]
    page = signed_in_tab(browser, server, root, player, width)
    assert_reads_well(page, f"{width} fresh page")
    type_orders(page, f"round 1: ({start}) zzzz\nround 2: qqqq")
    page.wait_for("document.getElementById('check').dataset.state === 'errors'")
    shown = check_state(page)["text"]
    assert "zzzz" in shown and "line 1" in shown and "line 2" in shown
    type_orders(page, f"# first track\nround 1: ({start}) {'0204' if player == 'ann' else '0808'}")
    page.wait_for("document.getElementById('check').dataset.state === 'ok'")
    assert "No errors" in check_state(page)["text"]
    page.evaluate("document.getElementById('store').click()")
    page.wait_for("document.getElementById('receipt') !== null && document.readyState === 'complete'")
    receipt = page.evaluate("document.querySelector('#receipt code').textContent")
    stored = (root / "rr" / "turns" / "001" / "orders" / f"{player}.txt").read_text()
    from gm.store.receipts import receipt as receipt_of
    assert receipt == receipt_of(stored)
    assert_reads_well(page, f"{width} after storing")


def click_hex(page, label: str) -> None:
    """A real mouse click (DevTools Input events) on the middle of hex ``label`` of the map."""
    at = page.evaluate(f"""(async () => {{
        const map = document.getElementById('map');
        const spots = await (await fetch(map.dataset.hotspots)).json();
        const [x, y] = spots.spots[{json.dumps(label)}];
        let rect = map.getBoundingClientRect();
        window.scrollBy(0, rect.top + y * rect.height / map.naturalHeight - window.innerHeight / 2);
        rect = map.getBoundingClientRect();
        return {{x: rect.left + x * rect.width / map.naturalWidth, y: rect.top + y * rect.height / map.naturalHeight}};
    }})()""")
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", {"type": kind, "x": at["x"], "y": at["y"], "button": "left",
                                               "clickCount": 1})


@pytest.mark.parametrize("width", WIDTHS)
def test_clicking_a_route_on_the_map_writes_the_order_line_and_shows_the_check(browser, server, root, width):
    player = {360: "cat", 1280: "dan"}[width]
    page = signed_in_tab(browser, server, root, player, width)
    page.wait_for("document.getElementById('map').dataset.ready === 'yes' && document.getElementById('map').complete")
    page.evaluate("document.querySelectorAll('button.compose')[1].click()")  # round 2
    for label in ("0203", "0204", "0205"):
        click_hex(page, label)
    page.wait_for("document.getElementById('orders').value.includes('round 2: (0203) 0204 0205')")
    lines = page.evaluate("document.getElementById('orders').value").splitlines()
    assert [line for line in lines if line.startswith("round 2:")] == ["round 2: (0203) 0204 0205   # die "
                                                                       + lines[[ln.startswith("round 2:") for ln in
                                                                                lines].index(True)].split("# die ")[1]]
    page.wait_for("['ok', 'errors'].includes(document.getElementById('check').dataset.state)")
    shown = check_state(page)["text"]
    assert "round 2" in shown  # the server's own account of the round: pips against the die
    assert page.evaluate("document.querySelectorAll('#map-wrap .mark').length") == 3
    page.evaluate("document.getElementById('undo').click()")
    page.wait_for("document.getElementById('orders').value.includes('round 2: (0203) 0204   #')")
    assert_reads_well(page, f"{width} after clicking")
