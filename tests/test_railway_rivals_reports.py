"""Railway Rivals reports in every format, the order form, and the demo orders through the engine."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gm.store.dice import Dice
from gm.turn.engine import new_campaign, resolve, submit_files
from gm.games import get
from gm.store.orders import read_frame
from gm.turn.report import FORMATS, dice_block, render_report, template_context

GAME = get("railway-rivals")
ROOT = Path(__file__).resolve().parents[1]
MAPS = ROOT / "tests" / "cases" / "railway-rivals" / "maps"
DEMO = ROOT / "orders" / "railway-rivals"


def eventful_turn() -> tuple[dict, list[dict]]:
    """A turn with a bit of everything: interest, a ferry race, a stopped segment, arrivals, payments."""
    state = GAME.setup(str(MAPS / "shire.yaml"), ["blue", "red", "green"], {},
                       Dice(b"r" * 32, fixed=[4, 2, 6]))
    state = GAME.apply_setup(state, {"cash": {"green": -4}, "track": {"green": [["0611", "0612"]]}})
    texts = {"blue": "company: Great Western, teal\nround 1: (0609) 0710 ferry F1 1110",
             "red": "round 1: (0609) 0610 0710 ferry F1 1110; (0609) 0509\nround 3: (0509) 0408 0409",
             "green": "round 2: (0611) 0610 0609"}
    orders = {p: GAME.parse(state, p, read_frame(t, p).lines) for p, t in texts.items()}
    return GAME.resolve(state, orders, Dice(b"q" * 32))


def context(state: dict, events: list[dict], viewer: str, turn: int) -> dict:
    """What the engine hands a report template (docs/plugins.md), from the engine's own builder."""
    players = [{"id": p, "name": p.title(), "colour": ""} for p in state["players"]]
    nmr = {"engine": True, "kind": "nmr", "player": "green", "text": "Green sent no orders."}
    return template_context(GAME, state, [nmr, *events], viewer, turn=turn, campaign="Test <&> Shire",
                            players=players, image="map.png", dice=dice_block(turn, b"s" * 32, b"n" * 32, []))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_turn_report_in_every_format(fmt: str) -> None:
    state, events = eventful_turn()
    text = render_report(context(state, events, "blue", 1), fmt, game_name=GAME.name)
    for needle in ("Great Western", "interest", "ferry F1", "belongs to Great Western", "first to reach",
                   "Hotel Bay", "(0609) 0509  (1 pip)" if fmt == "text" else "0509", "round 1", "# die 6"):
        assert needle.lower() in text.lower(), needle
    if fmt == "html":
        assert "Test &lt;&amp;&gt; Shire" in text and "<table>" in text
    if fmt == "text":
        assert "Great Western              20        0      0        1         0       6     15" in text
        # each round's heading stands on its own line, the builds below it
        assert "\nROUND 1 (die 4)\n" in text and "\nROUND 1 (die 4) " not in text
        assert "Green                      -4        1      5        0         0       0    -10" in text


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_the_set_up_report_in_every_format(fmt: str) -> None:
    state = GAME.setup("tutorial", ["blue", "red"], {}, Dice(b"r" * 32, fixed=[4, 2, 6]))
    text = render_report(context(state, [], "red", 0), fmt, game_name=GAME.name)
    assert "set-up on Rohan (tutorial)" in text and "round 3:          # die 6" in text


def test_the_order_form_has_the_dice_and_the_track_ends() -> None:
    state, _ = eventful_turn()
    form = GAME.order_form(GAME.view(state, "red"), "red")
    assert "player: red\nturn: 2\n" in form
    assert f"# Dice: round 1 = {state['build_dice'][0]}, round 2 = {state['build_dice'][1]}" in form
    assert "Your track ends at" in form and "0409" in form
    assert GAME.parse(state, "red", read_frame(form, "form").lines)["rounds"] == [[], [], []]


@pytest.mark.parametrize("master", [bytes(32), b"\x07" * 32], ids=["zeros", "sevens"])
def test_the_demo_orders_play_two_turns_whatever_the_dice(tmp_path: Path, master: bytes) -> None:
    campaign = new_campaign(tmp_path / "demo", "railway-rivals", ["blue", "red", "green"], map_name="tutorial",
                            master=master)
    for turn in (1, 2):
        files = sorted(str(f) for f in DEMO.glob(f"{turn:03d}-*.txt"))
        assert len(files) == 3
        results = submit_files(campaign, files)
        assert all(r.ok for r in results), [e for r in results for e in r.errors]
        resolve(campaign)
    state = campaign.state()
    assert state["build_turn"] == 3 and all(len(state["track"][p]) == 6 for p in ("blue", "red", "green"))
    reports = campaign.turn_dir(2) / "reports"
    assert (reports / "map.png").stat().st_size > 10_000
    assert "YOUR ORDERS FOR BUILD TURN 3" in (reports / "blue.txt").read_text()
    saved = (campaign.turn_dir(2) / "state.yaml").read_text(encoding="utf-8")
    assert re.findall(r"'\d{4}'", saved) and not re.findall(r"(?<![\w'])\d{4}(?![\w'])", saved)  # labels quoted
    assert "&id" not in saved  # no YAML anchors: the state shares no list between keys
