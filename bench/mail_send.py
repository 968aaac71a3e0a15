"""`make bench`: mail going out through the one delivery path (never asserted; figures to read).

How much the last check before a message goes (headers.seal: strict policy, read back) costs
beside building the message, and what one message costs end to end to a loopback SMTP server."""
from __future__ import annotations

import shutil
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from aiosmtpd.controller import Controller  # noqa: E402

from gm.delivery.mail.deliver import Outgoing, deliver, report_items  # noqa: E402
from gm.delivery.mail.headers import seal  # noqa: E402
from gm.delivery.mail.outbox import reply_message  # noqa: E402
from gm.store.campaign import Campaign  # noqa: E402
from gm.store.fileio import write_yaml  # noqa: E402
from gm.turn.engine import new_campaign  # noqa: E402

PLAYERS = [f"p{i}:Player {i}:p{i}@example.org" for i in range(1, 3)]


class Sink:
    async def handle_DATA(self, server, session, envelope):
        return "250 OK"


def row(what: str, figure: str, goal: str = "") -> None:
    print(f"  {what:<58} {figure:>14}   {goal}")


def per_item(func, items, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for item in items:
            func(item)
        times.append((time.perf_counter() - start) / max(1, len(items)))
    return statistics.median(times)


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-mailout-"))
    try:
        camp = new_campaign(tmp / "camp", "network", PLAYERS, master=bytes(range(32)))
        build = per_item(lambda _i: report_items(camp, 0), [0])
        items, _notes = report_items(camp, 0)
        sealed = per_item(lambda o: seal(o.msg, to=o.to, key=o.key, message_id="<gm.x@example.org>"), items)
        row("report message built (network, turn 0), per player", f"{build / len(items) * 1000:.1f} ms")
        row("sealed before it goes (strict policy, read back)", f"{sealed * 1000:.2f} ms",
            f"{sealed / (build / len(items)):.2f}x of building it")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        controller = Controller(Sink(), hostname="127.0.0.1", port=port, ready_timeout=10)
        controller.start()
        try:
            data = dict(Campaign(camp.path).config)
            data["mail"] = {"from": "GM <gm@example.org>",
                            "smtp": {"host": "127.0.0.1", "port": port, "security": "none"}}
            write_yaml(camp.path / "campaign.yaml", data)
            camp = Campaign(camp.path)
            runs = []
            for run in range(3):
                replies = [Outgoing(f"reply:bench{run}-{i}", reply_message(camp, "p1", "s", "body\n" * 20),
                                    "p1@example.org", camp.path / "outbox" / "replies", f"b{run}-{i}")
                           for i in range(100)]
                start = time.perf_counter()
                deliver(camp, replies, send=True)
                runs.append((time.perf_counter() - start) / len(replies))
            row("100 replies sent to a loopback SMTP server, per message", f"{statistics.median(runs) * 1000:.1f} ms",
                "(sent log, gate, one connection)")
        finally:
            controller.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
