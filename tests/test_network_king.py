"""Network King: cards, the keyword table, set-up, orders, views, rendering and the rules cases."""
from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gm import games
from gm.turn.cases import run_case_file
from gm.store.dice import Dice
from gm.store.errors import OrderErrors, UsageError
from gm.games.network_king import GAME
from gm.games.network_king.cards import (ProfessionTable, card_professions, read_card_line,
                                         read_deck_option, vowels)
from gm.store.orders import read_frame
from gm.store.viewing import visible_events

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "tests" / "cases" / "network-king").glob("*.yaml"))
DECK_P1 = ROOT / "orders" / "network-king" / "deck-p1.txt"
DECK_P2 = ROOT / "orders" / "network-king" / "deck-p2.txt"
TEN = [f"Card Number {n} | Writer" for n in range(10)]


def new_game(fixed=(1,), players=("p1", "p2"), **options):
    opts = {"deck_p1": str(DECK_P1), "deck_p2": str(DECK_P2), "professions": None}
    opts.update(options)
    return GAME.setup(None, list(players), opts, Dice(b"s" * 32, fixed=list(fixed)))


def parse(state, player, text):
    return GAME.parse(state, player, read_frame(text, "orders.txt").lines)


def errors_of(state, player, text) -> list[str]:
    with pytest.raises(OrderErrors) as info:
        parse(state, player, text)
    return info.value.lines()


# ---- the rules cases --------------------------------------------------------------------------
def _case_ids():
    for path in CASES:
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            yield pytest.param(path, case["id"], id=case["id"])


@pytest.mark.parametrize("path,case_id", list(_case_ids()))
def test_rules_case(path, case_id):
    result = next(r for r in run_case_file(path) if r.id == case_id)
    assert result.ok, "\n".join(result.problems)


def test_there_are_enough_cases_and_each_names_its_rule():
    cases = [c for p in CASES for c in yaml.safe_load(p.read_text(encoding="utf-8"))]
    assert len(cases) >= 25
    assert all(c.get("rule") for c in cases)
    assert len({c["id"] for c in cases}) == len(cases)


# ---- cards ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,count", [
    ("Gabe Newell", 4), ("Hélène Aubé", 6), ("ÉMILE ZOLA", 5), ("Ōtomo Katsuhiro", 7),
    ("Yvy Lynn", 0), ("Ærø Bœuf", 6), ("No Name", 0), ("", 0), ("山田太郎", 0)])
def test_vowels(name, count):
    assert vowels(name) == count


def test_card_lines_are_normalised():
    assert read_card_line(" | Producer ") == "No Name | Producer"
    assert read_card_line("Ian  Dallas |") == "Ian Dallas | No Profession"
    with pytest.raises(ValueError, match="Name \\| Job Title"):
        read_card_line("Ian Dallas, Writer")
    with pytest.raises(ValueError, match="double quote"):
        read_card_line('Dwayne "Rock" Johnson | Actor')


def test_keyword_table_whole_words_prefixes_and_creative():
    table = ProfessionTable.load()
    assert table.professions("Managing Director") == ["Business"]
    assert table.professions("Art Director") == ["Business", "Art"]
    assert table.professions("Lead Programmer") == ["Programming/QA"]
    assert table.professions("Sound Designer") == ["Design/Writing", "Sound"]
    assert table.professions("Quality Assurance") == ["Programming/QA"]
    assert table.professions("Diseñadora Gráfica") == ["Design/Writing", "Art"]  # accents ignored
    assert table.professions("DÉVELOPPEUR") == ["Programming/QA"]
    assert "Business" not in table.professions("Creative")
    assert len(table.professions("Creative")) == 4
    assert table.professions("") == ["No Profession"]
    with pytest.raises(ValueError, match="Gardener"):
        table.professions("Gardener")  # "art" is no word of "Gardener"


