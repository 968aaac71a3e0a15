"""`make bench`: fetching mail at scale (never asserted; figures to read).

A fetch should cost in proportion to the NEW messages, whatever the history: 1,000 messages should
take at most 12x as long as 100, and 10 new messages about as long with 1,000 already handled as
with none."""
from __future__ import annotations

import mailbox
import shutil
import statistics
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.store.campaign import Campaign  # noqa: E402
from gm.turn.engine import new_campaign  # noqa: E402
from gm.delivery.mail.inbox import inbox_settings  # noqa: E402
from gm.delivery.mail.intake import fetch  # noqa: E402

PLAYERS = [f"p{i}:Player {i}:p{i}@example.org" for i in range(1, 5)]


GAME = {"name": "network", "order": "place c{n}"}


def messages(n: int, start: int = 0) -> list[bytes]:
    out = []
    for i in range(start, start + n):
        msg = EmailMessage()
        player = f"p{1 + i % 2}" if i % 5 else "p3"  # p3: a stranger
        msg["From"] = f"{player}@example.org"
        msg["To"] = "gm@example.org"
        msg["Subject"] = "orders"
        msg["Date"] = f"Mon, 30 Nov 2026 {i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d} +0000"
        msg["Message-ID"] = f"<bench{i}@example.org>"
        order = GAME["order"].format(n=1 + i % 6)
        msg.set_content(f"player: {player}\n{order}\n" if i % 2 else "status\n")
        out.append(bytes(msg))
    return out


def campaign(folder: Path) -> Campaign:
    return new_campaign(folder, GAME["name"], PLAYERS[:2], master=bytes(range(32)))


def choose_game(tmp: Path) -> None:
    """Network, a real game; the tests' guess game when Network cannot be set up on this branch."""
    try:
        campaign(tmp / "probe")
    except Exception as exc:  # noqa: BLE001 - a figure is still worth having
        from gm import games
        sys.path.insert(0, str(ROOT / "tests"))
        games.register("guess", "support.guessgame:GAME")
        GAME.update(name="guess", order="guess {n}")
        print(f"  (network cannot be set up here: {type(exc).__name__}; using the tests' guess game)")


def timed_fetch(camp: Campaign, box: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds): CPU time is what the fetch itself costs, wall time includes
    waiting for the disk (fsync) and for the other work on a shared machine."""
    start, cpu = time.perf_counter(), time.process_time()
    fetch(camp, inbox_settings(camp, maildir=str(box)))
    return time.perf_counter() - start, time.process_time() - cpu


def one(tmp: Path, history: int, new: int) -> tuple[float, float]:
    """Seconds to fetch ``new`` messages into a campaign that has handled ``history`` already."""
    folder = tmp / f"run-{history}-{new}-{time.perf_counter_ns()}"
    camp = campaign(folder / "camp")
    box = mailbox.Maildir(str(folder / "box"), create=True)
    for raw in messages(history):
        box.add(raw)
    if history:
        fetch(camp, inbox_settings(camp, maildir=str(folder / "box")))
    for raw in messages(new, start=history):
        box.add(raw)
    seconds = timed_fetch(camp, folder / "box")
    shutil.rmtree(folder, ignore_errors=True)
    return seconds


def median(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def row(what: str, figure: str, goal: str = "") -> None:
    print(f"  {what:<58} {figure:>14}   {goal}")


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-mail-"))
    try:
        choose_game(tmp)
        hundred = median([one(tmp, 0, 100) for _ in range(3)])
        thousand = one(tmp, 0, 1000)
        ten = median([one(tmp, 0, 10) for _ in range(3)])
        ten_after = median([one(tmp, 1000, 10) for _ in range(2)])
        row("gm mail fetch: 100 messages (Maildir, orders and commands)", f"{hundred[0]:.2f} s",
            f"cpu {hundred[1]:.2f} s")
        row("gm mail fetch: 1,000 messages", f"{thousand[0]:.2f} s", f"cpu {thousand[1]:.2f} s")
        row("  1,000 / 100 messages (goal <= 12x)", f"{thousand[0] / hundred[0]:.1f}x wall",
            f"{thousand[1] / hundred[1]:.1f}x cpu")
        row("gm mail fetch: 10 new messages, no history", f"{ten[0] * 1000:.0f} ms", f"cpu {ten[1] * 1000:.0f} ms")
        row("gm mail fetch: 10 new messages, 1,000 in the history", f"{ten_after[0] * 1000:.0f} ms",
            f"cpu {ten_after[1] * 1000:.0f} ms")
        row("  with / without the history (goal ~1x)", f"{ten_after[0] / ten[0]:.1f}x wall",
            f"{ten_after[1] / ten[1]:.1f}x cpu")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
