"""Headless Chromium driven over the DevTools protocol through a pipe (``--remote-debugging-pipe``):
the standard library only, no browser download, no WebDriver. The site's tests use it to open
pages as a reader would (console errors, sideways overflow at a given width, the dice check) and
the docs' screenshots are taken with it. docs/site.md says why this driver.
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--mute-audio")


class BrowserError(RuntimeError):
    """Chromium could not start or did not answer."""


def find_chromium() -> str | None:
    for name in (os.environ.get("GM_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and (path := shutil.which(name)):
            return path
    return None


def _above_nine(fd: int) -> int:
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class Browser:
    """One headless Chromium; ``page()`` opens a tab. Use as a context manager."""

    def __init__(self, executable: str | None = None, *, timeout: float = 30.0):
        executable = executable or find_chromium()
        if not executable:
            raise BrowserError("no Chromium found (apt-get install chromium)")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="gm-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # bash puts the child's pipe ends on the fds Chromium reads (3) and writes (4); they are
        # first moved above 9 so that neither is 3 or 4 already (dash would take one digit only)
        to_chrome_r, from_chrome_w = _above_nine(to_chrome_r), _above_nine(from_chrome_w)
        command = [shutil.which("bash") or "/bin/bash", "-c", f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w}',
                   executable,
                   *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={self.profile}", "about:blank"]
        try:
            self.process = subprocess.Popen(command, pass_fds=(to_chrome_r, from_chrome_w),
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        finally:
            os.close(to_chrome_r)
            os.close(from_chrome_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        try:
            self.call("Browser.getVersion")
        except BrowserError:
            self.close()
            raise

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if getattr(self, "process", None) and self.process.poll() is None:
            try:
                self._send({"id": -1, "method": "Browser.close"})
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired, BrowserError):
                self.process.kill()
                self.process.wait()
        for fd in ("_to_chrome", "_from_chrome"):
            try:
                os.close(getattr(self, fd))
            except (OSError, AttributeError):
                pass
            setattr(self, fd, -1)
        shutil.rmtree(self.profile, ignore_errors=True)

    # ---- the protocol -------------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self._to_chrome, data):]
        except OSError as exc:
            raise BrowserError(f"Chromium has gone ({exc})") from None

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("Chromium did not answer in time")
            ready, _, _ = select.select([self._from_chrome], [], [], left)
            if ready:
                chunk = os.read(self._from_chrome, 1 << 16)
                if not chunk:
                    raise BrowserError("Chromium closed the DevTools pipe (did it start?)")
                self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float | None = None) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self._send(message)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def page(self, width: int = 1280, height: int = 900, *, dark: bool = False) -> Page:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, session, width, height, dark=dark)


class Page:
    """One tab of the browser, at one viewport width."""

    def __init__(self, browser: Browser, session: str, width: int, height: int, *, dark: bool):
        self.browser, self.session = browser, session
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        self.call("Emulation.setEmulatedMedia",
                  {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float | None = None) -> dict[str, Any]:
        return self.browser.call(method, params, self.session, timeout)

    def open(self, url: str | Path) -> None:
        """Load ``url`` (a path opens as file://) and wait until it has loaded."""
        url = Path(url).resolve().as_uri() if isinstance(url, Path) or "://" not in str(url) else str(url)
        self.browser.events = [e for e in self.browser.events if e.get("sessionId") != self.session]
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'")

    def evaluate(self, expression: str, timeout: float | None = None) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, timeout)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}: {result['exceptionDetails'].get('text')}")
        return result.get("result", {}).get("value")

    def wait_for(self, condition: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.evaluate(f"!!({condition})"):
            if time.monotonic() > deadline:
                raise BrowserError(f"waited {timeout:.0f} s for {condition}")
            time.sleep(0.05)

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads of this tab since it was opened."""
        out = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                out.append(params["exceptionDetails"].get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                out.append(f"{params['entry'].get('text')} {params['entry'].get('url', '')}".strip())
        return out

    def overflow(self) -> dict[str, int]:
        """The page's width against the screen's: scroll > inner is sideways scrolling. (Under mobile
        emulation window.innerWidth grows with a page wider than the screen, so the screen's width
        is the root element's clientWidth.)"""
        return self.evaluate("({scroll: document.documentElement.scrollWidth, "
                             "inner: document.documentElement.clientWidth})")

    def screenshot(self, out: str | Path, *, max_height: int = 2400) -> None:
        """A PNG of the page from the top, as tall as the page (at most ``max_height``)."""
        size = self.call("Page.getLayoutMetrics")["cssContentSize"]
        width = self.evaluate("window.innerWidth")
        clip = {"x": 0, "y": 0, "width": width, "height": min(size["height"], max_height), "scale": 1}
        data = self.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})
        Path(out).write_bytes(base64.b64decode(data["data"]))


def screenshots(site: Path, out: Path, pages: list[str], widths: tuple[int, ...] = (360, 1280)) -> list[Path]:
    """PNGs of a built site's pages at each width, light and dark (the docs' screenshots)."""
    out.mkdir(parents=True, exist_ok=True)
    made = []
    with Browser() as browser:
        for width in widths:
            for dark in (False, True):
                page = browser.page(width, dark=dark)
                for name in pages:
                    page.open(site / name)
                    if name == "dice.html":
                        page.wait_for("['done', 'error'].includes(document.body.dataset.diceState)")
                    stem = Path(name).stem.split("-")[0]
                    target = out / f"{site.name}-{stem}-{width}{'-dark' if dark else ''}.png"
                    page.screenshot(target)
                    made.append(target)
    return made


if __name__ == "__main__":  # python -m gm.delivery.site.browser SITE OUT [PAGE...]
    import sys
    site_folder, out_folder = Path(sys.argv[1]), Path(sys.argv[2])
    names = sys.argv[3:] or ["index.html", "dice.html"]
    for made_path in screenshots(site_folder, out_folder, names):
        print(made_path)