def test_keyword_table_unmatched_list_and_bad_tables(tmp_path):
    table = ProfessionTable.from_data({"professions": {"Art": ["painter"]}, "unmatched": ["Sound", "Art"]})
    assert table.professions("Gardener") == ["Art", "Sound"]
    with pytest.raises(UsageError, match="unknown profession 'Cook'"):
        ProfessionTable.from_data({"professions": {"Cook": ["chef"]}})
    bad = tmp_path / "table.yaml"
    bad.write_text("professions: [oops", encoding="utf-8")
    with pytest.raises(UsageError, match="table.yaml:1"):
        ProfessionTable.load(bad)
    with pytest.raises(UsageError, match="cannot read"):
        ProfessionTable.load(tmp_path / "missing.yaml")


def test_no_name_and_no_profession_cards():
    known = {"Producer": ["Business"]}
    assert card_professions("No Name | Producer", known) == ["No Name"]
    assert card_professions("Ian Dallas | No Profession", known) == ["No Profession"]
    assert card_professions("Jo Ek | Producer", known) == ["Business"]


def test_deck_files(tmp_path):
    table = ProfessionTable.load()
    cards = read_deck_option(str(DECK_P1), "deck_p1", table)
    assert len(cards) == 13 and "No Name | Executive Producer" in cards and "Ian Dallas | No Profession" in cards
    short = tmp_path / "short.txt"
    short.write_text("# my deck\n" + "\n".join(TEN[:9]) + "\n", encoding="utf-8")
    with pytest.raises(UsageError) as info:
        read_deck_option(str(short), "deck_p1", table)
    assert str(info.value) == f"{short}:10: a deck needs at least 10 cards, this one has 9"
    with pytest.raises(UsageError, match="nowhere.txt: cannot read the deck list for deck_p2"):
        read_deck_option(str(tmp_path / "nowhere.txt"), "deck_p2", table)
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(TEN + ["Bob | Gardener", "Al, Writer"]), encoding="utf-8")
    with pytest.raises(UsageError) as info:
        read_deck_option(str(bad), "deck_p1", table)
    message = str(info.value)
    assert f"{bad}:11:" in message and f"{bad}:12:" in message and "\n" not in message
    assert read_deck_option(TEN, "deck_p1", table)[0] == "Card Number 0 | Writer"


def test_a_deck_sent_as_orders_gets_every_error_at_once_in_player_words():
    state = GAME.setup(None, ["p1", "p2"], {"deck_p1": str(DECK_P1)}, Dice(b"s" * 32))
    text = "Ada Lee | Programmer\nBob Ray | Juggler\nCarl \"x | Writer\nEve | a | b\n"
    errors = errors_of(state, "p2", text)
    assert errors[0].startswith('orders.txt:2:11: no profession fits the job title "Juggler": use a title')
    assert "ask the GM" in errors[0] and "add one to the table" not in " ".join(errors)
    assert errors[1].startswith("orders.txt:3:1: a name cannot hold a double quote")
    assert errors[2].startswith("orders.txt:4:1: a card line has one '|'")
    assert errors[3] == "orders.txt:4:1: a deck needs at least 10 cards, this one has 4"
    # a deck of at most 200 cards; reading stops after 25 errors, saying where
    long = errors_of(state, "p2", "\n".join(TEN * 21))
    assert long == ["orders.txt:201:1: a deck holds at most 200 cards: reading stopped here (10 more lines not read)"]
    many = errors_of(state, "p2", "Bob | Juggler\n" * 40)
    assert len(many) == 26
    assert many[-1] == "orders.txt:26:1: too many errors: reading stopped here (15 more lines not read)"
    # ten lines, one refused: putting that line right is enough, so no count error
    assert len(errors_of(state, "p2", "\n".join(TEN[:9] + ["Bob | Juggler"]))) == 1


def test_the_gm_may_name_the_starting_player():
    dice = Dice(b"s" * 32)
    opts = {"deck_p1": str(DECK_P1), "deck_p2": str(DECK_P2), "starter": "first"}
    state = GAME.setup(None, ["ann", "bob"], opts, dice)
    assert state["starting_player"] == "ann" and "starting player" not in [r["label"] for r in dice.log]
    assert GAME.view(state, "public")["starter"] == "first"
    with pytest.raises(UsageError, match="option starter is one of die, first, second"):
        GAME.setup(None, ["ann", "bob"], dict(opts, starter="last"), Dice(b"s" * 32))


