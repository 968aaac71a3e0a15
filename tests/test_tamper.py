"""Tampering with a campaign after the fact is caught by `gm replay` and `gm dice verify`, one
line each, never an internal error and never success over nothing (issue 17 item 10)."""
from __future__ import annotations

import shutil

import yaml
from click.testing import CliRunner

from gm.turn import engine
from gm.store.campaign import Campaign
from gm.cli import main


def _campaign(tmp_path, turns: int = 2):
    camp = tmp_path / "c"
    engine.new_campaign(camp, "guess", ["ann:Ann", "bob:Bob"], master=bytes(32))
    for _turn in range(1, turns + 1):
        for p, guess in (("ann", 2), ("bob", 5)):
            (tmp_path / f"{p}.txt").write_text(f"player: {p}\nguess {guess}\n")
        engine.submit_files(Campaign(camp), [str(tmp_path / "ann.txt"), str(tmp_path / "bob.txt")])
        engine.resolve(Campaign(camp))
    return camp


def _gm(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_clean_campaign_replays_and_verifies(tmp_path):
    camp = _campaign(tmp_path)
    assert _gm("replay", camp).exit_code == 0
    result = _gm("dice", "verify", camp)
    assert result.exit_code == 0 and "All 2 rolls verified." in result.output


def test_edited_events_are_caught(tmp_path):
    camp = _campaign(tmp_path)
    path = camp / "turns" / "001" / "events.yaml"
    path.write_text(path.read_text().replace("The die shows", "The die showed"))
    result = _gm("replay", camp)
    assert result.exit_code == 1 and "turn 1: events: [0].text: stored" in result.output


def test_an_edited_report_is_caught(tmp_path):
    camp = _campaign(tmp_path)
    report = camp / "turns" / "002" / "reports" / "public.txt"
    report.write_text(report.read_text() + "Ann wins!\n")
    result = _gm("replay", camp)
    assert result.exit_code == 1
    assert "turn 2: turns/002/reports/public.txt was changed after the turn was resolved" in result.output


def test_a_type_changed_or_missing_key_is_a_drift_line(tmp_path):
    camp = _campaign(tmp_path)
    path = camp / "turns" / "001" / "state.yaml"
    state = yaml.safe_load(path.read_text())
    state["turn"] = "one"
    del state["score"]
    path.write_text(yaml.safe_dump(state))
    result = _gm("replay", camp)
    assert result.exit_code == 1 and "internal error" not in result.output
    assert "turn 1: state: turn: stored \"one\", replayed 1" in result.output
    assert "turn 2: cannot be replayed from the stored state of turn 1" in result.output


def test_a_deleted_turn_is_never_verified_as_nothing(tmp_path):
    camp = _campaign(tmp_path)
    shutil.rmtree(camp / "turns" / "001")
    result = _gm("dice", "verify", camp)
    assert result.exit_code == 1 and "turn 1: missing (turns/001/state.yaml is gone)" in result.output
    assert _gm("replay", camp).exit_code == 1


def test_a_changed_roll_is_caught(tmp_path):
    camp = _campaign(tmp_path)
    path = camp / "turns" / "002" / "dice.yaml"
    log = yaml.safe_load(path.read_text())
    log["rolls"][0]["value"] = log["rolls"][0]["value"] % 6 + 1
    path.write_text(yaml.safe_dump(log))
    result = _gm("dice", "verify", camp)
    assert result.exit_code == 1 and "turns/002/dice.yaml: roll 0" in result.output


def test_deleted_secret_rolls_are_caught(tmp_path):
    """A turn that made secret rolls records how many; their deleted log is not 'All 0 verified'."""
    camp = _campaign(tmp_path, turns=0)
    path = camp / "turns" / "000" / "dice.yaml"
    log = yaml.safe_load(path.read_text())
    log["secret_rolls"] = 3
    path.write_text(yaml.safe_dump(log))
    result = _gm("dice", "verify", camp)
    assert result.exit_code == 1
    assert "secret/dice/000.yaml: missing, but turns/000/dice.yaml records 3 secret roll(s)" in result.output


def test_the_final_turn_reveals_every_hidden_roll_and_an_edit_of_them_is_caught(tmp_path):
    """At the end of a game with hidden shuffles the final public dice log carries every secret
    seed and hidden roll; `gm dice verify` checks them against the master secret and secret/."""
    from test_site_support import finished_campaign
    shutil.copytree(finished_campaign("network-king"), tmp_path / "nk")
    campaign = Campaign(tmp_path / "nk")
    turns = campaign.secret_dice_turns()
    path = campaign.turn_dir(campaign.last_turn) / "dice.yaml"
    log = yaml.safe_load(path.read_text())
    assert [e["turn"] for e in log["secret_seeds"]] == turns
    # each hidden roll as anyone may read it: label, k, sides, value
    assert [e["rolls"] for e in log["revealed_secret_rolls"]] == \
        [[{k: r[k] for k in ("label", "index", "sides", "value")} for r in campaign.secret_rolls(t)] for t in turns]
    assert _gm("dice", "verify", campaign.path).exit_code == 0
    roll = log["revealed_secret_rolls"][0]["rolls"][0]
    roll["value"] = roll["value"] % roll["sides"] + 1
    path.write_text(yaml.safe_dump(log))
    result = _gm("dice", "verify", campaign.path)
    assert result.exit_code == 1 and f"the revealed hidden rolls of turn {turns[0]} differ" in result.output
    # no earlier turn's public log reveals anything
    for t in campaign.resolved_turns()[:-1]:
        assert "secret_seeds" not in campaign.dice_log(t) and "revealed_secret_rolls" not in campaign.dice_log(t)
