"""A turn of Network King: checking what was written against the position, then playing it.

``check`` matches a ``Draft``'s names against the mover's hand and deck and the board and
returns plain orders; ``play_turn`` applies them. Board cards are named in orders as
``{side, studio, index, card}``: the side's list of hires in that studio, before the turn.
"""
from __future__ import annotations

import copy
from typing import Any

from gm.store.errors import AmbiguousOrderError, OrderError
from gm.store.names import fold, suggestion
from gm.games.base import State, player_ref
from .board import MAX_STUDIOS, advance, board_cards, find_studio, hire_entry, new_studio, opponent
from .cards import (MAX_NAME, NO_NAME, NO_PROFESSION, PROFESSIONS, card_label, card_name,
                    card_professions, profession_named)
from .orders import BoardRef, Draft, Effect, Layoff, Word

ALL = PROFESSIONS + (NO_NAME, NO_PROFESSION)
MAX_STUDIO_NAME = 40
# effects that lay off the card that uses them
SELF_LAYOFF = ("Programming/QA", "Sound", "No Name")
VERB_PROFESSION = {"draw": "Business", "relocate": "Design/Writing", "layoff": "Programming/QA",
                   "rehire": "Art", "pass": "Sound", "clear": "No Name"}


def _q(text: str) -> str:
    """A name quoted as players write it in orders (a very long one cut short)."""
    return f'"{text}"' if len(text) <= 64 else f'"{text[:60]}…"'


# ---- naming cards -------------------------------------------------------------------------
def _hand_card(hand: list[str], word: Word, where: str = "your hand", elsewhere: str = "") -> int:
    """The index in ``hand`` of the card ``word`` names (a number from the report, or a name);
    ``elsewhere`` tells the player where their card is instead, when it is not there."""
    if word.number is not None:
        if not 1 <= word.number <= len(hand):
            holds = "1 card, numbered 1" if len(hand) == 1 else f"{len(hand)} cards, numbered 1 to {len(hand)}"
            raise word.error(f"your hand has no card {_q(word.text)[1:-1]}: it holds {holds}" if hand
                             else "your hand is empty")
        return word.number - 1
    if len(word.text) > 2 * MAX_NAME + 3:  # longer than any 'Name | Title': no need to look
        raise word.error(f"no card {_q(word.text)} in {where}: a card's name is at most {MAX_NAME} characters")
    found = [i for i, card in enumerate(hand) if fold(card_name(card)) == fold(word.text)
             or fold(card) == fold(word.text)]
    if not found:
        names = [card_name(c) for c in hand]
        raise word.error(f"no card {_q(word.text)} in {where}{elsewhere or suggestion(word.text, names)}")
    if len({hand[i] for i in found}) > 1:
        raise AmbiguousOrderError(
            f"{_q(word.text)} names {len(found)} different cards in {where} ("
            + ", ".join(f"{i + 1}: {hand[i]}" for i in found) + "); name it by number",
            line=word.line.number, col=word.line.col + word.offset, text=word.line.text, file=word.line.file)
    return found[0]


def _own_card_elsewhere(state: State, player: str, name: str) -> str:
    """Where the player's own card of that name is, if not in hand (only ever their own cards)."""
    if any(fold(card_name(c)) == fold(name) for c in state["decks"][player] or []):
        return ": it is in your deck"
    if any(side == player and fold(h["card"]) == fold(name) for _, side, _, h in board_cards(state)):
        return ": it is already hired"
    return ""


def _board_card(state: State, player: str, ref: BoardRef, *, studio: dict | None = None,
                side: str | None = None, laid_off: bool | None = None,
                exclude: tuple = (), what: str = "card") -> dict:
    """Find a card on the board by name, narrowed by side, studio and laid-off status."""
    if ref.side is not None:
        wanted = player if ref.side == "mine" else opponent(state, player)
        if side is not None and wanted != side:
            raise ref.name.error("this must be " + ("one of your cards" if side == player
                                                    else "an opponent's card, not one of yours"))
        side = wanted
    if ref.studio is not None:
        named = find_studio(state, ref.studio.text)
        if named is None:
            raise ref.studio.error(f"no studio {_q(ref.studio.text)}"
                                   f"{suggestion(ref.studio.text, [s['name'] for s in state['studios']])}")
        if studio is not None and named is not studio:
            raise ref.studio.error(f"the card must be in {studio['name']}, not {named['name']}")
        studio = named
    candidates, near = [], []
    for s, sd, index, hire in board_cards(state):
        if (studio is not None and s is not studio) or (side is not None and sd != side):
            continue
        if (s["name"], sd, index) in exclude:
            continue
        near.append(hire)
        if fold(hire["card"]) == fold(ref.name.text) and (laid_off is None or hire["laid_off"] == laid_off):
            candidates.append((s, sd, index, hire))
    if not candidates:
        where = f" in {studio['name']}" if studio is not None else " on the board"
        whose = "" if side is None else (" of yours" if side == player else " of your opponent's")
        status = {True: " laid-off", False: " active", None: ""}[laid_off]
        raise ref.name.error(f"no{status} {what} {_q(ref.name.text)}{whose}{where}"
                             f"{suggestion(ref.name.text, [h['card'] for h in near])}")
    distinct = {(s["name"], sd, hire["title"], hire["profession"], hire["laid_off"])
                for s, sd, _, hire in candidates}
    if len(distinct) > 1:
        places = ", ".join(f"{sd}'s in {s['name']}" for s, sd, _, _ in candidates)
        raise AmbiguousOrderError(
            f"{_q(ref.name.text)} could be {places}: say 'my' or 'their' and 'from STUDIO'",
            line=ref.name.line.number, col=ref.name.line.col + ref.name.offset,
            text=ref.name.line.text, file=ref.name.line.file)
    s, sd, index, hire = candidates[0]
    return {"side": sd, "studio": s["name"], "index": index, "card": hire["card"]}


