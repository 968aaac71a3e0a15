"""Helpers for the `gm run` tests (no tests here): a loopback SMTP server that counts what each
address received, and a campaign wired to it and to a Maildir."""
from __future__ import annotations

import email
import email.policy
import socket
import threading
from collections import Counter
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from gm.cli import main


class Mailroom:
    """An aiosmtpd handler keeping every message it accepts; ``down`` refuses every message."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], email.message.EmailMessage]] = []
        self.down = False
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        if self.down:
            return "451 4.3.0 try again later"
        msg = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        with self.lock:
            self.received.append((list(envelope.rcpt_tos), msg))
        return "250 OK"

    def subjects(self, address: str) -> Counter:
        return Counter(str(m["Subject"]) for to, m in self.received if address in to)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def mailroom():
    room = Mailroom()
    port = free_port()
    controller = Controller(room, hostname="127.0.0.1", port=port, ready_timeout=10)
    controller.start()
    watchdog = threading.Timer(120, controller.stop)
    watchdog.daemon = True
    watchdog.start()
    room.port = port
    yield room
    watchdog.cancel()
    controller.stop()


def gm(*args, code: int | None = 0, env: dict[str, str] | None = None):
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    if code is not None:
        assert result.exit_code == code, result.output
    return result


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".run.lock"}
