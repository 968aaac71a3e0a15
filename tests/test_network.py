"""Network: the rules cases, the game API, network detection against brute force, the order parser
(fuzzed), the demo game, rendering and reports."""
from __future__ import annotations

import copy
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gm import games
from gm.turn.cases import load_cases, run_case
from gm.store.dice import Dice
from gm.store.errors import OrderError, OrderErrors, UsageError
from gm.games.network.board import SQUARE_NAMES, SQUARE_OF, to_rows
from gm.games.network.networks import bench_detection, find_network, random_position
from gm.store.orders import OrderLine, read_frame

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "tests" / "cases" / "network").glob("*.yaml"))
GAME = games.get("network")
EMPTY_ROW = "........"
TEN = ['.L......', '..DLDD..', '.DL..L.D', '......LD', '.L.D....', '.D.DL.L.', '...L...D', '.....L..']


def _all_cases():
    for path in CASES:
        for case in load_cases(path):
            yield pytest.param(path, case, id=str(case["id"]))


@pytest.mark.parametrize("path,case", list(_all_cases()))
def test_rules_case(path, case):
    result = run_case(case, path.parent, str(path))
    assert result.ok, "\n".join(result.problems)


def test_cases_cover_enough_rules():
    cases = [c for _, c in (p.values for p in _all_cases())]
    assert len(cases) >= 30
    assert all(c.get("rule") for c in cases)
    assert len({c["id"] for c in cases}) == len(cases)


# ---- helpers ------------------------------------------------------------------------------------
def new(options=None, players=("dark", "light")):
    opts = {"turn_order": "standard", "position": ""}
    opts.update(options or {})
    return GAME.setup(None, list(players), opts, Dice(b"\0" * 32))


def lines(text):
    return read_frame(text).lines


def play(state, player, text):
    orders = GAME.parse(state, player, lines(text))
    state, events = GAME.resolve(state, {player: orders}, Dice(b"\0" * 32))
    return state, events


def errors_of(state, player, text):
    with pytest.raises(OrderErrors) as caught:
        GAME.parse(state, player, lines(text))
    return [e.located() for e in caught.value.errors]


def board(dark="", light=""):
    cells = ["."] * 64
    for s in dark.split():
        cells[SQUARE_OF[s]] = "D"
    for s in light.split():
        cells[SQUARE_OF[s]] = "L"
    return cells


# ---- set-up and positions -----------------------------------------------------------------------
def test_setup_state_holds_the_issue_keys():
    state = new()
    assert state["board"] == [EMPTY_ROW] * 8
    assert state["to_move"] == "dark"
    assert state["placed"] == {"dark": 0, "light": 0}
    assert state["winner"] is None
    assert state["networks"] == {"dark": None, "light": None}
    assert state["history"] == []
    assert state["sides"] == {"dark": "dark", "light": "light"}
    assert yaml.safe_load(yaml.safe_dump(state)) == state


def test_first_player_is_dark():
    state = new(players=("ann", "bob"))
    assert GAME.due(state) == ["ann"]
    assert state["sides"] == {"dark": "ann", "light": "bob"}


def test_setup_refuses_wrong_player_count_and_maps():
    with pytest.raises(UsageError, match="2 players"):
        new(players=("a", "b", "c"))
    with pytest.raises(UsageError, match="no map"):
        GAME.setup("tutorial", ["a", "b"], {}, Dice(b"\0" * 32))
    with pytest.raises(UsageError, match="turn_order"):
        new({"turn_order": "random"})


