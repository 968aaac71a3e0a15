"""Writing the campaign website into a folder, in full (`gm site`) or after one more turn
(`update`, which `gm run` calls after each resolve).

The folder holds ``.gm-site.json``, the mark that gm made it: what it wrote and a keyed
fingerprint of each turn's files. A folder without the mark is never written into unless empty;
files gm did not write are never removed. An update redraws and rewrites only the turns whose
files changed (and the page before them, whose "next" link changes), then the index, the dice
page and the record: a long campaign updates in about the time of one turn.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm import games
from gm.delivery.record import Commitments, dumps, header, public_players, turn_entry, turn_fingerprint, whole_record
from gm.delivery.site import pages
from gm.store.campaign import Campaign
from gm.store.errors import UsageError
from gm.store.fileio import atomic_write
from gm.store.viewing import extra_pictures, picture, seen_by
from gm.turn.report import dice_section, players_guide

MARKER = ".gm-site.json"
# 2: order receipts and secret-roll commitments in the turn entries; 3: players' page, game colours;
# 4: undone turns; 5: roll digests and the seed notices
SITE_VERSION = 5
STATIC_FILES = ("site.css", "site.js", "dice.js")
PAGES = ("index.html", "players.html", "dice.html", "record.json")


@dataclass
class SiteResult:
    folder: Path
    turns_written: list[int] = field(default_factory=list)
    pages_written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    rolls: int = 0
    secret_rolls: int = 0  # hidden rolls revealed on the dice page (once the game is over)


def _site_id(campaign: Campaign, commitments: Commitments) -> str:
    """Which campaign a site belongs to, without saying anything of its secret."""
    key = commitments.key()
    if key is None:
        return hashlib.sha256(f"{campaign.game_name}\0{campaign.name}".encode()).hexdigest()[:16]
    return hmac.new(key, f"site id\0{campaign.game_name}".encode(), "sha256").hexdigest()[:16]


def read_marker(folder: Path) -> dict[str, Any] | None:
    path = folder / MARKER
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UsageError(f"{path}: the mark of a gm site is unreadable; remove the folder yourself "
                         "or choose another") from None
    return data if isinstance(data, dict) and data.get("generator") == "gm site" else None


def check_folder(folder: Path, site_id: str) -> dict[str, Any] | None:
    """The folder's mark when it is this campaign's site; None for a new or empty folder.
    Anything else is refused before a file is written."""
    if not folder.exists():
        return None
    if not folder.is_dir():
        raise UsageError(f"{folder}: is a file, not a folder; choose a folder for the site")
    marker = read_marker(folder)
    if marker is None:
        if any(folder.iterdir()):
            raise UsageError(f"{folder}: exists and is not a site made by gm (no {MARKER}); nothing was "
                             "changed: choose a new or empty folder")
        return None
    if marker.get("site_id") != site_id:
        raise UsageError(f"{folder}: holds the site of another campaign; nothing was changed: choose another folder")
    return marker


def _header_key(head: dict[str, Any]) -> str:
    fixed = {k: head[k] for k in ("campaign", "game", "map", "players", "options")}
    return hashlib.sha256(json.dumps([SITE_VERSION, fixed], sort_keys=True).encode()).hexdigest()


def _previous_entries(folder: Path, marker: dict[str, Any] | None, head_key: str) -> dict[int, dict[str, Any]]:
    """Turn entries of the record already written, kept when the site's layout is unchanged."""
    if not marker or marker.get("version") != SITE_VERSION or marker.get("header") != head_key:
        return {}
    try:
        record = json.loads((folder / "record.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {int(e["turn"]): e for e in record.get("turns") or [] if isinstance(e, dict) and "turn" in e}


def put(folder: Path, name: str, data: str | bytes) -> None:
    """Write ``name`` (maybe in a sub-folder, img/...) inside the site folder, never through a
    symbolic link: a linked sub-folder is refused in one line, and a link standing at the file's
    own place is replaced by the file (the rename replaces the link, never what it points to)."""
    here = folder
    for part in Path(name).parts[:-1]:
        here = here / part
        if here.is_symlink():
            raise UsageError(f"{here}: is a symbolic link; gm writes the site only into real folders "
                             "(remove the link)")
    atomic_write(folder / name, data)


def _write_pictures(folder: Path, game, turn: int, seen) -> list[dict[str, str]]:
    """The turn's public pictures, drawn from the public view (the one door)."""
    images = []
    main = picture(game, seen)
    drawn = ([(game.image_name, main)] if main is not None else []) + list(extra_pictures(game, seen).items())
    for stem, data in drawn:
        name = f"img/{turn:03d}-{stem}.png"
        put(folder, name, data)
        images.append({"src": name, "alt": pages.picture_alt(game, stem, turn)})
    return images


class _Writer:
    """One run of writing a site: what the campaign holds now against what the folder holds."""

    def __init__(self, campaign: Campaign, folder: Path, *, incremental: bool):
        self.campaign, self.folder = campaign, folder
        self.game = games.get(campaign.game_name)
        self.commitments = Commitments(campaign)
        self.site_id = _site_id(campaign, self.commitments)
        self.marker = check_folder(folder, self.site_id)
        self.players = public_players(campaign)
        self.head = header(campaign, self.game)
        self.head_key = _header_key(self.head)
        self.turns = campaign.resolved_turns()
        key = self.commitments.key()
        self.fingerprints = {t: turn_fingerprint(campaign, t, key) for t in self.turns} if key else {}
        self.old_turns = (self.marker or {}).get("turns") or {}
        self.previous = _previous_entries(folder, self.marker, self.head_key) if incremental else {}
        self.result = SiteResult(folder)

    def _unchanged(self, t: int) -> bool:
        old = self.old_turns.get(str(t)) or {}
        return t in self.previous and bool(self.fingerprints.get(t)) and old.get("fingerprint") == self.fingerprints[t]

    def _mark(self, turns: dict[str, Any], files: list[str]) -> None:
        put(self.folder, MARKER, json.dumps({
            "generator": "gm site", "version": SITE_VERSION, "site_id": self.site_id, "header": self.head_key,
            "turns": turns, "files": files}, indent=1))

    def write(self) -> SiteResult:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.marker is None:  # marked first: a run that fails half-way leaves a folder gm knows
            self._mark({}, [])
        entries, images = self._write_turns()
        record = whole_record(self.campaign, self.head, entries)
        for name in STATIC_FILES:
            put(self.folder, name, (pages.STATIC / name).read_bytes())  # never copied through a link
        colours = self._colours(entries[-1]) if entries else {}
        notices = record["notices"]
        put(self.folder, "index.html", pages.index_page(self.head, entries, colours=colours, notices=notices,
                                                        latest=self._latest(entries, images)))
        put(self.folder, "dice.html", pages.dice_page(self.head, entries, record["secret_dice"], colours=colours,
                                                      notices=notices))
        put(self.folder, "players.html", pages.players_page(self.head, self._guide(), colours=colours))
        put(self.folder, "record.json", dumps(record))
        self.result.pages_written += list(PAGES)
        self.result.rolls = sum(len(e["dice"]["rolls"]) for e in entries)
        self.result.secret_rolls = sum(len(s["rolls"]) for s in record["secret_dice"] or [])
        files = sorted({*PAGES, *STATIC_FILES}
                       | {pages.page_name(t) for t in self.turns}
                       | {img["src"] for pictures in images.values() for img in pictures})
        self.result.removed = _remove_stale(self.folder, (self.marker or {}).get("files") or [], files)
        self._mark({str(t): {"fingerprint": self.fingerprints.get(t, ""), "images": images[t]} for t in self.turns},
                   files)
        return self.result

    def _colours(self, entry: dict[str, Any]) -> dict[str, str]:
        """The players' colours as the game drew them in that turn's public picture."""
        return self.game.player_colours(entry.get("view") or {}) if isinstance(entry.get("view"), dict) else {}

    @staticmethod
    def _latest(entries: list[dict[str, Any]], images: dict[int, list[dict[str, str]]]) -> dict[str, str] | None:
        """The last turn's first public picture (the map), for the front page."""
        for entry in reversed(entries):
            pictures = images.get(entry["turn"]) or []
            if pictures:
                return {**pictures[0], "href": pages.page_name(entry["turn"])}
        return None

    def _guide(self) -> str:
        """How to write this game's orders: the game's own text (its players.html.j2), the GM's first."""
        return players_guide(game_name=self.game.name, template_dirs=(self.campaign.path / "templates",),
                             game=self.game.title, map=self.head["map"])

    def _write_turns(self) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, str]]]]:
        """Each turn's record entry; the pages (and pictures) of changed turns, and of the turns
        before them, whose "next" link changes."""
        changed = [t for t in self.turns if not self._unchanged(t)]
        removed = [int(t) for t in self.old_turns if int(t) not in self.turns]
        relink = {t - 1 for t in changed} | ({self.turns[-1]} if removed and self.turns else set())
        entries, images = [], {}
        for t in self.turns:
            kept = (self.old_turns.get(str(t)) or {}).get("images")
            if t not in changed and t not in relink and kept is not None:
                entries.append(self.previous[t])
                images[t] = kept
                continue
            state, events = self.campaign.state(t), self.campaign.events(t)
            entry = self.previous[t] if t not in changed else turn_entry(
                self.campaign, self.game, t, self.players, self.commitments, state=state, events=events)
            draw = t in changed or kept is None
            hidden = sum(1 for e in entries + [entry] if "secret_commitment" in e["dice"])
            images[t] = self._write_page(entry, state, events, None if draw else kept, hidden_turns=hidden)
            entries.append(entry)
            if draw:
                self.result.turns_written.append(t)
            self.result.pages_written.append(pages.page_name(t))
        return entries, images

    def _write_page(self, entry: dict[str, Any], state: dict, events: list,
                    images: list[dict[str, str]] | None, *, hidden_turns: int = 0) -> list[dict[str, str]]:
        """Write one turn page; draw its pictures unless ``images`` (already drawn) are given.
        ``hidden_turns``: turns up to this one that made hidden rolls (the last page says where
        they are revealed once the game is over)."""
        turn = entry["turn"]
        if images is None:
            images = _write_pictures(self.folder, self.game, turn,
                                     seen_by(self.game, state, events, "public", self.players))
        dice = dice_section(turn, entry["dice"], None)  # the entry's dice came through the one door
        dice["next_commitment"] = entry["next_commitment"]
        body = pages.report_body(self.campaign, self.game, turn, state, events, self.players, dice)
        put(self.folder, pages.page_name(turn),
            pages.turn_page(self.head, entry, body, images, turns=self.turns, hidden_turns=hidden_turns,
                            colours=self._colours(entry)))
        return images


