"""Turns written by the machine: random legal turns (playouts, tests) and the NMR hire.

Both write order text and read it back through the parser, so they only ever play what a player
could have written.
"""
from __future__ import annotations

import random
from gm.store.names import fold
from gm.store.orders import read_frame
from gm.games.base import State
from .board import MAX_STUDIOS, opponent
from .cards import NO_PROFESSION, card_name, card_professions

# what each profession's effect is written as, given the hire and a random choice of targets
_VERB = {"Business": "draw", "Design/Writing": "relocate", "Programming/QA": "layoff",
         "Art": "rehire", "Sound": "pass", "No Name": "layoff all"}


def _q(text: str) -> str:
    return f'"{text}"'


def _fresh_studio_name(state: State) -> str:
    taken = {fold(s["name"]) for s in state["studios"]}
    for name in ("Tokyo", "Osaka", "Kyoto", "Seattle", "Montréal", "Helsinki"):
        if fold(name) not in taken:
            return name
    return f"Studio {len(taken) + 1}"


def _ref(state: State, player: str, side: str, studio: dict, hire: dict) -> str:
    whose = "my" if side == player else "their"
    return f'{whose} {_q(hire["card"])} from {_q(studio["name"])}'


def nmr_text(state: State, player: str) -> str:
    """The hire made for a player whose orders did not arrive: the first card of their hand, to
    the studio where they have the fewest hires (a new one while fewer than three exist), as the
    first profession it fits, with no layoff or effect."""
    card = state["hands"][player][0]
    if len(state["studios"]) < MAX_STUDIOS:
        studio = _fresh_studio_name(state)
    else:
        studio = min(state["studios"], key=lambda s: len(s["hires"][player]))["name"]
    profession = card_professions(card, state["title_professions"])[0]
    return f"hire 1 to {_q(studio)} as {profession}"


def random_text(state: State, player: str, rng: random.Random) -> str:
    """Some turn a player could write: a random hire, then maybe a layoff or an effect."""
    hand = state["hands"][player]
    number = rng.randrange(len(hand)) + 1
    card = hand[number - 1]
    names = [s["name"] for s in state["studios"]]
    if len(names) < MAX_STUDIOS and (not names or rng.random() < 0.4):
        studio_name = _fresh_studio_name(state)
    else:
        studio_name = rng.choice(names)
    profession = rng.choice(card_professions(card, state["title_professions"]))
    by = rng.choice([str(number), _q(card_name(card))])
    text = f"hire {by} to {_q(studio_name)} as {profession}"
    studio = next((s for s in state["studios"] if s["name"] == studio_name), None)
    cards = [] if studio is None else [(side, h) for side, hires in studio["hires"].items() for h in hires]
    roll = rng.random()
    if roll < 0.25:
        return text
    if roll < 0.45 and studio is not None:
        rival = [h for side, h in cards if side == opponent(state, player) and not h["laid_off"]]
        if rival:
            return text + f"; layoff their {_q(rng.choice(rival)['card'])}"
        return text
    use = profession
    if profession == NO_PROFESSION:
        present = sorted({h["profession"] for _, h in cards} - {NO_PROFESSION})
        if not present:
            return text
        use = rng.choice(present)
        text += f"; effect: mimic {use}, "
    else:
        text += "; effect: "
    return text + _effect_text(state, player, studio, studio_name, use, hand, number, rng)


