"""Dice proofs that bind everything (issue 22 item 7): each turn's roll list is bound by a digest
published with its seed, so a roll deleted, resized or relabelled after the turn (its value
recomputed) fails `gm dice verify` in one line, exit 1; the dozen lines of Python in the GM's guide
check the digest from a report. And a finished game's final turn, whose reports revealed every
secret seed, is not rolled back without --force (issue 22 item 13)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from gm.cli import main
from gm.delivery.record import public_record
from gm.delivery.site import build
from gm.store.campaign import Campaign
from gm.store.dice import roll_value, rolls_digest
from test_site_support import copy_campaign, finished_campaign

GUIDE = Path(__file__).parent.parent / "docs" / "guide.md"


def _gm(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _tamper(log: dict, how: str) -> dict:
    """The three tampers the issue names, each leaving every remaining roll consistent with the seed."""
    seed = bytes.fromhex(log["seed"])
    rolls = log["rolls"]
    if how == "last roll deleted":
        rolls.pop()
    elif how == "die size changed":
        r = rolls[1]
        r["sides"] = 8 if r["sides"] != 8 else 10
        r["value"] = roll_value(seed, r["label"], r["index"], r["sides"])
    elif how == "roll relabelled":
        r = rolls[1]
        r["label"], r["index"] = "tie-break", 0
        r["value"] = roll_value(seed, r["label"], r["index"], r["sides"])
    return log


TAMPERS = ("last roll deleted", "die size changed", "roll relabelled")


def test_the_digest_binds_count_order_labels_sides_and_values():
    seed = bytes(range(32))
    rolls = [{"label": "build round 1", "index": 0, "sides": 6, "value": 4},
             {"label": "race 3 blue", "index": 0, "sides": 12, "value": 7}]
    digest = rolls_digest(seed, rolls)
    # the documented form, written out
    data = seed + b"\n" + "build round 1\x000\x006\x004\n".encode() + "race 3 blue\x000\x0012\x007\n".encode()
    import hashlib
    assert digest == hashlib.sha256(data).hexdigest()
    changed = [rolls[:1], rolls[::-1], [dict(rolls[0], label="build round 2"), rolls[1]],
               [dict(rolls[0], sides=8), rolls[1]], [dict(rolls[0], value=5), rolls[1]],
               [dict(rolls[0], index=1), rolls[1]], rolls + [rolls[1]]]
    assert len({rolls_digest(seed, c) for c in changed} | {digest}) == len(changed) + 1
    assert rolls_digest(seed, []) != hashlib.sha256(seed).hexdigest()  # never the commitment
    with pytest.raises(ValueError):
        rolls_digest(seed, [dict(rolls[0], label="two\nlines")])


@pytest.mark.parametrize("how", TAMPERS)
def test_each_tamper_fails_dice_verify_in_one_line(how, tmp_path):
    campaign = copy_campaign("railway-rivals", tmp_path)
    assert _gm("dice", "verify", campaign.path).exit_code == 0
    path = campaign.turn_dir(1) / "dice.yaml"
    path.write_text(yaml.safe_dump(_tamper(yaml.safe_load(path.read_text()), how)))
    result = CliRunner().invoke(main, ["dice", "verify", str(campaign.path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"turns/001/dice.yaml: the rolls do not match the digest published with them "
        f"({2 if how == 'last roll deleted' else 3} listed; a roll added, removed, relabelled or resized "
        "after the turn)"]


def test_a_digest_removed_from_one_turn_fails(tmp_path):
    campaign = copy_campaign("railway-rivals", tmp_path)
    path = campaign.turn_dir(2) / "dice.yaml"
    log = yaml.safe_load(path.read_text())
    del log["rolls_digest"]
    log["rolls"].pop()
    path.write_text(yaml.safe_dump(log))
    result = CliRunner().invoke(main, ["dice", "verify", str(campaign.path)])
    assert result.exit_code == 1 and result.stderr.splitlines() == [
        "turns/002/dice.yaml: no digest of its rolls (rolls_digest), though the campaign's other turns have one"]


def test_a_relabelled_hidden_roll_fails_once_revealed(tmp_path):
    """Network King played to its end: a hidden roll relabelled (value recomputed under the
    secret seed) in secret/ and in the final log alike still fails the digest published with its
    turn — in `gm dice verify`, and in the record's hidden-roll digest."""
    shutil.copytree(finished_campaign("network-king"), tmp_path / "nk")
    campaign = Campaign(tmp_path / "nk")
    turn = campaign.secret_dice_turns()[0]
    final = campaign.turn_dir(campaign.last_turn) / "dice.yaml"
    log = yaml.safe_load(final.read_text())
    seed = bytes.fromhex(next(s["seed"] for s in log["secret_seeds"] if s["turn"] == turn))
    kept = campaign.secret_rolls(turn)
    for rolls in (kept, next(e["rolls"] for e in log["revealed_secret_rolls"] if e["turn"] == turn)):
        rolls[-1]["label"], rolls[-1]["index"] = "shuffle the other deck", 0
        rolls[-1]["value"] = roll_value(seed, rolls[-1]["label"], 0, rolls[-1]["sides"])
    campaign.write_secret_rolls(turn, kept)
    final.write_text(yaml.safe_dump(log))
    result = CliRunner().invoke(main, ["dice", "verify", str(campaign.path)])
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"secret/dice/{turn:03d}.yaml: the hidden rolls do not match the digest")
    [entry] = [s for s in public_record(campaign)["secret_dice"] if s["turn"] == turn]
    assert entry["rolls_digest"] == campaign.dice_log(turn)["secret_rolls_digest"]
    assert rolls_digest(seed, entry["rolls"]) != entry["rolls_digest"]


