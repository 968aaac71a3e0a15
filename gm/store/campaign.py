"""The campaign folder: configuration, states, orders, dice logs; atomic writes and the lock.

CAMPAIGN/campaign.yaml        game, map, players, options, deadline, NMR policy
CAMPAIGN/secret/master.key    the dice master secret (hex) — GM only, never in a report
CAMPAIGN/turns/NNN/state.yaml the state after turn NNN (000 = set-up); written last: its presence
                              marks the turn as resolved
CAMPAIGN/turns/NNN/orders/    orders as received for turn NNN, one file per player
CAMPAIGN/turns/NNN/dice.yaml  the turn's seed and every public roll
CAMPAIGN/turns/NNN/events.yaml what happened (reports are rebuilt from it)
CAMPAIGN/turns/NNN/settings.yaml what shaped the turn's resolution: options, missed-turn policy,
                              who was missing (`gm replay` uses what was in force)
CAMPAIGN/turns/NNN/reports/   reports and images written for the turn, with digests.yaml
CAMPAIGN/secret/dice/NNN.yaml the turn's secret rolls (hidden shuffles), revealed at the game's end
CAMPAIGN/turns/NNN/opening.yaml the deadline turn NNN opens for the next turn, written in the same
                              swap as the turn; gone once campaign.yaml holds it (a crash between the
                              two leaves it, and it counts as the deadline until it is applied)

Every change of campaign.yaml is a read-modify-write under the campaign lock: taking the lock reads
the file again when it changed on disk (another gm wrote it), and applies an opening left pending.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from gm.store.errors import CampaignError, UsageError
from gm.store.fileio import atomic_write, dump_yaml, load_yaml, write_yaml
from gm.store.lock import campaign_lock
from gm.store.names import suggestion
from gm.store.players import PLAYER_ID, find_player, parse_player_spec, players_problem, setup_warnings  # noqa: F401 (re-exported)
from gm.store.staging import StagedFolder
from gm.store.undo import mark_resent

# what resolving a turn writes (the rest of a turn's folder, its orders and press, is kept)
TURN_OUTPUTS = frozenset({"state.yaml", "dice.yaml", "events.yaml", "settings.yaml", "reports", "opening.yaml"})
OPENING = "opening.yaml"
DEFAULT_COLOURS = ["#1f5fbf", "#c0392b", "#2e8b57", "#d4a017", "#7d3c98", "#e67e22", "#16a085", "#555555"]


def turn_dir_name(turn: int) -> str:
    return f"{turn:03d}"


def _stamp(path: Path) -> tuple[int, int, int, int] | None:
    """What changes whenever a file is replaced or rewritten (gm writes by rename: a new inode)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _read_text(path: Path, what: str) -> str:
    """A campaign file's text, or one line naming the file and what is wrong with it."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CampaignError(f"{path}: {what} is missing") from None
    except IsADirectoryError:
        raise CampaignError(f"{path}: {what} is a folder, not a file; move it aside") from None
    except UnicodeDecodeError:
        raise CampaignError(f"{path}: {what} is not UTF-8 text (corrupt)") from None
    except OSError as exc:
        raise CampaignError(f"{path}: cannot read {what}: {exc.strerror}") from None


def _read_yaml(path: Path, what: str) -> Any:
    text = _read_text(path, what)
    try:
        return load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise CampaignError(f"{where}: {what} is corrupt ({problem})") from None


class Campaign:
    """One campaign folder on disk. Holds no game logic."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_dir():
            raise CampaignError(f"{self.path}: no such campaign folder (create one with `gm new GAME {self.path}`)")
        self._load()

    def _load(self) -> None:
        stamp = _stamp(self.path / "campaign.yaml")
        config = _read_yaml(self.path / "campaign.yaml", "campaign.yaml")
        if not isinstance(config, dict) or "game" not in config or "players" not in config:
            raise CampaignError(f"{self.path / 'campaign.yaml'}: campaign.yaml is corrupt (needs game and players)")
        problem = players_problem(config["players"])
        if problem:  # ids become file names: a bad one must never reach a path
            raise CampaignError(f"{self.path / 'campaign.yaml'}: {problem}")
        self.config: dict[str, Any] = config
        self._config_stamp = stamp

    def refresh(self) -> None:
        """Read campaign.yaml again if another process changed it since it was read (in-memory
        settings stay when the file is the one read)."""
        if _stamp(self.path / "campaign.yaml") != self._config_stamp:
            self._load()

    # ---- configuration ---------------------------------------------------------------------
    @property
    def name(self) -> str:
        return str(self.config.get("name") or self.path.name)

    @property
    def game_name(self) -> str:
        return str(self.config["game"])

    @property
    def map_name(self) -> str | None:
        return self.config.get("map")

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.config.get("options") or {})

    @property
    def players(self) -> list[dict[str, Any]]:
        return list(self.config["players"])

    @property
    def player_ids(self) -> list[str]:
        return [p["id"] for p in self.players]

    def player(self, pid: str) -> dict[str, Any]:
        for p in self.players:
            if p["id"] == pid:
                return p
        raise UsageError(f"unknown player {pid!r}{suggestion(pid, self.player_ids)}; "
                         f"players: {', '.join(self.player_ids)}")

    def find_player(self, text: str) -> str:
        """The id of the player a ``player:`` header names: the id in any case or the display name
        (ignoring case and accents). An unknown one raises UsageError with a message that lists
        the valid ids and has no place in it, so the caller can locate it (FILE:LINE:COL)."""
        return find_player(self.players, text)

    def setup_warnings(self) -> list[str]:
        """What the campaign lacks to send mail (no mail.from, players without an address), one
        line each, for `gm new` to print."""
        return setup_warnings(self.config)

    def master_secret(self) -> bytes:
        path = self.path / "secret" / "master.key"
        text = _read_text(path, "the dice master secret")
        try:
            return bytes.fromhex(text.strip())
        except ValueError:
            raise CampaignError(f"{path}: the dice master secret is corrupt (expected 64 hex digits)") from None

    # ---- turns -----------------------------------------------------------------------------
    def turn_dir(self, turn: int) -> Path:
        return self.path / "turns" / turn_dir_name(turn)

    def resolved_turns(self) -> list[int]:
        base = self.path / "turns"
        if not base.is_dir():
            return []
        return sorted(int(d.name) for d in base.iterdir()
                      if d.name.isdigit() and (d / "state.yaml").is_file())

    @property
    def last_turn(self) -> int:
        turns = self.resolved_turns()
        if not turns:
            raise CampaignError(f"{self.path}: no turns/000/state.yaml — the campaign was never set up")
        return turns[-1]

    @property
    def current_turn(self) -> int:
        """The turn whose orders are being collected."""
        return self.last_turn + 1

    def check_turn(self, turn: int | None) -> int:
        last = self.last_turn
        if turn is None:
            return last
        if not 0 <= turn <= last:
            raise UsageError(f"turn {turn} does not exist yet (turns 0 to {last} are resolved)")
        return turn

    def state(self, turn: int | None = None) -> dict[str, Any]:
        # a named turn whose state is there is read at once: no listing of every turn folder, so
        # replaying a long campaign costs in proportion to its turns
        if turn is None or turn < 0 or not (self.turn_dir(turn) / "state.yaml").is_file():
            turn = self.check_turn(turn)
        path = self.turn_dir(turn) / "state.yaml"
        state = _read_yaml(path, "the state file")
        if not isinstance(state, dict):
            raise CampaignError(f"{path}: the state file is corrupt (truncated or empty)")
        return state

    def events(self, turn: int) -> list[dict[str, Any]]:
        path = self.turn_dir(turn) / "events.yaml"
        if not path.exists():
            return []
        events = _read_yaml(path, "the events file")
        return list(events or [])

    def dice_log(self, turn: int) -> dict[str, Any]:
        return _read_yaml(self.turn_dir(turn) / "dice.yaml", "the dice log") or {}

    def settings(self, turn: int) -> dict[str, Any] | None:
        """What shaped the turn's resolution (None for a turn resolved before they were recorded)."""
        path = self.turn_dir(turn) / "settings.yaml"
        return _read_yaml(path, "the turn's settings") if path.exists() else None

    # ---- secret dice -----------------------------------------------------------------------
    def secret_dice_path(self, turn: int) -> Path:
        return self.path / "secret" / "dice" / f"{turn_dir_name(turn)}.yaml"

    def write_secret_rolls(self, turn: int, rolls: list[dict[str, Any]]) -> None:
        write_yaml(self.secret_dice_path(turn), {"turn": turn, "rolls": rolls})

    def secret_rolls(self, turn: int) -> list[dict[str, Any]] | None:
        """The turn's secret rolls; None when no file is kept for the turn."""
        path = self.secret_dice_path(turn)
        if not path.exists():
            return None
        return list((_read_yaml(path, "the secret dice log") or {}).get("rolls") or [])

    def secret_dice_turns(self) -> list[int]:
        folder = self.path / "secret" / "dice"
        if not folder.is_dir():
            return []
        return sorted(int(f.stem) for f in folder.glob("*.yaml") if f.stem.isdigit())

    # ---- orders ----------------------------------------------------------------------------
    def orders_dir(self, turn: int) -> Path:
        return self.turn_dir(turn) / "orders"

    def stored_orders(self, turn: int) -> dict[str, str]:
        folder = self.orders_dir(turn)
        if not folder.is_dir():
            return {}
        return {f.stem: f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.txt"))}

    def store_orders(self, turn: int, player: str, text: str, *, errors: list[str] | None = None) -> Path:
        if player not in self.player_ids:  # an id becomes a file name: only the campaign's own
            raise UsageError(f"unknown player {player!r}; players: {', '.join(self.player_ids)}")
        path = self.orders_dir(turn) / f"{player}.txt"
        atomic_write(path, text)
        problems = self.orders_dir(turn) / f"{player}.errors"
        if errors:
            atomic_write(problems, "\n".join(errors) + "\n")
        elif problems.exists():
            problems.unlink()
        mark_resent(self.turn_dir(turn), player)  # an undone turn: this player has sent orders again
        return path

    def audit_log(self, turn: int) -> list[dict[str, Any]]:
        """Orders the GM entered or changed for a player this turn (`gm submit --as-gm`)."""
        path = self.orders_dir(turn) / "audit.yaml"
        return list(_read_yaml(path, "the audit log") or []) if path.exists() else []

    def record_audit(self, turn: int, entry: dict[str, Any]) -> None:
        write_yaml(self.orders_dir(turn) / "audit.yaml", self.audit_log(turn) + [entry])

    def forced_errors(self, turn: int, player: str) -> list[str]:
        path = self.orders_dir(turn) / f"{player}.errors"
        return path.read_text(encoding="utf-8").splitlines() if path.exists() else []

    # ---- writing a turn --------------------------------------------------------------------
    def write_turn(self, turn: int, *, state: dict, dice: dict, events: list, reports: dict[str, str | bytes],
                   settings: dict | None = None, opening: dict | None = None,
                   fail_after: str | None = None) -> None:
        """Write a resolved turn whole or not at all: every file goes into a hidden staging folder
        beside the turn's (with the orders already there), one sync makes them durable, and one
        atomic swap puts the folder in place (gm.store.staging.StagedFolder). state.yaml marks the turn
        resolved. Until the swap nothing of the turn is visible: no dice.yaml revealing its seed, no
        partial reports; stale temporary files of the turn are not carried over.
        ``opening`` (the next turn's deadline, {"deadline": TEXT or None}) goes into the same swap
        as opening.yaml, so a turn is never resolved without the deadline it opens; the caller
        then applies it to campaign.yaml (``apply_opening``).
        ``fail_after`` (tests only) raises after the named step to prove that."""
        folder = self.turn_dir(turn)
        for inside in (folder, folder / "reports"):
            if inside.is_symlink():
                raise CampaignError(f"{inside}: is a symbolic link; gm writes a turn's files only into real folders")
        stage = StagedFolder(folder, keep=lambda name: name not in TURN_OUTPUTS, last="state.yaml")
        try:
            stage.write("dice.yaml", dump_yaml(dice))
            stage.write("events.yaml", dump_yaml(events))
            if settings is not None:
                stage.write("settings.yaml", dump_yaml(settings))
            if opening is not None:
                stage.write(OPENING, dump_yaml(dict(opening, turn=turn + 1)))
            if fail_after == "events":
                raise RuntimeError("injected failure after writing events")
            for name, data in reports.items():
                stage.write(f"reports/{name}", data)
            if fail_after == "reports":
                raise RuntimeError("injected failure after writing reports")
            stage.write("state.yaml", dump_yaml(state))
        except BaseException:
            stage.discard()
            raise
        stage.publish()
        for stale in (self.path / "secret" / "dice").glob(".*.tmp"):  # a killed write of a secret roll log
            stale.unlink(missing_ok=True)

    # ---- the deadline a resolved turn opens ------------------------------------------------
    def pending_opening(self) -> dict[str, Any] | None:
        """The opening ({"deadline": TEXT or None}) the last resolved turn wrote and campaign.yaml
        does not hold yet (a crash between the turn's swap and campaign.yaml); None when applied."""
        latest = self._latest_turn()
        if latest is None:
            return None
        path = self.turn_dir(latest) / OPENING
        if not path.exists():
            return None
        data = _read_yaml(path, "the turn's opening")
        if not isinstance(data, dict) or "deadline" not in data:
            raise CampaignError(f"{path}: the turn's opening is corrupt (needs deadline)")
        return data

    def apply_opening(self) -> None:
        """Write a pending opening's deadline into campaign.yaml, then drop the opening (under the lock)."""
        with self.lock():
            opening = self.pending_opening()
            if opening is None:
                return
            if opening["deadline"] != self.config.get("deadline"):
                set_config_value(self, "deadline", opening["deadline"], _opening=False)
            (self.turn_dir(self.last_turn) / OPENING).unlink(missing_ok=True)

    def _latest_turn(self) -> int | None:
        """The last resolved turn, looking at the newest folders only (cheap: taken with every lock)."""
        try:
            names = sorted((d for d in os.listdir(self.path / "turns") if d.isdigit()), key=int, reverse=True)
        except OSError:
            return None
        return next((int(n) for n in names if (self.path / "turns" / n / "state.yaml").is_file()), None)

    # ---- the lock --------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Only one gm process changes a campaign at a time; a second one waits briefly, then is
        refused (gm.store.lock). Taking the lock reads campaign.yaml again when it changed on disk
        and applies a turn's pending opening, so every change is a read-modify-write."""
        with campaign_lock(self.path) as took:
            if took:
                self.refresh()
                if self.pending_opening() is not None:
                    self.apply_opening()
            yield


def create_folder(path: Path, config: dict[str, Any], master: bytes) -> Campaign:
    """Lay out a new campaign folder (refuses a non-empty one, except what a killed `gm new` left)."""
    problem = players_problem(config.get("players"))
    if problem:
        raise UsageError(problem)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        if not _unfinished_new(path):
            raise UsageError(f"{path}: already exists and is not empty; choose a new folder")
        for name in _NEW_ENTRIES:  # a `gm new` killed before turn 000 was written: made again
            target = path / name
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            elif target.exists() or target.is_symlink():
                target.unlink()
    (path / "secret").mkdir(parents=True, exist_ok=True)
    (path / "turns").mkdir(exist_ok=True)
    atomic_write(path / "secret" / "master.key", master.hex() + "\n")
    os.chmod(path / "secret" / "master.key", 0o600)
    write_yaml(path / "campaign.yaml", config)
    return Campaign(path)


_NEW_ENTRIES = ("campaign.yaml", "secret", "turns")


def _unfinished_new(path: Path) -> bool:
    """Whether ``path`` holds only what `gm new` writes, and no turn was ever resolved in it."""
    names = [p.name for p in path.iterdir() if not p.name.endswith(".tmp")]
    if any(name not in _NEW_ENTRIES for name in names):
        return False
    secret, turns = path / "secret", path / "turns"
    if secret.is_dir() and any(p.name not in ("master.key", "dice") and not p.name.endswith(".tmp")
                               for p in secret.iterdir()):
        return False
    if turns.is_dir():
        for entry in turns.iterdir():
            if not entry.name.startswith(".") and (entry.name != "000" or (entry / "state.yaml").exists()):
                return False
    return True


# ---- one setting of campaign.yaml, written in place ---------------------------------------
_TOP_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:")


def set_config_value(campaign: Campaign, key: str, value: Any, *, _opening: bool = True) -> None:
    """Replace one top-level setting of campaign.yaml in place, keeping the rest of the text
    (comments, order); the whole file is rewritten only when the setting cannot be found alone.
    A read-modify-write under the campaign lock: the file as it is on disk now, never a copy read
    before another gm changed it. Setting the deadline drops a turn's pending opening."""
    with campaign.lock():
        _set_config_value(campaign, key, value)
        if key == "deadline" and _opening and campaign.resolved_turns():
            (campaign.turn_dir(campaign.last_turn) / OPENING).unlink(missing_ok=True)


def _set_config_value(campaign: Campaign, key: str, value: Any) -> None:
    path = campaign.path / "campaign.yaml"
    campaign.refresh()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CampaignError(f"{path}: cannot read campaign.yaml ({getattr(exc, 'strerror', None) or exc})") from None
    wanted = dict(campaign.config, **{key: value})
    lines = text.splitlines(keepends=True)
    block = _block(key, value)
    start = next((i for i, line in enumerate(lines) if re.match(rf"^{re.escape(key)}\s*:", line)), None)
    if start is None:
        new_text = text + ("" if text.endswith("\n") or not text else "\n") + block
    else:
        end = start + 1
        while end < len(lines) and not (_TOP_KEY.match(lines[end]) or lines[end].startswith("#")):
            end += 1
        new_text = "".join(lines[:start]) + block + "".join(lines[end:])
    try:
        same = yaml.safe_load(new_text) == yaml.safe_load(dump_yaml(wanted))
    except yaml.YAMLError:
        same = False
    atomic_write(path, new_text if same else dump_yaml(wanted))
    campaign.config[key] = value
    campaign._config_stamp = _stamp(path)


def _block(key: str, value: Any) -> str:
    """``key: value`` in block style at the top level (dump_yaml writes a lone mapping in flow style)."""
    if isinstance(value, list) and value:
        return f"{key}:\n" + dump_yaml(value)
    if isinstance(value, dict) and value:  # a block of settings (schedule:, mail:) in block style
        text = yaml.safe_dump(value, default_flow_style=False, sort_keys=False, allow_unicode=True, width=10_000)
        return f"{key}:\n" + "".join(f"  {line}" for line in text.splitlines(keepends=True))
    text = dump_yaml(value)
    return f"{key}: {text.removesuffix(chr(10) + '...' + chr(10)).strip()}\n"
