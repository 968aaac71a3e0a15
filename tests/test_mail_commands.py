"""Players' mail commands (help, status, orders, resend, press) and press in the record (issue 13 item 5)."""
from __future__ import annotations

import pytest
from test_mail_support import ANN, BOB, guess_campaign, maildir_with, message, update_config

from gm.delivery.mail.commands import detect
from gm.delivery.mail.desk import LEDGER
from gm.delivery.mail.inbox import inbox_settings
from gm.delivery.mail.intake import fetch
from gm.store.logbook import read_entries
from gm.store.press import press_for, read_press
from gm.turn.report import environment


def run(camp, tmp_path, *messages, name="box"):
    return fetch(camp, inbox_settings(camp, maildir=str(maildir_with(tmp_path / name, *messages)))).outcomes


def ask(camp, tmp_path, body, *, sender=ANN, subject="x", name="box"):
    [out] = run(camp, tmp_path, message(body, sender=sender, subject=subject), name=name)
    return out, out.reply.get_content() if out.reply is not None and not out.reply.is_multipart() else ""


@pytest.mark.parametrize("subject, body, expected", [
    ("hello", "help\n", ("help", "")),
    ("hello", "  Status.\n\nthanks, Ann\n", ("status", "")),
    ("hello", "resend 3\n", ("resend", "3")),
    ("hello", "press bob: shall we share the coast?\nwe both win\n-- \nAnn\n",
     ("press", "bob: shall we share the coast?\nwe both win")),
    ("Re: [camp] status", "", ("status", "")),
    ("help", "Sent from my phone\n", ("help", "")),
    ("orders", "", ("orders", "")),
    ("orders", "guess 3\n", None),              # "orders" is what players write above their orders
    ("status", "player: ann\nguess 3\n", None),  # an orders header wins over the subject
    ("x", "Orders:\nguess 3\n", None),
    ("x", "orders\nguess 3\n", None),
    ("x", "guess 3\n", None),
    ("x", "press all: hi\n\nOn Mon, 30 Nov 2026, GM wrote:\n> turn 1\n", ("press", "all: hi")),
])
def test_which_messages_are_commands(subject, body, expected):
    command = detect(subject, body)
    assert (None if command is None else (command.name, command.argument)) == expected


def test_help_status_and_orders_are_answered_and_logged(tmp_path):
    camp = guess_campaign(tmp_path, deadline="2026-12-01T18:00Z", grace="2h")
    out, text = ask(camp, tmp_path, "help\n")
    assert out.status == "answered" and out.command == "help"
    assert "resend [TURN]" in text and "press TO: TEXT" in text and "Ann (ann), Bob (bob)" in text
    assert "'player: ann'" in text
    assert BOB not in text and ANN not in text
    [out] = run(camp, tmp_path, message("player: ann\nguess 4\n", date="Mon, 30 Nov 2026 11:00:00 +0000"),
                name="box2")
    assert out.status == "stored"
    out, text = ask(camp, tmp_path, "", subject="status", sender=BOB, name="box3")
    assert "Your orders: missing." in text and "Orders in: Ann.\nOrders missing: Bob.\n" in text
    assert "Deadline: Tue 2026-12-01 18:00 UTC, then 2h of grace" in text
    out, text = ask(camp, tmp_path, "orders\n", name="box4")
    assert "guess 4" in text and "Receipt:" in text
    out, text = ask(camp, tmp_path, "orders\n", sender=BOB, name="box5")
    assert "No orders are stored for you for turn 1. They are due by Tue 2026-12-01 18:00 UTC." in text
    assert "guess 4" not in text
    commands = [e["command"] for e in read_entries(camp.path / "inbox" / LEDGER)]
    assert commands == ["help", None, "status", "orders", "orders"]
    assert (camp.path / "mail.log").read_text().count("command ") == 4