@pytest.mark.parametrize("position,reason", [
    ("D......./......../......../......../......../......../......../........ d", "a8 is a dead corner"),
    ("......../......../......../......../......../......../......../.......L l", "h1 is a dead corner"),
    ("......../......../......../......../......../......../......../...D.... d",
     "Dark has pieces in Light's goal (rows 1 and 8): d1"),
    ("......../......../......../L......./......../......../......../........ d",
     "Light has pieces in Dark's goal (columns a and h): a5"),
    ("......../D.D.D.D./......../D.D.D.D./......../D.D.D.D./......../........ d",
     "Dark has 12 pieces on the board; each side has only 10"),
    ("......../......../..LLL.../......../......../......../......../........ l",
     "Light has a group of 3 touching pieces (c6, d6, e6)"),
    ("......../......../......../...D..../....D.../.....D../......../........ d",
     "Dark has a group of 3 touching pieces (f3, e4, d5)"),
    ("......../......../......../......../......../......../........ d", "the board needs eight rows"),
    ("......../......../......../......../......../......../......../....... d", "row 1"),
    ("......../......../......../......../...x..../......../......../........ d", "row 4 holds 'x'"),
    ("......../......../......../......../......../......../......../........ x", "the side to move is d"),
    ("......../......../......../......../......../......../......../........", "a space"),
])
def test_position_option_refusals(position, reason):
    with pytest.raises(UsageError) as caught:
        new({"position": position})
    assert reason in str(caught.value)


def test_position_refusal_lists_every_reason():
    position = "D......./......../......../L......./......../......../......../...D.... d"
    with pytest.raises(UsageError) as caught:
        new({"position": position})
    text = str(caught.value)
    assert "a8 is a dead corner" in text and "a5" in text and "d1" in text


def test_position_with_both_networks_is_refused():
    cells = board("a5 c3 c5 e7 h5 g5 b7 h2 e2 g7", "d1 d3 f3 f5 d7 d8 b2 g2 b6 g8")
    with pytest.raises(UsageError, match="both sides have a network"):
        new({"position": "/".join(to_rows(cells)) + " d"})


def test_position_option_reads_the_board():
    state = new({"position": "/".join(TEN) + " l"})
    assert state["board"] == TEN
    assert state["to_move"] == "light"
    assert state["placed"] == {"dark": 10, "light": 10}
    assert GAME.phase(state) == "moving"


def test_apply_setup_checks_like_the_position_option():
    state = new()
    with pytest.raises(UsageError, match="dead corner"):
        GAME.apply_setup(state, {"board": ["D......."] + [EMPTY_ROW] * 7})
    with pytest.raises(UsageError, match="did you mean \"board\""):
        GAME.apply_setup(state, {"bord": TEN})
    with pytest.raises(UsageError, match="not 9"):
        GAME.apply_setup(state, {"board": TEN, "placed": {"dark": 9}})
    with pytest.raises(UsageError, match="eight rows"):
        GAME.apply_setup(state, {"board": TEN[:7]})
    with pytest.raises(UsageError, match="to_move"):
        GAME.apply_setup(state, {"board": TEN, "to_move": "blue"})
    with pytest.raises(UsageError, match="sides"):
        GAME.apply_setup(state, {"sides": ["ann", "bob"]})
    with pytest.raises(UsageError, match="whole number"):
        GAME.apply_setup(state, {"ply": "two"})
    with pytest.raises(UsageError, match="placed must map"):
        GAME.apply_setup(state, {"placed": 3})
    ready = GAME.apply_setup(state, {"board": TEN, "to_move": "light", "placed": {"dark": 10, "light": 10}})
    assert ready["placed"] == {"dark": 10, "light": 10} and GAME.due(ready) == ["light"]
    assert state["board"] == [EMPTY_ROW] * 8  # the original is untouched


# ---- turns and orders ---------------------------------------------------------------------------
def test_placing_then_phase_and_summary():
    state = new()
    assert GAME.phase(state) == "placing"
    assert GAME.summary(state) == "Dark to place (0 of 10 pieces on the board)"
    state, events = play(state, "dark", "place c3")
    assert events[0]["text"] == "Dark (@{dark}) placed a piece on c3."
    assert GAME.due(state) == ["light"]
    assert state["last_move"] == {"side": "dark", "kind": "place", "to": "c3"}


def test_error_lines_point_at_the_square():
    state = new()
    assert errors_of(state, "dark", "player: dark\n  place a1") == [
        "<orders>:2:9: a1 is a dead corner: no piece may stand there"]
    assert errors_of(state, "dark", "move c3 i9") == [
        "<orders>:1:9: 'i9' is not a square: squares run a1 to h8 (columns a-h, rows 1-8)"]
    assert errors_of(state, "dark", "c3-d4") == [
        "<orders>:1:1: Dark still has 10 pieces to place: pieces move only once all ten are on the board "
        "(write 'place d4')"]