def _guide_functions() -> dict:
    """The Python a player runs, exactly as the GM's guide prints it (its functions only: the
    example lines below them want the reader's own seed)."""
    block = re.search(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S).group(1)
    code = block.split("\nseed = ")[0]
    assert "def rolls_digest" in code and "def roll(" in code
    names: dict = {}
    exec(compile(code, "guide.md", "exec"), names)
    return names


def test_the_guides_python_checks_a_reports_rolls_and_digest(tmp_path):
    """A player with the text report of each turn and the guide's Python: every roll and the roll
    list's digest check; the report of a turn tampered after the fact does not."""
    guide = _guide_functions()
    campaign = copy_campaign("railway-rivals", tmp_path)
    for turn in campaign.resolved_turns():
        text = (campaign.turn_dir(turn) / "reports" / "p1.txt").read_text()
        seed = re.search(r"^Seed of turn \d+ \(revealed\): ([0-9a-f]{64})$", text, re.M).group(1)
        digest = re.search(r"^Roll list digest of turn \d+: ([0-9a-f]{64})$", text, re.M).group(1)
        rolls = [(label, int(k), int(n), int(v)) for label, k, n, v in
                 re.findall(r"^  (.+) #(\d+) \(d(\d+)\): (\d+)$", text, re.M)]
        assert rolls and all(guide["roll"](seed, label, k, n) == v for label, k, n, v in rolls)
        assert guide["rolls_digest"](seed, rolls) == digest == campaign.dice_log(turn)["rolls_digest"]
        assert guide["rolls_digest"](seed, rolls[:-1]) != digest


def test_the_record_and_reports_publish_each_turns_digest(tmp_path):
    campaign = copy_campaign("thurn-und-taxis", tmp_path)
    record = public_record(campaign)
    for entry in record["turns"]:
        log = campaign.dice_log(entry["turn"])
        assert entry["dice"]["rolls_digest"] == log["rolls_digest"] == \
            rolls_digest(bytes.fromhex(log["seed"]), log["rolls"])
        for ext in ("txt", "md", "bbcode", "html"):
            assert log["rolls_digest"] in (campaign.turn_dir(entry["turn"]) / "reports" / f"public.{ext}").read_text()
        if log.get("secret_rolls"):  # hidden rolls: their count, commitment and digest, nothing else
            assert entry["dice"]["secret_rolls_digest"] == log["secret_rolls_digest"]
            assert log["secret_rolls_digest"] in (campaign.turn_dir(entry["turn"]) / "reports" / "p2.txt").read_text()
    assert any(e["dice"].get("secret_rolls_digest") for e in record["turns"])


# ---- rolling back a finished game's final turn -------------------------------------------------------
def test_rolling_back_a_final_turn_whose_seeds_were_revealed_is_refused(tmp_path):
    shutil.copytree(finished_campaign("network-king"), tmp_path / "nk")
    campaign = Campaign(tmp_path / "nk")
    last = campaign.last_turn
    before = sorted((p.relative_to(campaign.path), p.read_bytes()) for p in campaign.path.rglob("*") if p.is_file())
    result = CliRunner().invoke(main, ["rollback", str(campaign.path)])
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
    assert f"turn {last} ended the game and its reports revealed the secret seeds of turn" in result.stderr
    assert "--force" in result.stderr
    assert sorted((p.relative_to(campaign.path), p.read_bytes()) for p in campaign.path.rglob("*")
                  if p.is_file()) == before  # nothing changed


def test_a_forced_rollback_says_in_the_audit_log_and_on_the_site_that_the_seeds_were_public(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-05T18:00Z")
    shutil.copytree(finished_campaign("network-king"), tmp_path / "nk")
    campaign = Campaign(tmp_path / "nk")
    last, hidden = campaign.last_turn, campaign.secret_dice_turns()
    build(campaign, tmp_path / "site")
    assert "data-seeds-public" not in (tmp_path / "site" / "index.html").read_text()
    config = yaml.safe_load((campaign.path / "campaign.yaml").read_text())
    config["site"] = str(tmp_path / "site")
    (campaign.path / "campaign.yaml").write_text(yaml.safe_dump(config))
    result = _gm("rollback", campaign.path, "--force")
    assert result.exit_code == 0, result.output
    assert "secret seeds its reports revealed stay public" in result.output
    entry = yaml.safe_load((campaign.path / "audit" / "log.yaml").read_text())[-1]
    assert entry["action"] == "rollback" and entry["turn"] == last
    assert entry["seeds_public"] == hidden and entry["forced"] is True
    # the website was updated by the rollback itself: the undone turn gone, the notice on it
    site = tmp_path / "site"
    assert not (site / f"turn-{last:03d}.html").exists()
    for page in ("index.html", "dice.html"):
        text = (site / page).read_text()
        assert f'data-seeds-public="{last}"' in text and "The secret seeds were public." in text
    record = json.loads((site / "record.json").read_text())
    assert record["notices"] == [{"turn": last, "at": "2026-12-05T18:00:00+00:00", "secret_seed_turns": hidden}]
    notices = [p.read_text() for p in (campaign.path / "outbox" / "notices").glob("notice-*.eml")]
    assert notices and all("stay public" in n for n in notices if "is undone" in n)


def test_other_rollbacks_need_no_force(tmp_path):
    """An unfinished game's last turn, and a finished game without hidden dice, roll back as before."""
    campaign = copy_campaign("network-king", tmp_path)
    assert _gm("rollback", campaign.path).exit_code == 0
    shutil.copytree(finished_campaign("network"), tmp_path / "net")
    assert not Campaign(tmp_path / "net").secret_dice_turns()
    result = _gm("rollback", tmp_path / "net")
    assert result.exit_code == 0, result.output
    assert "seeds_public" not in (tmp_path / "net" / "audit" / "log.yaml").read_text()
