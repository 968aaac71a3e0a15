"""A turn is written whole or not at all: killed anywhere (a real SIGKILL of `gm resolve`, or a
child process ending itself between any two writes), the campaign shows the old turn or the new
one, whole; nothing of an unresolved turn is visible; leftovers never survive the next resolve;
one sync per turn; nothing is written through a symbolic link."""
from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gm.store import fileio, staging
from gm.turn import engine
from gm.store.campaign import Campaign
from gm.cli import main

TESTS = Path(__file__).resolve().parent
MASTER = bytes(range(32))
# `gm` with the test-only game registered, as the tests' conftest does
GM = [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv.pop(1)); from gm import games; "
      "games.register('guess', 'support.guessgame:GAME'); from gm.cli import main; main()", str(TESTS)]
ENV = {**os.environ, "GM_NOW": "2026-12-05T18:00Z", "MPLBACKEND": "Agg"}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def ready(tmp_path) -> Path:
    """A campaign with both players' orders stored for turn 1."""
    camp = tmp_path / "ready"
    engine.new_campaign(camp, "guess", ["ann", "bob"], master=MASTER)
    campaign = Campaign(camp)
    campaign.store_orders(1, "ann", "player: ann\nguess 4\n")
    campaign.store_orders(1, "bob", "player: bob\nguess 2\n")
    return camp


@pytest.fixture
def resolved(ready, tmp_path) -> dict[str, bytes]:
    """Turn 1's folder as an uninterrupted `gm resolve` writes it."""
    camp = tmp_path / "reference"
    shutil.copytree(ready, camp)
    subprocess.run([*GM, "resolve", str(camp)], env=ENV, check=True, capture_output=True)
    return _files(camp / "turns" / "001")


def _check_old_or_new(camp: Path, before: dict[str, bytes], after: dict[str, bytes]) -> str:
    """'old' or 'new', after asserting the turn's folder is exactly one of them (leftovers may be hidden)."""
    folder = _files(camp / "turns" / "001")
    visible = {k: v for k, v in folder.items() if not any(part.startswith(".") for part in Path(k).parts)}
    assert visible in (before, after), sorted(set(visible) ^ set(after))
    return "old" if visible == before else "new"


def _finish_and_check_clean(camp: Path, after: dict[str, bytes]) -> None:
    """Turn 1 resolved again if it was not, then turn 2: turn 1 whole and no leftover anywhere."""
    campaign = Campaign(camp)
    if not (camp / "turns" / "001" / "state.yaml").exists():
        engine.resolve(campaign)
    assert _files(camp / "turns" / "001") == after
    engine.resolve(campaign, force=True)
    hidden = [p for p in camp.rglob("*") if p.name.startswith(".")]
    assert hidden == []