def test_every_error_of_a_file_is_reported():
    errors = errors_of(new(), "dark", "plce c3\nc3\nz9")
    assert len(errors) == 3
    assert 'did you mean "place"' in errors[0]
    assert "one move per turn" in errors[1]
    assert "'z9' is not a square" in errors[2]


def test_turn_and_player_problems():
    state = new()
    assert errors_of(state, "light", "c3") == ["<orders>:1:1: it is Dark's turn, not Light's"]
    assert "does not play" in errors_of(state, "zoe", "c3")[0]
    with pytest.raises(OrderErrors, match="no move given"):
        GAME.parse(state, "dark", [])


def test_parse_changes_nothing():
    state = new({"position": "/".join(TEN) + " d"})
    before = copy.deepcopy(state)
    GAME.parse(state, "dark", lines("move f7 f4"))
    with pytest.raises(OrderErrors):
        GAME.parse(state, "dark", lines("move f7 f6"))
    assert state == before


def test_resolve_waits_without_orders_and_refuses_illegal_ones():
    state = new()
    same, events = GAME.resolve(state, {}, Dice(b"\0" * 32))
    assert same == state and events[0]["kind"] == "wait"
    with pytest.raises(OrderError, match="dead corner"):
        GAME.resolve(state, {"dark": {"kind": "place", "to": "a1"}}, Dice(b"\0" * 32))


def test_default_orders_and_order_form():
    state = new()
    assert GAME.default_orders(state, "dark") is None
    form = GAME.order_form(GAME.view(state, "dark"), "dark")
    assert "place c3" in form and all(line.startswith("#") for line in form.splitlines())
    assert "No orders are due" in GAME.order_form(GAME.view(state, "light"), "light")
    moving = new({"position": "/".join(TEN) + " d"})
    assert "move c3 d5" in GAME.order_form(GAME.view(moving, "dark"), "dark")
    # the form parses as an empty order file (comments only): it never carries a move by itself
    assert read_frame(form).lines == []


def test_win_ends_the_game():
    cells = board("a4 c4 c6 e6 g4", "d2 f7 b7 g2 e8")
    state = new({"position": "/".join(to_rows(cells)) + " d"})
    state, events = play(state, "dark", "h4")
    assert state["winner"] == "dark" and GAME.due(state) == [] and GAME.finished(state)
    assert GAME.phase(state) == "over"
    assert events[-1]["network"] == ["a4", "c4", "c6", "e6", "g4", "h4"]
    assert GAME.summary(state) == "Dark won with the network a4 c4 c6 e6 g4 h4"
    assert GAME.outcome(state) == {"winners": ["dark"], "ranking": [["dark"], ["light"]],
                                   "reason": "Dark completed the network a4 c4 c6 e6 g4 h4"}
    assert GAME.outcome(new()) is None
    assert "game is over" in errors_of(state, "light", "c5")[0]
    with pytest.raises(UsageError):
        GAME.random_orders(state, "light", random.Random(1))


# ---- random playouts (conformance) -------------------------------------------------------------
def playout(seed, turn_order="standard"):
    rng = random.Random(seed)
    state = new({"turn_order": turn_order})
    states = [state]
    while GAME.due(state):
        player = GAME.due(state)[0]
        text = GAME.random_orders(state, player, rng)
        state, _ = play(state, player, text)
        state = yaml.safe_load(yaml.safe_dump(state))  # survives the campaign's YAML round trip
        states.append(state)
        assert len(states) < 2000
    return states


@pytest.mark.parametrize("seed,order", [(1, "standard"), (2, "equalized"), (3, "standard")])
def test_random_playouts_end_and_repeat(seed, order):
    states = playout(seed, order)
    final = states[-1]
    assert final["winner"] in ("dark", "light", "draw")
    if final["winner"] != "draw":
        network = final["networks"][final["winner"]]
        assert len(network) >= 6
    assert playout(seed, order) == states
    for state in states:
        assert state["placed"]["dark"] <= 10 and state["placed"]["light"] <= 10


