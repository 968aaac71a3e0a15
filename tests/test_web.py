"""The players' web door against the real server: `gm serve` (uvicorn) on 127.0.0.1 on a free port,
started here and stopped after; every status code, field name and security promise of the contract
(docs/web.md, DESIGN.md "The players' web door")."""
from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gm.store.campaign import Campaign
from gm.store.receipts import receipt
from test_web_support import GM, Client, Server, gm, link, make_campaign

GOOD = "round 1: (0203) 0204"


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("web") / "campaigns"
    base.mkdir()
    make_campaign(base, "rr", "railway-rivals", ["ann", "bob"])
    make_campaign(base, "leaving", "railway-rivals", ["ann", "bob", "cat"])
    make_campaign(base, "early", "railway-rivals", ["ann", "bob"], early=True)
    make_campaign(base, "tt", "thurn-und-taxis", ["ann", "bob"])
    make_campaign(base / "league", "net", "network", ["ann", "dan"])
    zoned = make_campaign(base, "zoned", "railway-rivals", ["ann", "bob"], deadline="2030-01-05T18:00+00:00")
    config = yaml.safe_load((zoned / "campaign.yaml").read_text())
    config["players"][0]["zone"] = "America/New_York"
    (zoned / "campaign.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return base


@pytest.fixture(scope="module")
def server(root):
    with Server(root) as running:
        yield running


@pytest.fixture
def ann(server, root) -> Client:
    client = Client(server.port)
    assert client.sign_in(link(root / "rr", "ann")).status == 303
    return client


# ---- signing in ----------------------------------------------------------------------------------
def test_sign_in_sets_a_signed_httponly_samesite_cookie_and_redirects_to_me(server, root):
    client = Client(server.port)
    reply = client.sign_in(link(root / "rr", "ann"))
    assert reply.status == 303 and reply.headers["location"] == "/c/rr/me"
    cookie = reply.cookies[0].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
    assert client.get("/c/rr/me").status == 200
    name, _, value = client.cookie.partition("=")
    forged = f"{name}={value[:-2]}{'AA' if value[-2:] != 'AA' else 'BB'}"  # the signature no longer matches
    assert client.get("/c/rr/me", cookie=forged).status == 303


def test_without_a_session_me_redirects_to_a_page_saying_how_to_sign_in(server):
    client = Client(server.port)
    reply = client.get("/c/rr/me")
    assert reply.status == 303 and reply.headers["location"] == "/signin"
    page = client.get("/signin")
    assert page.status == 200 and "link in your report mail" in page.text
    assert client.post("/c/rr/orders", {"orders": GOOD, "csrf": "x"}).status == 403
    assert client.post("/c/rr/check", {"orders": GOOD}).status == 403


def test_link_is_stable_until_new_replaces_it_and_the_old_one_stops_at_once(server, root):
    first = link(root / "rr", "bob")
    assert link(root / "rr", "bob") == first and first.startswith("/signin/")
    signed = Client(server.port)
    assert signed.sign_in(first).status == 303
    second = link(root / "rr", "bob", new=True)
    assert second != first
    assert Client(server.port).sign_in(first).status == 403
    assert signed.get("/c/rr/me").status == 303  # the session the old token opened has ended too
    assert Client(server.port).sign_in(second).status == 303


def test_link_is_a_full_url_with_serve_url_and_report_mail_carries_it(root, tmp_path):
    folder = make_campaign(tmp_path, "mailed", "railway-rivals", ["ann", "bob"],
                           serve_url="https://gm.example.org/", mail={"from": "GM <gm@example.org>"})
    url = link(folder, "ann")
    assert re.fullmatch(r"https://gm\.example\.org/signin/[A-Za-z0-9_-]{32}", url)
    from gm.delivery.mail.outbox import report_message
    body = report_message(Campaign(folder), 0, "ann").get_body(("plain",)).get_content()
    assert url in body
    other = report_message(Campaign(folder), 0, "bob").get_body(("plain",)).get_content()
    assert url not in other and link(folder, "bob") in other


def test_gm_link_errors_are_one_line(root):
    result = gm("link", str(root / "rr"), "zed", check=False)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "unknown player 'zed'" in result.stderr
    result = gm("serve", str(root / "nowhere"), check=False)
    assert result.returncode == 2 and "no such folder" in result.stderr and "Traceback" not in result.stderr


def test_gm_help_does_not_load_the_web_framework():
    code = "import sys, gm.cli; assert not {'starlette', 'uvicorn'} & set(sys.modules), 'loaded'"
    subprocess.run([sys.executable, "-c", code], check=True)


# ---- the player's page -------------------------------------------------------------------------------
def test_me_shows_the_report_as_the_mail_holds_it_the_form_and_a_csrf_field(ann, root):
    reply = ann.get("/c/rr/me")
    assert reply.status == 200
    report = (root / "rr" / "turns" / "000" / "reports" / "ann.txt").read_text()
    shown = re.search(r'<pre id="report-text">(.*?)</pre>', reply.text, re.DOTALL).group(1)
    assert html.unescape(shown) == report
    assert re.search(r'<textarea name="orders"', reply.text)
    assert re.search(r'<input type="hidden" name="csrf" value="[^"]{20,}"', reply.text)
    assert "round 1:" in reply.text  # the order form pre-filled
    assert 'id="deadline"' in reply.text


def test_a_csp_without_inline_script_on_every_page(ann):
    for path in ("/c/rr/me", "/signin", "/c/rr/"):
        reply = ann.get(path)
        csp = reply.headers["content-security-policy"]
        script = re.search(r"script-src ([^;]*)", csp).group(1)
        assert script.strip() == "'self'", csp
        assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", reply.text) is None, path  # no inline script at all
    assert ann.get("/c/rr/me").headers["referrer-policy"] == "no-referrer"


def test_the_deadline_is_shown_in_the_players_zone(server, root):
    ann, bob = Client(server.port), Client(server.port)
    ann.sign_in(link(root / "zoned", "ann"))
    bob.sign_in(link(root / "zoned", "bob"))
    shown = re.search(r'<p id="deadline">(.*?)</p>', ann.get("/c/zoned/me").text).group(1)
    assert "Sat 2030-01-05 13:00 EST (America/New_York) = 18:00 UTC" in shown
    assert "Sat 2030-01-05 18:00 UTC" in bob.get("/c/zoned/me").text


# ---- checking -------------------------------------------------------------------------------------------
def test_check_answers_errors_with_line_col_message_and_notes(ann):
    reply = ann.post("/c/rr/check", {"orders": "round 1: (0203) 0303 zzzz\nround 9: x"})
    assert reply.status == 200 and reply.headers["content-type"].startswith("application/json")
    result = reply.json()
    assert set(result) == {"errors", "notes"}
    assert [set(e) for e in result["errors"]] == [{"line", "col", "message"}] * len(result["errors"])
    assert result["errors"][0]["line"] == 1 and "zzzz" in result["errors"][0]["message"]
    assert any(e["line"] == 2 for e in result["errors"])
    clean = ann.post("/c/rr/check", {"orders": GOOD}).json()
    assert clean["errors"] == [] and clean["notes"]


def test_player_and_turn_lines_are_optional_but_must_match(ann):
    assert ann.post("/c/rr/check", {"orders": f"player: ann\nturn: 1\n{GOOD}"}).json()["errors"] == []
    wrong_turn = ann.post("/c/rr/check", {"orders": f"turn: 4\n{GOOD}"}).json()["errors"]
    assert wrong_turn and wrong_turn[0]["line"] == 1 and "turn 4" in wrong_turn[0]["message"]
    other = ann.post("/c/rr/check", {"orders": f"player: Bob\n{GOOD}"})
    assert other.status == 403 and "only your own orders" in other.json()["errors"][0]["message"]


# ---- storing ----------------------------------------------------------------------------------------
def test_clean_orders_are_stored_as_mail_intake_stores_them_with_a_receipt(ann, root):
    csrf = ann.csrf("rr")
    text = f"# my plan\n{GOOD}   \n\n"
    reply = ann.post("/c/rr/orders", {"orders": text, "csrf": csrf})
    assert reply.status == 303 and reply.headers["location"] == "/c/rr/me"
    stored = (root / "rr" / "turns" / "001" / "orders" / "ann.txt").read_text()
    assert stored == f"player: ann\nturn: 1\n{GOOD}\n"  # the canonical text mail intake stores
    page = ann.get("/c/rr/me").text
    assert receipt(stored) in page and 'id="receipt"' in page
    assert GOOD in page  # the stored orders fill the form now
    log = yaml.safe_load((root / "rr" / "web" / "log.yaml").read_text())
    assert log[-1]["player"] == "ann" and log[-1]["receipt"] == receipt(stored) and log[-1]["turn"] == 1


def test_the_mail_path_and_the_web_path_store_the_same(server, tmp_path):
    """The same text sent by mail (gm mail fetch) and on the web is stored byte for byte alike,
    with the same receipt, in two copies of one campaign."""
    import mailbox
    import shutil
    from email.message import EmailMessage

    from gm.delivery.mail.inbox import inbox_settings
    from gm.delivery.mail.intake import fetch
    text = "Hello GM,\n\nplayer: Ann\n# my plan\nRound 1: (0203)   0204\n\n-- \nAnn"
    web = make_campaign(tmp_path / "web", "same", "railway-rivals", ["ann", "bob"],
                        mail={"from": "GM <gm@example.org>"})
    mailed = tmp_path / "mailed"
    shutil.copytree(web, mailed)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "ann@example.org", "gm@example.org", "orders"
    message["Date"], message["Message-ID"] = "Wed, 02 Dec 2026 00:00:00 +0000", "<1@example.org>"
    message.set_content(text)
    box = mailbox.Maildir(str(tmp_path / "box"), create=True)
    box.add(bytes(message))
    outcome = fetch(Campaign(mailed), inbox_settings(Campaign(mailed), maildir=str(tmp_path / "box"))).outcomes[0]
    assert outcome.status == "stored", (outcome.line, outcome.errors)
    with Server(tmp_path / "web") as own:
        client = Client(own.port)
        client.sign_in(link(web, "ann"))
        assert client.post("/c/same/orders", {"orders": text, "csrf": client.csrf("same")}).status == 303
        page = client.get("/c/same/me").text
    by_mail = (mailed / "turns" / "001" / "orders" / "ann.txt").read_bytes()
    assert (web / "turns" / "001" / "orders" / "ann.txt").read_bytes() == by_mail
    assert outcome.receipt == receipt(by_mail.decode()) and outcome.receipt in page


def test_orders_with_errors_are_refused_422_with_every_error_and_nothing_stored(ann, root):
    before = (root / "rr" / "turns" / "001" / "orders" / "ann.txt").read_text() \
        if (root / "rr" / "turns" / "001" / "orders" / "ann.txt").exists() else None
    reply = ann.post("/c/rr/orders", {"orders": "round 1: (0203) zzzz\nround 2: (0203) yyyy", "csrf": ann.csrf("rr")})
    assert reply.status == 422
    assert "zzzz" in reply.text and "yyyy" in reply.text and "orders:1:" in reply.text and "orders:2:" in reply.text
    assert "round 2: (0203) yyyy" in reply.text  # what was sent stays in the form
    refused = ann.post("/c/rr/orders", {"orders": "Password: hunter22\nround 1: (0203) zzzz", "csrf": ann.csrf("rr")})
    assert refused.status == 422 and "hunter22" not in refused.text and "zzzz" in refused.text
    after = (root / "rr" / "turns" / "001" / "orders" / "ann.txt")
    assert (after.read_text() if after.exists() else None) == before


def test_a_missing_or_wrong_csrf_is_refused_403_and_changes_nothing(server, root):
    client = Client(server.port)
    client.sign_in(link(root / "leaving", "cat"))
    path = root / "leaving" / "turns" / "001" / "orders" / "cat.txt"
    for form in ({"orders": GOOD}, {"orders": GOOD, "csrf": "wrong"}, {"orders": GOOD, "csrf": ""}):
        assert client.post("/c/leaving/orders", form).status == 403
        assert client.post("/c/leaving/press", {**form, "to": "all", "text": "hi"}).status == 403
        assert client.post("/c/leaving/message", {**form, "text": "hi"}).status == 403
    assert not path.exists()
    assert not (root / "leaving" / "turns" / "001" / "press.yaml").exists()


def test_a_player_never_writes_another_players_orders(ann, root):
    bob_file = root / "rr" / "turns" / "001" / "orders" / "bob.txt"
    reply = ann.post("/c/rr/orders", {"orders": f"player: bob\n{GOOD}", "csrf": ann.csrf("rr")})
    assert reply.status == 403 and not bob_file.exists()


def test_a_player_never_reads_another_players_pictures(server, root):
    client = Client(server.port)
    client.sign_in(link(root / "tt", "ann"))
    page = client.get("/c/tt/me").text
    mine = re.findall(r'/c/tt/me/image/([\w.-]+\.png)', page)
    assert mine and all("-ann" in name or "bob" not in name for name in mine)
    reports = root / "tt" / "turns" / "000" / "reports"
    theirs = [p.name for p in reports.glob("*bob*.png")]
    assert theirs, "thurn-und-taxis draws a picture per viewer"
    for name in theirs:
        assert client.get(f"/c/tt/me/image/{name}").status == 403
    assert client.get(f"/c/tt/me/image/{mine[0]}").status == 200
    assert client.get("/c/tt/me/image/..%2Fsecret%2Fmaster.key").status in (403, 404)


def test_a_session_for_one_campaign_opens_no_other(ann):
    assert ann.get("/c/league/net/me").status == 303
    assert ann.post("/c/league/net/orders", {"orders": "x", "csrf": ann.csrf("rr")}).status == 403


def test_hidden_information_never_leaks_into_a_players_page(server, root):
    client = Client(server.port)
    client.sign_in(link(root / "tt", "ann"))
    page = html.unescape(client.get("/c/tt/me").text)
    reports = root / "tt" / "turns" / "000" / "reports"
    own = set(reports.joinpath("ann.txt").read_text().splitlines())
    secret = [line for line in reports.joinpath("bob.txt").read_text().splitlines()
              if line.strip() and line not in own and len(line.strip()) > 12]
    assert secret, "bob's report holds what ann may not see"
    assert not [line for line in secret if line in page]


def test_dropped_or_replaced_players_tokens_and_sessions_stop_at_once(server, root):
    folder = root / "leaving"
    ann_link, bob_link = link(folder, "ann"), link(folder, "bob")
    ann, bob = Client(server.port), Client(server.port)
    assert ann.sign_in(ann_link).status == 303 and bob.sign_in(bob_link).status == 303
    gm("player", str(folder), "ann", "--drop", "bot")
    assert ann.get("/c/leaving/me").status == 303
    assert Client(server.port).sign_in(ann_link).status == 403
    gm("player", str(folder), "bob", "--replace", "eve:Eve:eve@example.org")
    assert bob.get("/c/leaving/me").status == 303
    assert Client(server.port).sign_in(bob_link).status == 403
    eve_link = link(folder, "bob")  # the seat's new holder gets a link of their own
    assert eve_link != bob_link and Client(server.port).sign_in(eve_link).status == 303
    assert gm("link", str(folder), "ann", check=False).returncode == 2


def test_press_and_a_message_to_the_gm(ann, root):
    csrf = ann.csrf("rr")
    assert ann.post("/c/rr/press", {"to": "bob", "text": "Shall we share the pass?", "csrf": csrf}).status == 303
    press = yaml.safe_load((root / "rr" / "turns" / "001" / "press.yaml").read_text())
    assert press[-1]["from"] == "ann" and press[-1]["to"] == "bob"
    assert "Shall we share the pass?" in ann.get("/c/rr/me").text
    assert ann.post("/c/rr/press", {"to": "nobody", "text": "x", "csrf": csrf}).status == 422
    assert ann.post("/c/rr/message", {"text": "I am away next week", "csrf": csrf}).status == 303
    log = yaml.safe_load((root / "rr" / "web" / "log.yaml").read_text())
    assert log[-1]["kind"] == "message" and log[-1]["text"] == "I am away next week"
    listed = gm("inbox", str(root / "rr")).stdout  # the GM reads it where mailed messages are listed
    assert "I am away next week" in listed and "ann" in listed.lower()


def test_web_orders_resolve_early_at_the_next_pass(server, root):
    folder = root / "early"
    for player, line in (("ann", GOOD), ("bob", "round 1: (0908) 0808")):
        client = Client(server.port)
        client.sign_in(link(folder, player))
        assert client.post("/c/early/orders", {"orders": line, "csrf": client.csrf("early")}).status == 303
    gm("run", str(folder))
    assert Campaign(folder).last_turn == 1


def test_the_public_website_is_served(ann):
    reply = Client(ann.port).get("/c/rr/")
    assert reply.status == 200 and "<html" in reply.text.lower()
    assert "@example.org" not in reply.text
    assert Client(ann.port).get("/c/rr/dice.html").status == 200
    assert Client(ann.port).get("/c/rr/.gm-site.json").status == 404
    assert Client(ann.port).get("/c/nothing/").status == 404


def test_no_token_password_or_address_in_logs_or_pages(server, root, ann):
    token = link(root / "rr", "ann").rsplit("/", 1)[1]
    pages = [ann.get(p).text for p in ("/c/rr/me", "/c/rr/", "/signin")]
    log = server.log()
    assert "GET /signin/[token] 303" in log
    for text in pages + [log]:
        assert token not in text
        assert "@example.org" not in text
    assert "ann@example.org" not in "".join(ann.get("/c/rr/me").headers.values())


# ---- settings and limits: a server of their own (sign-in failures are counted per client address) ------
def test_secure_cookies_and_rate_limits(root, tmp_path):
    with Server(root, "--secure-cookies") as limited:
        client = Client(limited.port)
        good = link(root / "rr", "ann")
        assert "secure" in client.sign_in(good).cookies[0].lower()
        statuses = [Client(limited.port).get(f"/signin/{'x' * 32}").status for _ in range(12)]
        assert statuses[:10] == [403] * 10 and statuses[-1] == 429
        assert Client(limited.port).sign_in(good).status == 429  # the address waits, whatever it sends
        checks = [client.post("/c/rr/check", {"orders": GOOD}).status for _ in range(30)]
        assert 429 in checks and checks[0] == 200
        assert "retry-after" in client.post("/c/rr/check", {"orders": GOOD}).headers


def test_gm_serve_is_a_registered_command():
    out = subprocess.run([GM, "serve", "--help"], capture_output=True, text=True).stdout
    assert "--port" in out and "Example: gm serve" in out
    assert Path(GM).exists()
