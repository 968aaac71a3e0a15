"""Issue 17 items 2 and 12, issue 15 item 17: player ids, names and addresses a campaign can trust."""
from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner

from gm.turn import engine
from gm.store.campaign import Campaign
from gm.cli import main
from gm.store.errors import CampaignError, UsageError
from gm.store.players import DEVICE_NAMES, RESERVED_IDS, find_player, parse_player_spec, setup_warnings


def _run(*args, code=0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def _one_error_line(output: str) -> str:
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), output
    assert "Traceback" not in output
    return lines[0]


@pytest.mark.parametrize("pid", sorted(RESERVED_IDS | {"con", "nul", "prn", "aux", "com1", "lpt9", "com0"}))
def test_gm_new_refuses_viewer_and_device_names(tmp_path, pid):
    camp = tmp_path / "camp"
    line = _one_error_line(_run("new", "guess", camp, "--player", pid, "--player", "red", code=2))
    assert repr(pid) in line and ("gm uses itself" in line or "device name" in line)
    assert not camp.exists()


def test_reserved_ids_cover_every_viewer_name():
    from gm.store.viewing import GM_VIEWER, PUBLIC
    assert {GM_VIEWER, PUBLIC} <= RESERVED_IDS
    assert {"con", "prn", "aux", "nul", "com1", "com9", "lpt1", "lpt9"} <= DEVICE_NAMES


@pytest.mark.parametrize("pid", ["../../../x", "Blue", "a b", "", "x/y", "-a", "a" * 33, "gm", "public", "con",
                                 7, None])
def test_campaign_yaml_ids_checked_on_load(tmp_path, pid):
    camp = tmp_path / "deep" / "camp"
    engine.new_campaign(camp, "guess", ["ann", "bob"], master=bytes(32))
    config = yaml.safe_load((camp / "campaign.yaml").read_text())
    config["players"][1]["id"] = pid
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config))
    before = sorted(p for p in tmp_path.rglob("*"))
    with pytest.raises(CampaignError, match="campaign.yaml: player id"):
        Campaign(camp)
    line = _one_error_line(_run("report", camp, "--format", "html", code=2))
    assert "campaign.yaml" in line
    _one_error_line(_run("status", camp, code=2))
    assert sorted(p for p in tmp_path.rglob("*")) == before  # nothing written anywhere


def test_campaign_yaml_duplicate_ids_and_names_refused(tmp_path):
    camp = tmp_path / "camp"
    engine.new_campaign(camp, "guess", ["ann:Ann", "bob:Bob"], master=bytes(32))
    config = yaml.safe_load((camp / "campaign.yaml").read_text())
    config["players"][1]["name"] = "ANN"
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config))
    with pytest.raises(CampaignError, match="same name"):
        Campaign(camp)
    config["players"][1].update(id="ann", name="Bob")
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config))
    with pytest.raises(CampaignError, match="appears twice"):
        Campaign(camp)
    config["players"][1].update(id="bob", name="")
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config))
    with pytest.raises(CampaignError, match="player bob has no name"):
        Campaign(camp)
    config["players"][1].update(id="bob", name="Bob\r\nBcc: everyone@example.org")
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config))
    with pytest.raises(CampaignError, match="control character"):
        Campaign(camp)


@pytest.mark.parametrize("spec", ["ann:Ann\nSmith", "ann:Ann\rSmith", "ann:Ann:ann@example.org\r\nBcc: x@y.org",
                                  "ann:Ann:ann@exa\nmple.org", "ann:Ann\u2028Smith"])
def test_gm_new_refuses_line_breaks_in_names_and_addresses(tmp_path, spec):
    camp = tmp_path / "camp"
    line = _one_error_line(_run("new", "guess", camp, "--player", spec, "--player", "bob", code=2))
    assert "control character" in line
    assert not camp.exists()


@pytest.mark.parametrize("address", ["ann", "ann@", "@example.org", "ann@example", "ann@@example.org",
                                     "Ann <ann@example.org>", "ann smith@example.org", "ann@exa_mple.org",
                                     "ann@.example.org", "ann..x@example.org", "ann@example..org"])
def test_gm_new_refuses_what_is_not_an_address(tmp_path, address):
    line = _one_error_line(_run("new", "guess", tmp_path / "c", "--player", f"ann:Ann:{address}", code=2))
    assert "is not an e-mail address" in line


def test_colon_in_a_display_name_never_shifts_into_the_address():
    assert parse_player_spec(r"who:Dr\: Who:who@example.org") == {
        "id": "who", "name": "Dr: Who", "email": "who@example.org"}
    assert parse_player_spec(r"who:Dr\: Who") == {"id": "who", "name": "Dr: Who", "email": ""}
    with pytest.raises(UsageError, match=r"write a ':' inside a name as '\\:'"):
        parse_player_spec("who:Dr: Who:who@example.org")
    with pytest.raises(UsageError, match="is not an e-mail address .*written '\\\\:'"):
        parse_player_spec("who:Dr: Who")
    assert parse_player_spec("ann:Ann Smith:Ann.Smith+pbem@mail.example.co.uk")["email"] == \
        "Ann.Smith+pbem@mail.example.co.uk"
    assert parse_player_spec("ann") == {"id": "ann", "name": "Ann", "email": ""}


def test_setup_warnings_name_missing_mail_from_and_addresses():
    config = {"players": [{"id": "ann", "email": "ann@example.org"}, {"id": "bob", "email": ""}]}
    warnings = setup_warnings(config)
    assert len(warnings) == 2 and "mail.from" in warnings[0] and "bob" in warnings[1]
    config["mail"] = {"from": "GM <gm@example.org>"}
    config["players"][1]["email"] = "bob@example.org"
    assert setup_warnings(config) == []


def test_find_player_by_id_in_any_case_or_display_name(tmp_path):
    camp = tmp_path / "camp"
    engine.new_campaign(camp, "guess", ["ann:Ann Smith", "cat:Cathérine", "bob"], master=bytes(32))
    campaign = Campaign(camp)
    assert campaign.find_player("ann") == "ann"
    assert campaign.find_player("ANN") == "ann"
    assert campaign.find_player("  ann smith ") == "ann"
    assert campaign.find_player("Ann   Smith") == "ann"
    assert campaign.find_player("catherine") == "cat"
    with pytest.raises(UsageError) as exc:
        campaign.find_player("Anne Smith")
    assert str(exc.value) == ('unknown player \'Anne Smith\' (did you mean "Ann Smith"?); '
                              "players: ann (Ann Smith), cat (Cathérine), bob")


def test_find_player_prefers_an_id_to_another_players_name():
    players = [{"id": "red", "name": "Blue"}, {"id": "blue", "name": "Ann"}]
    assert find_player(players, "blue") == "blue"
    assert find_player(players, "Ann") == "blue"


def test_orders_are_stored_only_for_the_campaigns_players(tmp_path):
    camp = tmp_path / "camp"
    engine.new_campaign(camp, "guess", ["ann", "bob"], master=bytes(32))
    with pytest.raises(UsageError, match="unknown player '../x'"):
        Campaign(camp).store_orders(1, "../x", "guess 1\n")
    assert not (camp / "turns" / "x.txt").exists() and not (camp / "turns" / "001").exists()


def test_gm_new_warns_about_mail_it_cannot_send(tmp_path):
    out = _run("new", "guess", tmp_path / "camp", "--player", "ann:Ann:ann@example.org", "--player", "bob")
    assert "warning: campaign.yaml has no mail.from" in out
    assert "warning: no e-mail address for bob" in out
