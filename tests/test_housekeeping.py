"""gm deadline, gm player, gm rollback, gm list: each change audited and told to players; bad
input is one line, exit 1 or 2, and the campaign unchanged."""
from __future__ import annotations

import email
import email.policy
import hashlib
import json

import pytest
import yaml
from click.testing import CliRunner
from test_mail_support import ANN, guess_campaign, update_config

from gm.store.campaign import Campaign
from gm.cli import main
from gm.time.deadlines import deadline_status
from gm.automation.housekeeping import queued_notices, read_audit, seat_of


def gm(*args, code=0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result


def snapshot(camp) -> dict[str, str]:
    """Every file of the campaign and a hash of its bytes: "nothing changed" is this equality."""
    return {str(p.relative_to(camp.path)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(camp.path.rglob("*")) if p.is_file()}


def notices(camp) -> list:
    folder = camp.path / "outbox" / "notices"
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(folder.glob("*.eml"))]


@pytest.fixture
def camp(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T12:00Z")
    return guess_campaign(tmp_path, schedule={"every": "7d", "at": "18:00", "zone": "Europe/Paris"},
                          deadline="2026-12-04T18:00+01:00")


def test_deadline_set_extend_clear(camp):
    # this comment must survive: campaign.yaml is edited in place
    (camp.path / "campaign.yaml").write_text("# my notes\n" + (camp.path / "campaign.yaml").read_text())
    out = gm("deadline", camp.path, "set", "2026-12-06T20:00").output  # no zone: the campaign's (Paris)
    assert "Sun 2026-12-06 20:00 CET (Europe/Paris) = 19:00 UTC" in out
    assert Campaign(camp.path).config["deadline"] == "2026-12-06T20:00+01:00"
    gm("deadline", camp.path, "extend", "1d 2h")
    assert Campaign(camp.path).config["deadline"] == "2026-12-07T22:00+01:00"
    gm("deadline", camp.path, "clear")
    assert Campaign(camp.path).config["deadline"] is None
    assert (camp.path / "campaign.yaml").read_text().startswith("# my notes\n")
    log = read_audit(camp)
    assert [e["action"] for e in log] == ["deadline set", "deadline extend", "deadline clear"]
    assert log[0]["old"] == "2026-12-04T18:00:00+01:00" and log[1]["new"] == "2026-12-07T22:00:00+01:00"
    told = notices(camp)
    assert len(told) == 6 and {str(m["To"]) for m in told} == {"Ann <ann@example.org>", "Bob <bob@example.org>"}
    assert "The deadline for turn 1 is now Mon 2026-12-07 22:00 CET" in told[2].get_content()
    assert len(queued_notices(camp)) == 6


@pytest.mark.parametrize("args,code,line", [
    (["set", "2026-11-30T18:00Z"], 1, "Error: the deadline Mon 2026-11-30 19:00 CET (Europe/Paris) = 18:00 UTC is "
                                      "in the past (it is now Tue 2026-12-01 13:00 CET (Europe/Paris) = 12:00 UTC); "
                                      "give a later moment"),
    (["set", "next friday"], 2, "Error: cannot read the deadline 'next friday'; write a moment such as"),
    (["extend", "soon"], 2, "Error: extend 'soon' is a period like 12h, 1d, 1d 6h or 90m"),
    (["extend", "--", "-1d"], 2, "Error: extend takes a period to add, like 1d or 12h; to shorten, use set"),
    (["set"], 2, "Error: gm deadline DIR set needs a moment"),
    (["move", "1d"], 2, "Invalid value for '{set|extend|clear}'"),
])
def test_bad_deadlines_change_nothing(camp, args, code, line):
    before = snapshot(camp)
    result = gm("deadline", camp.path, *args, code=code)
    assert line in result.output
    assert snapshot(camp) == before


def test_extend_without_a_deadline(camp):
    gm("deadline", camp.path, "clear")
    before = snapshot(camp)
    assert gm("deadline", camp.path, "extend", "1d", code=1).output == \
        "Error: there is no deadline to extend; set one with `gm deadline DIR set WHEN`\n"
    assert snapshot(camp) == before


def test_player_name_and_address(camp):
    gm("player", camp.path, "ann", "--name", "Ann Smith", "--email", "ann@new.example.org")
    ann = Campaign(camp.path).player("ann")
    assert (ann["name"], ann["email"]) == ("Ann Smith", "ann@new.example.org")
    [note] = notices(camp)
    assert "ann@new.example.org" in str(note["To"]) and "bob@" not in note.as_string()
    assert read_audit(camp)[-1]["changes"] == ["ann: name 'Ann' -> 'Ann Smith'", "ann: e-mail changed"]


def test_a_replacement_keeps_the_seat(camp, tmp_path):
    camp.store_orders(1, "ann", "player: ann\nguess 4\n")
    out = gm("player", camp.path, "ann", "--replace", "carl:Carl:carl@example.org").output
    assert out == "ann: replaced by Carl (carl) from turn 1\n"
    camp = Campaign(camp.path)
    seat = camp.player("ann")
    assert (seat["name"], seat["email"], seat["aliases"]) == ("Carl", "carl@example.org", ["carl"])
    assert seat["replaced"][0]["name"] == "Ann" and seat_of(camp, "carl") == "ann"
    assert camp.player_ids == ["ann", "bob"] and "ann" in camp.stored_orders(1)  # state and orders unchanged
    told = {(m["Subject"], str(m["To"])) for m in notices(camp)}
    assert ("[camp] Ann is replaced by Carl", "Bob <bob@example.org>") in told
    assert ("[camp] Welcome to camp", "Carl <carl@example.org>") in told
    assert ("[camp] You have left camp", f"Ann <{ANN}>") in told  # the player who left, by name
    # the new player is known by the seat's id and by the alias
    gm("player", camp.path, "carl", "--name", "Carlo")
    assert Campaign(camp.path).player("ann")["name"] == "Carlo"


@pytest.mark.parametrize("args,code,line", [
    (["ann", "--replace", "bob"], 1, "Error: --replace bob: the id 'bob' is already in use by bob; choose another"),
    (["ann", "--replace", "Carl Smith"], 2, "Error: player id 'Carl Smith' must be 1 to 32 lower-case"),
    (["ann", "--replace", "carl:Carl:not-an-address"], 2,
     "Error: player carl: 'not-an-address' is not an e-mail address"),
    (["ann", "--email", "ann at home"], 2, "Error: 'ann at home' is not an e-mail address"),
    (["ann", "--email", "BOB@example.org"], 1, "Error: the address BOB@example.org is already bob's"),
    (["ann", "--replace", "carl:Carl:bob@example.org"], 1, "Error: the address bob@example.org is already bob's"),
    (["anne", "--name", "X"], 2, "Error: unknown player 'anne' (did you mean \"ann\"?)"),
    (["ann"], 2, "Error: nothing to change: give --name, --email, --replace or --drop"),
    (["ann", "--drop", "pass"], 2, "Invalid value for '--drop'"),
    (["ann", "--replace", "carl", "--name", "C"], 2, "Error: --replace carries the new player's name"),
])
def test_bad_player_changes_change_nothing(camp, args, code, line):
    before = snapshot(camp)
    result = gm("player", camp.path, *args, code=code)
    assert line in result.output, result.output
    assert snapshot(camp) == before


def test_an_alias_is_in_use_too(camp):
    gm("player", camp.path, "ann", "--replace", "carl:Carl:carl@example.org")
    before = snapshot(camp)
    assert "already in use by ann" in gm("player", camp.path, "bob", "--replace", "carl", code=1).output
    assert snapshot(camp) == before


def test_a_dropped_player_is_not_waited_for(camp, monkeypatch):
    camp.store_orders(1, "ann", "player: ann\nguess 4\n")
    gm("player", camp.path, "bob", "--drop", "default")
    info = deadline_status(Campaign(camp.path))
    assert (info.missing, info.dropped) == ([], ["bob"])
    update_config(camp, early=True)
    out = gm("run", camp.path).output
    assert "turn 1 resolved (every order in); missed turn: bob" in out
    assert "From turn 1 Bob's position plays by the game's default orders." in notices(camp)[0].get_content()


def test_rollback_moves_the_turn_aside_and_the_dice_stay(camp, monkeypatch):
    for p, guess in (("ann", 3), ("bob", 5)):
        camp.store_orders(1, p, f"player: {p}\nguess {guess}\n")
    gm("resolve", camp.path)
    first = {n: (camp.turn_dir(1) / n).read_text() for n in ("state.yaml", "dice.yaml", "events.yaml")}
    gm("mail", "send", camp.path)  # the turn's report messages in outbox/turn-001
    camp.store_orders(2, "ann", "player: ann\nturn: 2\nguess 1\n")
    out = gm("rollback", camp.path).output
    assert "Turn 1 rolled back" in out
    camp = Campaign(camp.path)
    assert camp.resolved_turns() == [0] and camp.current_turn == 1
    assert sorted(camp.stored_orders(1)) == ["ann", "bob"]  # its orders stay
    [folder] = (camp.path / "audit").glob("rollback-turn-001-*")
    assert {p.name for p in folder.iterdir()} == {"state.yaml", "dice.yaml", "events.yaml", "reports", "outbox",
                                                  "next-turn-002"}
    assert (folder / "next-turn-002" / "orders" / "ann.txt").exists()
    assert read_audit(camp)[-1]["action"] == "rollback"
    body = notices(camp)[-1].get_content()
    assert "same dice seed" in body and "Your orders for turn 1 stand" in body
    gm("resolve", camp.path)  # the same orders and the same seed: the same turn
    assert {n: (camp.turn_dir(1) / n).read_text() for n in first} == first
    assert (folder / "dice.yaml").read_text() == first["dice.yaml"]
    gm("replay", camp.path)
    gm("dice", "verify", camp.path)


def test_rollback_with_no_resolved_turn(camp):
    before = snapshot(camp)
    result = gm("rollback", camp.path, code=1)
    assert result.output == "Error: there is no resolved turn to roll back (only the set-up, turn 0)\n"
    assert snapshot(camp) == before


def test_list_every_campaign_under_a_root(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_NOW", "2026-12-01T12:00Z")
    one = guess_campaign(tmp_path / "league" / "one", deadline="2026-12-02T12:00Z")
    one.store_orders(1, "ann", "player: ann\nguess 2\n")
    guess_campaign(tmp_path / "league" / "two")
    broken = tmp_path / "league" / "three"
    broken.mkdir(parents=True)
    (broken / "campaign.yaml").write_text("game: [unclosed\n")
    out = gm("list", tmp_path / "league").output.splitlines()
    assert out[0].endswith("one/camp: guess, turn 1, deadline Wed 2026-12-02 12:00 UTC (1d left), missing: bob")
    assert "three: error:" in out[1] and "campaign.yaml is corrupt" in out[1]
    assert out[2].endswith("two/camp: guess, turn 1, no deadline, missing: ann, bob")
    rows = json.loads(gm("list", tmp_path / "league", "--json").output)
    assert [r.get("missing") for r in rows] == [["bob"], None, ["ann", "bob"]]
    assert "@" not in json.dumps(rows)  # no addresses
    assert "no such folder" in gm("list", tmp_path / "nowhere", code=2).output


def test_every_new_command_has_help():
    for command in ("run", "deadline", "player", "rollback", "list"):
        out = gm(command, "--help").output
        assert "Example" in out


def test_config_edit_keeps_yaml_readable(camp):
    gm("player", camp.path, "bob", "--drop", "bot")
    data = yaml.safe_load((camp.path / "campaign.yaml").read_text())
    assert data["players"][1]["dropped"] == "bot" and data["schedule"]["zone"] == "Europe/Paris"