# ---- set-up -----------------------------------------------------------------------------------
def test_setup_order_of_dice_and_the_deal():
    dice = Dice(b"s" * 32, fixed=[2])
    state = GAME.setup(None, ["ann", "bob"], {"deck_p1": str(DECK_P1), "deck_p2": str(DECK_P2)}, dice)
    labels = [r["label"] for r in dice.log]
    assert labels[0] == "starting player"
    assert labels[1:] == ["shuffle deck ann"] * 12 + ["shuffle deck bob"] * 12
    assert all(r.get("secret") for r in dice.log[1:]) and not dice.log[0].get("secret")
    assert state["starting_player"] == "bob" and GAME.due(state) == ["bob"]
    assert [len(state["hands"][p]) for p in ("ann", "bob")] == [5, 5]
    assert [len(state["decks"][p]) for p in ("ann", "bob")] == [8, 8]
    assert sorted(state["hands"]["ann"] + state["decks"]["ann"]) == \
        sorted(read_deck_option(str(DECK_P1), "deck_p1", ProfessionTable.load()))


def test_setup_is_deterministic_and_plain_data():
    a, b = new_game(fixed=()), new_game(fixed=())
    assert a == b
    assert yaml.safe_load(yaml.safe_dump(a)) == a


def test_deck_phase_when_decks_are_missing():
    state = GAME.setup(None, ["p1", "p2"], {"deck_p1": str(DECK_P1)}, Dice(b"s" * 32))
    assert GAME.phase(state) == "decks" and GAME.due(state) == ["p2"]
    with pytest.raises(OrderErrors, match="already in"):
        parse(state, "p1", "\n".join(TEN))
    orders = parse(state, "p2", "\n".join(TEN))
    new, events = GAME.resolve(state, {"p2": orders}, Dice(b"t" * 32, fixed=[1]))
    assert GAME.phase(new) == "play" and new["to_move"] == "p1"
    assert GAME.view(new, "p1")["hand_sizes"] == {"p1": 5, "p2": 5}
    assert GAME.default_orders(state, "p2") is None  # nobody can send a deck for a player


# ---- orders -----------------------------------------------------------------------------------
def test_order_errors_and_turns():
    state = new_game()
    hand = state["hands"]["p1"]
    assert errors_of(state, "p2", "hire 1 to Tokyo") == [
        "orders.txt:1:1: it is your opponent's turn, not yours: you will get an order form when it is yours"]
    assert errors_of(state, "p1", "layoff all") == \
        ["orders.txt:1:1: a turn starts with 'hire', not 'layoff'"]
    assert errors_of(state, "p1", "hire 9 to Tokyo")[0].startswith("orders.txt:1:6: your hand has no card 9")
    assert "closing" in errors_of(state, "p1", 'hire "Ada to Tokyo')[0]
    orders = parse(state, "p1", f'hire "{hand[0].split(" | ")[0]}" to Tokyo as '
                   + card_professions(hand[0], state["title_professions"])[0])
    assert orders["hire"]["studio"] == "Tokyo"


def test_parse_changes_nothing_and_resolve_is_pure():
    state = new_game()
    before = json.dumps(state, sort_keys=True)
    text = GAME.random_orders(state, "p1", random.Random(5))
    orders = parse(state, "p1", text)
    one = GAME.resolve(state, {"p1": orders}, Dice(b"r" * 32))
    two = GAME.resolve(state, {"p1": orders}, Dice(b"r" * 32))
    assert json.dumps(state, sort_keys=True) == before
    assert one == two


def test_finished_game_takes_no_orders_and_nmr():
    state = new_game()
    rng = random.Random(11)
    while GAME.due(state):
        player = GAME.due(state)[0]
        orders = GAME.default_orders(state, player)
        state, _ = GAME.resolve(state, {player: orders}, Dice(b"n" * 32))
    assert GAME.finished(state) and state["winner"] in ("p1", "p2") and state["to_move"] is None
    assert len(state["studios"]) == 3  # the NMR hire opens studios while it can
    winner, loser = state["winner"], ("p2" if state["winner"] == "p1" else "p1")
    outcome = GAME.outcome(state)
    assert outcome["winners"] == [winner] and outcome["ranking"] == [[winner], [loser]]
    assert outcome["reason"].startswith("controls ") and GAME.outcome(new_game()) is None
    with pytest.raises(OrderErrors, match="the game is over"):
        parse(state, "p1", GAME.random_orders(new_game(), "p1", rng))


