"""The board: studios, their hires, whose turn it is, and who controls what."""
from __future__ import annotations


from gm.store.names import fold
from gm.games.base import State, player_ref
from .cards import vowels

MAX_STUDIOS = 3


def opponent(state: State, player: str) -> str:
    a, b = state["players"]
    return b if player == a else a


def find_studio(state: State, name: str) -> dict | None:
    key = fold(name)
    for studio in state["studios"]:
        if fold(studio["name"]) == key:
            return studio
    return None


def new_studio(state: State, name: str) -> dict:
    studio = {"name": " ".join(name.split()), "hires": {p: [] for p in state["players"]}}
    state["studios"].append(studio)
    return studio


def hire_entry(card: str, profession: str) -> dict:
    from .cards import card_name, card_title
    return {"card": card_name(card), "title": card_title(card), "profession": profession, "laid_off": False}


def side_vowels(studio: dict, player: str) -> int:
    """Vowels on a side's remaining (not laid off) hires."""
    return sum(vowels(h["card"]) for h in studio["hires"].get(player, []) if not h["laid_off"])


def unopened_name(number: int) -> str:
    return f"unopened studio {number}"


def studio_owner(state: State) -> dict[str, str]:
    """Who controls each studio now: more vowels, ties and empty studios to the starting player.
    Studios never opened count as empty, so three studios are always scored."""
    start = state["starting_player"]
    owners: dict[str, str] = {}
    for studio in state["studios"]:
        counts = {p: side_vowels(studio, p) for p in state["players"]}
        rival = opponent(state, start)
        owners[studio["name"]] = rival if counts[rival] > counts[start] else start
    for number in range(len(state["studios"]) + 1, MAX_STUDIOS + 1):
        owners[unopened_name(number)] = start
    return owners


def settle(state: State) -> None:
    """Recompute the standings; when both hands are empty the game is over and has a winner."""
    if state.get("starting_player") is None:
        return
    owners = studio_owner(state)
    state["studio_owner"] = owners
    if all(not state["hands"][p] for p in state["players"]):
        count = {p: sum(1 for o in owners.values() if o == p) for p in state["players"]}
        a, b = state["players"]
        state["winner"] = a if count[a] > count[b] else b
        state["to_move"] = None


def advance(state: State, mover: str) -> list[dict]:
    """Pass the turn on after ``mover``'s hire: an empty hand is skipped, a Sound pass is spent."""
    events: list[dict] = []
    settle(state)
    if state.get("winner"):
        return events
    candidate = opponent(state, mover)
    for _ in range(6):  # a pass is spent when met, so this settles within a few steps
        if not state["hands"][candidate]:
            candidate = opponent(state, candidate)
            continue
        if state["skip_next"].get(candidate):
            state["skip_next"][candidate] = False
            events.append({"text": f"{player_ref(candidate)} passes this turn (Sound).", "kind": "pass",
                           "player": candidate})
            candidate = opponent(state, candidate)
            continue
        state["to_move"] = candidate
        return events
    raise AssertionError("no player can move although a hand holds cards")


def board_cards(state: State):
    """Every card on the board as (studio, side, index, hire)."""
    for studio in state["studios"]:
        for side in state["players"]:
            for index, hire in enumerate(studio["hires"].get(side, [])):
                yield studio, side, index, hire