def _studio_for(state: State, word: Word, *, extra: int = 0) -> tuple[str, bool]:
    """The studio ``word`` names, or a new one when fewer than three exist: (name, is new)."""
    names = [s["name"] for s in state["studios"]]
    if len(word.text) > MAX_STUDIO_NAME:  # no studio has such a name, and none may open with it
        raise word.error(f"a studio name is at most {MAX_STUDIO_NAME} characters"
                         + (f"; the studios are {', '.join(names)}" if names else ""))
    studio = find_studio(state, word.text)
    if studio is not None:
        return studio["name"], False
    if len(names) + extra >= MAX_STUDIOS:
        raise word.error(f"there are already three studios ({', '.join(names)}); no fourth one "
                         f"{_q(word.text)} can open{suggestion(word.text, names)}")
    return " ".join(word.text.split()), True


# ---- checking a turn ----------------------------------------------------------------------
def check(state: State, player: str, draft: Draft) -> tuple[dict | None, list[OrderError]]:
    """Plain orders for ``draft``, or the errors that keep it from being played."""
    errors: list[OrderError] = []
    hire = draft.hire
    hand = state["hands"][player]
    try:
        index = _hand_card(hand, hire.card, elsewhere=_own_card_elsewhere(state, player, hire.card.text))
    except OrderError as exc:
        errors.append(exc)
        index = None
    try:
        studio_name, _ = _studio_for(state, hire.studio)
    except OrderError as exc:
        errors.append(exc)
        studio_name = None
    if index is None or studio_name is None:
        return None, errors
    card = hand[index]
    fits = card_professions(card, state["title_professions"])
    if hire.profession is None:
        if len(fits) > 1:
            return None, [hire.card.error(f"{card_label(card)} could be {' or '.join(fits)}: "
                                          "declare one with 'as PROFESSION'")]
        profession = fits[0]
    else:
        profession = profession_named(hire.profession.text)
        if profession is None:
            return None, [hire.profession.error(f"no profession {_q(hire.profession.text)}; "
                                                f"professions: {', '.join(ALL)}")]
        if profession not in fits:
            return None, [hire.profession.error(f"{card_label(card)} cannot be hired as {profession}: "
                                                f"the card is {' or '.join(fits)}")]
    orders = {"hire": {"card": card, "studio": studio_name, "profession": profession}}
    # the rest is checked on the board as it stands once the card is hired
    after = copy.deepcopy(state)
    _hire(after, player, orders["hire"])
    try:
        if isinstance(draft.follow, Layoff):
            orders["layoff"] = _check_layoff(after, player, orders["hire"], draft.follow)
        elif isinstance(draft.follow, Effect):
            orders["effect"] = _check_effect(after, player, orders["hire"], draft.follow, index)
    except OrderError as exc:
        errors.append(exc)
    return (None if errors else orders), errors


def _check_layoff(state: State, player: str, hire: dict, layoff: Layoff) -> dict:
    studio = find_studio(state, hire["studio"])
    target = _board_card(state, player, layoff.target, studio=studio, side=opponent(state, player),
                         laid_off=False)
    profession = studio["hires"][target["side"]][target["index"]]["profession"]
    if profession != hire["profession"]:
        raise layoff.target.name.error(
            f"{target['card']} is {profession}, not {hire['profession']}: a hire lays off only an "
            "opponent card of its own profession (or use its effect)")
    return target