def test_ambiguous_names_ask_for_side_and_studio():
    sam = {"card": "Sam Oz", "title": "Writer", "profession": "Design/Writing"}
    state = GAME.apply_setup(new_game(), {
        "hands": {"p1": ["Zoë Quinn | Game Designer", "Gabe Newell | Managing Director"]},
        "studios": [{"name": "Tokyo", "hires": {"p1": [dict(sam)], "p2": [dict(sam)]}}]})
    assert "say 'my' or 'their'" in errors_of(state, "p1", 'hire 1 to Tokyo; relocate "Sam Oz" to Osaka')[0]
    orders = parse(state, "p1", 'hire 1 to Tokyo; relocate their "Sam Oz" to Osaka')
    assert orders["effect"]["relocate"]["side"] == "p2"


def test_apply_setup_checks_the_position():
    state = new_game()
    with pytest.raises(UsageError, match="cannot set 'winner'"):
        GAME.apply_setup(state, {"winner": "p1"})
    with pytest.raises(UsageError, match="at most 3"):
        GAME.apply_setup(state, {"studios": [{"name": n, "hires": {}} for n in "ABCD"]})
    with pytest.raises(UsageError, match="cannot be Art"):
        GAME.apply_setup(state, {"studios": [{"name": "A", "hires": {"p1": [
            {"card": "Gabe", "title": "Managing Director", "profession": "Art"}]}}]})
    with pytest.raises(UsageError, match="holds no card"):
        GAME.apply_setup(state, {"hands": {"p1": []}, "to_move": "p1"})


# ---- views, events, forms, images ---------------------------------------------------------------
def test_views_hide_hands_and_decks():
    state = new_game()
    gm = GAME.view(state, None)
    assert gm["hands"] == state["hands"] and gm["decks"] == state["decks"]
    mine = GAME.view(state, "p1")
    assert "hands" not in mine and "decks" not in mine and "title_professions" not in mine
    assert [c["number"] for c in mine["hand"]] == [1, 2, 3, 4, 5]
    assert [c["card"] for c in mine["deck_cards"]] == sorted((c["card"] for c in mine["deck_cards"]),
                                                              key=str.casefold)
    assert mine["hand_sizes"] == {"p1": 5, "p2": 5} and mine["deck_sizes"] == {"p1": 8, "p2": 8}
    public = GAME.view(state, "public")
    assert "hand" not in public and "deck_cards" not in public and "hands" not in public


def test_draws_are_read_only_by_the_player_who_drew():
    """Business: the drawer reads which cards moved; the opponent and the public only that one did."""
    state = GAME.apply_setup(new_game(), {
        "hands": {"p1": ["Gabe Newell | Managing Director", "Zoë Quinn | Game Designer"]},
        "decks": {"p1": ["Ada Lovelace | Programmer", "John Smith | Writer"]}})
    orders = parse(state, "p1", 'hire 1 to Tokyo; effect: draw "Ada Lovelace", bottom 2')
    _, events = GAME.resolve(state, {"p1": orders}, Dice(b"x" * 32))
    names = {"p1": "Ann", "p2": "Bob"}
    seen = {v: " ".join(e["text"] for e in visible_events(events, v, names)) for v in ("p1", "p2", "public", "gm")}
    assert "Ann used Business: drew Ada Lovelace from their deck and put Zoë Quinn on the bottom" in seen["p1"]
    assert "a card of their choice" not in seen["p1"]
    for viewer in ("p2", "public"):
        assert "Ann used Business: drew a card of their choice" in seen[viewer]
        assert "Ada Lovelace" not in seen[viewer] and "Zoë Quinn" not in seen[viewer]
    assert "Ada Lovelace" in seen["gm"]
    assert all("@{" not in text for text in seen.values())


