"""The one door for what a viewer gets of a turn: the game's view, the events they may read (with
players named), their order form and their pictures. Reports, mail, `gm show`, the website and
the secrets tests all come through here, so hidden information is filtered in one place.

Viewers are a player id, "public" or "gm" (the GM); games see ``None`` for the GM.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

GM_VIEWER = "gm"
PUBLIC = "public"
_REF = re.compile(r"@\{([^{}]{1,64})\}")


def game_viewer(viewer: str) -> str | None:
    """What the game calls this viewer: None for the GM."""
    return None if viewer == GM_VIEWER else viewer


def fill_names(text: str, names: dict[str, str]) -> str:
    """Event text with each ``@{id}`` placeholder replaced by the player's name."""
    return _REF.sub(lambda m: names.get(m.group(1), m.group(1)), text)


def may_read(event: dict[str, Any], viewer: str) -> bool:
    """The one privacy convention for events: ``to`` lists who may read it; the GM reads all."""
    to = event.get("to")
    return to is None or viewer == GM_VIEWER or viewer in to


def visible_events(events: list[dict[str, Any]], viewer: str, names: dict[str, str]) -> list[dict[str, Any]]:
    """The events ``viewer`` may read, their text with players named (``to`` dropped)."""
    out = []
    for event in events:
        if not may_read(event, viewer):
            continue
        shown = {k: v for k, v in event.items() if k != "to"}
        if isinstance(shown.get("text"), str):
            shown["text"] = fill_names(shown["text"], names)
        out.append(shown)
    return out


@dataclass
class Seen:
    """Everything one viewer gets of one state."""

    viewer: str
    view: dict[str, Any]
    events: list[dict[str, Any]]
    order_form: str
    players: list[dict[str, Any]] = field(default_factory=list)

    @property
    def names(self) -> dict[str, str]:
        return {p["id"]: p["name"] for p in self.players}


def seen_by(game, state: dict[str, Any], events: list[dict[str, Any]], viewer: str,
            players: list[dict[str, Any]]) -> Seen:
    """What ``viewer`` gets: ``players`` are the public players [{id, name, colour}]."""
    who = game_viewer(viewer)
    view = game.view(state, who)
    names = {p["id"]: p["name"] for p in players}
    form = game.order_form(view, viewer) if viewer in names and viewer in game.due(state) else ""
    return Seen(viewer, view, visible_events(events, viewer, names), form, list(players))


def drawing(game, seen: Seen):
    """The viewer's map or board picture as the game draws it (a Figure or a picture that saves
    itself), from their view only; None when the game has none."""
    return game.render(seen.view, game_viewer(seen.viewer), events=seen.events, players=seen.players)


def picture(game, seen: Seen, fmt: str = "png") -> bytes | None:
    """The viewer's map or board picture, drawn from their view only; None when the game has none."""
    figure = drawing(game, seen)
    if figure is None:
        return None
    from gm.store.pictures import figure_bytes  # lazy: Pillow only when a picture is drawn (gm check)
    return figure_bytes(figure, fmt)


def picture_focus(game, seen: Seen) -> list[str] | None:
    """The places of the picture that concern a player (game.picture_focus of their own view)."""
    if seen.viewer in (PUBLIC, GM_VIEWER):
        return None
    return game.picture_focus(seen.view, game_viewer(seen.viewer))


def extra_pictures(game, seen: Seen) -> dict[str, bytes]:
    """More pictures of the turn for this viewer, by file stem."""
    from gm.store.pictures import figure_bytes  # lazy: Pillow only when a picture is drawn (gm check)
    return {stem: figure_bytes(fig, "png")
            for stem, fig in game.extra_images(seen.view, game_viewer(seen.viewer), players=seen.players).items()}