def _effect_text(state: State, player: str, studio: dict | None, studio_name: str, use: str,
                 hand: list[str], number: int, rng: random.Random) -> str:
    if use == "Business":
        deck = state["decks"][player]
        if not deck:
            return "pass"  # no card to draw: the parser will refuse it and the caller retries
        drawn = rng.choice(deck)
        rest = [c for i, c in enumerate(hand) if i != number - 1] + [drawn]
        return f"draw {_q(card_name(drawn))}, bottom {_q(card_name(rng.choice(rest)))}"
    if use == "Design/Writing":
        board = [(s, side, h) for s in state["studios"] for side, hires in s["hires"].items() for h in hires]
        if not board:
            return "pass"
        s, side, h = rng.choice(board)
        others = [o["name"] for o in state["studios"] if o is not s]
        if len(state["studios"]) < MAX_STUDIOS and rng.random() < 0.3:
            others.append(_fresh_studio_name(state))
        if not others:
            return "pass"
        return f"relocate {_ref(state, player, side, s, h)} to {_q(rng.choice(others))}"
    if use == "Programming/QA":
        active = [] if studio is None else [(side, h) for side, hires in studio["hires"].items()
                                             for h in hires if not h["laid_off"]]
        if not active:
            return "pass"
        picks = rng.sample(active, min(2, len(active)))
        return "layoff " + ", ".join(_ref(state, player, side, studio, h) for side, h in picks)
    if use == "Art":
        out = [] if studio is None else [(side, h) for side, hires in studio["hires"].items()
                                          for h in hires if h["laid_off"]]
        if not out:
            return "pass"
        side, h = rng.choice(out)
        return f"rehire {_ref(state, player, side, studio, h)}"
    return _VERB[use] if use in ("Sound", "No Name") else "pass"


_FIRST = ["Ada", "Gabe", "Hélène", "Jörg", "Mia", "Ravi", "Sun", "Zoë", "Tomás", "Ines", "Kai", "Lena"]
_LAST = ["Lovelace", "Newell", "Aubé", "Müller", "Kato", "Singh", "Park", "García", "Okafor", "Berg"]
_TITLES = ["Managing Director", "Programmer", "Art Director", "Sound Designer", "Writer", "QA Engineer",
           "Illustrator", "Composer", "Creative Lead", "Producer", ""]


def random_deck(rng: random.Random) -> str:
    """A deck list a player might send as their first orders: 10 to 14 cards."""
    lines = []
    for _ in range(rng.randint(10, 14)):
        name = "" if rng.random() < 0.05 else f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
        lines.append(f"{name} | {rng.choice(_TITLES)}")
    return "\n".join(lines) + "\n"


def random_turn(game, state: State, player: str, rng: random.Random, tries: int = 20) -> str:
    """Text of a legal turn: random ones are tried until the parser takes one, else the NMR hire.
    Before play starts, a random deck list (decks sent as first orders)."""
    if game.phase(state) == "decks":
        return random_deck(rng)
    for _ in range(tries):
        text = random_text(state, player, rng)
        try:
            game.parse(state, player, read_frame(text).lines)
            return text
        except Exception as exc:  # noqa: BLE001 - only OrderError(s) are expected; others are bugs
            from gm.store.errors import InputError
            if not isinstance(exc, InputError):
                raise
    return nmr_text(state, player)


def _standing(state: State, player: str) -> tuple[int, int]:
    """How ``player`` stands: studios held (a won game counts above all), then the vowel margin."""
    from .board import side_vowels, studio_owner
    if state.get("winner"):
        return (10 if state["winner"] == player else -10), 0
    rival = opponent(state, player)
    held = sum(1 for owner in studio_owner(state).values() if owner == player)
    margin = sum(side_vowels(s, player) - side_vowels(s, rival) for s in state["studios"])
    return held, margin


def good_turn(game, state: State, player: str, rng: random.Random, tries: int = 10) -> str:
    """Self-play and the `bot` NMR policy: of ``tries`` random legal turns, the one that leaves the
    player holding the most studios (then the best vowel margin); ties broken at random."""
    from gm.store.errors import InputError
    from .play import play_turn
    if game.phase(state) == "decks":
        return random_deck(rng)
    best: tuple | None = None
    for _ in range(tries):
        text = random_text(state, player, rng)
        try:
            orders = game.parse(state, player, read_frame(text).lines)
        except InputError:
            continue
        after, _ = play_turn(state, player, orders)
        score = (*_standing(after, player), rng.random())
        if best is None or score > best[0]:
            best = (score, text)
    return best[1] if best else nmr_text(state, player)


def position_rng(state: State) -> random.Random:
    """A generator seeded by the position, so the bot's NMR turn replays the same."""
    return random.Random(repr((state["to_move"], state["hands"], state["studios"])))
