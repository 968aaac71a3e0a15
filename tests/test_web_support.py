"""What the web door's tests share: campaigns under a root, the real server (`gm serve`, uvicorn) on
127.0.0.1 on a free port, started by the test and stopped after, and a small HTTP client that keeps
the session cookie and never follows redirects (so each status is seen as sent)."""
from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from gm.turn import engine

GM = str(Path(sys.executable).parent / "gm")
MASTER = bytes(range(32))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_campaign(root: Path, name: str, game: str, players: list[str], **config) -> Path:
    folder = root / name
    engine.new_campaign(folder, game, [f"{p}:{p.title()}:{p}@example.org" for p in players], master=MASTER, name=name)
    if config:
        import yaml
        data = yaml.safe_load((folder / "campaign.yaml").read_text())
        data.update(config)
        (folder / "campaign.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return folder


def gm(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([GM, *args], capture_output=True, text=True, timeout=120)
    if check and result.returncode != 0:
        raise AssertionError(f"gm {' '.join(args)}: {result.stderr}")
    return result


def link(folder: Path, player: str, *, new: bool = False) -> str:
    return gm("link", str(folder), player, *(["--new"] if new else [])).stdout.strip()


class Server:
    """`gm serve ROOT` in a subprocess on a free port of 127.0.0.1; its log in ``log_path``."""

    def __init__(self, root: Path, *extra: str):
        self.port = free_port()
        self.log_path = root.parent / f"serve-{self.port}.log"
        self._log = open(self.log_path, "wb")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen([GM, "serve", str(root), "--host", "127.0.0.1", "--port", str(self.port),
                                         *extra], stdout=self._log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"gm serve did not start: {self.log()}") from None
                time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    cookies: list[str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self):
        import json
        return json.loads(self.body)


class Client:
    """One browser-less player: keeps the session cookie, follows no redirects."""

    def __init__(self, port: int):
        self.port = port
        self.cookie: str | None = None

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                cookie: str | None = None) -> Reply:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        sent = cookie if cookie is not None else self.cookie
        if sent:
            headers["Cookie"] = sent
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        cookies = [v for k, v in response.getheaders() if k.lower() == "set-cookie"]
        for value in cookies:
            self.cookie = value.split(";", 1)[0]
        conn.close()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, cookies, data)

    def get(self, path: str, **kw) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, form: dict[str, str], **kw) -> Reply:
        return self.request("POST", path, form, **kw)

    def sign_in(self, link_path: str) -> Reply:
        return self.get(link_path[link_path.index("/signin/"):])

    def csrf(self, key: str) -> str:
        page = self.get(f"/c/{key}/me")
        found = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert found, page.text[:500]
        return found.group(1)