def _check_effect(state: State, player: str, hire: dict, effect: Effect, hand_index: int) -> dict:
    studio = find_studio(state, hire["studio"])
    new_index = len(studio["hires"][player]) - 1
    this = (studio["name"], player, new_index)
    use = VERB_PROFESSION[effect.verb]
    if effect.mimic is not None:
        named = profession_named(effect.mimic.text)
        if named is None:
            raise effect.mimic.error(f"no profession {_q(effect.mimic.text)}")
        if named != use:
            raise effect.at.error(f"'{effect.verb}' is the {use} effect, not {named}'s")
    if hire["profession"] == NO_PROFESSION:
        _check_mimic(studio, this, use, effect)
    elif use != hire["profession"]:
        raise effect.at.error(f"'{effect.verb}' is the {use} effect, but {card_name(hire['card'])} "
                              f"is hired as {hire['profession']}")
    out: dict[str, Any] = {"use": use}
    if use == "Business":
        deck = state["decks"][player]
        if not deck:
            raise effect.cards[0].error("your deck is empty: there is nothing to draw")
        if effect.cards[0].number is not None:
            raise effect.cards[0].error("name the card to draw from your deck (deck cards have no numbers)")
        drawn = deck[_hand_card(deck, effect.cards[0], "your deck")]
        hand = state["hands"][player] + [drawn]
        bottom_word = effect.cards[1]
        if bottom_word.number is not None:
            if bottom_word.number - 1 == hand_index:
                raise bottom_word.error("that card is the one you are hiring")
            original = state["hands"][player][:hand_index] + [hire["card"]] + state["hands"][player][hand_index:]
            bottom = original[_hand_card(original, bottom_word)]
        else:
            bottom = hand[_hand_card(hand, bottom_word)]
        out.update(draw=drawn, bottom=bottom)
    elif use == "Design/Writing":
        target = _board_card(state, player, effect.targets[0])
        to_name, _ = _studio_for(state, effect.to)
        if fold(to_name) == fold(target["studio"]):
            raise effect.to.error(f"{target['card']} is already in {target['studio']}: relocate it "
                                  "to a different studio")
        out.update(relocate=target, to=to_name)
    elif use == "Programming/QA":
        first = _board_card(state, player, effect.targets[0], studio=studio, laid_off=False,
                            exclude=(this,))
        targets = [first]
        if len(effect.targets) > 1:
            targets.append(_board_card(state, player, effect.targets[1], studio=studio, laid_off=False,
                                       exclude=(this, (first["studio"], first["side"], first["index"]))))
        elif _active_others(studio, this) > 1:
            raise effect.at.error("Programming/QA lays off two cards here: name the second one")
        out.update(layoff=targets)
    elif use == "Art":
        out.update(rehire=_board_card(state, player, effect.targets[0], studio=studio, laid_off=True))
    return out


def _check_mimic(studio: dict, this: tuple, use: str, effect: Effect) -> None:
    """No Profession mimics "any profession in this studio": a laid-off hire is still in it (Art
    rehires it there); mimicking another No Profession would have no effect of its own."""
    present = {h["profession"] for sd, hires in studio["hires"].items() for i, h in enumerate(hires)
               if (studio["name"], sd, i) != this}
    present.discard(NO_PROFESSION)
    if use not in present:
        raise effect.at.error(f"No Profession mimics a profession present in {studio['name']}; "
                              f"there is no {use} hire there"
                              + (f" (present: {', '.join(sorted(present))})" if present else ""))


def _active_others(studio: dict, this: tuple) -> int:
    return sum(1 for side, hires in studio["hires"].items() for i, h in enumerate(hires)
               if not h["laid_off"] and (studio["name"], side, i) != this)


# ---- playing a turn -----------------------------------------------------------------------
def _hire(state: State, player: str, hire: dict) -> dict:
    state["hands"][player].remove(hire["card"])
    studio = find_studio(state, hire["studio"]) or new_studio(state, hire["studio"])
    entry = hire_entry(hire["card"], hire["profession"])
    studio["hires"][player].append(entry)
    return studio


def _at(state: State, ref: dict) -> dict:
    hire = find_studio(state, ref["studio"])["hires"][ref["side"]][ref["index"]]
    if hire["card"] != ref["card"]:
        raise ValueError(f"the orders name {ref['card']} but {hire['card']} stands there")
    return hire


