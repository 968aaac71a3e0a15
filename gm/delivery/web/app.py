"""The web door as an ASGI application (Starlette), served by uvicorn (`gm serve`).

GET  /signin/TOKEN          session cookie, 303 to /c/CAMPAIGN/me
GET  /c/CAMPAIGN/me         the player's own page (gm.delivery.web.door.player_page)
POST /c/CAMPAIGN/check      orders=TEXT -> {"errors": [{"line", "col", "message"}], "notes": [...]}
POST /c/CAMPAIGN/orders     orders, csrf -> stored as mail intake stores, 303 to /me; 422; 403
POST /c/CAMPAIGN/press      to, text, csrf -> press, 303 to /me
POST /c/CAMPAIGN/message    text, csrf -> a note for the GM, 303 to /me
GET  /c/CAMPAIGN/           the public website (gm site), built on demand
CAMPAIGN is the campaign's folder under ROOT (its path, for a campaign in a sub-folder).

Security: signed HttpOnly SameSite=Lax session cookies (Secure with ``secure_cookies``), a CSRF
token per session on every form, rate limits on sign-in failures and checks, a CSP without inline
script, no token in any log line, and a player only ever reads and writes their own.
"""
from __future__ import annotations

import hmac
import logging
import os
import re
import secrets
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gm.delivery.site import build
from gm.delivery.web import door
from gm.delivery.web.cache import open_campaign
from gm.delivery.web.limits import RateLimit
from gm.delivery.web.tokens import holder_of, still_valid
from gm.store.errors import CampaignError, GMError, UsageError
from gm.turn.campaign_list import find_campaigns

HERE = Path(__file__).parent
MAX_BODY = 256 * 1024
COOKIE = "gm_session"
SESSION_DAYS = 30
_PASSWORD_LINE = re.compile(r"^[ \t]*password[ \t]*:.*(?:\r?\n|$)", re.IGNORECASE | re.MULTILINE)
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,120}")
log = logging.getLogger("gm.web")

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
# the public website (gm site) writes a few style attributes; its scripts are files, as here
SITE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")


@dataclass
class Settings:
    root: Path
    secure_cookies: bool = False          # behind HTTPS: cookies only over HTTPS
    session_key: bytes = b""
    signin_failures: tuple[int, float] = (10, 10 / 60)   # per client: burst, refill per second
    checks: tuple[int, float] = (20, 4.0)                # per player
    posts: tuple[int, float] = (10, 0.5)                 # per player: orders, press, messages


def session_key(root: Path) -> bytes:
    """The key that signs session cookies, kept in ROOT/.gm-web.key (made on first start, mode 600)."""
    path = root / ".gm-web.key"
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        pass
    except ValueError:
        raise UsageError(f"{path}: the session key is corrupt; delete it (players sign in again)") from None
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key.hex() + "\n")
    return key


