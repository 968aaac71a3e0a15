"""Reports: one jinja2 environment, per-viewer context, four formats.

The loader looks in the campaign's own ``templates/`` first, then the game's (the ``templates/``
folder of its package, which the game names: ``Game.templates_folder()``, seen by templates as
``<game>/...``), then gm's generic ones. The most specific template wins: ``<game>/report.<ext>.j2``
before ``report.<ext>.j2``.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import jinja2

from gm import games
from gm.store.errors import UsageError
from gm.store.names import suggestion
from gm.store.paths import TEMPLATES
from gm.store.viewing import GM_VIEWER, seen_by

FORMATS = {"text": "txt", "markdown": "md", "bbcode": "bbcode", "html": "html"}


def format_ext(fmt: str) -> str:
    if fmt in FORMATS:
        return FORMATS[fmt]
    if fmt in FORMATS.values():
        return fmt
    raise UsageError(f"unknown report format {fmt!r}{suggestion(fmt, FORMATS)}; formats: {', '.join(FORMATS)}")


_ENVIRONMENTS: dict[tuple[tuple[str, ...], tuple[str, str], bool], jinja2.Environment] = {}

# Everything that changes what a template compiles to. The byte-code cache keys a template by its
# name and source only, so environments that compile differently must never share a cache folder:
# a partial compiled with escaping in the HTML environment would otherwise be loaded by the plain
# one (and the other way round), letting whichever format rendered first decide.
_COMPILE_SETTINGS = {"trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True}


def environment(extra_dirs: tuple[Path, ...] = (), *, html: bool = False,
                game: tuple[str, Path | None] | None = None) -> jinja2.Environment:
    """The environment for one output kind. HTML reports get their own environment that escapes in
    every template, so a shared partial or macro included from an HTML report is escaped too.
    ``game``: (name, its templates folder), served as ``<name>/...`` after ``extra_dirs``."""
    own = (game[0], str(game[1]) if game[1] is not None else "") if game else ("", "")
    key = (tuple(str(d) for d in extra_dirs), own, html)
    env = _ENVIRONMENTS.get(key)
    if env is None:
        loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader([str(d) for d in extra_dirs])]
        if own[1]:
            loaders.append(jinja2.PrefixLoader({own[0]: jinja2.FileSystemLoader(own[1])}))
        loaders.append(jinja2.FileSystemLoader(str(TEMPLATES)))  # a missing folder is simply skipped
        env = jinja2.Environment(
            loader=jinja2.ChoiceLoader(loaders),
            bytecode_cache=_bytecode_cache(html=html),
            autoescape=html,
            undefined=jinja2.StrictUndefined,
            **_COMPILE_SETTINGS,
        )
        env.filters["bbcode_escape"] = lambda s: str(s).replace("[", "&#91;").replace("]", "&#93;")
        env.filters["md_escape"] = _md_escape
        env.filters["signed"] = lambda n: f"{n:+d}" if isinstance(n, int) else str(n)
        env.filters["selectattr"] = _selectattr
        _ENVIRONMENTS[key] = env
    return env


def compile_key(*, html: bool) -> str:
    """A short digest of every setting that changes compiled code (escaping, whitespace control,
    jinja2's version): the name of the byte-code cache folder for that kind of environment."""
    settings = dict(_COMPILE_SETTINGS, autoescape=html, jinja2=jinja2.__version__)
    text = ",".join(f"{k}={settings[k]!r}" for k in sorted(settings))
    return ("html-" if html else "plain-") + hashlib.sha256(text.encode()).hexdigest()[:16]


def _bytecode_cache(*, html: bool) -> jinja2.BytecodeCache | None:
    """Compiled templates kept between runs, so that `gm resolve` does not recompile every template
    each time; one folder per compile key (above); none when no cache folder can be made."""
    import os
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "gm", "jinja", compile_key(html=html))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(folder)


_EQUAL, _IN = ("equalto", "eq", "=="), ("in",)


