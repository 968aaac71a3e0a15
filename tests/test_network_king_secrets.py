"""Network King keeps secrets: no card held only in the opponent's hand or deck ever reaches a
player's view, events, order form, error messages or rendered reports (every format).

Decks are made of random invented names and titles, so a secret found in a text can only have
leaked there. Several seeded games are played with random legal turns.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gm.turn import engine
from gm.store.dice import Dice
from gm.store.errors import OrderErrors
from gm.games.network_king import GAME
from gm.games.network_king.cards import card_name, card_title
from gm.store.orders import read_frame
from gm.store.viewing import visible_events

SYLLABLES = ["zor", "vax", "quil", "mib", "tep", "gru", "xan", "lod", "pev", "kaz", "jub", "wix",
             "fen", "dor", "bly", "sko", "rüm", "tái", "növ", "hél"]
JOBS = ["Writer", "Programmer", "Artist", "Composer", "Producer", "Creative", "Designer", "Animator", ""]
PLAYERS = ["ann", "bob"]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize()


def random_decks(rng: random.Random) -> dict[str, list[str]]:
    """Two decks of unique invented cards (unique titles too), one card shared by both."""
    seen: set[str] = set()

    def card() -> str:
        while True:
            name = f"{_word(rng)} {_word(rng)}"
            if name not in seen:
                seen.add(name)
                job = rng.choice(JOBS)
                title = f"{_word(rng)} {job}" if job else ""
                if rng.random() < 0.08:
                    name = ""  # a No Name card
                return f"{name} | {title}"
    shared = card()
    return {p: [card() for _ in range(rng.randint(10, 14))] + [shared] for p in PLAYERS}


def _words_of(cards) -> set[str]:
    out = set()
    for c in cards:
        out.add(card_name(c))
        if card_title(c) != "No Profession":
            out.add(card_title(c))
    return out - {"No Name"}


def secrets_for(state: dict, viewer: str) -> set[str]:
    """Names and titles held only by the other player(s), hidden from ``viewer``."""
    hidden, known = set(), set()
    for p in state["players"]:
        cards = state["hands"][p] + (state["decks"][p] or [])
        (known if p == viewer else hidden).update(_words_of(cards))
    for studio in state["studios"]:
        for hires in studio["hires"].values():
            for h in hires:
                known.update({h["card"], h["title"]})
    return hidden - known


def assert_hidden(text: str, secrets: set[str], where: str) -> None:
    leaked = sorted(s for s in secrets if s in text)
    assert not leaked, f"{where} shows the opponent's hidden cards {leaked}"


def check_error_messages(state: dict, player: str, secrets: set[str], rng: random.Random) -> None:
    """Naming an opponent's hidden card almost right must not make the error suggest it."""
    if not secrets or GAME.due(state) != [player]:
        return
    for target in rng.sample(sorted(secrets), min(3, len(secrets))):
        near = target[:-1]  # close enough for a "did you mean", and not itself a secret
        for text in (f'hire "{near}" to Tokyo', f'hire 1 to Tokyo; effect: draw "{near}", bottom 2',
                     f'hire 1 to Tokyo; layoff "{near}"', f'hire 1 to Tokyo; relocate "{near}" to Osaka',
                     f'hire 1 to "{near}"'):
            try:
                GAME.parse(state, player, read_frame(text).lines)
            except OrderErrors as exc:
                assert_hidden(" ".join(exc.lines()), secrets, f"the error for {text!r}")


@pytest.mark.parametrize("seed", range(12))
def test_views_events_and_forms_keep_secrets(seed):
    rng = random.Random(seed)
    decks = random_decks(rng)
    state = GAME.setup(None, PLAYERS, {"deck_p1": decks["ann"], "deck_p2": decks["bob"]},
                       Dice(bytes([seed]) * 32))
    events: list[dict] = []
    for turn in range(1, 60):
        for viewer in PLAYERS + ["public"]:
            secrets = (secrets_for(state, viewer) if viewer != "public"
                       else set.union(*(secrets_for(state, p) for p in PLAYERS)))
            assert_hidden(json.dumps(GAME.view(state, viewer), ensure_ascii=False), secrets,
                          f"turn {turn - 1} view for {viewer}")
            assert_hidden(json.dumps(visible_events(events, viewer, {}), ensure_ascii=False), secrets,
                          f"turn {turn - 1} events for {viewer}")
            if viewer != "public":
                assert_hidden(GAME.order_form(GAME.view(state, viewer), viewer), secrets,
                              f"turn {turn - 1} form for {viewer}")
                check_error_messages(state, viewer, secrets, rng)
        if not GAME.due(state):
            break
        player = GAME.due(state)[0]
        orders = GAME.parse(state, player, read_frame(GAME.random_orders(state, player, rng)).lines)
        state, events = GAME.resolve(state, {player: orders}, Dice(bytes([seed, turn]) * 16))
    assert state["winner"] in PLAYERS


