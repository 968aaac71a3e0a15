"""Players are named by their names (issue 15 items 18 and 24): a Railway Rivals company is first
called by its player's display name, and a later change of that name changes neither the company
nor a replay; `gm status` names players, with the id where the GM needs it."""
from __future__ import annotations

import yaml
from click.testing import CliRunner

from gm.turn import audit, engine
from gm.store.campaign import Campaign
from gm.cli import main


def _gm(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_company_carries_the_players_name_and_a_rename_keeps_replay_exact(tmp_path):
    camp = tmp_path / "rr"
    _gm("new", "railway-rivals", camp, "--map", "tutorial",
        "--player", "cat:Cathérine", "--player", "big_red")
    state = Campaign(camp).state(0)
    assert state["companies"]["cat"]["name"] == "Cathérine"
    assert state["companies"]["big_red"]["name"] == "Big Red"
    settings = yaml.safe_load((camp / "turns" / "000" / "settings.yaml").read_text())
    assert settings["names"] == {"cat": "Cathérine", "big_red": "Big Red"}
    report = (camp / "turns" / "000" / "reports" / "cat.txt").read_text()
    assert "Cathérine" in report and "Cat " not in report
    refusal = CliRunner().invoke(main, ["resolve", str(camp)])
    assert refusal.exit_code == 1 and "waiting for orders from Cathérine (cat), big_red" in refusal.output
    _gm("player", camp, "cat", "--name", "Kitty")
    assert "Missed turn: Kitty (cat), big_red." in _gm("resolve", camp, "--force")
    assert Campaign(camp).state(1)["companies"]["cat"]["name"] == "Cathérine"
    assert audit.replay(Campaign(camp)) == []


def test_a_campaign_set_up_before_names_were_recorded_replays_clean(tmp_path):
    """Turn 0 of an older campaign has no `names`: the set-up is replayed with the id's form."""
    camp = tmp_path / "rr"
    engine.new_campaign(camp, "railway-rivals", ["cat", "bob"], map_name="tutorial", master=bytes(32))
    path = camp / "turns" / "000" / "settings.yaml"
    settings = yaml.safe_load(path.read_text())
    del settings["names"]
    path.write_text(yaml.safe_dump(settings))
    assert audit.replay(Campaign(camp)) == []
    config = yaml.safe_load((camp / "campaign.yaml").read_text())
    config["players"][0]["name"] = "Cathérine"  # the name changed after set-up, as gm player --name does
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config, allow_unicode=True))
    assert audit.replay(Campaign(camp)) == []
    assert Campaign(camp).state(0)["companies"]["cat"]["name"] == "Cat"


def test_status_names_the_players(tmp_path):
    camp = tmp_path / "nk"
    _gm("new", "network-king", camp, "--player", "ann:Ann Smith", "--player", "bob")
    out = _gm("status", camp)
    assert "waiting for deck lists from Ann Smith, Bob" in out
    assert "orders missing: Ann Smith (ann), bob" in out
    assert "@{" not in out
