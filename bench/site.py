"""Benchmark: the campaign website of a 30-turn Railway Rivals campaign, built in full (`gm site`)
and updated after one more turn (`gm.delivery.site.update`, what `gm run` calls), beside the resolve of that
turn. Prints figures only (no asserts on time). Goal: the update takes about as long as one turn's
resolve, however long the campaign. Run: .venv/bin/python bench/site.py [TURNS]
"""
from __future__ import annotations

import hashlib
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gm import games
from gm.turn import engine  # noqa: E402
from gm.store.campaign import Campaign  # noqa: E402
from gm.delivery.site import build, update  # noqa: E402

PLAYERS = ["blue:Blue Line", "red:Red Arrow", "green:Green Valley", "yellow:Yellow Star"]


def options(turns: int) -> dict[str, str]:
    """More build turns and race rounds than the default game, so that it lasts ``turns`` turns
    (a race round is two turns, with the expansion after it)."""
    rounds = min(50, turns // 3 + 4)
    return {"build_turns": str(rounds), "race_rounds": str(rounds)}


def play_turn(campaign: Campaign, rng: random.Random) -> float:
    game = games.get(campaign.game_name)
    state = campaign.state()
    for player in game.due(state):
        campaign.store_orders(campaign.current_turn, player, f"player: {player}\n"
                              + game.random_orders(state, player, rng))
    start = time.perf_counter()
    engine.resolve(campaign)
    return time.perf_counter() - start


def main() -> None:
    turns = int(sys.argv[1]) if len(sys.argv) > 1 else 31  # the site of 30 turns, then one more
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-site-"))
    try:
        folder = tmp / "rr"
        engine.new_campaign(folder, "railway-rivals", PLAYERS, map_name="scotland", options=options(turns + 1),
                            master=hashlib.sha256(b"bench site").digest())
        rng = random.Random(1)
        campaign = Campaign(folder)
        game = games.get("railway-rivals")
        resolve = 0.0
        while campaign.last_turn < turns and game.due(campaign.state()):
            resolve = play_turn(campaign, rng)
        # the site as it stood before the last turn: that turn's folder set aside, then put back
        last = campaign.turn_dir(campaign.last_turn)
        aside = tmp / "last-turn"
        last.rename(aside)
        start = time.perf_counter()
        result = build(Campaign(folder), tmp / "site")
        full = time.perf_counter() - start
        aside.rename(last)
        print(f"full site of a {campaign.last_turn - 1}-turn Railway Rivals campaign ({len(result.turns_written)} "
              f"pages with maps, {result.rolls} rolls): {full:.2f} s")
        start = time.perf_counter()
        result = update(Campaign(folder), tmp / "site")
        step = time.perf_counter() - start
        size = (tmp / "site" / "record.json").stat().st_size
        print(f"update after turn {campaign.last_turn} (pages {', '.join(result.pages_written)}): {step:.2f} s; "
              f"that turn's resolve with every report: {resolve:.2f} s (goal: about the same)")
        print(f"record.json: {size / 1e6:.1f} MB")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