def test_sigkill_of_gm_resolve_at_random_moments_leaves_the_old_or_the_new_turn_whole(ready, resolved, tmp_path):
    before = _files(ready / "turns" / "001")
    start = time.perf_counter()
    subprocess.run([*GM, "status", str(ready)], env=ENV, check=True, capture_output=True)
    startup = time.perf_counter() - start  # most of a resolve is starting Python: kill around its end
    rng = random.Random(17)
    outcomes = []
    for n in range(20):
        camp = tmp_path / f"try{n}"
        shutil.copytree(ready, camp)
        process = subprocess.Popen([*GM, "resolve", str(camp)], env=ENV, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(startup * rng.uniform(0.7, 1.6))
        process.send_signal(signal.SIGKILL)
        process.wait()
        outcomes.append(_check_old_or_new(camp, before, resolved))
        _finish_and_check_clean(camp, resolved)
    print("outcomes:", outcomes.count("old"), "old,", outcomes.count("new"), "new")


def _die_at(step: int, camp: Path) -> None:
    """In a child process: resolve, ending the process (no clean-up, like a kill) at write or swap
    ``step``; the parent waits."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        count = [0]

        def tick():
            count[0] += 1
            if count[0] == step:
                os._exit(9)

        write, exchange, sync = staging.StagedFolder.write, staging._exchange, staging._sync
        staging.StagedFolder.write = lambda self, *a: (tick(), write(self, *a))[1]
        staging._sync = lambda *a: (tick(), sync(*a))[1]
        staging._exchange = lambda *a: (tick(), exchange(*a), tick())[1]
        try:
            engine.resolve(Campaign(camp))
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def test_ended_between_any_two_writes_the_turn_is_old_or_new_and_the_next_resolve_cleans_up(ready, tmp_path):
    before = _files(ready / "turns" / "001")
    reference = tmp_path / "reference"
    shutil.copytree(ready, reference)
    engine.resolve(Campaign(reference))
    after = _files(reference / "turns" / "001")
    steps = len([k for k in after if not k.startswith("orders/")]) + 3
    seen = set()
    for step in range(1, steps + 1):
        camp = tmp_path / f"step{step}"
        shutil.copytree(ready, camp)
        _die_at(step, camp)
        seen.add(_check_old_or_new(camp, before, after))
        if step < steps - 1:
            assert not (camp / "turns" / "001" / "dice.yaml").exists()  # the seed is not revealed early
        _finish_and_check_clean(camp, after)
    assert seen == {"old", "new"}


def test_stale_temporary_files_do_not_survive_a_resolve(ready):
    orders = ready / "turns" / "001" / "orders"
    (orders / ".ann.txt.x1y2.tmp").write_text("half an order")
    (ready / "secret" / "dice").mkdir(parents=True, exist_ok=True)
    (ready / "secret" / "dice" / ".001.yaml.abcd.tmp").write_text("rolls: [")
    (ready / "turns" / ".001.staged").mkdir()
    (ready / "turns" / ".001.staged" / "dice.yaml").write_text("seed: revealed\n")
    engine.resolve(Campaign(ready))
    assert sorted(p.name for p in (ready / "turns").rglob(".*")) == []
    assert list((ready / "secret").rglob(".*")) == []
    assert sorted(p.name for p in orders.iterdir()) == ["ann.txt", "bob.txt"]


def test_one_sync_per_turn_not_one_per_file(ready, monkeypatch):
    calls = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd))[1])
    engine.resolve(Campaign(ready))
    written = len(list((ready / "turns" / "001").rglob("*")))
    assert written > 10
    assert len(calls) <= 3, f"{len(calls)} fsyncs for {written} files"


def test_without_an_atomic_swap_the_files_are_moved_in_with_the_state_last(ready, tmp_path, monkeypatch):
    reference = tmp_path / "reference"
    shutil.copytree(ready, reference)
    engine.resolve(Campaign(reference))
    order = []
    real_rename = os.rename
    monkeypatch.setattr(staging, "_exchange", lambda a, b: False)
    monkeypatch.setattr(os, "rename", lambda a, b: (order.append(Path(b).name), real_rename(a, b))[1])
    engine.resolve(Campaign(ready))
    assert _files(ready / "turns" / "001") == _files(reference / "turns" / "001")
    assert order[-1] == "state.yaml" and "dice.yaml" in order


def test_a_symlinked_reports_folder_is_refused_and_nothing_is_written_through_it(ready, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (ready / "turns" / "001" / "reports").symlink_to(outside)
    result = CliRunner().invoke(main, ["resolve", str(ready)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "symbolic link" in result.output
    assert list(outside.iterdir()) == []
    assert not (ready / "turns" / "001" / "state.yaml").exists()


def test_atomic_write_replaces_a_symlink_and_never_writes_through_it(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    link = tmp_path / "report.txt"
    link.symlink_to(outside)
    fileio.atomic_write(link, "new report")
    assert outside.read_text() == "keep me"
    assert not link.is_symlink() and link.read_text() == "new report"


def test_a_killed_gm_new_can_be_made_again(tmp_path):
    camp = tmp_path / "camp"
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child dies once campaign.yaml is written, before turn 000
        engine.write_resolved = lambda *a, **k: os._exit(9)
        try:
            engine.new_campaign(camp, "guess", ["ann", "bob"], master=MASTER)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert (camp / "campaign.yaml").exists() and not (camp / "turns" / "000").exists()
    result = CliRunner().invoke(main, ["new", "guess", str(camp), "--player", "ann", "--player", "bob"])
    assert result.exit_code == 0, result.output
    assert (camp / "turns" / "000" / "state.yaml").is_file()
    again = CliRunner().invoke(main, ["new", "guess", str(camp), "--player", "ann", "--player", "bob"])
    assert again.exit_code == 2 and "not empty" in again.output


def test_gm_new_still_refuses_a_folder_with_other_files(tmp_path):
    camp = tmp_path / "camp"
    camp.mkdir()
    (camp / "campaign.yaml").write_text("game: guess\n")
    (camp / "notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["new", "guess", str(camp), "--player", "ann", "--player", "bob"])
    assert result.exit_code == 2 and (camp / "notes.txt").read_text() == "mine"
