"""One conformance test over every registered game (after OpenSpiel), played through the one turn
runner: seeded random legal playouts to the end; plain data; same seed, same states; a finished
game takes no orders and has an outcome, an unfinished one has none; every template and image
renders; and hidden information stays hidden (tests/support/hidden_<game>.py)."""
from __future__ import annotations

import copy
import datetime as dt
import importlib
import random
import re
import shutil
from pathlib import Path

import pytest
import yaml

from gm import games
from gm.turn import audit, engine, publish, runner
from gm.store.campaign import Campaign
from gm.store.dice import turn_seed
from gm.store.press import add_press
from gm.turn.publish import public_players, viewers
from gm.turn.report import FORMATS, dice_block, render_report, template_context
from gm.store.viewing import GM_VIEWER, PUBLIC, picture, seen_by
from gm.delivery.mail import outbox
from gm.delivery.record import public_record
from gm.delivery.site import build

GAME_NAMES = games.names()
MAX_TURNS = 3000


def _players(game) -> list[str]:
    return [f"p{i + 1}" for i in range(max(game.min_players, min(game.max_players, 3)))]


def playout(game, seed: int) -> tuple[list[str], list[dict], list[list[dict]]]:
    """(players, states, events of each turn) of one seeded random game, from set-up to the end."""
    rng = random.Random(seed)
    players = _players(game)
    master = seed.to_bytes(32, "big")
    state = runner.start(game, game.default_map(), players, {}, runner.turn_dice(master, 0))
    states, events_by_turn = [state], [[]]
    for turn in range(1, MAX_TURNS + 1):
        if not game.due(state):
            return players, states, events_by_turn
        orders = {}
        for player in game.due(state):
            checked = runner.check(game, state, game.random_orders(state, player, rng), file="random",
                                   players=players, turn=turn, player=player)
            assert checked.ok, checked.errors
            orders[player] = checked.orders
        before = copy.deepcopy(state)
        state, events = runner.step(game, state, orders, runner.turn_dice(master, turn))
        assert before == states[-1], "resolve changed the state it was given"
        assert all(isinstance(e.get("text"), str) and e["text"] and isinstance(e.get("kind"), str)
                   for e in events), events
        assert yaml.safe_load(yaml.safe_dump(state)) == state, "state is not plain YAML data"
        states.append(state)
        events_by_turn.append(events)
    raise AssertionError(f"{game.name}: no end after {MAX_TURNS} turns")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_playouts_end_repeat_and_have_an_outcome(name):
    game = games.get(name)
    for seed in (1, 2):
        players, first, _ = playout(game, seed)
        # a finished game waits for nobody, so the engine takes no more orders (tests/test_cli.py)
        assert game.finished(first[-1]) and game.due(first[-1]) == []
        result = runner.outcome(game, first[-1], players)
        assert result is not None and set(result["winners"]) <= set(players)
        assert [p for place in result["ranking"] for p in place] and result["reason"]
        for state in first[:-1][:: max(1, len(first) // 8)]:
            assert runner.outcome(game, state, players) is None
        assert playout(game, seed)[1] == first, "same seed, different game"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_views_are_plain_data(name):
    game = games.get(name)
    players, states, _ = playout(game, 3)
    for state in states[:: max(1, len(states) // 10)] + [states[-1]]:
        for viewer in [None, "public"] + players:
            view = game.view(state, viewer)
            assert yaml.safe_load(yaml.safe_dump(view)) == view


@pytest.mark.parametrize("name", GAME_NAMES)
def test_campaign_reports_and_images_render(name, tmp_path):
    """A short campaign through the engine: every report format for every viewer, every image."""
    game = games.get(name)
    camp = tmp_path / "c"
    engine.new_campaign(camp, name, _players(game), master=bytes(32))
    campaign = Campaign(camp)
    rng = random.Random(7)
    for _ in range(4):
        state = campaign.state()
        if not game.due(state):
            break
        for player in game.due(state):
            text = f"player: {player}\n" + game.random_orders(state, player, rng)
            checked = engine.check_text(campaign, game, state, text, "random.txt")
            assert checked.ok, checked.errors
            campaign.store_orders(campaign.current_turn, player, text)
        engine.resolve(campaign)
    for turn in campaign.resolved_turns():
        reports = campaign.turn_dir(turn) / "reports"
        for viewer in viewers(campaign):
            for ext in ("txt", "md", "bbcode", "html"):
                text = (reports / f"{viewer}.{ext}").read_text()
                assert text.strip() and "@{" not in text, f"{viewer}.{ext}: a player placeholder left unfilled"
    assert audit.replay(campaign) == []
    assert audit.verify_dice(campaign)[1] == []


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_flags_say_what_the_game_has(name):
    """The capability flags the generic tests read are true to the game: secret dice rolled when
    (and only when) ``secret_dice`` says so, a picture when ``pictures`` does, one player due at a
    time in a ``sequential`` game, everybody at once in the first turn of a simultaneous one."""
    game = games.get(name)
    rng, players, master = random.Random(5), _players(game), bytes(32)
    dice = runner.turn_dice(master, 0)
    state = runner.start(game, game.default_map(), players, {}, dice)
    secret = [r for r in dice.log if r.get("secret")]
    dues = []
    for turn in range(1, MAX_TURNS + 1):
        due = game.due(state)
        if not due:
            break
        dues.append(due)
        orders = {p: runner.check(game, state, game.random_orders(state, p, rng), file="random", players=players,
                                  turn=turn, player=p).orders for p in due}
        dice = runner.turn_dice(master, turn)
        state, _ = runner.step(game, state, orders, dice)
        secret += [r for r in dice.log if r.get("secret")]
    if game.sequential:  # one player at a time (a set-up turn may take everybody's orders at once)
        assert sum(len(d) == 1 for d in dues) >= len(dues) - 1, f"{name} is sequential but waits for {dues}"
    else:
        assert dues[0] == players, f"{name} is simultaneous but its first turn waits for {dues[0]}"
    assert bool(secret) == game.secret_dice, f"{name}: secret_dice is {game.secret_dice}, secret rolls: {len(secret)}"
    image = game.render(game.view(state, "public"), "public", players=None)
    assert (image is not None) == game.pictures, f"{name}: pictures is {game.pictures}, render gave {image!r}"


# ---- hidden information ---------------------------------------------------------------------------
def _hidden_module(name: str) -> str:
    """tests/support/hidden_<module>.py, <module> the last part of the game's module path."""
    return "hidden_" + games.installed()[name].partition(":")[0].strip().rsplit(".", 1)[-1]


def _hidden(name: str):
    try:
        return importlib.import_module(f"support.{_hidden_module(name)}")
    except ModuleNotFoundError:
        return None


def _everything(game, state, events, viewer, players, *, pictures: bool) -> dict:
    """All a viewer gets of a state: JSON view, order form, events, every report format, picture."""
    seen = seen_by(game, state, events, viewer, players)
    out = {"view": seen.view, "form": seen.order_form, "events": seen.events}
    dice = dice_block(1, bytes(32), bytes(32), [])
    context = template_context(game, state, events, viewer, turn=1, campaign="c", players=players, dice=dice,
                               seen=seen)
    for fmt in FORMATS:
        out[fmt] = render_report(context, fmt, game_name=game.name)
    if pictures:
        out["picture"] = picture(game, seen)
    return out


@pytest.mark.parametrize("name", GAME_NAMES)
def test_hidden_information_never_reaches_another_viewer(name):
    """Change what a viewer may not see (other hands, deck order, secret draws): nothing that viewer
    gets — JSON, order form, events, reports in every format, picture — may change. A game whose
    ``hidden_information`` flag is set must say what it hides (tests/support/hidden_<module>.py)."""
    game = games.get(name)
    hidden = _hidden(name)
    if hidden is None:
        assert not game.hidden_information, f"{name} hides information: tests/support/{_hidden_module(name)}.py " \
                                            f"must give perturb(state, viewer, rng)"
        pytest.skip(f"{name} hides nothing (hidden_information is False) and has no {_hidden_module(name)}")
    players, states, events = playout(game, 5)
    perturb = hidden.perturb
    rng = random.Random(11)
    public = [{"id": p, "name": p.upper(), "colour": ""} for p in players]
    picked = sorted({1, len(states) // 2, len(states) - 2} & set(range(1, len(states))))
    changed = 0
    for n in picked:
        for viewer in players + ["public"]:
            other = perturb(copy.deepcopy(states[n]), viewer, rng)
            if other is None:
                continue
            assert other != states[n], "perturb() returned the state unchanged"
            changed += 1
            pictures = n == picked[-1] and game.pictures
            assert _everything(game, other, events[n], viewer, public, pictures=pictures) == \
                _everything(game, states[n], events[n], viewer, public, pictures=pictures), \
                f"{name}: turn {n}: {viewer} sees something hidden from them"
    if game.hidden_information:
        assert changed, f"{name} says it hides information, but perturb() changed nothing"


def test_public_players_never_carry_addresses(tmp_path):
    camp = tmp_path / "c"
    engine.new_campaign(camp, "guess", ["ann:Ann:ann@example.org", "bob:Bob:bob@example.org"], master=bytes(32))
    assert all(set(p) == {"id", "name", "colour"} for p in public_players(Campaign(camp)))


# ---- the one door beyond the state: press, the GM's audit and hidden dice -------------------------
SECRET_PRESS = "the pass at dawn is unguarded"
SECRET_AUDIT = "typed-in-by-the-gm.txt"


def _door_campaign(root, name: str, *, private: bool):
    """One resolved turn of ``name`` with seeded random orders and public press; ``private`` adds
    what only some may read: press from the last player to the first (to Ann, never Bob's), a
    grey message, and a GM-only audit entry."""
    game = games.get(name)
    players = _players(game)
    camp = root / ("private" if private else "plain") / "c"  # one campaign name for both
    engine.new_campaign(camp, name, [f"{p}:{p.upper()}:{p}@example.org" for p in players], master=bytes(32))
    campaign = Campaign(camp)
    at = dt.datetime(2026, 12, 1, 12, tzinfo=dt.timezone.utc)
    add_press(campaign, 1, players[-1], "all", "greetings to all", at=at)
    if private:
        add_press(campaign, 1, players[-1], players[0], SECRET_PRESS, at=at)
        campaign.record_audit(1, {"at": "2026-12-01T12:00:00+00:00", "player": players[0], "file": SECRET_AUDIT,
                                  "receipt": "0" * 64})
    state, rng = campaign.state(), random.Random(7)
    for player in game.due(state):
        campaign.store_orders(1, player, f"player: {player}\n" + game.random_orders(state, player, rng))
    engine.resolve(campaign)
    return Campaign(camp), players


def _mail_parts(msg) -> list:
    """A message's parts as a reader gets them (the random content ids of inline pictures aside)."""
    return [re.sub(r"cid:[^\"']+", "cid:", part.get_content()) if part.get_content_maintype() == "text"
            else part.get_content() for part in msg.walk() if not part.is_multipart()]


def _all_outputs(campaign: Campaign, viewer: str, site) -> dict:
    """Everything ``viewer`` gets of every resolved turn: the reports written and rebuilt in every
    format, `gm show`, their report mail, and the public website and record."""
    out = {}
    for turn in campaign.resolved_turns():
        for ext in FORMATS.values():
            out[f"{turn}.{ext}"] = (campaign.turn_dir(turn) / "reports" / f"{viewer}.{ext}").read_text()
            out[f"{turn}.{ext} again"] = publish.report_text(campaign, turn, viewer, ext)
        out[f"{turn} show"] = engine.show(campaign, turn, viewer)
        if viewer in campaign.player_ids:
            messages = dict(outbox.report_messages(campaign, turn)[0])
            out[f"{turn} mail"] = _mail_parts(messages[f"report:{turn}:{viewer}"])
    out["site"] = {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
                   if p.is_file() and p.name != ".gm-site.json"}
    out["record"] = public_record(campaign)
    return out


@pytest.mark.parametrize("name", GAME_NAMES)
def test_private_press_and_the_gm_audit_never_reach_another_viewer(name, tmp_path, monkeypatch):
    """Press from Cy to Ann (a private message, and a grey one) and orders the GM typed in: Bob,
    the public and the website get exactly what they get without them — reports written and
    rebuilt, `gm show`, mail, pages, record — while Ann (and the GM) do read them."""
    monkeypatch.setenv("GM_NOW", "2026-12-02T12:00Z")
    (plain, players), (private, _) = (_door_campaign(tmp_path, name, private=p) for p in (False, True))
    sites = {c: tmp_path / f"site-{c.path.parent.name}" for c in (plain, private)}
    for campaign, folder in sites.items():
        build(campaign, folder)
    readers = {players[0], players[-1], GM_VIEWER}
    for viewer in [p for p in players if p not in readers] + [PUBLIC]:
        assert _all_outputs(private, viewer, sites[private]) == _all_outputs(plain, viewer, sites[plain]), \
            f"{name}: {viewer} gets press or audit meant for others"
    assert SECRET_PRESS in (private.turn_dir(1) / "reports" / f"{players[0]}.txt").read_text()
    gm_report = (private.turn_dir(1) / "reports" / "gm.txt").read_text()
    assert SECRET_PRESS in gm_report and SECRET_AUDIT in gm_report
    assert SECRET_AUDIT not in (private.turn_dir(1) / "reports" / f"{players[0]}.txt").read_text()


def _hidden_rolls_changed(campaign: Campaign, rng: random.Random) -> int:
    """Every turn's hidden rolls (secret/dice/NNN.yaml) replaced by others: values, a label, one
    more roll; a game without hidden rolls gets some. How many files were there before."""
    had = 0
    for turn in campaign.resolved_turns():
        rolls = campaign.secret_rolls(turn)
        had += rolls is not None
        rolls = copy.deepcopy(rolls or [{"label": "shuffle deck", "index": 0, "sides": 6, "value": 1,
                                         "secret": True}])
        for r in rolls:
            r["value"] = rng.randint(1, r["sides"])
        rolls[0]["label"] += " (changed)"
        rolls.append(dict(rolls[-1], index=rolls[-1]["index"] + 1))
        campaign.write_secret_rolls(turn, rolls)
    return had


@pytest.mark.parametrize("name", GAME_NAMES)
def test_hidden_rolls_never_reach_a_viewer_while_the_game_goes_on(name, tmp_path, monkeypatch):
    """Change every hidden roll kept in secret/ of an unfinished game: no viewer, the GM included,
    gets anything different — reports rebuilt in every format, `gm show`, mail, the website and the
    record (only the count, commitment and digest published with each turn, which were fixed when
    it was resolved). No report, mail or page holds a secret seed."""
    monkeypatch.setenv("GM_NOW", "2026-12-02T12:00Z")
    plain, players = _door_campaign(tmp_path, name, private=False)
    shutil.copytree(plain.path, tmp_path / "changed" / "c")
    changed = Campaign(tmp_path / "changed" / "c")
    had = _hidden_rolls_changed(changed, random.Random(5))
    assert not games.get(name).finished(plain.state())
    build(plain, tmp_path / "site-plain")
    build(changed, tmp_path / "site-changed")
    for viewer in players + [PUBLIC, GM_VIEWER]:
        assert _all_outputs(changed, viewer, tmp_path / "site-changed") == \
            _all_outputs(plain, viewer, tmp_path / "site-plain"), f"{name}: {viewer} sees a hidden roll"
    seeds = [turn_seed(bytes(32), t, secret=True).hex() for t in plain.resolved_turns()]
    written = [p.read_bytes() for p in plain.path.rglob("*") if p.is_file() and "secret" not in p.parts]
    written += [p.read_bytes() for p in (tmp_path / "site-plain").rglob("*") if p.is_file()]
    assert not [s for s in seeds if any(s.encode() in data for data in written)]
    if had:  # the game rolls hidden dice: their count, commitment and digest are published
        assert plain.dice_log(plain.secret_dice_turns()[0]).get("secret_rolls_digest")


DOOR_DECISIONS = re.compile(r"\bgame\.view\(|\bgame\.order_form\(|\.get\(\s*[\"']secret[\"']\s*\)|"
                            r"\bpress_for\b|\bviewer\s*(==|!=|in)\s*\(?\s*(GM_VIEWER|GM|PUBLIC|[\"']gm[\"']|[\"']public[\"'])")


def test_who_sees_what_is_decided_in_one_place():
    """Issue 21 item 3: outside the games (who decide their own view) and the dice algorithm, no
    module of gm asks a game for a view or an order form, tells a hidden roll from an open one, or
    decides by the viewer what they get: it asks gm.store.viewing."""
    import gm
    root = Path(gm.__file__).parent
    allowed = {root / "store" / "viewing.py", root / "store" / "dice.py"}
    found = []
    for path in sorted(root.rglob("*.py")):
        if path in allowed or (root / "games") in path.parents:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if DOOR_DECISIONS.search(line.split("#")[0]):
                found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    assert found == []