# ---- network detection against brute force -----------------------------------------------------
def brute_networks(cells, side):
    """Every network, by trying all chains of distinct pieces (an independent reading of the rules)."""
    letter = "D" if side == "dark" else "L"
    if side == "dark":
        first, second = {8 * r for r in range(1, 7)}, {8 * r + 7 for r in range(1, 7)}
    else:
        first, second = set(range(1, 7)), {56 + c for c in range(1, 7)}
    pieces = [s for s in range(64) if cells[s] == letter]

    def direction(p, q):
        dx, dy = q % 8 - p % 8, q // 8 - p // 8
        if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
            return None
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        x, y = p % 8 + sx, p // 8 + sy
        while (x, y) != (q % 8, q // 8):
            if cells[y * 8 + x] != ".":
                return None
            x, y = x + sx, y + sy
        return sx, sy

    found = []

    def extend(chain, last_direction):
        for q in pieces:
            if q in chain or q in first:
                continue
            d = direction(chain[-1], q)
            if d is None or d == last_direction:
                continue
            if q in second:
                if len(chain) + 1 >= 6:
                    found.append(chain + [q])
            else:
                extend(chain + [q], d)

    for start in pieces:
        if start in first:
            extend([start], None)
    return found


def test_detection_matches_brute_force():
    rng = random.Random(2024)
    seen = 0
    for _ in range(600):
        cells = random_position(rng, rng.randint(6, 10))
        for side in ("dark", "light"):
            every = brute_networks(cells, side)
            found = find_network(cells, side)
            assert bool(found) == bool(every), (to_rows(cells), side)
            if found:
                seen += 1
                assert found in every
                assert len(found) == min(len(n) for n in every)
    assert seen > 20  # the sample holds networks, so the comparison means something


def test_bench_detection_reports_a_rate():
    result = bench_detection(200)
    assert result["positions"] == 200 and result["per_second"] > 0


# ---- the demo game -----------------------------------------------------------------------------
def test_demo_game_plays_to_a_network_win():
    files = sorted((ROOT / "orders" / "network").glob("*.txt"))
    assert files
    state = new()
    for number, path in enumerate(files, start=1):
        assert path.name == f"{number:03d}-{GAME.due(state)[0]}.txt"
        frame = read_frame(path.read_text(encoding="utf-8"), str(path))
        assert frame.player == GAME.due(state)[0] and frame.turn == number and not frame.errors
        assert path.read_text(encoding="utf-8").lstrip().startswith("#")
        orders = GAME.parse(state, frame.player, frame.lines)
        state, _ = GAME.resolve(state, {frame.player: orders}, Dice(b"\0" * 32))
    assert state["winner"] == "dark"
    assert len(state["networks"]["dark"]) >= 6
    assert any("-" in move for move in state["history"])  # it reached the moving stage


# ---- the order parser, fuzzed ------------------------------------------------------------------
ORDERISH = st.text(alphabet=st.sampled_from(list("abchiABH0123489 -\u2013plcemovetPLACEMOVE\t#\"é")), max_size=30)


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(st.one_of(ORDERISH, st.text(max_size=20)), max_size=4),
       moving=st.booleans(), player=st.sampled_from(["dark", "light", "nobody"]))
def test_fuzz_parser_only_raises_order_errors(texts, moving, player):
    state = FUZZ_MOVING if moving else FUZZ_PLACING
    order_lines = [OrderLine(n, 1, t.strip()) for n, t in enumerate(texts, start=1) if t.strip()]
    try:
        orders = GAME.parse(state, player, order_lines)
    except (OrderError, OrderErrors):
        return
    assert orders["kind"] in ("place", "move") and orders["to"] in SQUARE_NAMES


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60))
def test_fuzz_whole_files(text):
    frame = read_frame(text)
    try:
        GAME.parse(FUZZ_PLACING, "dark", frame.lines)
    except (OrderError, OrderErrors):
        pass


FUZZ_PLACING = new()
FUZZ_MOVING = new({"position": "/".join(TEN) + " d"})