@jinja2.pass_context
def _selectattr(context: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
    """jinja2's ``selectattr``, with a fast way for plain dicts holding the key, tested by
    ``equalto`` or ``in`` (the same answer: ``==`` and ``in``): the report templates sort every
    turn's events so, thousands of tests a turn. Anything else goes to jinja2's own."""
    from jinja2.filters import sync_do_selectattr
    if (kwargs or len(args) != 3 or args[1] not in _EQUAL + _IN or not isinstance(args[0], str)
            or hasattr(dict, args[0])):  # jinja2 looks an attribute up before a key
        return sync_do_selectattr(context, value, *args, **kwargs)
    key, test, other = args
    items = list(value)
    if not all(type(item) is dict and key in item for item in items):
        return sync_do_selectattr(context, items, *args)  # its own errors for what is missing
    if test in _IN:
        return (item for item in items if item[key] in other)
    return (item for item in items if item[key] == other)


def _md_escape(text: Any) -> str:
    out = str(text)
    for ch in "\\`*_[]<>|":
        out = out.replace(ch, "\\" + ch)
    return out


def render_report(context: dict[str, Any], fmt: str, *, game_name: str,
                  template_dirs: tuple[Path, ...] = ()) -> str:
    ext = format_ext(fmt)
    env = environment(template_dirs, html=ext == "html", game=_own_templates(game_name))
    template = env.select_template([f"{game_name}/report.{ext}.j2", f"report.{ext}.j2"])
    return template.render(**context, ext=ext)


def _own_templates(game_name: str) -> tuple[str, Path | None]:
    """The game's own templates folder (its package's ``templates/``), served as ``<game>/...``."""
    return game_name, games.get(game_name).templates_folder() if game_name in games.installed() else None


def players_guide(*, game_name: str, template_dirs: tuple[Path, ...] = (), **context: Any) -> str:
    """How to write this game's orders, as HTML for the players' page: the game's own
    ``<game>/players.html.j2`` (a GM's template folder first), else the general one."""
    env = environment(template_dirs, html=True, game=_own_templates(game_name))
    template = env.select_template([f"{game_name}/players.html.j2", "players.html.j2"])
    return template.render(**context)


def dice_block(turn: int, seed: bytes | None, next_seed: bytes | None, rolls: list[dict]) -> dict[str, Any]:
    """The dice section every report carries: this turn's seed revealed, the next one committed."""
    return {
        "turn": turn,
        "seed": seed.hex() if seed is not None else None,
        "commitment": hashlib.sha256(seed).hexdigest() if seed is not None else None,
        "next_turn": turn + 1,
        "next_commitment": hashlib.sha256(next_seed).hexdigest() if next_seed is not None else None,
        "rolls": [r for r in rolls if not r.get("secret")],
    }



def template_context(game, state: dict, events: list[dict], viewer: str, *, turn: int, campaign: str,
                     players: list[dict[str, str]], dice: dict[str, Any], image: str | None = None,
                     extra_images: list[str] | None = None, receipts: list[dict] | None = None,
                     audit: list[dict] | None = None, press: list[dict] | None = None,
                     seen=None) -> dict[str, Any]:
    """Everything a report template receives (docs/plugins.md) for ``viewer``: a player id,
    "public" or "gm". What the viewer gets comes through the one door, ``gm.store.viewing.seen_by``
    (``seen``: what it gave already)."""
    seen = seen or seen_by(game, state, events, viewer, players)
    names = seen.names
    due = game.due(state)
    return {
        "game": game.title, "game_name": game.name, "campaign": campaign, "turn": turn,
        "phase": game.phase(state), "finished": game.finished(state), "viewer": viewer,
        "viewer_name": names.get(viewer, "the GM" if viewer == GM_VIEWER else "everyone"),
        "players": players, "names": names,
        "view": seen.view, "events": seen.events,
        "due": due, "due_names": [names.get(p, p) for p in due],
        "order_form": seen.order_form,
        "image": image, "extra_images": list(extra_images or []), "dice": dice,
        "receipts": list(receipts or []), "audit": list(audit or []), "press": list(press or []),
    }
