"""Secrets: over seeded random games, no card held only in another hand reaches a player's JSON
view, visible events or report (all four formats), and the view does not depend on hidden cards."""
from __future__ import annotations

import json
import random
import re

import pytest

from gm.store.dice import Dice
from gm.games import get
from gm.store.orders import read_frame
from gm.turn.report import dice_block, render_report, template_context
from gm.store.viewing import picture, seen_by, visible_events
from support.hidden_thurn_und_taxis import perturb

GAME = get("thurn-und-taxis")
FORMATS = ("text", "markdown", "bbcode", "html")


def games(seeds, map_name, players):
    """(state before, state after, GM events) for every turn of seeded random games."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.setup(map_name, list(players), {}, Dice(b"secret setup %d" % seed))
        for turn in range(1, 400):
            if GAME.finished(state):
                break
            player = GAME.due(state)[0]
            orders = GAME.parse(state, player, read_frame(GAME.random_orders(state, player, rng)).lines)
            if rng.random() < 0.1:  # now and then a step that fails at resolution, or missing orders
                orders = GAME.default_orders(state, player)
            after, events = GAME.resolve(state, {player: orders}, Dice(b"secret %d %d" % (seed, turn)))
            yield state, after, events
            state = after


def held_only_by_others(state, viewer, public_events_json):
    """Cities whose every copy in sight of ``viewer`` is in another player's hand."""
    visible = set(state["display"]) | set(state["hands"].get(viewer, []))
    # a city that is also an area's name (Salzburg, Hannover) is named by the tiles anyway
    visible |= {c for p in state["players"] for c in state["hands"][p] if any(c in k for k in state["tiles_left"])}
    for p in state["players"]:
        visible |= set(state["routes"][p]) | set(state["houses"][p])
    hidden = {c for p in state["players"] if p != viewer for c in state["hands"][p]}
    return {c for c in hidden - visible if not re.search(rf"\b{re.escape(c)}\b", public_events_json)}


def context(state, events, viewer):
    players = [{"id": p, "name": p, "colour": ""} for p in state["players"]]
    return template_context(GAME, state, events, viewer, turn=1, campaign="secrets", players=players,
                            dice=dice_block(1, b"s" * 32, b"t" * 32, []))


@pytest.mark.parametrize("map_name,players", [("map1", ("ann", "bob", "cy")), ("map2", ("ann", "bob"))])
def test_views_hold_no_other_hand(map_name, players):
    rng = random.Random(7)
    checked = 0
    for _before, after, _events in games((11, 12), map_name, players):
        for viewer in list(players) + ["public"]:
            view = GAME.view(after, viewer)
            assert set(view["hands"]) == ({viewer} if viewer in players else set())
            assert "deck" not in view and "discard" not in view
            assert view["hand_sizes"] == {p: len(after["hands"][p]) for p in players}
            # the view is the same whatever the hidden cards are
            assert GAME.view(perturb(after, viewer, rng), viewer) == view
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("map_name,players", [("map1", ("ann", "bob", "cy")), ("map2", ("ann", "bob", "cy", "dee"))])
def test_events_and_reports_hold_no_other_hand(map_name, players):
    deck_draws = 0
    for turn, (before, after, events) in enumerate(games((21,), map_name, players)):
        mover = before["to_move"]
        names = {p: p for p in players}
        public = visible_events(events, "public", names)
        public_json = json.dumps(public, ensure_ascii=False)
        for viewer in list(players) + ["public"]:
            seen = visible_events(events, viewer, names)
            assert len(seen) == len([e for e in events if e.get("to") is None or viewer in e["to"]])
            for event in seen:
                if event.get("source") == "deck" and viewer != event["player"]:
                    deck_draws += 1
                    assert "card" not in event and event["text"] == f"{mover} drew a card from the deck."
            secret = held_only_by_others(after, viewer, public_json)
            texts = [json.dumps(GAME.view(after, viewer), ensure_ascii=False), json.dumps(seen, ensure_ascii=False)]
            if turn % 10 == 0 or after.get("finished"):
                reports = [render_report(context(after, events, viewer), f, game_name=GAME.name) for f in FORMATS]
                # the order form names the map's cities next to the route: geography, not cards
                texts += [re.sub(r"# cities next to its ends:.*", "", r) for r in reports]
            for city in secret:
                for text in texts:
                    assert not re.search(rf"\b{re.escape(city)}\b", text), (viewer, city, text[:300])
    assert deck_draws > 20


def test_gm_report_shows_every_hand():
    state = GAME.setup("map1", ["ann", "bob"], {}, Dice(b"gm"))
    state = GAME.apply_setup(state, {"hands": {"ann": ["Lodz"], "bob": ["Basel"]}})
    text = render_report(context(state, [], "gm"), "text", game_name=GAME.name)
    assert "Lodz" in text.split("HANDS (GM only)")[1] and "Basel" in text.split("HANDS (GM only)")[1]
    ann = render_report(context(state, [], "ann"), "text", game_name=GAME.name)
    assert "YOUR HAND: Lodz" in ann and "HANDS (GM only)" not in ann


def _with_other_cards(events, viewer, rng, cards):
    """The events with every card another player drew from the deck replaced: what ``viewer`` may
    not know (the GM's events name it; the convention must keep it from ``viewer``)."""
    out = []
    for event in events:
        event = dict(event)
        if event.get("source") == "deck" and event.get("player") != viewer and "card" in event:
            other = rng.choice([c for c in cards if c != event["card"]])
            event["text"] = event["text"].replace(event["card"], other)
            event["card"] = other
        out.append(event)
    return out


@pytest.mark.parametrize("map_name,players", [("map1", ("ann", "bob", "cy")), ("map2", ("ann", "bob"))])
def test_what_a_viewer_gets_does_not_depend_on_what_they_cannot_see(map_name, players):
    """Through the one door (gm.store.viewing.seen_by): the view, the events and the order form a viewer
    gets stay the same when other hands, the deck, the discard pile and the cards drawn by others
    change; so does the picture (checked on a few turns)."""
    rng = random.Random(5)
    public = [{"id": p, "name": p.title(), "colour": ""} for p in players]
    cards = sorted(set(GAME.view(GAME.setup(map_name, list(players), {}, Dice(b"x")), None)["deck"]))
    changed = pictured = 0
    for turn, (_before, after, events) in enumerate(games((31,), map_name, players)):
        for viewer in list(players) + ["public"]:
            other = perturb(after, viewer, rng)
            if other is None:
                continue
            changed += 1
            seen = seen_by(GAME, after, events, viewer, public)
            again = seen_by(GAME, other, _with_other_cards(events, viewer, rng, cards), viewer, public)
            assert (again.view, again.events, again.order_form) == (seen.view, seen.events, seen.order_form)
            if turn % 25 == 1 and viewer in ("bob", "public"):
                assert picture(GAME, again) == picture(GAME, seen)
                pictured += 1
    assert changed > 50 and pictured >= 2