def test_resend_sends_the_players_own_report_or_one_clear_line(tmp_path):
    camp = guess_campaign(tmp_path)
    [out] = run(camp, tmp_path, message("resend\n"))
    assert out.status == "answered" and "Turn 0 report for Ann" in out.reply["Subject"]
    assert out.reply["To"] == f"Ann <{ANN}>"
    [form] = [p for p in out.reply.iter_attachments()]
    assert form.get_filename() == "orders-turn-001-ann.txt" and form.get_content().startswith("player: ann\nturn: 1\n")
    out, text = ask(camp, tmp_path, "resend 7\n", name="box2")
    assert out.status == "refused" and text.startswith("There is no report of turn 7 yet; the latest is turn 0")
    assert "Report not sent" in out.reply["Subject"] and "Mail commands" not in text
    out, text = ask(camp, tmp_path, "resend three\n", name="box3")
    assert text.startswith("Resend takes a turn number, e.g. 'resend 3', not 'three'")
    (camp.turn_dir(0) / "reports" / "bob.txt").unlink()
    out, text = ask(camp, tmp_path, "resend 0\n", sender=BOB, name="box4")
    assert text.startswith("There is no report of turn 0 for you; ask the GM") and str(camp.path) not in text


def test_an_unknown_command_gets_the_help_text(tmp_path):
    camp = guess_campaign(tmp_path)
    out, text = ask(camp, tmp_path, "hlep\n")
    assert out.status == "refused" and out.command == "unknown"
    assert text.startswith("'hlep' is not a command: did you mean 'help'? Nothing was stored.\n")
    assert "Mail commands" in text and camp.stored_orders(1) == {}
    out, text = ask(camp, tmp_path, "xyzzy\n", name="box3")
    assert text.startswith("'xyzzy' is not a command, and nothing was stored. Read as orders, it gives:\n"
                           "  message:1:1: expected 'guess N', not 'xyzzy'")
    out, text = ask(camp, tmp_path, "guess 9\n", name="box2")  # two words: mistaken orders, not a command
    assert out.command is None and "a guess is 1 to 6" in text and "Mail commands" not in text


def test_press_to_one_player_and_to_all(tmp_path):
    camp = guess_campaign(tmp_path)
    out, text = ask(camp, tmp_path, "press Bob: shall we share the coast?\n")
    assert out.status == "answered" and "Your press to Bob is recorded. It appears in the report of turn 1" in text
    assert out.reply["Subject"] == "[camp] Press to Bob recorded"
    ask(camp, tmp_path, "press all: I guess six.\n", sender=BOB, name="box2")
    assert [p["text"] for p in press_for(camp, 1, "bob")] == ["shall we share the coast?", "I guess six."]
    assert [(p["from"], p["to"]) for p in press_for(camp, 1, "ann")] == [("ann", "bob"), ("bob", "all")]
    assert [(p["from"], p["to"]) for p in press_for(camp, 1, "public")] == [("bob", "all")]
    assert len(press_for(camp, 1, "gm")) == 2
    lines = (camp.turn_dir(1) / "press.yaml").read_text().splitlines()
    assert len(lines) == 2 and all(line.startswith("- {") for line in lines)


def test_grey_press_hides_the_sender_from_all_but_the_gm(tmp_path):
    camp = guess_campaign(tmp_path, press="grey")
    out, text = ask(camp, tmp_path, "press all: the dice are loaded\n")
    assert "without your name (grey press)" in text
    for viewer in ("bob", "public"):
        [seen] = press_for(camp, 1, viewer)
        assert seen["from"] is None and seen["from_name"] == "(anonymous)"
    assert press_for(camp, 1, "gm")[0]["from"] == "ann" and press_for(camp, 1, "ann")[0]["from"] == "ann"
    for ext in ("txt", "md", "bbcode", "html"):
        shown = environment(html=ext == "html").get_template(f"_press.{ext}.j2").render(press=press_for(camp, 1, "bob"))
        assert "anonymous" in shown and "Ann" not in shown and "dice are loaded" in shown