# ---- drawing and reports -----------------------------------------------------------------------
def test_import_does_not_load_matplotlib():
    code = "import sys, gm.games.network as n; n.GAME.setup(None, ['a', 'b'], {}, None); " \
           "print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_render_png_and_svg():
    import io
    cells = board("a4 c4 c6 e6 g4", "d2 f7 b7 g2 e8")
    state, _ = play(new({"position": "/".join(to_rows(cells)) + " d"}), "dark", "h4")
    for state_to_draw in (new(), state):
        figure = GAME.render(GAME.view(state_to_draw, None), None)
        for fmt, magic in (("png", b"\x89PNG"), ("svg", b"<?xml")):
            buffer = io.BytesIO()
            figure.savefig(buffer, format=fmt)
            assert buffer.getvalue().startswith(magic)


def test_reports_through_the_engine(tmp_path):
    from gm.turn import engine
    from gm.store.campaign import Campaign
    folder = tmp_path / "game"
    engine.new_campaign(folder, "network", ["dark:Ann <i>&</i>", "light:Bob"], master=b"\1" * 32)
    campaign = Campaign(folder)
    order = tmp_path / "o.txt"
    order.write_text("player: dark\nplace c3\n", encoding="utf-8")
    assert all(r.ok for r in engine.submit_files(campaign, [str(order)]))
    engine.resolve(campaign)
    reports = folder / "turns" / "001" / "reports"
    text = (reports / "light.txt").read_text(encoding="utf-8")
    assert "3 . . D . . . . . 3" in text and "Last move: Dark c3" in text and "Light (Bob) to place." in text
    assert "player: light" in text and "turn: 2" in text  # the order form, ready to fill in
    html = (reports / "light.html").read_text(encoding="utf-8")
    assert "Ann &lt;i&gt;&amp;&lt;/i&gt;" in html and "<i>&</i>" not in html
    for ext in ("md", "bbcode"):
        assert "3 . . D . . . . . 3" in (reports / f"public.{ext}").read_text(encoding="utf-8")
    # no dice are ever rolled in Network, so no report has a dice section; receipts stay
    for report in reports.glob("*.*"):
        if report.suffix != ".png":
            body = report.read_text(encoding="utf-8").split("</head>")[-1].lower()  # not the style sheet
            assert "dice" not in body and "commitment" not in body, report.name
    assert "RECEIPTS" in text and "Dark (Ann <i>&</i>) placed a piece on c3." in text
    assert (reports / "board.png").read_bytes().startswith(b"\x89PNG")


def test_neither_side_able_to_move_draws(monkeypatch):
    # no real position leaves both sides without a move; the rule's path is checked directly
    from gm.games.network import play as rules
    state = new()
    monkeypatch.setattr(rules, "can_play", lambda state, side: False)
    state, events = play(state, "dark", "c3")
    assert state["winner"] == "draw" and state["end"] == "no legal move"
    assert events[-1]["text"] == "Neither side has a legal move: the game is drawn."
    assert GAME.summary(state) == "drawn as neither side can move"
    # a draw: no winner, both players share the one place
    assert GAME.outcome(state) == {"winners": [], "ranking": [["dark", "light"]],
                                   "reason": "drawn as neither side can move"}


