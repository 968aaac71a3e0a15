"""The one turn runner: every caller checks, fills, steps and asks for the outcome the same way."""
from __future__ import annotations

import pytest
import yaml

from gm import games
from gm.turn import audit, engine, runner
from gm.store.campaign import Campaign
from gm.store.errors import UsageError
from gm.store.viewing import fill_names, visible_events

GUESS = games.get("guess")


def _start(players=("ann", "bob"), turns=3):
    return runner.start(GUESS, None, list(players), {"turns": turns}, runner.turn_dice(bytes(32), 0))


def test_check_collects_errors_and_refuses_the_wrong_turn_alone():
    state = _start()
    checked = runner.check(GUESS, state, "player: ann\nturn: 2\nguess 9\nguess x\n", file="a.txt",
                           players=["ann", "bob"], turn=1)
    # orders for another turn: that one error, not the game's errors of lines 3 and 4 as well
    assert checked.errors == ["a.txt:2:1: these orders are for turn 2, but the campaign is at turn 1"]
    checked = runner.check(GUESS, state, "guess 9\nguess x\n", file="a.txt", players=["ann", "bob"], turn=1,
                           player="ann")
    assert [e.line for e in checked.problems] == [1, 2] and checked.orders is None


def test_unknown_player_lists_the_players():
    checked = runner.check(GUESS, _start(), "player: anne\nguess 3\n", file="a.txt", players=["ann", "bob"], turn=1)
    assert checked.errors == ['a.txt:1:1: unknown player \'anne\' (did you mean "ann"?); players: ann, bob']


def test_fill_missing_by_policy_and_step_is_plain_and_pure():
    state = _start()
    orders, missing = runner.fill_missing(GUESS, state, {"ann": {"guess": 2}}, "bot")
    assert missing == ["bob"] and orders["bob"] == {"guess": 6}
    orders, _ = runner.fill_missing(GUESS, state, {"ann": {"guess": 2}}, "default")
    assert orders["bob"] is None
    with pytest.raises(UsageError):
        runner.fill_missing(GUESS, state, {}, "hold")
    before = yaml.safe_dump(state)
    after, events = runner.step(GUESS, state, orders, runner.turn_dice(bytes(32), 1))
    assert yaml.safe_dump(state) == before, "step changed the state it was given"
    assert yaml.safe_load(yaml.safe_dump(after)) == after and all(e["kind"] for e in events)


def test_plain_turns_tuples_into_lists_and_refuses_objects():
    assert runner.plain({"a": (1, 2), 3: [("x",)]}) == {"a": [1, 2], 3: [["x"]]}
    with pytest.raises(runner.GameBug, match=r"state: data\[.a.\]: a set"):
        runner.plain({"a": {1}})


def test_outcome_is_checked_against_the_contract():
    state = _start(turns=1)
    assert runner.outcome(GUESS, state, ["ann", "bob"]) is None
    state, _ = runner.step(GUESS, state, {"ann": {"guess": 1}, "bob": {"guess": 1}}, runner.turn_dice(bytes(32), 1))
    result = runner.outcome(GUESS, state, ["ann", "bob"])
    assert result["winners"] == ["ann", "bob"] and result["ranking"] == [["ann", "bob"]] and result["reason"]
    with pytest.raises(runner.GameBug):
        runner.outcome(GUESS, state, ["ann"])  # bob is no player of this table


def test_events_name_players_as_data_and_say_who_reads_them():
    names = {"blue": "Blue Line", "red": "Red Arrow"}
    # the old word-by-word rewriting turned the colour "red" into a player's name
    assert fill_names("Eastern keeps @{red}: red was taken by Western first.", names) == \
        "Eastern keeps Red Arrow: red was taken by Western first."
    events = [{"kind": "draw", "text": "@{blue} drew Berlin.", "to": ["blue"]},
              {"kind": "draw", "text": "@{blue} drew a card.", "to": ["red", "public"]},
              {"kind": "race", "text": "@{red} won."}]
    assert [e["text"] for e in visible_events(events, "blue", names)] == ["Blue Line drew Berlin.", "Red Arrow won."]
    assert [e["text"] for e in visible_events(events, "public", names)] == ["Blue Line drew a card.", "Red Arrow won."]
    assert len(visible_events(events, "gm", names)) == 3 and "to" not in visible_events(events, "gm", names)[0]


