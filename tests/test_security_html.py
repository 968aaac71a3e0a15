"""Issue 17 item 1: names in reports are escaped in HTML and only in HTML, whatever order the formats
are rendered in and whether the compiled-template cache is cold or warm.

The cause was jinja2's byte-code cache, keyed by template name and source only: a partial shared by
every format (``_facts.j2``) compiled by the escaping HTML environment was loaded by the plain one,
or the other way round. Each kind of environment now has its own cache folder."""
from __future__ import annotations

import itertools

import pytest
from click.testing import CliRunner

from gm import games
from gm.turn import report
from gm.cli import main

EVIL = "<img src=x onerror=alert(1)>"
AMP = "Smith & Sons"
FORMATS = list(report.FORMATS)  # text, markdown, bbcode, html

# a game's templates laid out as the shipped ones are: one partial shared by every format
PARTIAL = ('{% set company_line = "Company: " ~ names.blue %}\n'
           '{% macro who(id) %}{{ names[id] }}{% endmacro %}\n')
REPORT = ('{% import "house/_facts.j2" as f with context %}\n'
          'A: {{ f.company_line }}\nB: {{ f.who("red") }}\nC: {% include "house/_line.j2" %}\n')


def _templates(root):
    folder = root / "house"
    folder.mkdir(parents=True)
    (folder / "_facts.j2").write_text(PARTIAL)
    (folder / "_line.j2").write_text("{{ names.blue }} and {{ names.red }}\n")
    for ext in report.FORMATS.values():
        (folder / f"report.{ext}.j2").write_text(REPORT)
    return root


def _fresh_process(monkeypatch, cache):
    """What a new `gm` process starts with: no environments in memory, the cache folder on disk."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setattr(report, "_ENVIRONMENTS", {})


def assert_escaped_only_in_html(fmt: str, out: str) -> None:
    if fmt == "html":
        assert EVIL not in out and "<img" not in out, out
        assert "&lt;img src=x onerror=alert(1)&gt;" in out and "Smith &amp; Sons" in out, out
    else:  # Markdown escapes its own special characters with a backslash, never with entities
        assert EVIL in out.replace("\\", "") and AMP in out, out
        assert "&lt;" not in out and "&amp;" not in out and "&gt;" not in out, out


ORDERS = [FORMATS, FORMATS[::-1], ["html", "text", "html", "text"], ["text", "html", "text", "html"]]


@pytest.mark.parametrize("order", ORDERS, ids=["forward", "backward", "html-first", "text-first"])
def test_partials_escaped_only_in_html_cold_and_warm(tmp_path, monkeypatch, order):
    dirs = (_templates(tmp_path / "templates"),)
    context = {"names": {"blue": EVIL, "red": AMP}}
    cache = tmp_path / "cache"
    for temperature, formats in (("cold", order), ("warm", order), ("warm reversed", order[::-1])):
        _fresh_process(monkeypatch, cache)
        for fmt in formats:
            out = report.render_report(context, fmt, game_name="house", template_dirs=dirs)
            assert "Company: " in out and "B: " in out, temperature
            assert_escaped_only_in_html(fmt, out)
    assert len(list(cache.rglob("*.cache"))) > 0  # the cache was really used


def test_each_kind_of_environment_has_its_own_cache_folder(tmp_path, monkeypatch):
    _fresh_process(monkeypatch, tmp_path)
    html = report.environment(html=True).bytecode_cache.directory
    plain = report.environment(html=False).bytecode_cache.directory
    assert html != plain
    assert report.compile_key(html=True) != report.compile_key(html=False)


def _run(*args, code=0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


@pytest.mark.parametrize("first,second", list(itertools.permutations(["html", "text", "markdown", "bbcode"], 2)))
def test_campaign_reports_through_the_cli(tmp_path, monkeypatch, first, second):
    """A campaign whose GM templates share a partial between formats, players named hostilely:
    reports asked for in every pair of orders, cold and then warm."""
    camp = tmp_path / "camp"
    _run("new", "guess", camp, "--player", f"blue:{EVIL}", "--player", f"red:{AMP}")
    (camp / "templates").mkdir()
    _templates(camp / "templates")
    for ext in report.FORMATS.values():
        (camp / "templates" / "guess").mkdir(exist_ok=True)
        (camp / "templates" / "guess" / f"report.{ext}.j2").write_text(REPORT)
    cache = tmp_path / "cache"
    for _temperature in ("cold", "warm"):
        _fresh_process(monkeypatch, cache)
        for fmt in (first, second):
            assert_escaped_only_in_html(fmt, _run("report", camp, "--format", fmt))


def test_shipped_generic_templates_escape_names_in_html(tmp_path, monkeypatch):
    camp = tmp_path / "camp"
    _run("new", "guess", camp, "--player", f"blue:{EVIL}", "--player", f"red:{AMP}")
    for order in (FORMATS, FORMATS[::-1]):
        _fresh_process(monkeypatch, tmp_path / "cache")
        for fmt in order:
            out = _run("report", camp, "--format", fmt)
            assert "Orders due from" in out or "orders due from" in out.lower()
            assert_escaped_only_in_html(fmt, out)


# Every game's own templates (their _facts.j2 partials once leaked names into HTML), each game set up
# with as few players as it takes (at least two)
SHIPPED = {n: max(2, games.get(n).min_players) for n in games.names() if games.get(n).templates_folder()}


def _shipped_context(name: str, count: int) -> dict:
    from gm import games
    from gm.store.dice import Dice
    game = games.get(name)
    ids = ["blue", "red", "green"][:count]
    state = game.setup(game.default_map(), ids, {k: o.default for k, o in game.options.items()}, Dice(bytes(32)))
    players = [{"id": p, "name": f"{EVIL} {AMP} {p}", "colour": "#123456"} for p in ids]
    dice = {"turn": 0, "seed": None, "commitment": None, "next_turn": 1, "next_commitment": "ab", "rolls": []}
    return report.template_context(game, state, [{"kind": "note", "text": "@{blue} paid 6."}], "blue", turn=0,
                                   campaign="c", players=players, dice=dice)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_game_templates_escape_only_in_html(tmp_path, monkeypatch, name):
    context = _shipped_context(name, SHIPPED[name])
    # cache a: cold forward, then warm backward; cache b: cold backward, then warm forward
    for cache, order in (("a", FORMATS), ("a", FORMATS[::-1]), ("b", FORMATS[::-1]), ("b", FORMATS)):
        _fresh_process(monkeypatch, tmp_path / cache)
        for fmt in order:
            assert_escaped_only_in_html(fmt, report.render_report(context, fmt, game_name=name))