def test_board_png_needs_no_matplotlib_and_svg_still_works():
    """PNG by Pillow keeps `gm resolve` fast; SVG is drawn by matplotlib."""
    import subprocess
    import sys
    code = (
        "import io, sys\n"
        "from gm import games\nfrom gm.store import dice\n"
        "g = games.get('network')\n"
        "s = g.setup(None, ['dark', 'light'], {'turn_order': 'standard', 'position': ''}, dice.Dice(bytes(32)))\n"
        "from gm.store.pictures import figure_bytes  # as the engine writes report images\n"
        "buf = io.BytesIO(figure_bytes(g.render(g.view(s, None), None), 'png'))\n"
        "assert buf.getvalue()[:8] == b'\\x89PNG\\r\\n\\x1a\\n'\n"
        "assert 'matplotlib' not in sys.modules, 'PNG pulled in matplotlib'\n"
        "buf = io.BytesIO(); g.render(g.view(s, None), None).savefig(buf, format='svg')\n"
        "assert b'<svg' in buf.getvalue()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_nothing_is_hidden():
    """Every viewer sees the whole game, so the secrets tests have nothing to change."""
    from tests.support.hidden_network import perturb
    state, _ = play(new(), "dark", "c3")
    views = [GAME.view(state, viewer) for viewer in (None, "dark", "light", "public")]
    assert all(v == views[0] for v in views) and views[0]["board"] == state["board"]
    assert all(perturb(state, viewer, random.Random(1)) is None for viewer in ("dark", "light", "public"))


# ---- hostile files (issue 17 item 5): mutated orders, odd digits, 1 MB probes -----------------
def test_mutated_order_files_raise_only_order_errors(capsys):
    """2,000+ seeded mutations of valid orders at every stage of a game, odd digits and 1 MB
    files: only OrderError(s), each naming its line, escape `parse`; what it accepts plays."""
    from tests.support.network_fuzz import Tally, mutate, probes, run
    states = playout(4)[:-1]
    rng, tally = random.Random(17), Tally()
    words = ["place", "move", "to", "c3", "h8", "a1", "c3-d5", "i9", "c10", "—", "d²", "e３"]
    for i in range(2100):
        state = states[i * 7 % len(states)]
        player = GAME.due(state)[0]
        text = mutate(GAME.random_orders(state, player, rng), rng, words)

        def parse_and_play(lines, state=state, player=player):
            GAME.resolve(state, {player: GAME.parse(state, player, lines)}, Dice(b"\0" * 32))
        run(parse_and_play, [text], tally)
    odd = [f"{verb}c{digit}" for verb in ("", "place ", "move d4 ") for digit in
           ("²", "⑼", "３", "٣", "۳", "߂", "𝟙", "9" * 5000)]
    run(lambda lines: GAME.parse(states[0], "dark", lines), odd + probes(), tally)
    assert tally.crashes == [], "\n".join(tally.crashes[:10])
    assert tally.files > 2100 and tally.accepted > 100 and tally.refused > 1000
    with capsys.disabled():
        print(f"\nNetwork parser fuzz: {tally.files} files, slowest {tally.slowest:.2f} s "
              f"({tally.slowest_text[:20]!r}...)")


# ---- self-play (issue 12 item 3) ---------------------------------------------------------------
def test_the_bot_wins_when_it_can_and_blocks_a_win():
    from gm.games.network import bot
    cells = board("a4 c4 c6 e6 g4", "d2 f7 b7 g2 e8")
    state = new({"position": "/".join(to_rows(cells)) + " d"})
    for seed in range(5):  # a winning placement, whatever the shuffle
        after, _ = play(state, "dark", bot.choose(state, "dark", random.Random(seed))["to"])
        assert after["winner"] == "dark"
    # a side threatened with a network next move blocks it whenever one move can (a few games)
    from gm.games.network.board import from_rows
    from gm.games.network.play import _played, legal_orders
    blocked = 0
    for seed in range(3):
        for before in playout(seed)[:-1]:
            side = before["to_move"]
            cells = from_rows(before["board"])
            if not bot._threats(before, cells, side):
                continue
            moves = list(legal_orders(before, side))
            if any(bot._wins(cells, side, o) for o in moves):
                continue  # it wins instead
            can = [o for o in moves if not bot._threats(before, _played(cells, side, o), side)]
            chosen = bot.choose(before, side, random.Random(seed))
            if can:
                assert not bot._threats(before, _played(cells, side, chosen), side)
                blocked += 1
    assert blocked >= 3
    light_turn = new({"position": "/".join(to_rows(cells)) + " l"})
    order = GAME.bot_orders(light_turn, "light")
    assert GAME.bot_orders(light_turn, "light") == order  # the NMR bot replays the same
    assert GAME.bot_orders(light_turn, "dark") is None  # not Dark's turn


def test_simulation_figures_from_self_play():
    finals = [playout(seed)[-1] for seed in range(6)]
    figures = GAME.simulation_figures(finals)
    assert figures["Dark (moves first) wins"] + figures["Light wins"] + figures["draws"] == 1
    assert set(figures) >= {"draws by repetition", "games reaching the moving stage"}
    assert all(GAME.outcome(s)["winners"] in ([s["sides"]["dark"]], [s["sides"]["light"]], []) for s in finals)
