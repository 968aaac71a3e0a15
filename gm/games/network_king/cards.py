"""Business cards: deck lists, the job-title keyword table, professions and vowels.

A card is kept in state as the line its owner wrote, normalised: ``"Name | Job Title"``, with
``No Name`` for an empty name and ``No Profession`` for an empty title.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any, Iterable

import yaml

from gm.store.errors import UsageError
from gm.store.fileio import load_yaml
from gm.store.names import fold
from gm.games.base import Option

PROFESSIONS = ("Business", "Design/Writing", "Programming/QA", "Art", "Sound")
NO_NAME = "No Name"
NO_PROFESSION = "No Profession"
ALL_PROFESSIONS = PROFESSIONS + (NO_NAME, NO_PROFESSION)
MIN_DECK = 10
MAX_DECK = 200      # no rule caps a deck; this keeps a campaign's state readable
MAX_PROBLEMS = 25   # a deck list past this many errors is not read further
MAX_NAME = 60

# what a player may write after "as" (folded) -> the profession
PROFESSION_WORDS = {
    "business": "Business",
    "design/writing": "Design/Writing", "design": "Design/Writing", "writing": "Design/Writing",
    "designer": "Design/Writing", "writer": "Design/Writing", "design/writer": "Design/Writing",
    "programming/qa": "Programming/QA", "programming": "Programming/QA", "qa": "Programming/QA",
    "programmer": "Programming/QA",
    "art": "Art", "artist": "Art", "an artist": "Art",
    "sound": "Sound",
    "no name": NO_NAME, "no profession": NO_PROFESSION,
}

SHIPPED_TABLE = Path(__file__).resolve().parent / "maps" / "professions.yaml"

_SPECIAL_VOWELS = {"æ": "ae", "œ": "oe", "ø": "o"}


def profession_named(text: str) -> str | None:
    """The profession a player means by ``text`` ("as Artist" -> Art), or None."""
    key = fold(text).replace(" / ", "/")
    if key.startswith("a ") or key.startswith("an "):
        key = key.split(" ", 1)[1]
    return PROFESSION_WORDS.get(key)


# ---- the card line ------------------------------------------------------------------------
def make_card(name: str, title: str) -> str:
    name = " ".join(name.split()) or NO_NAME
    title = " ".join(title.split()) or NO_PROFESSION
    return f"{name} | {title}"


def card_name(card: str) -> str:
    return card.split(" | ", 1)[0]


def card_title(card: str) -> str:
    parts = card.split(" | ", 1)
    return parts[1] if len(parts) > 1 else NO_PROFESSION


def card_label(card: str) -> str:
    """How a card reads in reports and messages: 'Gabe Newell (Managing Director)'."""
    return f"{card_name(card)} ({card_title(card)})"


def is_no_name(name: str) -> bool:
    return fold(name) == fold(NO_NAME)


def read_card_line(text: str) -> str:
    """``Name | Job Title`` -> the normalised card; ValueError says what is wrong."""
    if "|" not in text:
        raise ValueError(f"expected 'Name | Job Title', not {text.strip()!r}")
    name, _, title = text.partition("|")
    if "|" in title:
        raise ValueError("a card line has one '|' between the name and the job title")
    if '"' in name:
        raise ValueError("a name cannot hold a double quote (orders quote names)")
    if len(name.strip()) > MAX_NAME or len(title.strip()) > MAX_NAME:
        raise ValueError(f"a name or title is at most {MAX_NAME} characters")
    return make_card(name, title)


# ---- vowels -------------------------------------------------------------------------------
def vowels(name: str) -> int:
    """Vowels a e i o u in a card's name, ignoring case and accents; y is no vowel; No Name has none."""
    if is_no_name(name):
        return 0
    text = "".join(_SPECIAL_VOWELS.get(c, c) for c in name.casefold())
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return sum(bare.count(v) for v in "aeiou")


