"""Golden transcripts: one seeded sample campaign per game, every report of every viewer in every
format, compared with the files kept in tests/golden/<game>/. Regenerate them after an intended
change with `make golden` (python tools/golden.py), then read the diff before committing it."""
from __future__ import annotations

import hashlib
import random
import tempfile
from pathlib import Path

from gm import games
from gm.turn import engine
from gm.store.campaign import Campaign

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
TURNS = 3
# game -> (players, map, options); small tables so the transcripts stay readable
SAMPLES = {
    "network": (["dark:Dark Dana", "light:Light Lee"], None, {}),
    "railway-rivals": (["blue:Blue Line", "red:Red Arrow", "green:Green Valley"], "tutorial", {}),
    "network-king": (["p1:Ada", "p2:Grace"], None, {}),
    "thurn-und-taxis": (["anna:Anna", "ben:Ben", "cora:Cora"], "map1", {}),
    "imperial-network": (["prussia:Anna", "saxony:Ben", "bavaria:Cora"], None, {}),
}
REPORT_ENDINGS = (".txt", ".md", ".bbcode", ".html")


def transcript(game_name: str) -> dict[str, str]:
    """The sample campaign's reports, by path under tests/golden/<game>/ (turnNNN/VIEWER.EXT)."""
    players, map_name, options = SAMPLES[game_name]
    game = games.get(game_name)
    master = hashlib.sha256(f"gm golden {game_name}".encode()).digest()
    rng = random.Random(f"golden {game_name}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "sample"
        engine.new_campaign(folder, game_name, players, map_name=map_name, options=options, master=master,
                            name=f"{game.title} sample")
        for _ in range(TURNS):
            campaign = Campaign(folder)
            state = campaign.state()
            if not game.due(state):
                break
            for p in game.due(state):
                campaign.store_orders(campaign.current_turn, p, f"player: {p}\n" + game.random_orders(state, p, rng))
            engine.resolve(campaign, force=True)
        out = {}
        for turn_dir in sorted((folder / "turns").iterdir()):
            for report in sorted((turn_dir / "reports").iterdir()):
                if report.name.endswith(REPORT_ENDINGS):
                    out[f"turn{turn_dir.name}/{report.name}"] = report.read_text(encoding="utf-8")
        return out


def write(game_name: str) -> int:
    folder = GOLDEN / game_name
    for old in folder.glob("turn*/*"):
        old.unlink()
    files = transcript(game_name)
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return len(files)


def stored(game_name: str) -> dict[str, str]:
    folder = GOLDEN / game_name
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in sorted(folder.glob("turn*/*"))}