# ---- the campaigns under ROOT ---------------------------------------------------------------------
class Campaigns:
    """Campaign folders by their key (the path under ROOT); looked for again when a key is unknown."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self._known: dict[str, Path] = {}
        self._stamp = 0.0
        self._guard = threading.Lock()
        self.refresh()

    def key_of(self, folder: Path) -> str:
        relative = folder.resolve().relative_to(self.root)
        return relative.as_posix() if relative.parts else folder.resolve().name

    def refresh(self) -> None:
        with self._guard:
            self._known = {self.key_of(p): p.resolve() for p in find_campaigns(self.root)}
            self._stamp = time.monotonic()

    def all(self) -> list[Path]:
        return list(self._known.values())

    def split(self, rest: str) -> tuple[str, Path, str] | None:
        """(key, folder, what follows) for a path under /c/, the longest key first."""
        for attempt in range(2):
            for key in sorted(self._known, key=len, reverse=True):
                if rest == key or rest.startswith(key + "/"):
                    return key, self._known[key], rest[len(key) + 1:]
            if attempt == 0 and time.monotonic() - self._stamp > 5:
                self.refresh()
        return None


# ---- pages ------------------------------------------------------------------------------------------
_env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(default=True),
                   undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return HTMLResponse(_env.get_template(name).render(**context), status_code=status)


def message_page(title: str, text: str, status: int) -> HTMLResponse:
    return page("message.html.j2", status, title=title, text=text)


# ---- the application ---------------------------------------------------------------------------------
def create_app(settings: Settings) -> Starlette:
    campaigns = Campaigns(settings.root)
    signin_limit = RateLimit(*settings.signin_failures)
    check_limit = RateLimit(*settings.checks)
    post_limit = RateLimit(*settings.posts)
    sites = SiteCache()

    async def how_to_sign_in(request: Request) -> Response:
        return message_page("Sign in", "Sign in with the link in your report mail (it ends in /signin/ and a "
                            "code). Lost it? Ask the GM for a new one.", 200)

    async def sign_in(request: Request) -> Response:
        client = _client(request)
        wait = signin_limit.allowed(client)
        if wait:
            return _too_many(wait, html=True)
        token = request.path_params["token"]
        found = await run_in_threadpool(_find_holder, campaigns, token)
        if found is None:
            signin_limit.take(client)
            return message_page("Link not valid", "This sign-in link is not valid (any more). The GM may have "
                                "sent you a new one; or ask the GM for one.", 403)
        key, holder = found
        who = dict(request.session.get("who") or {})
        who[key] = [holder.player, holder.fingerprint]
        request.session["who"] = who
        request.session.setdefault("csrf", secrets.token_urlsafe(24))
        return RedirectResponse(f"/c/{key}/me", status_code=303)

    async def sign_out(request: Request) -> Response:
        form = await _form(request)
        if form is None or not _csrf_ok(request, form):
            return message_page("Refused", "The form was not sent from your page (CSRF check failed).", 403)
        request.session.clear()
        return RedirectResponse("/signin", status_code=303)

    async def campaign_route(request: Request) -> Response:
        found = campaigns.split(request.path_params["rest"])
        if found is None:
            return message_page("Not found", "There is no such campaign here.", 404)
        key, folder, what = found
        if request.method == "GET" and what != "me" and not what.startswith("me/"):
            return await run_in_threadpool(sites.serve, key, folder, what)
        me = _signed_in(request, key, folder)
        if request.method == "GET":
            if me is None:
                return RedirectResponse("/signin", status_code=303)
            if what == "me":
                return await _me_page(request, key, folder, me)
            if what.startswith("me/image/") or what.startswith("me/hotspots/"):
                return await run_in_threadpool(_picture, folder, me, what)
            return message_page("Not found", "There is no such page.", 404)
        handler = {"check": _check, "orders": _orders, "press": _press, "message": _message}.get(what)
        if handler is None:
            return message_page("Not found", "There is no such page.", 404)
        if me is None:
            if what == "check":
                return JSONResponse({"errors": [{"line": None, "col": None, "message": "not signed in"}],
                                     "notes": []}, status_code=403)
            return message_page("Not signed in", "Sign in with the link in your report mail first.", 403)
        return await handler(request, key, folder, me)

    async def _me_page(request: Request, key: str, folder: Path, me: str, *, status: int = 200,
                       text: str | None = None, errors: list[str] | None = None, problem: str = "") -> Response:
        info = await run_in_threadpool(door.player_page, open_campaign(folder), me)
        return page("me.html.j2", status, p=info, key=key, csrf=request.session.get("csrf", ""),
                    text=info.orders if text is None else text, errors=errors or [], problem=problem)

    async def _check(request: Request, key: str, folder: Path, me: str) -> Response:
        wait = check_limit.take(f"{key}\0{me}")
        if wait:
            return _too_many(wait)
        form = await _form(request)
        if form is None:
            return JSONResponse({"errors": [{"line": None, "col": None, "message": "the orders are too long"}],
                                 "notes": []}, status_code=413)
        try:
            result = await run_in_threadpool(door.check, open_campaign(folder), me, form.get("orders", ""))
        except door.Forbidden as exc:
            return JSONResponse({"errors": [{"line": 1, "col": 1, "message": str(exc)}], "notes": []},
                                status_code=403)
        return JSONResponse(result.as_json())

    async def _orders(request: Request, key: str, folder: Path, me: str) -> Response:
        form, refusal = await _checked_form(request, key, me, "The orders are too long for one form.",
                                            "nothing was stored. Reload your page and send again.")
        if refusal is not None:
            return refusal
        text = form.get("orders", "")
        try:
            result, _receipt = await run_in_threadpool(door.submit, open_campaign(folder), me, text)
        except door.Forbidden as exc:
            return message_page("Refused", str(exc), 403)
        except door.Busy as exc:
            return await _me_page(request, key, folder, me, status=503, text=text, problem=str(exc))
        if not result.ok:  # what was sent stays in the form, but never a password
            return await _me_page(request, key, folder, me, status=422, text=_PASSWORD_LINE.sub("", text),
                                  errors=result.located)
        return RedirectResponse(f"/c/{key}/me", status_code=303)

    async def _press(request: Request, key: str, folder: Path, me: str) -> Response:
        return await _post_action(request, key, folder, me,
                                  lambda c, form: door.send_press(c, me, form.get("to", ""), form.get("text", "")))

    async def _message(request: Request, key: str, folder: Path, me: str) -> Response:
        return await _post_action(request, key, folder, me,
                                  lambda c, form: door.message_to_gm(c, me, form.get("text", "")))

    async def _checked_form(request: Request, key: str, me: str, too_long: str, nothing_done: str):
        """(form, None) for a form that may be acted on, else (None, the refusal): too long (413),
        not sent from the player's page (CSRF, 403), or over the rate limit (429)."""
        form = await _form(request)
        if form is None:
            return None, message_page("Too long", too_long, 413)
        if not _csrf_ok(request, form):
            return None, message_page("Refused", "The form was not sent from your page (CSRF check failed); "
                                      + nothing_done, 403)
        wait = post_limit.take(f"{key}\0{me}")
        if wait:
            return None, _too_many(wait, html=True)
        return form, None

    async def _post_action(request: Request, key: str, folder: Path, me: str, action) -> Response:
        form, refusal = await _checked_form(request, key, me, "The message is too long.", "nothing was sent.")
        if refusal is not None:
            return refusal
        try:
            await run_in_threadpool(action, open_campaign(folder), form)
        except (UsageError, door.Busy) as exc:
            return await _me_page(request, key, folder, me, status=422, problem=str(exc))
        return RedirectResponse(f"/c/{key}/me", status_code=303)

    def _signed_in(request: Request, key: str, folder: Path) -> str | None:
        entry = (request.session.get("who") or {}).get(key)
        if not entry or len(entry) != 2:
            return None
        player, print_ = entry
        try:
            valid = still_valid(open_campaign(folder), str(player), str(print_))
        except GMError:
            valid = False
        if not valid:  # token replaced, seat handed on, player dropped: the session ends here
            who = dict(request.session.get("who") or {})
            who.pop(key, None)
            request.session["who"] = who
            return None
        return str(player)

    routes = [
        Route("/", how_to_sign_in),
        Route("/signin", how_to_sign_in),
        Route("/signin/{token}", sign_in),
        Route("/signout", sign_out, methods=["POST"]),
        Route("/favicon.ico", lambda request: FileResponse(HERE / "static" / "favicon.svg",
                                                           media_type="image/svg+xml")),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
        Route("/c/{rest:path}", campaign_route, methods=["GET", "POST"]),
    ]
    app = Starlette(routes=routes, middleware=[
        Middleware(AccessLog),
        Middleware(SecurityHeaders),
        Middleware(SessionMiddleware, secret_key=settings.session_key.hex(), session_cookie=COOKIE,
                   max_age=SESSION_DAYS * 86400, same_site="lax", https_only=settings.secure_cookies),
    ], exception_handlers={Exception: _internal_error})
    return app