def test_bad_press_gets_one_clear_line_and_changes_nothing(tmp_path):
    camp = guess_campaign(tmp_path)
    out, text = ask(camp, tmp_path, "press bbo: hi\n")
    assert out.status == "refused"
    assert text.splitlines()[0] == ('No player \'bbo\' in this campaign (did you mean "bob"?); '
                                    "write press TO: TEXT with TO one of Bob or all.")
    out, text = ask(camp, tmp_path, "press ann: note to self\n", name="box2")
    assert text.splitlines()[0] == "Press goes to another player or to all, not to yourself."
    out, text = ask(camp, tmp_path, "press everybody listen\n", name="box3")
    assert text.startswith("Write press TO: TEXT")
    camp = update_config(camp, press="off")
    out, text = ask(camp, tmp_path, "press bob: hi\n", name="box4")
    assert text.startswith("Press is off in this campaign")
    assert read_press(camp, 1) == []


def test_press_needs_the_password_where_passwords_are_on(tmp_path):
    from gm.delivery.mail.passwords import set_password
    camp = guess_campaign(tmp_path, passwords=True)
    set_password(camp, "ann", "tulip-42")
    out, text = ask(camp, tmp_path, "press bob: forged?\n")
    assert out.status == "refused" and "needs a 'password:' line" in text and read_press(camp, 1) == []
    out, text = ask(camp, tmp_path, "press bob: it is me\npassword: tulip-42\n", name="box2")
    assert out.status == "answered"
    [entry] = read_press(camp, 1)
    assert entry["text"] == "it is me" and "tulip" not in (camp.turn_dir(1) / "press.yaml").read_text()


def test_press_partials_escape_what_players_wrote(tmp_path):
    press = [{"from": "ann", "from_name": "Ann <b>", "to": "all", "to_name": "all", "grey": False,
              "text": "<script>alert(1)</script> [url]x[/url] *bold*", "at": "2026-11-30T10:00:00+00:00"}]
    html = environment(html=True).get_template("_press.html.j2").render(press=press)
    assert "<script>" not in html and "&lt;script&gt;" in html and "Ann &lt;b&gt;" in html
    bbcode = environment().get_template("_press.bbcode.j2").render(press=press)
    assert "[url]" not in bbcode
    markdown = environment().get_template("_press.md.j2").render(press=press)
    assert "\\*bold\\*" in markdown
    assert environment().get_template("_press.txt.j2").render(press=[]) == ""


def test_press_after_the_game_is_over_is_refused(tmp_path):
    from gm.turn.engine import new_campaign, resolve
    camp = new_campaign(tmp_path / "short", "guess", [f"ann:Ann:{ANN}", f"bob:Bob:{BOB}"],
                        options={"turns": 1}, master=bytes(range(32)))
    resolve(camp, force=True)
    out, text = ask(camp, tmp_path, "press all: good game\n")
    assert out.status == "refused" and out.reply["Subject"] == "[short] Press not sent"
    assert text.startswith("The game is over: press is no longer passed on.")
    assert read_press(camp, 2) == []
    out, text = ask(camp, tmp_path, "status\n", name="box2")
    assert "No orders are due: the game is over." in text


def test_the_help_reply_links_the_players_page_turn_and_dice_with_site_url(tmp_path):
    """Issue 24 item 6: with `site_url` the help reply says where the players' page, the last turn's
    page and the dice page are; without it, nothing points to a site."""
    camp = guess_campaign(tmp_path)
    _, plain = ask(camp, tmp_path, "help\n")
    assert "http" not in plain and "players.html" not in plain
    camp = update_config(camp, site_url="https://example.org/camp/")
    [out] = run(camp, tmp_path, message("help\n", date="Mon, 30 Nov 2026 11:00:00 +0000"), name="box2")
    text = out.reply.get_content()
    turn = camp.last_turn
    assert "how to write orders, check the dice, these commands: https://example.org/camp/players.html" in text
    assert f"the last turn, with the whole map: https://example.org/camp/turn-{turn:03d}.html" in text
    assert "check the dice: https://example.org/camp/dice.html" in text