def play_turn(state: State, player: str, orders: dict) -> tuple[State, list[dict]]:
    """Apply checked orders to a copy of ``state``: the new state and the turn's events."""
    state = copy.deepcopy(state)
    hire = orders["hire"]
    who = player_ref(player)
    events = [{"text": f"{who} hired {card_label(hire['card'])} to {hire['studio']} as {hire['profession']}.",
               "kind": "hire", "player": player, "card": card_name(hire["card"]),
               "studio": hire["studio"], "profession": hire["profession"]}]
    studio = _hire(state, player, hire)
    this = studio["hires"][player][-1]
    if "layoff" in orders:
        target = _at(state, orders["layoff"])
        target["laid_off"] = True
        events.append({"text": f"{who} laid off {target['card']} ({player_ref(orders['layoff']['side'])}) "
                       f"in {studio['name']}: same profession.", "kind": "layoff", "player": player})
    effect = orders.get("effect")
    if effect:
        events += _use(state, player, studio, this, effect)
    events += advance(state, player)
    if state.get("winner"):
        events += final_events(state)
    return state, events


def _use(state: State, player: str, studio: dict, this: dict, effect: dict) -> list[dict]:
    use, who = effect["use"], player_ref(player)
    how = use if this["profession"] == use else f"{use} (mimicked by No Profession)"
    if use in SELF_LAYOFF:
        this["laid_off"] = True
    if use == "Business":
        state["decks"][player].remove(effect["draw"])
        state["hands"][player].append(effect["draw"])
        state["hands"][player].remove(effect["bottom"])
        state["decks"][player].append(effect["bottom"])
        # the player learns what they drew; the others only that a card was drawn
        return [{"text": f"{who} used {how}: drew {card_name(effect['draw'])} from their deck and put "
                 f"{card_name(effect['bottom'])} on the bottom.", "kind": "effect", "player": player,
                 "to": [player]},
                {"text": f"{who} used {how}: drew a card of their choice from their deck and put "
                 "a card from their hand on the bottom.", "kind": "effect", "player": player,
                 "to": [opponent(state, player), "public"]}]
    if use == "Design/Writing":
        ref = effect["relocate"]
        source = find_studio(state, ref["studio"])
        moving = _at(state, ref)
        source["hires"][ref["side"]].pop(ref["index"])
        target = find_studio(state, effect["to"]) or new_studio(state, effect["to"])
        target["hires"][ref["side"]].append(moving)
        return [{"text": f"{who} used {how}: relocated {moving['card']} ({player_ref(ref['side'])}) from "
                 f"{source['name']} to {target['name']}.", "kind": "effect", "player": player}]
    if use == "Programming/QA":
        names = []
        for ref in effect["layoff"]:
            _at(state, ref)["laid_off"] = True
            names.append(f"{ref['card']} ({player_ref(ref['side'])})")
        return [{"text": f"{who} used {how}: laid off {this['card']} to lay off "
                 f"{' and '.join(names)} in {studio['name']}.", "kind": "effect", "player": player}]
    if use == "Art":
        _at(state, effect["rehire"])["laid_off"] = False
        return [{"text": f"{who} used {how}: rehired {effect['rehire']['card']} "
                 f"({player_ref(effect['rehire']['side'])}) in {studio['name']}.", "kind": "effect", "player": player}]
    if use == "Sound":
        state["skip_next"][player] = True
        return [{"text": f"{who} used {how}: laid off {this['card']}; {who} passes their next "
                 "turn.", "kind": "effect", "player": player}]
    if use == "No Name":
        for hires in studio["hires"].values():
            for h in hires:
                h["laid_off"] = True
        return [{"text": f"{who} used {how}: every hire in {studio['name']} is laid off.",
                 "kind": "effect", "player": player}]
    raise ValueError(f"unknown effect {use}")


def _vowels(n: int) -> str:
    return "1 vowel" if n == 1 else f"{n} vowels"


def final_events(state: State) -> list[dict]:
    from .board import side_vowels
    a, b = state["players"]
    events = []
    for studio in state["studios"]:
        owner = state["studio_owner"][studio["name"]]
        va, vb = side_vowels(studio, a), side_vowels(studio, b)
        tie = " (a tie goes to the starting player)" if va == vb else ""
        events.append({"text": f"{studio['name']}: {player_ref(a)} {_vowels(va)}, {player_ref(b)} {vb}: "
                               f"{player_ref(owner)} controls it{tie}.",
                       "kind": "score"})
    unopened = [n for n in state["studio_owner"] if not find_studio(state, n)]
    if unopened:
        some = "1 studio was" if len(unopened) == 1 else f"{len(unopened)} studios were"
        events.append({"text": f"{some} never opened: empty, {'it goes' if len(unopened) == 1 else 'they go'} "
                       f"to the starting player, {player_ref(state['starting_player'])}.", "kind": "score"})
    count = sum(1 for o in state["studio_owner"].values() if o == state["winner"])
    events.append({"text": f"{player_ref(state['winner'])} controls {count} of 3 studios and wins.", "kind": "end",
                   "winner": state["winner"]})
    return events
