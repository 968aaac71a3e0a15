"""Issue 22 item 8: every fault of the disk or of a file met by a `gm run` pass gives one clear line
naming the file or the setting, exit 1 or 2, never "internal error", and the turn whole (resolved
completely or not at all); once the fault is gone the next pass does the turn, once.

The full disk and the read-only folder are real when the tests may mount a small tmpfs (as root);
otherwise they are simulated at the write layer (os.open / os.replace raising ENOSPC or EROFS)."""
from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
import yaml
from test_mail_support import ANN, guess_campaign, maildir_with, message
from test_run_support import gm

from gm.automation.housekeeping import edit_player
from gm.store.campaign import Campaign
from gm.store.press import add_press

NOW = "2026-12-09T00:00Z"


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A campaign a pass has run over once: run.yaml, the sent and processed logs, a queued notice,
    press and orders for turn 1; its deadline has passed, so the next pass resolves turn 1."""
    tmp = tmp_path_factory.mktemp("base")
    box = maildir_with(tmp / "box", message("player: ann\nturn: 1\nguess 3\n", sender=ANN))
    camp = guess_campaign(tmp, schedule={"turn_length": "3d"}, deadline="2026-12-08T18:00Z", nmr_policy="default",
                          press="white",
                          mail={"from": "GM <gm@example.org>", "inbox": {"kind": "maildir", "path": str(box)}})
    os.environ["GM_NOW"] = "2026-12-08T12:00Z"
    try:
        camp.store_orders(1, "ann", "player: ann\nguess 2\n")
        add_press(camp, 1, "ann", "all", "Hello all", at=dt.datetime(2026, 12, 8, 12, tzinfo=dt.timezone.utc))
        edit_player(camp, "bob", email="bob@new.example.org")
        gm("run", camp.path)
    finally:
        del os.environ["GM_NOW"]
    for name in ("run.yaml", "outbox/sent-log.yaml", "inbox/processed-log.yaml", "outbox/notices/queue.yaml",
                 "turns/001/press.yaml", "turns/001/orders/ann.txt", "secret/master.key"):
        assert (camp.path / name).is_file(), name
    return camp.path


def _folder_for(name: str):
    def fault(camp: Path) -> None:
        path = camp / name
        if path.exists():
            path.unlink()
        path.mkdir(parents=True)
    return fault


def _setting(**values):
    def fault(camp: Path) -> None:
        path = camp / "campaign.yaml"
        data = yaml.safe_load(path.read_text())
        for key, value in values.items():
            if key == "schedule_zone":
                data["schedule"] = dict(data["schedule"], zone=value)
            else:
                data[key] = value
        path.write_text(yaml.safe_dump(data, sort_keys=False))
    return fault


def _run_lock_a_link(camp: Path) -> None:
    (camp / ".run.lock").unlink(missing_ok=True)
    (camp / ".run.lock").symlink_to(camp.parent / f"{camp.name}-never-made")


FAULTS = {
    "run-lock-a-link": (_run_lock_a_link, ".run.lock: is a symbolic link; gm does not follow it here"),
    # fault: (how, what the one line names)
    "run.yaml-a-folder": (_folder_for("run.yaml"), "run.yaml: is a folder where gm expects a file"),
    "sent-log-a-folder": (_folder_for("outbox/sent-log.yaml"), "sent-log.yaml: is a folder"),
    "processed-log-a-folder": (_folder_for("inbox/processed-log.yaml"), "processed-log.yaml: is a folder"),
    "queue-a-folder": (_folder_for("outbox/notices/queue.yaml"), "queue.yaml: is a folder"),
    "press-a-folder": (_folder_for("turns/001/press.yaml"), "press.yaml: is a folder"),
    "run-lock-a-folder": (_folder_for(".run.lock"), ".run.lock: is a folder"),
    "master-key-a-folder": (_folder_for("secret/master.key"), "master.key: the dice master secret is a folder"),
    "order-file-a-folder": (_folder_for("turns/001/orders/ann.txt"), "ann.txt: is a folder"),
    "absurd-grace": (_setting(grace="99999999d"), "campaign.yaml: grace '99999999d' is too long"),
    "absurd-grace-hours": (_setting(grace=10 ** 12), "campaign.yaml: grace '1000000000000' is too long"),
    "zone-of-300": (_setting(zone="Europe/" + "A" * 293), "campaign.yaml: zone 'Europe/AAAA"),
    "schedule-zone-of-300": (_setting(schedule_zone="B" * 300), "campaign.yaml: schedule.zone 'BBBB"),
    "deadline-in-year-1": (_setting(deadline="0001-01-01T00:00Z"), "campaign.yaml: deadline '0001-01-01T00:00Z' is "
                                                                   "out of range"),
    "deadline-in-year-9999": (_setting(deadline="9999-12-31T23:00Z"), "campaign.yaml: deadline '9999-12-31T23:00Z' is "
                                                                      "out of range"),
}


def _copy(base: Path, where: Path) -> Campaign:
    target = where / f"camp-{uuid.uuid4().hex[:8]}"
    shutil.copytree(base, target, symlinks=True)
    return Campaign(target)


def _turn_whole(camp: Path) -> list[int]:
    """The resolved turns; turn 1, when resolved, has every file of a resolved turn."""
    turns = Campaign(camp).resolved_turns() if (camp / "campaign.yaml").is_file() else [0]
    assert turns in ([0], [0, 1])
    if turns == [0, 1]:
        names = {p.name for p in (camp / "turns" / "001").iterdir()}
        assert {"state.yaml", "dice.yaml", "events.yaml", "settings.yaml", "reports"} <= names
        yaml.safe_load((camp / "turns" / "001" / "state.yaml").read_text())
    assert not (camp / "turns" / "001" / "opening.yaml").exists() or turns == [0, 1]
    return turns


def _one_clear_line(result, names: str) -> str:
    assert result.exit_code in (1, 2), result.output
    assert "internal error" not in result.output and "Traceback" not in result.output, result.output
    errors = [line for line in result.output.splitlines() if "error" in line.lower()]
    assert errors, result.output
    assert names in errors[0], result.output
    return errors[0]


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_fault_of_a_file_or_setting_is_one_clear_line_and_the_turn_stays_whole(base, tmp_path, monkeypatch, fault):
    how, names = FAULTS[fault]
    camp = _copy(base, tmp_path)
    how(camp.path)
    monkeypatch.setenv("GM_NOW", NOW)
    line = _one_clear_line(gm("run", camp.path, code=None), names)
    assert len(line) < 400
    print(f"\n{fault}: {line.split(': error: ', 1)[-1]}")
    _turn_whole(camp.path)
    assert not (camp.path.parent / f"{camp.path.name}-never-made").exists()
    status = gm("status", camp.path, code=None)  # the GM's look at it: one line too, or the status
    assert "internal error" not in status.output and "Traceback" not in status.output


# ---- the disk full, the folder read-only: a real tmpfs where we may mount one ----------------
def _can_mount() -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    probe = Path(f"/tmp/gm-probe-{os.getpid()}")
    probe.mkdir(exist_ok=True)
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)], capture_output=True)
        if done.returncode:
            return False
        subprocess.run(["umount", str(probe)], check=True)
        return True
    finally:
        probe.rmdir()


MOUNTABLE = _can_mount()


@contextlib.contextmanager
def tmpfs(tmp_path: Path, size: str = "4m"):
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def _fill(disk: Path, leave: int) -> Path:
    """Fill the file system but ``leave`` bytes."""
    filler = disk / "filler"
    stat = os.statvfs(disk)
    free = stat.f_bavail * stat.f_frsize
    with open(filler, "wb") as handle:
        handle.truncate(0)
        chunk = b"\0" * 65536
        remaining = max(free - leave, 0)
        while remaining > 0:
            try:
                remaining -= handle.write(chunk[:min(remaining, len(chunk))])
            except OSError:
                break
    return filler


def _after_the_fault(camp: Path) -> None:
    """The fault gone, one pass does the turn; a second one does nothing more."""
    gm("run", camp)
    assert _turn_whole(camp) == [0, 1]
    assert yaml.safe_load((camp / "campaign.yaml").read_text())["deadline"] == "2026-12-12T00:00+00:00"
    again = gm("run", camp)
    assert "resolved" not in again.output and Campaign(camp).resolved_turns() == [0, 1]


@pytest.mark.skipif(not MOUNTABLE, reason="cannot mount a tmpfs here (not root); the simulated disk faults run")
@pytest.mark.parametrize("leave", [0, 8 * 1024, 32 * 1024, 96 * 1024, 192 * 1024])
def test_a_full_disk_is_one_line_and_the_turn_whole(base, tmp_path, monkeypatch, leave):
    monkeypatch.setenv("GM_NOW", NOW)
    with tmpfs(tmp_path) as disk:
        camp = _copy(base, disk)
        filler = _fill(disk, leave)
        result = gm("run", camp.path, code=None)
        if result.exit_code:  # with more room left the pass may get through
            line = _one_clear_line(result, "the disk is full")
            assert line.split(": error: ", 1)[1].startswith(f"{camp.path}/"), line  # the file is named
        print(f"\nfull disk, {leave} bytes left: exit {result.exit_code}: {result.output.splitlines()[:1]}")
        _turn_whole(camp.path)
        filler.unlink()
        _after_the_fault(camp.path)


@pytest.mark.skipif(not MOUNTABLE, reason="cannot mount a tmpfs here (not root); the simulated disk faults run")
def test_a_read_only_folder_is_one_line_and_changes_nothing(base, tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", NOW)
    with tmpfs(tmp_path) as disk:
        camp = _copy(base, disk)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        result = gm("run", camp.path, code=None)
        line = _one_clear_line(result, str(camp.path))
        assert "read-only" in line
        assert _turn_whole(camp.path) == [0]
        subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
        _after_the_fault(camp.path)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
@pytest.mark.parametrize("at", range(1, 40, 3))
def test_a_simulated_disk_fault_at_each_write_is_one_line_and_the_turn_whole(base, tmp_path, monkeypatch, code, at):
    """Where no tmpfs can be mounted too: the at-th write of the pass fails with ENOSPC or EROFS."""
    camp = _copy(base, tmp_path)
    monkeypatch.setenv("GM_NOW", NOW)
    count = {"n": 0}
    real_replace, real_write = os.replace, os.write

    def failing(real):
        def call(*args, **kwargs):
            count["n"] += 1
            if count["n"] == at:
                raise OSError(code, os.strerror(code), str(args[-1]) if real is real_replace else None)
            return real(*args, **kwargs)
        return call
    monkeypatch.setattr(os, "replace", failing(real_replace))
    monkeypatch.setattr(os, "write", failing(real_write))
    result = gm("run", camp.path, code=None)
    monkeypatch.undo()
    monkeypatch.setenv("GM_NOW", NOW)
    if result.exit_code:  # a write whose failure does not matter (the lock's note of its holder) passes
        line = _one_clear_line(result, "the disk is full" if code == errno.ENOSPC else "read-only")
        assert line.split(": error: ", 1)[1].startswith(f"{camp.path}/"), line  # the file is named
    _turn_whole(camp.path)
    _after_the_fault(camp.path)
