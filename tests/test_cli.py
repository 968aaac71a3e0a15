"""The command-line contract, driven through CliRunner on the test-only game 'guess'."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gm.turn import engine
from gm.store.campaign import Campaign
from gm.cli import main


def run(*args, code=0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, (result.output, result.stderr if hasattr(result, "stderr") else "")
    return result


@pytest.fixture
def camp(tmp_path, fixed_master) -> Path:
    path = tmp_path / "camp"
    engine.new_campaign(path, "guess", ["ann:Ann:ann@example.org", "bob"], master=fixed_master)
    return path


def orders(tmp_path, name, text) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_every_command_has_help_with_an_example():
    from gm.cli import main as group

    def walk(cmd, prefix):
        if hasattr(cmd, "commands"):
            for name, sub in cmd.commands.items():
                yield from walk(sub, prefix + [name])
        yield prefix, cmd

    for path, cmd in walk(group, []):
        assert cmd.help, path
        if not hasattr(cmd, "commands") or path == ["map"]:
            assert "Example" in cmd.help, path


def test_new_writes_the_campaign_folder(camp):
    assert (camp / "campaign.yaml").is_file()
    assert len(bytes.fromhex((camp / "secret" / "master.key").read_text().strip())) == 32
    assert (camp / "turns" / "000" / "state.yaml").is_file()
    assert (camp / "turns" / "000" / "reports" / "ann.txt").is_file()
    assert (camp / "turns" / "000" / "dice.yaml").is_file()


def test_new_refuses_bad_input(tmp_path):
    result = run("new", "gues", tmp_path / "c", "--player", "a", code=2)
    assert result.output.strip().startswith("Error: unknown game 'gues' (did you mean \"guess\"?)")
    result = run("new", "guess", tmp_path / "c", "--player", "a", "--option", "turn=2", code=2)
    assert "unknown option 'turn' for guess (did you mean \"turns\"?)" in result.output
    result = run("new", "guess", tmp_path / "c", "--player", "a", "--option", "turns=x", code=2)
    assert "option turns takes a whole number, not 'x'" in result.output
    result = run("new", "guess", tmp_path / "c", "--player", "Bad Id", code=2)
    assert "player id 'Bad Id'" in result.output
    assert not (tmp_path / "c").exists()


def test_check_reports_every_error_located(camp, tmp_path):
    f = orders(tmp_path, "ann.txt", "player: ann\nturn: 1\nguess 9\nbet 3\n")
    result = run("check", camp, f, code=1)
    lines = result.output.strip().splitlines()
    assert lines[0] == f"{f}:3:7: a guess is 1 to 6, not '9'"
    assert lines[1] == f"{f}:4:1: expected 'guess N', not 'bet 3'"
    assert lines[-1] == "2 errors in 1 file"


def test_check_unknown_player_suggests(camp, tmp_path):
    f = orders(tmp_path, "x.txt", "player: anne\nguess 3\n")
    result = run("check", camp, f, code=1)
    assert f"{f}:1:1: unknown player 'anne' (did you mean \"ann\"?)" in result.output


def test_check_wrong_turn(camp, tmp_path):
    f = orders(tmp_path, "x.txt", "player: ann\nturn: 4\nguess 3\n")
    assert f"{f}:2:1: these orders are for turn 4, but the campaign is at turn 1" in run(
        "check", camp, f, code=1).output


def test_submit_stores_only_clean_orders(camp, tmp_path):
    before = snapshot(camp)
    bad = orders(tmp_path, "bad.txt", "player: ann\nguess 0\n")
    result = run("submit", camp, bad, code=1)
    assert "nothing stored" in result.output
    assert snapshot(camp) == before
    good = orders(tmp_path, "good.txt", "player: ann\nguess 4\n")
    run("submit", camp, good)
    # stored in canonical form: headers and game lines (never a password)
    assert (camp / "turns" / "001" / "orders" / "ann.txt").read_text() == "player: ann\nturn: 1\nguess 4\n"
    later = orders(tmp_path, "later.txt", "player: ann\nguess 5\n")
    run("submit", camp, later)
    assert "guess 5" in (camp / "turns" / "001" / "orders" / "ann.txt").read_text()


def test_submit_force_records_errors(camp, tmp_path):
    bad = orders(tmp_path, "bad.txt", "guess 0\n")
    run("submit", camp, bad, "--player", "bob", "--force", code=1)
    assert (camp / "turns" / "001" / "orders" / "bob.errors").read_text().startswith(f"{bad}:1:7:")


def test_resolve_waits_then_resolves_once(camp, tmp_path):
    run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4\n"))
    result = run("resolve", camp, code=1)
    assert result.output.strip() == "Error: turn 1: waiting for orders from bob " \
                                    "(no deadline set; gm resolve --force to go on)"
    run("submit", camp, orders(tmp_path, "b.txt", "player: bob\nguess 2\n"))
    result = run("resolve", camp)
    assert "Turn 1 resolved." in result.output
    before = snapshot(camp)
    result = run("resolve", camp, code=1)
    assert "turn 2: waiting for orders from ann, bob" in result.output
    assert snapshot(camp) == before
    status = json.loads(run("status", camp, "--json").output)
    assert status["turn"] == 2 and status["missing"] == ["ann", "bob"]


def test_force_applies_missed_turn(camp, tmp_path):
    run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4\n"))
    result = run("resolve", camp, "--force")
    assert "Missed turn: bob." in result.output
    report = run("report", camp, "--player", "bob").output
    assert "Bob sent no orders this turn (missed turn)." in report


def test_orders_for_a_finished_game_are_refused(camp, tmp_path):
    for _turn in (1, 2, 3):
        run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 1\n"))
        run("resolve", camp, "--force")
    f = orders(tmp_path, "late.txt", "player: ann\nguess 1\n")
    assert "the game is over: no more orders are taken" in run("check", camp, f, code=1).output
    assert "the game is over" in run("resolve", camp, code=1).output


def test_show_report_map_dice_replay(camp, tmp_path):
    run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4\n"))
    run("submit", camp, orders(tmp_path, "b.txt", "player: bob\nguess 2\n"))
    run("resolve", camp)
    shown = json.loads(run("show", camp, "--json").output)
    assert set(shown) == {"game", "turn", "phase", "players", "state"}
    assert shown["turn"] == 1 and shown["game"] == "guess"
    dice = (camp / "turns" / "001" / "dice.yaml").read_text()
    assert "label: turn 1" in dice
    for fmt in ("text", "markdown", "bbcode", "html"):
        out = run("report", camp, "--player", "ann", "--format", fmt).output
        assert "Commitment for turn 2" in out
    assert "All 1 rolls verified." in run("dice", "verify", camp).output
    assert "every state matches" in run("replay", camp).output
    run("map", camp, "-o", tmp_path / "x.png", code=2)  # guess has no board image


def test_replay_finds_drift(camp, tmp_path):
    run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4\n"))
    run("submit", camp, orders(tmp_path, "b.txt", "player: bob\nguess 2\n"))
    run("resolve", camp)
    state = camp / "turns" / "001" / "state.yaml"
    state.write_text(state.read_text().replace("last_roll:", "last_roll: 9\nx:"))
    assert "turn 1:" in run("replay", camp, code=1).output


def test_dice_verify_finds_a_changed_roll(camp, tmp_path):
    run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4\n"))
    run("resolve", camp, "--force")
    import yaml
    log = camp / "turns" / "001" / "dice.yaml"
    data = yaml.safe_load(log.read_text())
    data["rolls"][0]["value"] = 7 if data["rolls"][0]["value"] != 7 else 6
    log.write_text(yaml.safe_dump(data))
    assert "logged" in run("dice", "verify", camp, code=1).output


def test_missing_and_corrupt_campaign_files(camp, tmp_path):
    assert run("status", tmp_path / "nowhere", code=2).output.startswith("Error: ")
    state = camp / "turns" / "000" / "state.yaml"
    state.write_text("players: [ann, bob\nturn: ")  # truncated
    result = run("status", camp, code=2)
    assert "state.yaml" in result.output and "corrupt" in result.output
    assert len(result.output.strip().splitlines()) == 1
    (camp / "campaign.yaml").write_text(":::")
    assert "campaign.yaml" in run("status", camp, code=2).output


def test_unknown_player_for_report(camp):
    assert "unknown player 'bobb' (did you mean \"bob\"?)" in run("report", camp, "--player", "bobb", code=2).output


def _hold_lock(folder: str, ready, go) -> None:
    with Campaign(folder).lock():
        ready.set()
        go.wait(60)


def test_lock_refuses_a_second_gm(camp, tmp_path, monkeypatch):
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    ready, go = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(camp), ready, go))  # another gm holds it (an OS lock)
    holder.start()
    assert ready.wait(60)
    monkeypatch.setenv("GM_LOCK_WAIT", "0.2")
    result = run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4\n"), code=2)
    go.set()
    holder.join(60)
    assert "another gm" in result.output
    (camp / ".lock").write_text("999999999")  # left by a killed gm: nobody holds it
    run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4\n"))


def test_killed_resolve_leaves_previous_state(camp, tmp_path):
    run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4\n"))
    run("submit", camp, orders(tmp_path, "b.txt", "player: bob\nguess 2\n"))
    campaign = Campaign(camp)
    for step in ("events", "reports"):
        with pytest.raises(RuntimeError):
            engine.resolve(campaign, fail_after=step)
        assert campaign.last_turn == 0
        assert not (camp / ".lock").exists()
    engine.resolve(campaign)
    assert campaign.last_turn == 1
    assert "every state matches" in run("replay", camp).output


def test_campaign_templates_override(camp, tmp_path):
    (camp / "templates" / "guess").mkdir(parents=True)
    (camp / "templates" / "guess" / "report.txt.j2").write_text("House report for {{ viewer_name }}\n")
    assert run("report", camp, "--player", "ann").output == "House report for Ann\n"


def test_player_report_hides_other_players_contact(camp):
    out = run("report", camp, "--player", "bob", "--format", "html").output
    assert "ann@example.org" not in out
    assert (camp / "secret" / "master.key").read_text().strip() not in out


def test_games_lists_every_game_with_maps_and_options():
    from gm import games as registry
    out = run("games").output
    for name in registry.names():
        assert f"\n{name} — " in "\n" + out


def test_map_group_dispatches_to_draw_and_files(camp, tmp_path):
    assert "no board image" in run("map", camp, "-o", tmp_path / "x.png", code=2).output
    assert "no such map file" in run("map", "check", tmp_path / "nope.yaml", code=2).output


def test_replay_with_turn_headers(camp, tmp_path):
    for turn in (1, 2):
        for p in ("ann", "bob"):
            run("submit", camp, orders(tmp_path, f"{p}.txt", f"player: {p}\nturn: {turn}\nguess 3\n"))
        run("resolve", camp)
    assert "every state matches" in run("replay", camp).output


def test_html_reports_escape_names(tmp_path, fixed_master):
    camp = tmp_path / "esc"
    engine.new_campaign(camp, "guess", ["ann:Ann <b>&amp;", "bob"], master=fixed_master)
    html = run("report", camp, "--public", "--format", "html").output
    assert "Ann &lt;b&gt;&amp;amp;" in html and "<b>&amp;" not in html
    assert "Ann <b>&amp;" in run("report", camp, "--public").output  # text stays as written


def test_receipts_in_reports_and_gm_audit_log(camp, tmp_path):
    from gm.store.receipts import receipt
    run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4  # sure\n"))
    run("submit", camp, orders(tmp_path, "b.txt", "guess 2\n"), "--player", "bob", "--as-gm")
    run("resolve", camp)
    public = run("report", camp, "--public").output
    assert f"Ann: {receipt('guess 4')}" in public and f"Bob: {receipt('guess 2')}" in public
    assert "ORDERS ENTERED BY THE GM" not in public
    gm_report = run("report", camp).output
    assert "ORDERS ENTERED BY THE GM" in gm_report and "bob from" in gm_report


def test_deadline_refuses_early_resolve_then_applies_policy(camp, tmp_path):
    import yaml
    config = yaml.safe_load((camp / "campaign.yaml").read_text())
    config["deadline"] = "2999-01-01T18:00+00:00"
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config))
    run("submit", camp, orders(tmp_path, "a.txt", "player: ann\nguess 4\n"))
    assert "waiting for orders from bob; deadline Tue 2999-01-01 18:00 UTC" in run("resolve", camp, code=1).output
    assert "left" in run("status", camp).output
    config["deadline"] = "2000-01-01T18:00+00:00"
    (camp / "campaign.yaml").write_text(yaml.safe_dump(config))
    assert "Missed turn: bob." in run("resolve", camp).output  # deadline passed, policy default


def test_forum_report_references_uploaded_images(tmp_path):
    import hashlib

    from PIL import Image
    camp = tmp_path / "net"
    engine.new_campaign(camp, "network", ["dark", "light"], master=hashlib.sha256(b"f").digest())
    out = run("report", camp, "--public", "--format", "bbcode", "--image-url", "https://example.org/c/",
              "--forum-images", tmp_path / "up").output
    assert "[img]https://example.org/c/turn000-board.png[/img]" in out
    image = tmp_path / "up" / "turn000-board.png"
    assert Image.open(image).size[0] <= 800 and image.stat().st_size <= 500_000
    assert image.stat().st_mode & 0o044  # readable by a web server, unlike mkstemp's default


def test_event_texts_name_players(tmp_path, fixed_master):
    from gm.store.dice import roll_value, turn_seed
    camp = tmp_path / "names"
    engine.new_campaign(camp, "guess", ["ann:Ann Smith", "bob"], master=fixed_master)
    right = roll_value(turn_seed(fixed_master, 1), "turn 1", 0, 6)  # the guess game's one roll
    (tmp_path / "a.txt").write_text(f"player: ann\nguess {right}\n")
    (tmp_path / "b.txt").write_text("player: bob\nguess 1\n")
    run("submit", camp, tmp_path / "a.txt", tmp_path / "b.txt")
    run("resolve", camp)
    # events name players as data; reports fill in the names (never word by word)
    assert "'@{ann} guessed right.'" in (camp / "turns" / "001" / "events.yaml").read_text()
    report = run("report", camp, "--public").output
    assert "Ann Smith guessed right." in report and "ann guessed" not in report and "@{" not in report
    console = run("resolve", camp, "--force").output
    assert "@{" not in console