def test_the_opening_deal_is_told_to_each_player_alone():
    state = GAME.setup(None, ["p1", "p2"], {"deck_p1": str(DECK_P1)}, Dice(b"s" * 32))
    new, events = GAME.resolve(state, {"p2": parse(state, "p2", "\n".join(TEN))}, Dice(b"t" * 32, fixed=[1]))
    draws = {e["to"][0]: e["text"] for e in events if e["kind"] == "draw"}
    assert set(draws) == {"p1", "p2"} and all(e["to"] == [e["player"]] for e in events if e["kind"] == "draw")
    assert all(card.split(" | ")[0] in draws["p2"] for card in new["hands"]["p2"])


def test_order_form_lists_the_hand():
    state = new_game()
    form = GAME.order_form(GAME.view(state, "p1"), "p1")
    assert "#   1. " in form and form.rstrip().endswith("hire")
    assert GAME.order_form(GAME.view(state, "p2"), "p2").startswith("# It is your opponent's turn")


def test_render_draws_a_figure():
    state = new_game()
    orders = parse(state, "p1", GAME.random_orders(state, "p1", random.Random(2)))
    state, _ = GAME.resolve(state, {"p1": orders}, Dice(b"x" * 32))
    figure = GAME.render(GAME.view(state, "public"), "public")
    for fmt, magic in (("png", b"\x89PNG"), ("svg", b"<?xml")):
        buffer = io.BytesIO()
        figure.savefig(buffer, format=fmt)
        assert buffer.getvalue().startswith(magic)


