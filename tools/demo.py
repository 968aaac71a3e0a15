"""`make demo`: play the shipped example games through the engine, as a GM would, into out/demo/.

Network is played from the order files in orders/network/ through every turn. Other games play
their shipped orders where there are some, then bots for as many turns as DEMOS says.
Every campaign gets a fixed master secret, so the demo is the same on every machine.
"""
from __future__ import annotations

import hashlib
import random
import re
import shutil
import sys
from pathlib import Path

from gm import games
from gm.turn import audit, engine
from gm.store.campaign import Campaign
from gm.store.errors import GMError

ROOT = Path(__file__).resolve().parent.parent

OUT = ROOT / "out" / "demo"
SITES = OUT / "sites"
BUILT_SITES: list[tuple[str, str, str]] = []

# game, players, map, options, and how many turns bots play after the shipped orders run out
# (Thurn und Taxis runs 150+ turns with an image per player each: the demo shows its opening)
DEMOS = [
    ("network", ["dark:Dark", "light:Light"], None, {}, 0),
    ("railway-rivals", ["blue:Blue Line", "red:Red Arrow", "green:Green Valley"], "tutorial", {}, 500),
    ("network-king", ["p1:Ada", "p2:Grace"], None,
     {"deck_p1": str(ROOT / "orders/network-king/deck-p1.txt"),
      "deck_p2": str(ROOT / "orders/network-king/deck-p2.txt")}, 500),
    ("thurn-und-taxis", ["anna:Anna", "ben:Ben", "cora:Cora"], "map1", {}, 12),
    ("imperial-network", ["prussia:Anna", "saxony:Ben", "bavaria:Cora", "hanover:Dora"], None, {}, 60),
]
ORDER_FILE = re.compile(r"^(\d{3})-([a-z0-9_-]+)\.txt$")


def play(game_name, players, map_name, options, bot_turns) -> None:
    if game_name not in games.names():
        return
    game = games.get(game_name)
    folder = OUT / game_name
    master = hashlib.sha256(f"gm demo {game_name}".encode()).digest()
    campaign = engine.new_campaign(folder, game_name, players, map_name=map_name, options=options,
                                   master=master, name=f"{game.title} demo")
    shipped = sorted((ROOT / "orders" / game_name).glob("*.txt"))
    by_turn: dict[int, list[Path]] = {}
    for f in shipped:
        m = ORDER_FILE.match(f.name)
        if m:
            by_turn.setdefault(int(m.group(1)), []).append(f)
    rng = random.Random(1)
    while True:
        campaign = Campaign(folder)
        state = campaign.state()
        due = game.due(state)
        turn = campaign.current_turn
        if not due or (turn not in by_turn and turn > max(by_turn, default=0) + bot_turns):
            break
        if turn in by_turn:
            results = engine.submit_files(campaign, [str(f) for f in by_turn[turn]])
            bad = [line for r in results for line in r.errors]
            if bad:
                raise SystemExit("demo orders do not check:\n" + "\n".join(bad))
        stored = campaign.stored_orders(turn)
        for player in due:
            if player not in stored:
                campaign.store_orders(turn, player, f"player: {player}\n# played by the bot\n"
                                      + game.random_orders(state, player, rng))
        engine.resolve(campaign)
    campaign = Campaign(folder)
    checked, problems = audit.verify_dice(campaign)
    drift = audit.replay(campaign)
    if problems or drift:
        raise SystemExit("\n".join(problems + drift))
    log_lines = []
    for t in campaign.resolved_turns():
        log = campaign.dice_log(t)
        log_lines.append(f"turn {t}: seed {log['seed']}")
        log_lines += [f"  {r['label']} #{r['index']} d{r['sides']} = {r['value']}" for r in log.get("rolls", [])]
    (folder / "dice-log.txt").write_text("\n".join(log_lines) + "\n")
    last = campaign.last_turn
    print(f"{game.title}: {last} turns, {checked} rolls verified, replay clean; "
          f"{'finished' if game.finished(campaign.state()) else 'in progress'}. "
          f"Last reports: {folder}/turns/{last:03d}/reports/")
    build_site(campaign, game)


def build_site(campaign: Campaign, game) -> None:
    """The demo campaign's website (`gm site`), listed on out/demo/sites/index.html."""
    from gm.delivery.site import build
    result = build(campaign, SITES / game.name)
    print(f"  website: {SITES / game.name}/index.html ({len(result.turns_written)} turn pages, "
          f"{result.rolls} public roll{'s' if result.rolls != 1 else ''}"
          + (f" and {result.secret_rolls} hidden ones revealed at the end" if result.secret_rolls else "")
          + " for the browser to check)")
    BUILT_SITES.append((game.title, campaign.name, f"{game.name}/index.html"))


def write_sites_index() -> None:
    from html import escape
    items = "".join(f'<li><a href="{escape(href)}">{escape(title)}</a>: {escape(name)}</li>'
                    for title, name, href in BUILT_SITES)
    (SITES / "index.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
        '<title>gm demo campaigns</title><meta name="color-scheme" content="light dark"></head>'
        '<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:auto;padding:1rem">'
        f'<h1>gm demo campaigns</h1><p>Each site was written by <code>gm site</code>.</p><ul>{items}</ul>'
        '</body></html>\n', encoding="utf-8")
    print(f"Demo websites: open {SITES / 'index.html'} in a browser")


def main() -> int:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    try:
        for demo in DEMOS:
            play(*demo)
        write_sites_index()
    except GMError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    print(f"Everything is in {OUT}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
