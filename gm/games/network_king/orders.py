"""Reading a Network King turn: the words of the orders, before any look at the board.

    hire "Gabe Newell" to Tokyo as Business; effect: draw "Ada Lovelace", bottom "John Smith"
    hire 3 to Osaka; layoff "John Smith"

The result is a ``Draft`` of what was written, each name keeping its place for error messages;
``play.check`` then matches the names against the hand, deck and board.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from gm.store.errors import OrderError
from gm.store.names import fold
from gm.store.orders import OrderLine

_TOKEN = re.compile(r'"[^"]*"?|[;,:]|[^\s;,:"]+')
# a clause: up to the next ';' outside double quotes (each alternative starts differently: linear)
_CLAUSE = re.compile(r'(?:"[^"]*"?|[^;"])+')
MAX_ERRORS = 25  # a file past this many errors is not read further (the reply says how much is left)
MAX_NUMBER = 9   # digits in a card number: no hand is that big, and int() never sees a huge one

# the effect named by its first word -> the profession whose effect it is
EFFECT_VERBS = {"draw": "Business", "relocate": "Design/Writing", "move": "Design/Writing",
                "rehire": "Art", "pass": "Sound", "clear": "No Name"}
LAYOFF_WORDS = ("layoff", "lay-off", "fire")
SIDE_WORDS = {"my": "mine", "mine": "mine", "own": "mine", "their": "theirs", "theirs": "theirs",
              "opponent's": "theirs", "opponents": "theirs"}


def said(text: str, most: int = 40) -> str:
    """What the player wrote, quoted for a message (a very long one cut short)."""
    return repr(text if len(text) <= most else text[:most - 3] + "…")


@dataclass
class Word:
    """Text as written, with where it stands (for errors)."""

    text: str
    line: OrderLine
    offset: int
    quoted: bool = False

    def error(self, message: str) -> OrderError:
        return self.line.error(message, self.offset)

    def syntax(self, message: str) -> OrderError:
        return self.line.syntax(message, self.offset)

    @property
    def number(self) -> int | None:
        """A hand card given by its number in the report ("hire 3 to Tokyo"): ASCII digits only
        ('²' or '３' are names, which match no card); a number too long to be a card is 0."""
        if self.quoted or not (self.text.isascii() and self.text.isdigit()):
            return None
        return int(self.text) if len(self.text) <= MAX_NUMBER else 0


@dataclass
class BoardRef:
    """A card on the board: its name, optionally whose side (mine/theirs) and which studio."""

    name: Word
    side: str | None = None
    studio: Word | None = None


@dataclass
class Hire:
    card: Word
    studio: Word
    profession: Word | None
    at: Word


@dataclass
class Layoff:
    """The alternative to an effect: lay off an opponent's card of the hire's profession."""

    target: BoardRef
    at: Word


@dataclass
class Effect:
    """The new hire's effect; ``verb`` is draw, relocate, layoff, rehire, pass or clear."""

    verb: str
    at: Word
    mimic: Word | None = None
    cards: list[Word] = field(default_factory=list)  # draw: [drawn, bottom]
    targets: list[BoardRef] = field(default_factory=list)
    to: Word | None = None  # relocate: the destination studio


@dataclass
class Draft:
    hire: Hire | None = None
    follow: Layoff | Effect | None = None
    hire_failed: bool = False


class _Cursor:
    def __init__(self, line: OrderLine, tokens: list[tuple[int, str]]):
        self.line, self.tokens, self.i = line, tokens, 0

    def peek(self, ahead: int = 0) -> str | None:
        j = self.i + ahead
        return fold(self.tokens[j][1]) if j < len(self.tokens) else None

    def word(self) -> Word:
        """The next token as a Word (the end of the line when there is none)."""
        if self.i < len(self.tokens):
            offset, text = self.tokens[self.i]
            return Word(text, self.line, offset)
        return Word("", self.line, len(self.line.text))

    def take(self, *words: str) -> Word | None:
        if self.peek() in words:
            w = self.word()
            self.i += 1
            return w
        return None

    def done(self) -> bool:
        return self.i >= len(self.tokens)

    def name(self, what: str, stops: tuple[str, ...]) -> Word:
        """A quoted name, or bare words up to a keyword in ``stops`` or punctuation."""
        if self.done() or self.peek() in (";", ",", ":"):
            raise self.word().syntax(f"expected {what}")
        offset, text = self.tokens[self.i]
        if text.startswith('"'):
            if len(text) < 2 or not text.endswith('"'):
                raise Word(text, self.line, offset).syntax("a quoted name needs its closing '\"'")
            self.i += 1
            inner = text[1:-1].strip()
            if not inner:
                raise Word(text, self.line, offset).syntax(f"expected {what}, not an empty name")
            return Word(" ".join(inner.split()), self.line, offset + 1, quoted=True)
        start = self.i
        while not self.done() and self.peek() not in stops and self.peek() not in (";", ",", ":") \
                and not self.tokens[self.i][1].startswith('"'):
            self.i += 1
        if self.i == start:
            raise self.word().syntax(f"expected {what}, not {said(self.tokens[self.i][1])}")
        end_offset = self.tokens[self.i - 1][0] + len(self.tokens[self.i - 1][1])
        return Word(" ".join(self.line.text[offset:end_offset].split()), self.line, offset)

    def layoff_word(self) -> Word | None:
        """'layoff', 'lay-off', 'fire' or the two words 'lay off'."""
        if self.peek() == "lay" and self.peek(1) == "off":
            w = self.word()
            self.i += 2
            return w
        return self.take(*LAYOFF_WORDS)


