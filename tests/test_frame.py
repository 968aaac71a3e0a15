"""The order frame as people write orders (issue 15 items 8, 10, 12) and as attackers do (issue 17
items 4 and 5): greetings, odd digits, encodings, the canonical text, capped errors."""
from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.store.errors import MAX_ERRORS, OrderError, OrderErrors, OrderSyntaxError, located_lines
from gm.store.receipts import receipt
from gm.store.orders import canonical_text, decode_order_bytes, preamble_note, read_frame

ODD_DIGITS = ["²", "⑼", "３", "٣", "۳", "३", "𝟑", "1²", "1" * 7, "1" * 5000, "-1", "+3", "3.0", "1e3", "0x3",
              "3 4", "III", "", "三"]


@pytest.mark.parametrize("value", ODD_DIGITS)
def test_turn_with_odd_digits_is_an_order_error(value):
    frame = read_frame(f"player: ann\nturn: {value}\nguess 3\n", "o.txt")
    assert frame.turn is None and "turn" not in frame.headers
    [error] = frame.errors
    assert error.line == 2 and error.col == 1
    assert "'turn:' needs a whole number such as 3 (digits 0-9)" in error.located()
    assert len(error.located()) < 200  # a 5,000-digit value is quoted shortened


def test_turn_numbers_that_are_fine():
    assert read_frame("turn: 7\n").turn == 7
    assert read_frame("TURN :   012   # comment\n").turn == 12


def test_header_is_linear_in_whitespace():
    """The old pattern took ~30 s for 60 KB of spaces; this one is a single pass."""
    for text in ("player:" + " " * 200_000 + "x" + " " * 200_000 + "y\n",
                 " " * 400_000 + "player" + " " * 400_000 + ":\n",
                 ("player :" + "\t " * 100_000 + "\n") * 3):
        start = time.perf_counter()
        frame = read_frame(text, "big.txt")
        took = time.perf_counter() - start
        print(f"header probe of {len(text):,} characters: {took * 1000:.1f} ms")
        assert frame.errors or frame.player is not None


def test_empty_player_header_is_an_error():
    frame = read_frame("player:   \nguess 1\n", "o.txt")
    assert [e.located() for e in frame.errors] == ["o.txt:1:1: 'player:' needs your player id or name"]


def test_greeting_above_the_header_is_ignored_with_a_note():
    text = "Hi GM, here are my orders:\n\nPlayer: Ann Smith\nturn: 2\nguess 3  # sure\n"
    frame = read_frame(text, "o.txt")
    assert frame.player == "Ann Smith" and frame.turn == 2
    assert [(line.number, line.text) for line in frame.lines] == [(5, "guess 3")]
    assert frame.preamble == [1]
    assert preamble_note(frame) == ("line 1 was read as a greeting above the first header line and ignored; "
                                    "orders go below the 'player:' line")
    assert preamble_note(read_frame("a\nb\nplayer: x\n")).startswith("lines 1-2 were read")
    assert read_frame("a\nb\nplayer: x\n").preamble == [1, 2]
    assert preamble_note(read_frame("player: x\nguess 1\n")) is None


def test_without_a_header_every_line_is_read():
    frame = read_frame("guess 3\nguess 4\n")
    assert [line.text for line in frame.lines] == ["guess 3", "guess 4"] and frame.preamble == []


def test_quoted_and_signed_headers_do_not_start_the_orders():
    frame = read_frame("> player: bob\nguess 1\n-- \nplayer: carl\n")
    assert frame.player is None and [line.text for line in frame.lines] == ["guess 1"]


def test_same_frame_for_check_submit_and_mail():
    """Mail intake and `gm check`/`gm submit` read a greeting the same way (one frame)."""
    text = "Hello,\nplayer: ann\nguess 3\n"
    assert read_frame(text).lines == read_frame(text, skip_preamble=True).lines


def test_line_numbers_are_the_editors():
    frame = read_frame("player: a\r\nx\x0cy\rguess 1\u2028still line 3\n")
    assert [(line.number, line.text) for line in frame.lines] == [(2, "x\x0cy"), (3, "guess 1\u2028still line 3")]


def test_canonical_text_keeps_headers_and_lines_never_the_password():
    text = ("Hi!\nPlayer: Ann\npassword: hunter2\nturn: 4\n  guess 3   # my pick\n\n> quoted\n"
            "guess \"4 # x\"\n-- \nAnn\n")
    frame = read_frame(text, "o.txt")
    canon = canonical_text(frame)
    assert canon == 'player: Ann\nturn: 4\nguess 3\nguess "4 # x"\n'
    assert "hunter2" not in canon and "password" not in canon
    assert canonical_text(frame, player="ann", turn=5) == 'player: ann\nturn: 5\nguess 3\nguess "4 # x"\n'
    assert canonical_text(read_frame("guess 1\n")) == "guess 1\n"
    assert receipt(canon) == receipt(text)


def test_canonical_text_matches_what_mail_intake_stores():
    text = "player: ann\nguess 3\n"
    lines = "\n".join(line.text for line in read_frame(text).lines)
    assert canonical_text(read_frame(text), player="ann", turn=2) == f"player: ann\nturn: 2\n{lines}\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list('abc #">-:\n\r\t"') + ["player:", "turn: 3", "password: x", "-- "]),
                max_size=60).map("".join))
