"""The order-file frame: headers, comments, quoting, signatures, positions."""
from hypothesis import given
from hypothesis import strategies as st

from gm.store.names import did_you_mean, fold, match
from gm.store.orders import read_frame

TEXT = """\ufeffPlayer: blue
turn: 3   # the third turn
# a comment line
> quoted reply line
  place c3   # where
round 1: (0203) "Helm's Deep # not a comment" 0207

--
Blue's signature
place d4
""".replace("\n--\n", "\n-- \n")  # the mail signature line is "-- "


def test_frame_reads_headers_and_lines():
    frame = read_frame(TEXT, "o.txt")
    assert frame.player == "blue" and frame.turn == 3
    assert [(line.number, line.col, line.text) for line in frame.lines] == [
        (5, 3, "place c3"),
        (6, 1, 'round 1: (0203) "Helm\'s Deep # not a comment" 0207'),
    ]
    assert frame.errors == []


def test_line_error_is_located():
    frame = read_frame("player: x\n   move c3 z9\n", "o.txt")
    err = frame.lines[0].error("no square z9", 8)
    assert err.located() == "o.txt:2:12: no square z9"


def test_duplicate_and_bad_headers():
    frame = read_frame("player: a\nplayer: b\nturn: two\n", "f")
    assert [e.located() for e in frame.errors] == [
        "f:2:1: a second 'player:' header (the first is on line 1)",
        "f:3:1: 'turn:' needs a whole number such as 3 (digits 0-9), not 'two'",
    ]


def test_preamble_skipped_for_mail_replies():
    frame = read_frame("Hi GM, here you go\nplayer: a\nc3\n", "m", skip_preamble=True)
    assert [line.text for line in frame.lines] == ["c3"]


def test_tokens_keep_quoted_names():
    frame = read_frame('hire "Gabe Newell" to Tokyo\n')
    assert frame.lines[0].tokens() == [(0, "hire"), (5, '"Gabe Newell"'), (19, "to"), (22, "Tokyo")]


def test_names_fold_and_suggest():
    assert fold("  LÜBECK ") == "lubeck"
    assert match("lubeck", ["Lübeck", "Ulm"]) == "Lübeck"
    assert did_you_mean("Regensbrug", ["Regensburg", "Ulm"]) == "Regensburg"
    assert did_you_mean("xyz", ["Regensburg"]) is None


@given(st.text())
def test_frame_never_raises(text):
    frame = read_frame(text, "fuzz")
    for line in frame.lines:
        assert line.text == line.text.strip() and line.text
