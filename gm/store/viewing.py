"""The one door for who sees what. Everything a viewer gets of a turn is decided here, and every
caller asks here: the game's view, the events they may read (with players named), their order
form, their pictures, the press they may read, the dice they may read (never a hidden roll while
the game goes on), the GM-only audit, and what anyone may know of the players. Reports, mail,
`gm show`, `gm map`, the public record, the website and the secrets tests all come through
``seen_by`` (or ``seen_in``, which reads a stored turn first), so hidden information is filtered
in one place.

Viewers are a player id, "public" or "gm" (the GM); games see ``None`` for the GM.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gm.store.campaign import Campaign
from gm.store.dice import ROLL_KEYS, Dice, commitment, rolls_digest
from gm.store.logbook import read_entries
from gm.store.press import read_press

GM_VIEWER = "gm"
PUBLIC = "public"
ALL = "all"  # press to every player
_REF = re.compile(r"@\{([^{}]{1,64})\}")


def game_viewer(viewer: str) -> str | None:
    """What the game calls this viewer: None for the GM."""
    return None if viewer == GM_VIEWER else viewer


def fill_names(text: str, names: dict[str, str]) -> str:
    """Event text with each ``@{id}`` placeholder replaced by the player's name."""
    return _REF.sub(lambda m: names.get(m.group(1), m.group(1)), text)


def public_players(campaign: Campaign) -> list[dict[str, Any]]:
    """What every reader may know of the players (reports, pictures, the record): id, name and
    colour; never e-mail addresses or passwords."""
    return [{"id": p["id"], "name": p.get("name", p["id"]), "colour": p.get("colour", "")} for p in campaign.players]


# ---- events ------------------------------------------------------------------------------------
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


# ---- press -------------------------------------------------------------------------------------
def visible_press(entries: list[dict[str, Any]], viewer: str, names: dict[str, str]) -> list[dict[str, Any]]:
    """The press (``gm.store.press`` entries, oldest first) that ``viewer`` may read: the GM all of
    it; a player what was sent to them, to all, or by them; the public what was sent to all. Each
    {from, from_name, to, to_name, text, at, grey}; ``from`` is None where grey press hides the
    sender (from everyone but the GM and the sender)."""
    out = []
    for entry in entries:
        sender, target = entry.get("from"), entry.get("to")
        if viewer == PUBLIC:
            visible = target == ALL
        elif viewer == GM_VIEWER:
            visible = True
        else:
            visible = target in (ALL, viewer) or sender == viewer
        if not visible:
            continue
        hidden = bool(entry.get("grey")) and viewer not in (GM_VIEWER, sender)
        out.append({"from": None if hidden else sender,
                    "from_name": "(anonymous)" if hidden else names.get(sender, str(sender)),
                    "to": target, "to_name": "all" if target == ALL else names.get(target, str(target)),
                    "text": str(entry.get("text", "")), "at": entry.get("at"), "grey": bool(entry.get("grey"))})
    return out


def press_seen_by(campaign: Campaign, turn: int, viewer: str) -> list[dict[str, Any]]:
    """The press of ``turn`` that ``viewer`` may read (``visible_press``), players by name."""
    names = {p["id"]: str(p.get("name") or p["id"]) for p in campaign.players}
    return visible_press(read_press(campaign, turn), viewer, names)


# ---- the GM's audit ----------------------------------------------------------------------------
def visible_audit(entries: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]]:
    """Orders the GM entered or changed for a player (`gm submit --as-gm`): the GM's report only."""
    return list(entries) if viewer == GM_VIEWER else []


