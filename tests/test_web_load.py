"""A bounded load test of the web door on loopback: 200 players (in 34 campaigns under one root) sign
in, check and store their orders at once against the real server (`gm serve`, uvicorn). None is
lost, none is refused wrongly; the median latencies are printed (`pytest -s`), never asserted."""
from __future__ import annotations

import shutil
import statistics
import threading
import time

from gm.delivery.web.tokens import sign_in_link
from gm.store.campaign import Campaign
from test_web_support import Client, Server, make_campaign

PLAYERS = 200
SEATS = ["ann", "bob", "cat", "dan", "eve", "fay"]
ORDERS = "round 1: (0203) 0204"


def test_200_players_check_and_store_at_once(tmp_path):
    root = tmp_path / "campaigns"
    root.mkdir()
    first = make_campaign(root, "c00", "railway-rivals", SEATS)
    campaigns = [first]
    while len(campaigns) * len(SEATS) < PLAYERS:
        campaigns.append(root / f"c{len(campaigns):02d}")
        shutil.copytree(first, campaigns[-1])
    seats = [(folder, seat) for folder in campaigns for seat in SEATS][:PLAYERS]
    links = [sign_in_link(Campaign(folder), seat) for folder, seat in seats]
    with Server(root) as server:
        barrier = threading.Barrier(PLAYERS)
        results: list[dict] = [{} for _ in seats]

        def play(n: int) -> None:
            folder, seat = seats[n]
            key = folder.name
            client = Client(server.port)
            try:
                results[n]["signin"] = client.sign_in(links[n]).status
                csrf = client.csrf(key)
                barrier.wait(timeout=300)  # every player ready: now all at once
                start = time.perf_counter()
                checked = client.post(f"/c/{key}/check", {"orders": ORDERS})
                results[n]["check_s"] = time.perf_counter() - start
                results[n]["check"] = (checked.status, checked.json()["errors"])
                start = time.perf_counter()
                stored = client.post(f"/c/{key}/orders", {"orders": ORDERS, "csrf": csrf})
                results[n]["store_s"] = time.perf_counter() - start
                results[n]["store"] = stored.status
            except Exception as exc:  # any failure is reported below, with its player
                results[n]["failure"] = repr(exc)

        threads = [threading.Thread(target=play, args=(n,)) for n in range(PLAYERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=600)
        assert not any(thread.is_alive() for thread in threads)
    failures = [(seats[n][0].name, seats[n][1], r) for n, r in enumerate(results)
                if r.get("failure") or r.get("signin") != 303 or r.get("check") != (200, []) or r.get("store") != 303]
    assert failures == []
    for folder, seat in seats:  # none lost
        stored = (folder / "turns" / "001" / "orders" / f"{seat}.txt").read_text()
        assert stored == f"player: {seat}\nturn: 1\n{ORDERS}\n"
    check_median = statistics.median(r["check_s"] for r in results)
    store_median = statistics.median(r["store_s"] for r in results)
    print(f"\n200 players at once on loopback: check median {check_median * 1000:.0f} ms, "
          f"store median {store_median * 1000:.0f} ms")