@pytest.mark.parametrize("seed", range(3))
def test_rendered_reports_and_shown_json_keep_secrets(tmp_path: Path, seed: int):
    """Through the engine: every report file of every turn, in every format, and `gm show`."""
    rng = random.Random(100 + seed)
    decks = random_decks(rng)
    files = {}
    for seat, player in zip(("deck_p1", "deck_p2"), PLAYERS):
        files[seat] = tmp_path / f"{player}.txt"
        files[seat].write_text("\n".join(decks[player]) + "\n", encoding="utf-8")
    campaign = engine.new_campaign(tmp_path / "game", "network-king", PLAYERS,
                                   options={k: str(v) for k, v in files.items()},
                                   master=bytes([seed]) * 32)
    turn = 0
    while True:
        state = campaign.state(turn)
        for viewer in PLAYERS + ["public"]:
            secrets = (secrets_for(state, viewer) if viewer != "public"
                       else set.union(*(secrets_for(state, p) for p in PLAYERS)))
            for report in sorted((campaign.turn_dir(turn) / "reports").glob(f"{viewer}.*")):
                assert_hidden(report.read_text(encoding="utf-8"), secrets, f"turn {turn} {report.name}")
            shown = engine.show(campaign, turn, viewer)
            assert_hidden(json.dumps(shown, ensure_ascii=False), secrets, f"turn {turn} gm show for {viewer}")
        due = GAME.due(state)
        if not due:
            break
        order_file = tmp_path / "orders.txt"
        order_file.write_text(f"player: {due[0]}\n" + GAME.random_orders(state, due[0], rng) + "\n",
                              encoding="utf-8")
        checked = engine.submit_files(campaign, [str(order_file)])
        assert checked[0].ok, checked[0].errors
        turn = engine.resolve(campaign).turn
    assert campaign.state(turn)["winner"] in PLAYERS
    # the GM's report does show the hands: the check above is not vacuous
    gm_text = (campaign.turn_dir(0) / "reports" / "gm.txt").read_text(encoding="utf-8")
    assert all(card_name(c) in gm_text for c in campaign.state(0)["hands"]["bob"])


# ---- changing what a viewer may not see changes nothing they get -------------------------------
def _same_for(viewer: str, state: dict, other: dict, rng_seed: int) -> None:
    """``viewer`` gets the same view and order form from both states, and, when it is their turn,
    the same view, events and next form after playing the same orders in each."""
    names = {"ann": "Ann", "bob": "Bob"}
    assert GAME.view(other, viewer) == GAME.view(state, viewer)
    if viewer in PLAYERS:
        assert GAME.order_form(GAME.view(other, viewer), viewer) == GAME.order_form(GAME.view(state, viewer), viewer)
    if GAME.due(state) != [viewer]:
        return
    text = GAME.random_orders(state, viewer, random.Random(rng_seed))
    after = []
    for start in (state, other):
        orders = GAME.parse(start, viewer, read_frame(text).lines)
        new, events = GAME.resolve(start, {viewer: orders}, Dice(bytes([rng_seed % 256]) * 32))
        view = GAME.view(new, viewer)
        after.append((view, visible_events(events, viewer, names), GAME.order_form(view, viewer)))
    assert after[0] == after[1], f"{viewer}'s turn played out differently on hidden changes: {text!r}"


@pytest.mark.parametrize("seed", range(4))
def test_hidden_changes_reach_no_other_viewer(seed):
    from tests.support.hidden_network_king import perturb
    rng = random.Random(500 + seed)
    decks = random_decks(rng)
    # the first deck comes as orders: the decks phase is perturbed too
    state = GAME.setup(None, PLAYERS, {"deck_p2": decks["bob"]}, Dice(bytes([seed]) * 32))
    changed = 0
    for turn in range(60):
        for viewer in PLAYERS + ["public"]:
            other = perturb(state, viewer, random.Random(turn * 7 + seed))
            if other is not None:
                changed += 1
                _same_for(viewer, state, other, turn)
        if not GAME.due(state):
            break
        player = GAME.due(state)[0]
        text = "\n".join(decks["ann"]) if GAME.phase(state) == "decks" else GAME.random_orders(state, player, rng)
        orders = GAME.parse(state, player, read_frame(text).lines)
        state, _ = GAME.resolve(state, {player: orders}, Dice(bytes([seed, turn]) * 16))
    assert state["winner"] in PLAYERS and changed > 20