def public_notices(audit_log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What of the campaign's audit log (CAMPAIGN/audit/log.yaml, GM-only) everyone must be told:
    a rollback of a finished game's final turn, forced after its reports had made every secret
    seed public (`gm rollback --force`). Each {turn, at, secret_seed_turns}; nothing else of the
    log (who changed what, addresses) is taken."""
    out = []
    for entry in audit_log:
        if entry.get("action") == "rollback" and entry.get("seeds_public"):
            out.append({"turn": int(entry.get("turn") or 0), "at": str(entry.get("at") or ""),
                        "secret_seed_turns": [int(t) for t in entry.get("seeds_public") or []]})
    return out


def campaign_notices(campaign: Campaign) -> list[dict[str, Any]]:
    return public_notices(read_entries(campaign.path / "audit" / "log.yaml"))


# ---- dice --------------------------------------------------------------------------------------
def split_rolls(rolls: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(open rolls, hidden rolls) of a turn's dice log, as rolled: the open ones are published with
    the turn, the hidden ones (``secret``) kept in secret/ until the game is over."""
    return [r for r in rolls if not r.get("secret")], [r for r in rolls if r.get("secret")]


def public_rolls(rolls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The open rolls of a log, as anyone reads them: label, k, sides, value; a hidden roll never."""
    return [{k: r.get(k) for k in ROLL_KEYS} for r in rolls or [] if isinstance(r, dict) and not r.get("secret")]


def published_dice(turn: int, dice: Dice) -> dict[str, Any]:
    """The public dice log of a resolved turn (turns/NNN/dice.yaml): its seed revealed, its
    commitment, the open rolls and the digest binding them (``gm.store.dice.rolls_digest``), and
    of the hidden rolls only how many, the commitment to their seed and their digest (keyed by
    that secret seed, so it tells nothing of them); their log goes to secret/ until the game ends."""
    rolls, hidden = split_rolls(dice.log)
    log: dict[str, Any] = {"turn": turn, "seed": dice.seed.hex(), "commitment": commitment(dice.seed),
                           "rolls": rolls, "rolls_digest": rolls_digest(dice.seed, rolls)}
    if hidden:
        log["secret_rolls"] = len(hidden)
        log["secret_commitment"] = commitment(dice.secret_seed)
        log["secret_rolls_digest"] = rolls_digest(dice.secret_seed, hidden)
    return log


def hidden_dice_public(finished: bool) -> bool:
    """Hidden rolls and their secret seeds reach a viewer only once the game is over: a seed told
    earlier would let players recompute a hidden deck."""
    return bool(finished)


def hidden_rolls_seen(finished: bool, rolls: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Hidden rolls as anyone may read them: None (nothing) while the game goes on; once it is
    over, each roll's label, k, sides and value."""
    if not hidden_dice_public(finished):
        return None
    return [{k: r.get(k) for k in ROLL_KEYS} for r in rolls or [] if isinstance(r, dict)]


def announced_hidden(log: dict[str, Any]) -> dict[str, Any]:
    """What a turn's public dice log says of its hidden rolls while the game goes on: how many,
    the commitment to their seed and the digest of their list (empty when it made none)."""
    out: dict[str, Any] = {}
    if log.get("secret_rolls") or log.get("secret_commitment"):
        out["secret_rolls"] = int(log.get("secret_rolls") or 0)
        out["secret_commitment"] = log.get("secret_commitment")
        out["secret_rolls_digest"] = log.get("secret_rolls_digest")
    return out


def visible_dice(log: dict[str, Any] | None, viewer: str) -> dict[str, Any]:
    """What ``viewer`` reads of a turn's published dice log: the same for every viewer, the GM
    included (the GM's hidden rolls stay in secret/): seed, commitment, the open rolls and their
    digest, what is announced of the hidden rolls, and, in the log of a turn that ended the game,
    the secret seeds and hidden rolls it reveals."""
    log = log or {}
    out: dict[str, Any] = {"turn": log.get("turn"), "seed": log.get("seed"), "commitment": log.get("commitment"),
                           "rolls": public_rolls(log.get("rolls") or []), "rolls_digest": log.get("rolls_digest"),
                           **announced_hidden(log)}
    if isinstance(log.get("secret_seeds"), list):
        out["secret_seeds"] = [{"turn": int(s["turn"]), "seed": str(s.get("seed") or "")}
                               for s in log["secret_seeds"] if isinstance(s, dict) and "turn" in s]
        out["revealed_secret_rolls"] = [{"turn": int(e["turn"]), "rolls": hidden_rolls_seen(True, e.get("rolls"))}
                                        for e in log.get("revealed_secret_rolls") or []
                                        if isinstance(e, dict) and "turn" in e]
    return out


# ---- everything together -----------------------------------------------------------------------
@dataclass
class Seen:
    """Everything one viewer gets of one state (and of its turn, when the turn's dice, press and
    audit were given)."""

    viewer: str
    view: dict[str, Any]
    events: list[dict[str, Any]]
    order_form: str
    players: list[dict[str, Any]] = field(default_factory=list)
    press: list[dict[str, Any]] = field(default_factory=list)
    dice: dict[str, Any] = field(default_factory=dict)
    audit: list[dict[str, Any]] = field(default_factory=list)

    @property
    def names(self) -> dict[str, str]:
        return {p["id"]: p["name"] for p in self.players}

    @property
    def viewer_name(self) -> str:
        """Who reads: the player's name, "the GM" or "everyone"."""
        return self.names.get(self.viewer, "the GM" if self.viewer == GM_VIEWER else "everyone")


def seen_by(game, state: dict[str, Any], events: list[dict[str, Any]], viewer: str,
            players: list[dict[str, Any]], *, dice_log: dict[str, Any] | None = None,
            press: list[dict[str, Any]] = (), audit: list[dict[str, Any]] = ()) -> Seen:
    """What ``viewer`` gets: ``players`` are the public players [{id, name, colour}]; ``dice_log``
    the turn's published dice log, ``press`` its press entries as stored, ``audit`` its orders
    audit (all as stored: filtered here)."""
    who = game_viewer(viewer)
    view = game.view(state, who)
    names = {p["id"]: p["name"] for p in players}
    form = game.order_form(view, viewer) if viewer in names and viewer in game.due(state) else ""
    return Seen(viewer, view, visible_events(events, viewer, names), form or "", list(players),
                press=visible_press(list(press), viewer, names), dice=visible_dice(dice_log, viewer),
                audit=visible_audit(list(audit), viewer))


def seen_in(campaign: Campaign, game, turn: int, viewer: str, *, state: dict[str, Any] | None = None,
            events: list[dict[str, Any]] | None = None) -> Seen:
    """What ``viewer`` gets of a stored turn of ``campaign`` (``state``, ``events``: already read)."""
    state = campaign.state(turn) if state is None else state
    events = campaign.events(turn) if events is None else events
    return seen_by(game, state, events, viewer, public_players(campaign), dice_log=campaign.dice_log(turn),
                   press=read_press(campaign, turn),
                   audit=campaign.audit_log(turn))


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