def test_replay_uses_the_policy_in_force_when_the_turn_was_resolved(tmp_path):
    """The issue's report: set nmr_policy: bot after a turn, and replay applied it to the past."""
    camp = tmp_path / "c"
    engine.new_campaign(camp, "guess", ["ann", "bob"], master=bytes(32))
    engine.resolve(Campaign(camp), force=True)
    config = yaml.safe_load((camp / "campaign.yaml").read_text())
    config["nmr_policy"] = "bot"
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config))
    assert audit.replay(Campaign(camp)) == []
    settings = yaml.safe_load((camp / "turns" / "001" / "settings.yaml").read_text())
    assert settings["applied_policy"] == "default" and settings["missing"] == ["ann", "bob"]


def test_replay_shows_the_first_difference_in_full(tmp_path):
    camp = tmp_path / "c"
    engine.new_campaign(camp, "guess", ["ann", "bob"], master=bytes(32))
    engine.resolve(Campaign(camp), force=True)
    path = camp / "turns" / "001" / "state.yaml"
    state = yaml.safe_load(path.read_text())
    state["players"] = ["ann", "bob", "a-very-long-name-" + "x" * 100]
    path.write_text(yaml.safe_dump(state))
    problems = audit.replay(Campaign(camp))
    long_name = "a-very-long-name-" + "x" * 100
    assert problems[0] == (f'turn 1: state: players: stored ["ann", "bob", "{long_name}"], '
                           'replayed ["ann", "bob"]'), problems


def test_an_old_railway_rivals_nmr_option_is_the_campaign_policy(tmp_path):
    """Campaign files from before the option folded into nmr_policy keep working: `nmr: bot`."""
    camp = tmp_path / "rr"
    engine.new_campaign(camp, "railway-rivals", ["ann", "bob"], map_name="tutorial", master=bytes(32))
    config = yaml.safe_load((camp / "campaign.yaml").read_text())
    config["options"]["nmr"] = "bot"
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config))
    (camp / "turns" / "000" / "settings.yaml").unlink()  # as an old campaign has none
    result = engine.resolve(Campaign(camp), force=True)
    settings = yaml.safe_load((camp / "turns" / "001" / "settings.yaml").read_text())
    assert settings["applied_policy"] == "bot" and "nmr" not in settings["options"]
    assert result.nmr == ["ann", "bob"] and any(e["kind"] == "build" for e in result.events)
    assert audit.replay(Campaign(camp)) == []


def test_a_sign_off_without_the_dashes_is_an_error_that_says_what_to_do():
    """Issue 15 item 15: 'Cheers, / Ann' under the orders is refused line by line, and the first
    of those errors tells the player to put '-- ' above a sign-off."""
    state = _start()
    text = "player: ann\nguess 3\n\nCheers,\nAnn\n"
    checked = runner.check(GUESS, state, text, file="a.txt", players=["ann", "bob"], turn=1)
    assert [e.line for e in checked.problems] == [4, 5]
    assert "put a line '-- '" in checked.problems[0].message and "'-- '" not in checked.problems[1].message
    signed = runner.check(GUESS, state, "player: ann\nguess 3\n-- \nCheers,\nAnn\n", file="a.txt",
                          players=["ann", "bob"], turn=1)
    assert signed.ok
    # a file that is wrong throughout, or a long wrong last line, is no sign-off
    for text in ("player: ann\nguess x\n", "player: ann\nguess 3\nguess three or four, whatever you like\n"):
        checked = runner.check(GUESS, state, text, file="a.txt", players=["ann", "bob"], turn=1)
        assert checked.problems and all("'-- '" not in e.message for e in checked.problems)


def test_orders_with_no_order_lines_get_a_note():
    """Issue 15 item 15: clean orders that do nothing say so (a game may say it in its own words)."""
    imperial = games.get("imperial-network")  # empty orders are legal there: no purchase, no train
    players = ["ann", "bob", "cy"]
    state = runner.start(imperial, None, players, {}, runner.turn_dice(bytes(32), 0))
    checked = runner.check(imperial, state, "player: ann\nturn: 1\n", file="a.txt", players=players, turn=1)
    assert checked.ok and checked.notes[-1] == \
        "there are no order lines below the headers: nothing is done for you this turn"
    rr = games.get("railway-rivals")
    state = runner.start(rr, "tutorial", ["ann", "bob"], {}, runner.turn_dice(bytes(32), 0))
    checked = runner.check(rr, state, "player: ann\nturn: 1\n", file="a.txt", players=["ann", "bob"], turn=1)
    assert checked.ok and checked.notes == [
        f"you build nothing this turn: all {sum(state['build_dice'])} pips of the three rounds are lost"]