class UnknownTitle(ValueError):
    """A job title no keyword of the table fits. ``str()`` is for the GM, who can add a keyword;
    ``for_player`` tells a player what they can do instead."""

    def __init__(self, title: str, source: str):
        super().__init__(f'no keyword of {source} fits the title "{title}"; add one to the table')
        self.title = title

    def for_player(self) -> str:
        return (f'no profession fits the job title "{self.title}": use a title that names one '
                "(e.g. Producer, Writer, Programmer, Artist, Composer), leave the title empty for a "
                f'No Profession card, or ask the GM to add a keyword for "{self.title}"')


# ---- the keyword table --------------------------------------------------------------------
class ProfessionTable:
    """Job-title keywords -> professions, read from a YAML file (see the shipped one's header)."""

    def __init__(self, keywords: list[tuple[list[str], bool, str]], unmatched: list[str] | None,
                 source: str):
        self.keywords = keywords  # (words, last word is a prefix, profession)
        self.unmatched = unmatched  # None: a title matching nothing is an error
        self.source = source

    @classmethod
    def load(cls, path: str | Path | None = None) -> "ProfessionTable":
        path = Path(path) if path else SHIPPED_TABLE
        try:
            data = load_yaml(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise UsageError(f"{path}: cannot read the profession table ({exc.strerror or exc})") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"{path}:{mark.line + 1}" if mark else str(path)
            raise UsageError(f"{where}: the profession table is not valid YAML") from None
        return cls.from_data(data, _shown(path))

    @classmethod
    def from_data(cls, data: Any, source: str = "<table>") -> "ProfessionTable":
        if not isinstance(data, dict) or not isinstance(data.get("professions"), dict):
            raise UsageError(f"{source}: the profession table needs a 'professions:' mapping")
        keywords = []
        for profession, words in data["professions"].items():
            if profession not in PROFESSIONS:
                raise UsageError(f"{source}: unknown profession {profession!r}; "
                                 f"the professions are {', '.join(PROFESSIONS)}")
            if not isinstance(words, list):
                raise UsageError(f"{source}: {profession} needs a list of keywords")
            for word in words:
                key = fold(str(word))
                prefix = key.endswith("*")
                parts = _words(key.rstrip("*"))
                if not parts:
                    raise UsageError(f"{source}: an empty keyword under {profession}")
                keywords.append((parts, prefix, profession))
        unmatched = data.get("unmatched", "error")
        if unmatched == "error":
            unmatched = None
        elif not (isinstance(unmatched, list) and unmatched and all(p in PROFESSIONS for p in unmatched)):
            raise UsageError(f"{source}: 'unmatched:' is 'error' or a list of professions")
        return cls(keywords, unmatched, source)

    def professions(self, title: str) -> list[str]:
        """The professions ``title`` fits, in the rules' order; ValueError when none."""
        if not title.strip() or fold(title) == fold(NO_PROFESSION):
            return [NO_PROFESSION]
        words = _words(fold(title))
        found = set()
        for parts, prefix, profession in self.keywords:
            if _occurs(parts, prefix, words):
                found.add(profession)
        if not found:
            if self.unmatched is None:
                raise UnknownTitle(title, self.source)
            found = set(self.unmatched)
        return [p for p in PROFESSIONS if p in found]


def _shown(path: Path) -> str:
    """A table's path as a GM reads it: relative to the project for the shipped one."""
    try:
        return str(path.resolve().relative_to(SHIPPED_TABLE.parents[4]))
    except ValueError:
        return str(path)


def _words(text: str) -> list[str]:
    return re.findall(r"[\w+#]+", text)


def _occurs(parts: list[str], prefix: bool, words: list[str]) -> bool:
    n = len(parts)
    for i in range(len(words) - n + 1):
        window = words[i:i + n]
        if window[:-1] == parts[:-1] and (window[-1].startswith(parts[-1]) if prefix
                                          else window[-1] == parts[-1]):
            return True
    return False


def card_professions(card: str, title_professions: dict[str, list[str]]) -> list[str]:
    """The professions ``card`` may be hired as: No Name for a nameless card, else by its title."""
    if is_no_name(card_name(card)):
        return [NO_NAME]
    title = card_title(card)
    if fold(title) == fold(NO_PROFESSION):
        return [NO_PROFESSION]
    return list(title_professions[title])


def title_table(cards: Iterable[str], table: ProfessionTable) -> dict[str, list[str]]:
    """Title -> professions for these cards (ValueError names the first title that fits nothing)."""
    out: dict[str, list[str]] = {}
    for card in cards:
        title = card_title(card)
        if title not in out and fold(title) != fold(NO_PROFESSION) and not is_no_name(card_name(card)):
            out[title] = table.professions(title)
    return out


# ---- deck lists ---------------------------------------------------------------------------
def read_deck_lines(lines: list[tuple[int, str]], table: ProfessionTable | None, *,
                    player: bool = False) -> tuple[list[str], list[tuple[int, int, str]]]:
    """Cards of a deck list given as (line number, text), and every problem at once as (line,
    offset in the text, message), up to MAX_PROBLEMS (then one more says where reading stopped).
    Titles are checked against ``table`` (None: not yet, the table is not known); ``player``: the
    list came from a player, whose messages say what they can do."""
    cards, problems, refused = [], [], 0
    checked: dict[str, str | None] = {}  # title -> why it fits no profession (each title once)
    for index, (number, text) in enumerate(lines):
        body = text.split("#", 1)[0].rstrip()  # '#' starts a comment, as in order files
        if not body.strip():
            continue
        if len(problems) >= MAX_PROBLEMS or len(cards) + refused >= MAX_DECK:
            rest = len(lines) - index
            why = ("too many errors" if len(problems) >= MAX_PROBLEMS
                   else f"a deck holds at most {MAX_DECK} cards")
            problems.append((number, 0, f"{why}: reading stopped here ({rest} more line"
                                        f"{'' if rest == 1 else 's'} not read)"))
            return cards, problems
        try:
            card = read_card_line(body.strip())
        except ValueError as exc:
            problems.append((number, len(body) - len(body.lstrip()), str(exc)))
            refused += 1
            continue
        title = card_title(card)
        if table is not None and not is_no_name(card_name(card)) and fold(title) != fold(NO_PROFESSION):
            if title not in checked:
                try:
                    table.professions(title)
                    checked[title] = None
                except UnknownTitle as exc:
                    checked[title] = exc.for_player() if player else str(exc)
            if checked[title]:
                where = body.index("|") + 1
                where += len(body[where:]) - len(body[where:].lstrip())
                problems.append((number, where, checked[title]))
                refused += 1
                continue
        cards.append(card)
    if len(cards) + refused < MIN_DECK:  # too short even once every refused line is put right
        last = lines[-1][0] if lines else 1
        total = len(cards) + refused
        problems.append((last, 0, f"a deck needs at least {MIN_DECK} cards, this one has {total}"))
    return cards, problems


def read_deck_option(value: Any, option: str, table: ProfessionTable | None) -> list[str]:
    """A deck from an option: a path to a deck-list file, or (rules cases) a list of card lines."""
    if isinstance(value, list):
        lines = [(i + 1, str(v if v is not None else "")) for i, v in enumerate(value)]
        where = lambda n: f"option {option}, card {n}"  # noqa: E731
    elif isinstance(value, str) and value.strip():
        path = Path(value)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{value}: cannot read the deck list for {option} "
                             f"({exc.strerror or exc})") from None
        except UnicodeDecodeError:
            raise UsageError(f"{value}: the deck list for {option} is not UTF-8 text") from None
        lines = list(enumerate(text.lstrip("\ufeff").splitlines(), start=1))
        where = lambda n: f"{value}:{n}"  # noqa: E731
    else:
        raise UsageError(f"option {option} needs a deck-list file (one 'Name | Job Title' a line)")
    cards, problems = read_deck_lines(lines, table)
    if problems:
        raise UsageError("; ".join(f"{where(n)}: {message}" for n, _, message in problems))
    return cards


class DeckListOption(Option):
    """``--option deck_p1=FILE``: the file is read when the option is, and the option keeps the
    cards themselves, so the campaign (and its replays) never need the file again."""

    def read(self, name: str, text: Any) -> Any:
        if text is None or isinstance(text, list):
            return text
        return read_deck_option(str(text), name, None)  # titles are checked in setup, with the campaign's table