def test_canonical_text_is_a_fixed_point(text):
    first = canonical_text(read_frame(text))
    again = read_frame(first)
    assert canonical_text(again) == first
    assert [line.text for line in again.lines] == [line.text for line in read_frame(text).lines]
    assert "password" not in again.headers


@pytest.mark.parametrize("codec,bom", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"),
                                       ("utf-16-le", b""), ("utf-16-be", b""), ("utf-32-le", b"\xff\xfe\x00\x00"),
                                       ("utf-8", b"\xef\xbb\xbf"), ("utf-8", b"")])
def test_unicode_files_are_read(codec, bom):
    text = "player: ann\r\nroute Lübeck – Köln\r\n"
    assert decode_order_bytes(bom + text.encode(codec), "o.txt") == text


def test_windows_1252_and_binary_files():
    assert decode_order_bytes("player: ann\nKöln – x\n".encode("cp1252"), "o.txt") == "player: ann\nKöln – x\n"
    assert decode_order_bytes(b"\x81\x8d", "o.txt") == "\x81\x8d"
    with pytest.raises(OrderSyntaxError) as exc:
        decode_order_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01", "pic.txt")
    assert exc.value.located() == ("pic.txt:1:1: this file is not text (it holds zero bytes); "
                                   "send the orders as plain text")
    with pytest.raises(OrderSyntaxError, match="UTF-16 text but damaged.*save the orders as UTF-8"):
        decode_order_bytes(b"\xff\xfe" + "ok".encode("utf-16-le") + b"\x00\xd8", "o.txt")


def _errors(n):
    return [OrderSyntaxError(f"bad {i}", line=i, col=1, file="o.txt") for i in range(n, 0, -1)]


def test_errors_are_capped_with_a_located_last_line():
    lines = located_lines(_errors(MAX_ERRORS + 1234))
    assert len(lines) == MAX_ERRORS + 1
    assert lines[0] == "o.txt:1:1: bad 1"
    assert lines[-1] == f"o.txt:{MAX_ERRORS + 1}: and 1,234 more errors from line {MAX_ERRORS + 1} on; " \
                        "fix the ones above and check again"
    assert located_lines(_errors(3)) == ["o.txt:1:1: bad 1", "o.txt:2:1: bad 2", "o.txt:3:1: bad 3"]
    assert OrderErrors(_errors(MAX_ERRORS + 1)).lines()[-1].endswith("and 1 more error from line 51 on; "
                                                                     "fix the ones above and check again")
    assert str(OrderErrors(_errors(1000))).count("\n") == MAX_ERRORS


def test_a_megabyte_of_headers_gives_errors_on_lines():
    frame = read_frame("player: a\n" + "player: b\n" * 99_999, "o.txt")  # (the same header again is no error)
    assert len(frame.errors) == 99_999 and all(isinstance(e, OrderError) and e.line for e in frame.errors)
    assert len(located_lines(frame.errors)) == MAX_ERRORS + 1


PLAYERS = [{"id": "ann", "name": "Ann Smith"}, {"id": "bob", "name": "Bob"}]


def test_the_same_header_twice_is_no_error_but_a_different_one_is():
    """An order form pasted below the mail's own 'player:'/'turn:' lines (issue 23.8)."""
    frame = read_frame("player: ann\nturn: 3\nPlayer: Ann\nturn: 3\nguess 2\n")
    assert frame.errors == [] and frame.headers == {"player": "ann", "turn": "3"}
    [error] = read_frame("player: ann\nturn: 3\nturn: 4\n").errors
    assert "a second 'turn:' header (the first is on line 2)" in error.message


@pytest.mark.parametrize("line", ["password : tulip-42", "PASSWORD\t: tulip-42", "   Password :tulip-42",
                                  "pAsSwOrD\u00a0:\ttulip-42"])
def test_a_password_line_in_any_case_and_spacing(line):
    from gm.store.orders import is_password_line, without_password
    assert is_password_line(line)
    frame = read_frame(f"player: ann\n{line}\nguess 2\n")
    assert frame.headers["password"] == "tulip-42"
    assert without_password(f"hello\n{line}\nbye") == "hello\nbye"
    assert not is_password_line("> " + line) and not is_password_line("passwort: x")


def test_curly_quotes_and_no_break_spaces_read_as_plain_ones():
    frame = read_frame("player:\u00a0ann\nhire \u201cGabe Newell\u201d\u202fto Tokyo\n")
    assert frame.headers["player"] == "ann"
    [line] = frame.lines
    assert line.text == 'hire "Gabe Newell" to Tokyo' and [w for _i, w in line.tokens()][1] == '"Gabe Newell"'


def test_frame_player_from_header_or_given():
    from gm.store.orders import frame_player

    def who(text, given=None):
        player, errors = frame_player(read_frame(text, "o.txt"), PLAYERS, given)
        return player, [e.located() for e in errors]

    assert who("Hi\nPlayer: ANN\n") == ("ann", [])
    assert who("player: ann smith\n", "ann") == ("ann", [])
    assert who("guess 1\n", "bob") == ("bob", [])
    assert who("guess 1\n") == (None, ["o.txt:1:1: no 'player:' header: add a line 'player: ID' or give --player ID"])
    assert who("hello\nplayer: anne\n") == (None, [
        "o.txt:2:1: unknown player 'anne' (did you mean \"ann\"?); players: ann (Ann Smith), bob"])
    assert who("player: bob\n", "ann") == (None, ["o.txt:1:1: the file says 'player: bob' but these orders are ann's"])
