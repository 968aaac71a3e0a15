"""Issue 17 item 6: the campaign lock is exclusive (an OS lock held for the lock's life), a killed
holder's lock frees itself, and a second gm is refused with the same one-line message as before."""
from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from gm.turn import engine
from gm.store.campaign import Campaign
from gm.store.errors import LockedError
from gm.store.lock import LOCK_FILE, campaign_lock

TRIES = 1000
CTX = multiprocessing.get_context("fork")


def _racer(base: str, tries: int, stale: bool, barrier, results) -> None:
    """One of two processes: for each try, meet the other at the barrier, then both go for the lock.
    A marker file created exclusively while holding the lock exposes any overlap."""
    held = refused = double = 0
    for n in range(tries):
        folder = Path(base) / f"{n:04d}"
        barrier.wait()
        try:
            with campaign_lock(folder):
                try:
                    marker = os.open(folder / "holder", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                except FileExistsError:
                    double += 1
                else:
                    held += 1
                    time.sleep(0.0005)  # widen the window in which a second holder would show
                    os.close(marker)
                    os.unlink(folder / "holder")
        except LockedError:
            refused += 1
    results.put((held, refused, double))


def _race(tmp_path: Path, *, stale: bool) -> tuple[int, int, int]:
    dead = _dead_pid()
    for n in range(TRIES):
        folder = tmp_path / f"{n:04d}"
        folder.mkdir()
        if stale:  # what a killed gm leaves: a lock file naming a process that is gone
            (folder / LOCK_FILE).write_text(str(dead))
    barrier, results = CTX.Barrier(2), CTX.Queue()
    procs = [CTX.Process(target=_racer, args=(str(tmp_path), TRIES, stale, barrier, results)) for _ in range(2)]
    for p in procs:
        p.start()
    counts = [results.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    held, refused, double = (sum(c[i] for c in counts) for i in range(3))
    print(f"\nlock race ({'with' if stale else 'without'} a stale lock file): {TRIES} tries, "
          f"{held} holds, {refused} refusals, {double} double holds")
    return held, refused, double


def _dead_pid() -> int:
    child = CTX.Process(target=os._exit, args=(0,))
    child.start()
    child.join()
    return child.pid


@pytest.mark.parametrize("stale", [False, True], ids=["clean", "stale-lock-file"])
def test_two_processes_never_hold_the_lock_together(tmp_path, stale):
    held, refused, double = _race(tmp_path, stale=stale)
    assert double == 0
    assert held + refused == 2 * TRIES and held >= TRIES  # every try: someone holds it
    assert not any((tmp_path / f"{n:04d}" / LOCK_FILE).exists() for n in range(TRIES))


def _hold_then_die(folder: str, ready, release) -> None:
    with campaign_lock(Path(folder)):
        ready.set()
        release.wait(30)
        os._exit(0)  # killed while holding: no clean-up runs


def test_a_killed_holders_lock_frees_itself(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_LOCK_WAIT", "0.2")
    ready, release = CTX.Event(), CTX.Event()
    child = CTX.Process(target=_hold_then_die, args=(str(tmp_path), ready, release))
    child.start()
    assert ready.wait(30)
    with pytest.raises(LockedError) as exc:
        with campaign_lock(tmp_path):
            pass
    assert str(exc.value) == (f"{tmp_path}: another gm (process {child.pid}) is working on this campaign; "
                              "try again when it has finished")
    release.set()
    child.join(30)
    assert (tmp_path / LOCK_FILE).exists()  # left behind by the killed process...
    with campaign_lock(tmp_path):  # ...and free all the same
        assert (tmp_path / LOCK_FILE).is_file()
    assert not (tmp_path / LOCK_FILE).exists()


def _hold(folder: str, ready, release) -> None:
    with Campaign(folder).lock():
        ready.set()
        release.wait(30)


def test_campaign_lock_refuses_a_second_gm_in_one_line(tmp_path, monkeypatch):
    """Another process waits GM_LOCK_WAIT seconds, then is refused in one line; the same process
    takes the lock again inside (re-entrant), and a waiting process gets it once it is free."""
    camp = tmp_path / "camp"
    engine.new_campaign(camp, "guess", ["ann", "bob"], master=bytes(32))
    ready, release = CTX.Event(), CTX.Event()
    child = CTX.Process(target=_hold, args=(str(camp), ready, release))
    child.start()
    assert ready.wait(30)
    monkeypatch.setenv("GM_LOCK_WAIT", "0.3")
    started = time.monotonic()
    with pytest.raises(LockedError, match=rf"another gm \(process {child.pid}\) is working on this campaign"):
        with Campaign(camp).lock():
            pass
    assert time.monotonic() - started >= 0.3  # it waited before giving up
    monkeypatch.setenv("GM_LOCK_WAIT", "20")
    CTX.Process(target=lambda: (time.sleep(0.3), release.set())).start()
    campaign = Campaign(camp)
    with campaign.lock():  # waits for the holder to finish
        with campaign.lock():  # re-entrant in one process
            pass
    child.join(30)


def test_a_symlinked_lock_file_is_not_followed(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("keep me")
    folder = tmp_path / "camp"
    folder.mkdir()
    (folder / LOCK_FILE).symlink_to(target)
    with pytest.raises(Exception) as exc:
        with campaign_lock(folder):
            pass
    assert "cannot take the campaign lock" in str(exc.value)
    assert target.read_text() == "keep me"
