"""The waits of issue 16 without timing anything: what the commands people wait on import, and the
Thurn und Taxis picture drawn by boxes is the picture drawn whole (`make bench` has the figures)."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("matplotlib", "numpy", "hexalattice")
# runs the CLI as `gm` does, then prints the top-level packages loaded, whatever the exit
PROBE = ("import atexit, json, runpy, sys\n"
         "atexit.register(lambda: sys.stderr.write('MODULES ' + json.dumps(sorted({m.split('.')[0] "
         "for m in sys.modules})) + '\\n'))\n"
         "sys.argv = ['gm'] + sys.argv[1:]\n"
         "runpy.run_module('gm', run_name='__main__')\n")


def loaded(*args: str, tmp_path: Path) -> set[str]:
    env = {**os.environ, "GM_CACHE_DIR": str(tmp_path / "cache"), "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, cwd=ROOT)
    line = [x for x in done.stderr.splitlines() if x.startswith("MODULES ")]
    assert line, done.stderr[-2000:]
    return set(json.loads(line[-1][len("MODULES "):]))


def ready(tmp_path: Path, game_name: str, players: list[str], map_name: str | None = None) -> Path:
    """A new campaign with every due player's first orders stored (random legal orders)."""
    from gm import games
    from gm.turn import engine
    from gm.store.campaign import Campaign
    game, camp = games.get(game_name), tmp_path / game_name
    engine.new_campaign(camp, game_name, players, map_name=map_name, master=bytes(range(32)))
    campaign, rng = Campaign(camp), random.Random(3)
    state = campaign.state()
    for p in game.due(state):
        campaign.store_orders(campaign.current_turn, p, f"player: {p}\n" + game.random_orders(state, p, rng))
    return camp


def test_help_loads_no_templates_pictures_or_yaml(tmp_path):
    assert not loaded("--help", tmp_path=tmp_path) & {*HEAVY, "jinja2", "PIL", "yaml"}


def test_checking_orders_loads_no_templates_or_pictures(tmp_path):
    camp = ready(tmp_path, "network", ["dark", "light"])
    order = tmp_path / "dark.txt"
    order.write_text("player: dark\nplace c3\n")
    assert not loaded("check", str(camp), str(order), tmp_path=tmp_path) & {*HEAVY, "jinja2", "PIL"}


@pytest.mark.parametrize("game,players,map_name", [
    ("thurn-und-taxis", ["ann", "bob", "cy", "di"], None),
    ("railway-rivals", ["blue", "red", "green"], "scotland"),
    ("network", ["dark", "light"], None),
])
def test_a_resolve_with_its_pictures_loads_no_matplotlib(tmp_path, game, players, map_name):
    camp = ready(tmp_path, game, players, map_name)
    modules = loaded("resolve", str(camp), tmp_path=tmp_path)
    assert "PIL" in modules  # the pictures were drawn
    assert not modules & set(HEAVY)
    assert list((camp / "turns").glob("*/*.png")) or list(camp.rglob("*.png"))


def test_gm_map_loads_no_matplotlib(tmp_path):
    camp = ready(tmp_path, "railway-rivals", ["blue", "red"], "scotland")
    assert not loaded("map", str(camp), "-o", str(tmp_path / "m.png"), tmp_path=tmp_path) & set(HEAVY)
    assert (tmp_path / "m.png").stat().st_size > 50_000


def _whole(gmap, view, viewer, players):
    """The Thurn und Taxis picture composed whole at full size, as before the boxes."""
    from gm.games.thurn_und_taxis import picture as pic
    image = pic._roads(gmap)
    pic._routes(image, gmap, view, viewer, players)
    image.alpha_composite(pic._top(gmap, view, players))
    pic._hand(image, gmap, view, viewer, players)
    return image.convert("RGB").reduce(pic.S)


def test_the_thurn_und_taxis_picture_drawn_by_boxes_is_the_picture_drawn_whole(tmp_path):
    from PIL import ImageChops

    from gm import games
    from gm.turn import engine
    from gm.store.campaign import Campaign
    from gm.games.thurn_und_taxis import picture as pic
    game = games.get("thurn-und-taxis")
    camp = ready(tmp_path, "thurn-und-taxis", ["ann", "bob", "cy"])
    campaign, rng = Campaign(camp), random.Random(5)
    compared = 0
    for _ in range(30):
        engine.resolve(campaign)
        state = campaign.state()
        for p in game.due(state):
            campaign.store_orders(campaign.current_turn, p, f"player: {p}\n" + game.random_orders(state, p, rng))
        if compared < 2 and any(len(r) > 1 for r in state["routes"].values()):
            gmap = game._map(state)
            for viewer in ("ann", "bob", "cy", "public", "gm"):
                view = game.view(state, viewer)
                boxed = pic.draw_png(gmap, view, viewer, campaign.players)
                assert ImageChops.difference(boxed, _whole(gmap, view, viewer, campaign.players)).getbbox() is None
            compared += 1
    assert compared == 2


@pytest.mark.parametrize("expr", ['selectattr("kind", "equalto", "a")', 'selectattr("kind", "in", ["a", "c"])',
                                  'selectattr("n")', 'selectattr("kind", "eq", "b")', 'selectattr("items")'])
def test_the_fast_selectattr_answers_as_jinja2s_own(expr):
    import jinja2

    from gm.turn.report import environment
    events = [{"kind": "a", "n": 1}, {"kind": "b", "n": 0}, {"kind": "c", "n": 2}, {"kind": "a", "n": 3}]
    source = "{{ events | " + expr + " | list }}"
    ours = environment().from_string(source).render(events=events)
    theirs = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(source).render(events=events)
    assert environment().filters["selectattr"] is not jinja2.Environment().filters["selectattr"]
    assert ours == theirs
    if '"kind"' in expr:  # an event without the key: jinja2's own error, as before
        with pytest.raises(jinja2.UndefinedError):
            environment().from_string(source).render(events=[*events, {"n": 4}])


def test_a_png_written_without_pillows_other_formats_leaves_them_readable(tmp_path):
    code = ("import io, sys\nfrom PIL import Image\nfrom gm.store.pictures import save_png\n"
            "buffer = io.BytesIO()\nsave_png(Image.new('RGB', (8, 8), 'red'), buffer, compress_level=1)\n"
            "print(sorted(m.split('.')[1] for m in sys.modules if m.startswith('PIL.') and 'Plugin' in m))\n"
            "Image.new('RGB', (8, 8), 'blue').save(sys.argv[1], format='JPEG')\n"
            "print(Image.open(sys.argv[1]).format, Image.open(io.BytesIO(buffer.getvalue())).format)\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "x.jpg")], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    plugins, formats = done.stdout.splitlines()
    assert plugins == "['PngImagePlugin']" and formats == "JPEG PNG"