def _find_holder(campaigns: Campaigns, token: str):
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", token):
        return None
    for attempt in range(2):
        for folder in campaigns.all():
            try:
                holder = holder_of(open_campaign(folder), token)
            except GMError:
                continue
            if holder is not None:
                return campaigns.key_of(folder), holder
        if attempt == 0:
            campaigns.refresh()  # a campaign made since the server started
    return None


def _picture(folder: Path, me: str, what: str) -> Response:
    kind, _, name = what[len("me/"):].partition("/")
    campaign = open_campaign(folder)
    if not _SAFE_NAME.fullmatch(name):
        return message_page("Not found", "There is no such picture.", 404)
    if not door.image_allowed(campaign, me, name):
        exists = (campaign.turn_dir(campaign.last_turn) / "reports" / name).is_file()
        return message_page("Forbidden", "That picture is not in your report.", 403) if exists \
            else message_page("Not found", "There is no such picture.", 404)
    if kind == "hotspots":
        return JSONResponse(door.hotspots(campaign, name) or {"r": 0, "spots": {}})
    return FileResponse(campaign.turn_dir(campaign.last_turn) / "reports" / name, media_type="image/png",
                        headers={"Cache-Control": "private, no-store"})


async def _form(request: Request) -> dict[str, str] | None:
    """The urlencoded form, at most MAX_BODY bytes (None when longer)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    text = body.decode("utf-8", errors="replace")
    return dict(parse_qsl(text, keep_blank_values=True, max_num_fields=20))


def _csrf_ok(request: Request, form: dict[str, str]) -> bool:
    expected = request.session.get("csrf")
    given = form.get("csrf", "")
    return bool(expected) and hmac.compare_digest(str(expected).encode(), given.encode("utf-8", "replace"))


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _too_many(wait: float, *, html: bool = False) -> Response:
    headers = {"Retry-After": str(max(1, int(wait + 0.999)))}
    if html:
        response = message_page("Too many requests", "Too many attempts; wait a little and try again.", 429)
        response.headers.update(headers)
        return response
    return JSONResponse({"errors": [{"line": None, "col": None, "message": "too many checks; wait a moment"}],
                         "notes": []}, status_code=429, headers=headers)


async def _internal_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, CampaignError):
        log.error("campaign problem on %s: %s", _shown_path(request.url.path), exc)
    else:
        log.exception("internal error on %s", _shown_path(request.url.path))
    return message_page("Something went wrong", "The server met a problem; nothing was changed. The GM can "
                        "see what in the server's log.", 500)


# ---- the public website ---------------------------------------------------------------------------------
class SiteCache:
    """Each campaign's website (gm site), built into a private folder and rebuilt when a turn is added."""

    def __init__(self):
        self.base = Path(tempfile.mkdtemp(prefix="gm-serve-sites-"))
        self._built: dict[str, int] = {}
        self._guard = threading.Lock()

    def serve(self, key: str, folder: Path, what: str) -> Response:
        parts = [p for p in what.split("/") if p] or ["index.html"]
        if not all(_SAFE_NAME.fullmatch(p) for p in parts):
            return message_page("Not found", "There is no such page.", 404)
        campaign = open_campaign(folder)
        out = self.base / re.sub(r"[^A-Za-z0-9._-]", "_", key)
        with self._guard:
            if self._built.get(key) != campaign.last_turn:
                build(campaign, out)
                self._built[key] = campaign.last_turn
        path = out.joinpath(*parts)
        if not path.is_file() or parts[0].startswith("."):
            return message_page("Not found", "There is no such page.", 404)
        response = FileResponse(path)
        response.headers["Content-Security-Policy"] = SITE_CSP
        return response


# ---- middleware -------------------------------------------------------------------------------------
class SecurityHeaders:
    """CSP (no inline script), no sniffing, no referrer (a sign-in link never leaves in one), no framing."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers += [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                            (b"x-frame-options", b"DENY")]
                if b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, sending)


def _shown_path(path: str) -> str:
    """A path as the log may show it: never a sign-in token."""
    return "/signin/[token]" if path.startswith("/signin/") else path[:200]


class AccessLog:
    """One line per request: client, method, path (a token never), status, milliseconds. No query string,
    no cookie, no form field is ever logged."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start, status = time.perf_counter(), [0]

        async def sending(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            client = scope.get("client") or ("?", 0)
            log.info("%s %s %s %d %.0fms", client[0], scope["method"], _shown_path(scope["path"]), status[0],
                     (time.perf_counter() - start) * 1000)