def test_board_png_keeps_the_matplotlib_look():
    """Issue 16 item 1: the PNG is drawn by Pillow from the same layout as the matplotlib figure
    (still used for SVG); the two pictures agree within a small tolerance."""
    from PIL import Image, ImageChops, ImageStat

    from gm.games.network_king.render import draw_board
    from gm.store.pictures import figure_bytes
    rng, state = random.Random(9), new_game()
    while GAME.due(state):
        player = GAME.due(state)[0]
        state, _ = GAME.resolve(state, {player: parse(state, player, GAME.random_orders(state, player, rng))},
                                Dice(b"z" * 32))
    view = GAME.view(state, "p1")
    players = [{"id": "p1", "name": "Ann", "colour": "#1f77b4"}, {"id": "p2", "name": "Bob", "colour": "#d62728"}]
    pillow = Image.open(io.BytesIO(figure_bytes(GAME.render(view, "p1", players=players), "png"))).convert("L")
    drawn = Image.open(io.BytesIO(figure_bytes(draw_board(view, players), "png"))).convert("L")
    assert pillow.size == drawn.size
    small = (pillow.width // 8, pillow.height // 8)
    difference = ImageChops.difference(pillow.resize(small, Image.BOX), drawn.resize(small, Image.BOX))
    assert ImageStat.Stat(difference).mean[0] < 6  # measured 2.8; the same picture 8 px to the right: 6.5
    blank = Image.new("L", pillow.size, 255)  # and the comparison can fail: a blank picture differs
    assert ImageStat.Stat(ImageChops.difference(blank.resize(small), drawn.resize(small, Image.BOX))).mean[0] > 20


def test_board_png_needs_no_matplotlib():
    code = ("import io, sys\n"
            "from gm import games\nfrom gm.store import dice\n"
            "from gm.store.pictures import figure_bytes\n"
            "g = games.get('network-king')\n"
            f"decks = {{'deck_p1': {str(DECK_P1)!r}, 'deck_p2': {str(DECK_P2)!r}}}\n"
            "s = g.setup(None, ['a', 'b'], decks, dice.Dice(bytes(32)))\n"
            "assert figure_bytes(g.render(g.view(s, 'a'), 'a'), 'png')[:4] == b'\\x89PNG'\n"
            "assert 'matplotlib' not in sys.modules, 'PNG pulled in matplotlib'\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_board_cards_fill_their_panels_without_overlapping():
    """Issue 15 item 23: cards large in their studio panels, inside them, never over each other."""
    from gm.games.network_king.render import PANEL_W, layout
    rng = random.Random(9)
    state = new_game()
    while GAME.due(state):
        player = GAME.due(state)[0]
        state, _ = GAME.resolve(state, {player: parse(state, player, GAME.random_orders(state, player, rng))},
                                Dice(b"y" * 32))
    plan = layout(GAME.view(state, "public"))
    assert any(c.laid_off for c in plan.cards) and len(plan.cards) == 10
    boxes = [(c.cx - c.w / 2, c.cy - c.h / 2, c.cx + c.w / 2, c.cy + c.h / 2) for c in plan.cards]
    for (x0, y0, x1, y1), card in zip(boxes, plan.cards):
        panel = next(s for s in plan.studios if s.x0 <= card.cx <= s.x0 + PANEL_W)
        assert panel.x0 < x0 and x1 < panel.x0 + PANEL_W and 0 < y0 and y1 < plan.height - 0.9
        assert card.w >= PANEL_W / 3.5  # a card upright is over a quarter of its panel's width
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], "two cards overlap"


def test_rules_modules_do_not_import_matplotlib():
    code = ("import sys, gm.games.network_king as g, gm.games.network_king.play; "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_registered():
    assert games.get("network-king") is GAME


# ---- through the engine -----------------------------------------------------------------------
def test_campaign_keeps_the_cards_replays_without_files_and_escapes_html(tmp_path):
    from gm.turn import audit, engine
    deck = tmp_path / "deck.txt"
    deck.write_text("\n".join(["Bobby <Tables> | Programmer"] + TEN) + "\n", encoding="utf-8")
    campaign = engine.new_campaign(tmp_path / "game", "network-king", ["ann", "bob"],
                                   options={"deck_p1": str(deck), "deck_p2": str(deck)}, master=bytes(32))
    deck.unlink()  # the options hold the cards themselves now
    for _ in range(4):
        engine.resolve(campaign, force=True)
    assert audit.replay(campaign) == []
    gm_html = (campaign.turn_dir(0) / "reports" / "gm.html").read_text(encoding="utf-8")
    assert "Bobby &lt;Tables&gt;" in gm_html and "<Tables>" not in gm_html
    for ext in ("txt", "md", "bbcode", "html"):
        text = (campaign.turn_dir(4) / "reports" / f"ann.{ext}").read_text(encoding="utf-8")
        assert "network king" in text.lower() and "(s)" not in text
    text = (campaign.turn_dir(4) / "reports" / "bob.txt").read_text(encoding="utf-8")
    assert "3 cards in hand" in text and "YOUR DECK (6 cards," in text


# ---- self-play (issue 12 item 3) ---------------------------------------------------------------
def test_the_bot_plays_the_winning_hire_and_replays_the_same():
    writer = {"card": "Ovo Ubu", "title": "Writer", "profession": "Design/Writing"}
    state = GAME.apply_setup(new_game(), {
        "starting_player": "p2", "to_move": "p1",
        "hands": {"p1": ["Ada Lovelace | Writer"], "p2": []},
        "studios": [{"name": "Tokyo", "hires": {"p1": [dict(writer)]}},
                    {"name": "Osaka", "hires": {}}, {"name": "Kyoto", "hires": {}}]})
    for seed in range(4):  # Osaka or Kyoto wins; Tokyo (already held) loses on the ties
        text = GAME.random_orders(state, "p1", random.Random(seed))
        after, _ = GAME.resolve(state, {"p1": parse(state, "p1", text)}, Dice(b"b" * 32))
        assert after["winner"] == "p1", text
    orders = GAME.bot_orders(state, "p1")
    assert orders == GAME.bot_orders(state, "p1") and GAME.bot_orders(state, "p2") is None


def test_simulation_figures_from_self_play():
    finals = []
    for seed in range(4):
        rng, state = random.Random(seed), new_game(fixed=())
        while GAME.due(state):
            player = GAME.due(state)[0]
            state, _ = GAME.resolve(state, {player: parse(state, player, GAME.random_orders(state, player, rng))},
                                    Dice(bytes([seed]) * 32))
        finals.append(state)
    figures = GAME.simulation_figures(finals)
    assert 0 <= figures["starting player wins"] <= 1 and 0 <= figures["studios never opened, per game"] <= 3
    assert set(figures) >= {"first seat starts", "wins with all 3 studios", "studios tied or empty, per game"}