def write_site(campaign: Campaign, folder: str | Path, *, incremental: bool) -> SiteResult:
    return _Writer(campaign, Path(folder), incremental=incremental).write()


def _remove_stale(folder: Path, old_files: list[str], files: list[str]) -> list[str]:
    """Files an earlier build wrote that this one did not (turns rolled back): only those."""
    removed = []
    root = folder.resolve()
    for name in sorted(set(old_files) - set(files)):
        path = (folder / name).resolve()
        if root in path.parents and path.is_file():
            path.unlink()
            removed.append(name)
    return removed


def build(campaign: Campaign, folder: str | Path) -> SiteResult:
    """`gm site`: every page of the site, written anew."""
    return write_site(campaign, folder, incremental=False)


def update(campaign: Campaign, folder: str | Path) -> SiteResult:
    """After a resolve: only the new turn's page (and the one before it), the index, the dice page
    and the record are written. A folder that is not yet a site gets the whole site."""
    return write_site(campaign, folder, incremental=True)


def configured_folder(campaign: Campaign) -> Path | None:
    """``site: FOLDER`` in campaign.yaml (relative to the campaign folder), or None: where `gm run`
    keeps the campaign's website up to date with ``update``."""
    value = campaign.config.get("site")
    if value in (None, "", False):
        return None
    if not isinstance(value, str):
        raise UsageError(f"{campaign.path / 'campaign.yaml'}: site is a folder name, not {value!r}")
    folder = Path(value).expanduser()
    return folder if folder.is_absolute() else campaign.path / folder