def parse_draft(lines: list[OrderLine]) -> tuple[Draft, list[OrderError]]:
    """The turn as written, and every syntax error found (each clause is read on its own), up to
    MAX_ERRORS: then one more error says where reading stopped."""
    draft, errors = Draft(), []
    for index, line in enumerate(lines):
        for clause in _CLAUSE.finditer(line.text):
            tokens = [(clause.start() + m.start(), m.group(0)) for m in _TOKEN.finditer(clause.group(0))]
            if not tokens:
                continue
            if len(errors) >= MAX_ERRORS:
                rest = len(lines) - index - 1
                errors.append(line.syntax(f"too many errors: reading stopped here ({rest} more "
                                          f"line{'' if rest == 1 else 's'} not read)", tokens[0][0]))
                return draft, errors
            try:
                _clause(draft, _Cursor(line, tokens))
            except OrderError as exc:
                errors.append(exc)
    return draft, errors


def _clause(draft: Draft, cur: _Cursor) -> None:
    first = cur.word()
    if cur.take("hire"):
        if draft.hire is not None:
            raise first.error("one hire a turn: this turn already hires "
                              f"{said(draft.hire.card.text)}")
        try:
            draft.hire = _hire(cur, first)
        except OrderError:
            draft.hire_failed = True  # its layoff or effect is still read, for its own errors
            raise
        return
    if cur.peek() in ("no", "none"):
        cur.take("no")
        cur.take("none", "effect")
        _end(cur)
        return
    if draft.hire is None and not draft.hire_failed:
        raise first.syntax(f"a turn starts with 'hire', not {said(first.text)}")
    if draft.follow is not None:
        raise first.error("a hire is followed by either one layoff or one effect, not both")
    at = cur.layoff_word()
    if at is not None:
        if cur.take("all"):
            draft.follow = Effect("clear", at)  # "lay off all" can only be the No Name effect
        else:
            draft.follow = Layoff(_board_ref(cur, ("in", "from")), at)
        _end(cur)
        return
    if cur.take("effect"):
        cur.take(":")
        if cur.done():
            raise cur.word().syntax("expected the effect after 'effect:'")
    draft.follow = _effect(cur, first)


def _hire(cur: _Cursor, at: Word) -> Hire:
    card = cur.name("the card to hire (its name or its number in your hand)", ("to",))
    if not cur.take("to"):
        raise cur.word().syntax("expected 'to STUDIO' after the card")
    studio = cur.name("a studio name", ("as",))
    profession = None
    if cur.take("as"):
        profession = cur.name("a profession", ())
    _end(cur)
    return Hire(card, studio, profession, at)


def _effect(cur: _Cursor, at: Word) -> Effect:
    mimic = None
    if cur.take("mimic", "mimics", "mimicking"):
        mimic = cur.name("the profession to mimic", tuple(EFFECT_VERBS) + LAYOFF_WORDS + ("lay",))
        cur.take(":", ",")
    verb_word = cur.word()
    if cur.layoff_word():
        if cur.take("all"):
            effect = Effect("clear", verb_word, mimic)
        else:
            targets = [_board_ref(cur, ("and", "in", "from"))]
            if cur.take(",", "and"):
                targets.append(_board_ref(cur, ("and", "in", "from")))
            effect = Effect("layoff", verb_word, mimic, targets=targets)
    else:
        verb = cur.peek()
        if verb not in EFFECT_VERBS:
            raise verb_word.syntax("expected an effect: draw, relocate, layoff, rehire, pass or "
                                   f"'layoff all', not {said(verb_word.text)}")
        cur.i += 1
        effect = Effect("relocate" if verb == "move" else verb, verb_word, mimic)
        if verb == "draw":
            effect.cards.append(cur.name("the card to draw from your deck", ("then", "and", "bottom")))
            cur.take(",")
            cur.take("then", "and")
            if not cur.take("bottom"):
                raise cur.word().syntax("expected 'bottom CARD': Business puts a card from your hand "
                                        "on the bottom of your deck")
            effect.cards.append(cur.name("the card to put on the bottom of your deck", ()))
        elif verb in ("relocate", "move"):
            effect.targets.append(_board_ref(cur, ("to", "from", "in")))
            if not cur.take("to"):
                raise cur.word().syntax("expected 'to STUDIO': where the card goes")
            effect.to = cur.name("a studio name", ())
        elif verb == "rehire":
            effect.targets.append(_board_ref(cur, ("in", "from")))
    _end(cur)
    return effect


def _board_ref(cur: _Cursor, stops: tuple[str, ...]) -> BoardRef:
    side = None
    if cur.peek() in SIDE_WORDS and cur.i + 1 < len(cur.tokens):
        side = SIDE_WORDS[cur.peek()]
        cur.i += 1
    name = cur.name("a card on the board", stops)
    studio = None
    if cur.take("in", "from"):
        studio = cur.name("a studio name", tuple(s for s in stops if s not in ("in", "from")))
    return BoardRef(name, side, studio)


def _end(cur: _Cursor) -> None:
    if not cur.done():
        raise cur.word().syntax(f"unexpected {said(cur.tokens[cur.i][1])} (use ';' between the hire "
                                "and its layoff or effect)")
