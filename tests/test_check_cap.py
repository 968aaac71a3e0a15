"""Issue 22 item 11: `gm check` caps its error list as mail replies do: a 1 MB file of junk gives at
most a screenful ("and N more errors from line L on"); `make bench` times it (bench/check_junk.py)."""
from __future__ import annotations

import random
import re

import pytest
from click.testing import CliRunner

from gm.cli import SCREEN, main
from gm.turn import engine

GAMES = ["network", "railway-rivals", "thurn-und-taxis", "imperial-network"]


def junk(size: int = 1_000_000, seed: int = 1) -> str:
    rng = random.Random(seed)
    lines, total = [], 0
    while total < size:
        line = "".join(rng.choice("abcdefghij klmnop0123456789-:>") for _ in range(rng.randint(1, 80)))
        lines.append(line)
        total += len(line) + 1
    return "player: ann\nturn: 1\n" + "\n".join(lines)


@pytest.mark.parametrize("game", GAMES)
def test_a_megabyte_of_junk_gives_at_most_a_screenful(tmp_path, game):
    camp = tmp_path / "camp"
    engine.new_campaign(camp, game, ["ann", "bob"] + ["cat"] * (game != "network"), master=bytes(32))
    (tmp_path / "junk.txt").write_text(junk())
    result = CliRunner().invoke(main, ["check", str(camp), str(tmp_path / "junk.txt")])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) <= SCREEN + 2, result.output
    assert all(len(line) < 300 for line in lines)
    assert re.fullmatch(r"\d+ errors in 1 file", lines[-1])
    if len(lines) == SCREEN + 2:
        assert re.fullmatch(rf"{re.escape(str(tmp_path / 'junk.txt'))}:\d+: and \d+ more errors from line \d+ on; "
                            "fix the ones above and check again", lines[-2])


def test_a_long_list_is_cut_where_the_rest_begins(tmp_path):
    camp = tmp_path / "camp"
    engine.new_campaign(camp, "railway-rivals", ["ann", "bob", "cat"], master=bytes(32))
    (tmp_path / "bad.txt").write_text("player: ann\nturn: 1\n" + "\n".join(f"nonsense {n}" for n in range(40)))
    out = CliRunner().invoke(main, ["check", str(camp), str(tmp_path / "bad.txt")]).output.splitlines()
    assert len(out) == SCREEN + 2
    assert out[SCREEN - 1].startswith(f"{tmp_path / 'bad.txt'}:{SCREEN + 2}:")
    assert out[SCREEN] == f"{tmp_path / 'bad.txt'}:{SCREEN + 3}: and 20 more errors from line {SCREEN + 3} on; " \
                          "fix the ones above and check again"
