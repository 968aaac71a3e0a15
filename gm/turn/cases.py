"""Rules cases: data files that set up a position, play orders with fixed dice, and compare.

The format is fixed by DESIGN.md ("Rules cases"). A case's last turn is resolved only when no
player's orders carry an error (as `gm resolve` would wait for corrected orders); `expect` is then
compared with the state before that turn.
"""
from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gm import games
from gm.turn import runner
from gm.store.errors import GMError, UsageError
from gm.store.fileio import load_yaml
from gm.store.viewing import GM_VIEWER, seen_by

CASE_KEYS = {"id", "rule", "game", "map", "players", "names", "options", "dice", "setup", "turns", "expect",
             "expect_errors", "expect_setup_error", "description", "notes"}


@dataclass
class CaseResult:
    id: str
    file: str
    rule: str
    ok: bool
    problems: list[str] = field(default_factory=list)


def load_cases(path: str | Path) -> list[dict[str, Any]]:
    path = Path(path)
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path}: no such case file") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise UsageError(f"{where}: the case file is not valid YAML ({getattr(exc, 'problem', '')})") from None
    cases = data if isinstance(data, list) else [data]
    for n, case in enumerate(cases):
        if not isinstance(case, dict) or "game" not in case or "id" not in case:
            raise UsageError(f"{path}: case {n + 1} needs at least 'id' and 'game'")
        unknown = set(case) - CASE_KEYS
        if unknown:
            raise UsageError(f"{path}: case {case['id']!r} has unknown key(s) {', '.join(sorted(unknown))}")
        if not isinstance(case.get("names") or {}, dict):
            raise UsageError(f"{path}: case {case['id']!r}: 'names' maps player ids to display names "
                             f"(names: {{cat: Cathérine}})")
    return cases


def _resolve_map(case: dict[str, Any], base: Path, game: games.Game) -> str | None:
    name = case.get("map")
    if name is None:
        return game.default_map()
    name = str(name)
    if name in game.maps():
        return name
    candidate = (base / name).resolve()
    if candidate.is_file():
        return str(candidate)
    raise UsageError(f"case {case['id']!r}: unknown map {name!r} (not shipped, and no file {candidate})")


def _normalise(data: Any) -> Any:
    """As `gm show --json` prints it: keys become strings."""
    return json.loads(json.dumps(data, default=str))


def compare(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Mappings match key by key (a subset); lists and values exactly."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or 'state'}: expected a mapping, got {json.dumps(actual)}"]
        out = []
        for key, value in expected.items():
            where = f"{path}.{key}" if path else str(key)
            if key not in actual:
                out.append(f"{where}: missing (expected {json.dumps(value)})")
            else:
                out += compare(value, actual[key], where)
        return out
    if expected != actual:
        return [f"{path or 'state'}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
    return []


def run_case(case: dict[str, Any], base: Path, file: str = "") -> CaseResult:
    result = CaseResult(str(case["id"]), file, str(case.get("rule", "")), True)
    try:
        result.problems = _run(case, base)
    except GMError as exc:
        result.problems = [f"error: {exc}"]
    except Exception as exc:  # a case must report a crashing game, not crash the runner
        result.problems = [f"crash: {type(exc).__name__}: {exc}"]
    result.ok = not result.problems
    return result


def _run(case: dict[str, Any], base: Path) -> list[str]:
    game = games.get(str(case["game"]))
    players = [str(p) for p in case.get("players") or []]
    master = hashlib.sha256(f"case:{case['id']}".encode()).digest()
    fixed = [int(v) for v in case.get("dice") or []]  # one list: the fixed dice run on from turn to turn
    refusal = case.get("expect_setup_error")
    try:
        names = {str(k): str(v) for k, v in (case.get("names") or {}).items()}  # display names, as `gm new` gives
        state = runner.start(game, _resolve_map(case, base, game), players, dict(case.get("options") or {}),
                             runner.turn_dice(master, 0, fixed), names)
        if case.get("setup"):
            state = runner.plain(game.apply_setup(state, copy.deepcopy(case["setup"])))
    except GMError as exc:
        if refusal is None:
            raise
        return [] if str(refusal).lower() in str(exc).lower() else [
            f"set-up refused with {str(exc)!r}, which does not contain {refusal!r}"]
    if refusal is not None:
        return [f"set-up was accepted, but a refusal containing {refusal!r} was expected"]
    turns = case.get("turns") or []
    problems: list[str] = []
    for n, turn in enumerate(turns, start=1):
        texts = {str(p): str(t) for p, t in ((turn or {}).get("orders") or {}).items()}
        orders, errors = _check_turn(game, state, texts, players, n)
        last = n == len(turns)
        if any(errors.values()):
            if not last:
                shown = "; ".join(f"{p} line {e}" for p, es in errors.items() for e in es)
                return [f"turn {n}: orders have errors: {shown}"]
            problems += _check_expected_errors(case, errors)
            break
        # missing orders are filled exactly as a campaign fills them (the default policy)
        orders, _missing = runner.fill_missing(game, state, orders, "default")
        state, _events = runner.step(game, state, orders, runner.turn_dice(master, n, fixed))
        if last:
            problems += _check_expected_errors(case, {p: [] for p in players})
    if "expect" in case:
        problems += compare(_normalise(case["expect"]), _normalise(seen_by(game, state, [], GM_VIEWER, []).view))
    return problems


def _check_turn(game, state: dict, texts: dict[str, str], players: list[str],
                turn: int) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Each player's orders checked as a campaign checks them: (clean orders, "LINE: message"
    errors per player, lines as in the case's text)."""
    orders: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for player, text in texts.items():
        if player not in players:
            raise UsageError(f"turn {turn}: orders for {player!r}, who is not in the case's players")
        checked = runner.check(game, state, text, file=player, players=players, turn=turn, player=player)
        errors[player] = [f"{max(1, e.line or 1)}: {e.message}" for e in checked.problems]
        if checked.ok:
            orders[player] = checked.orders
    return orders, errors


def _check_expected_errors(case: dict[str, Any], errors: dict[str, list[str]]) -> list[str]:
    expected = case.get("expect_errors")
    if expected is None:
        found = [f"{p} line {e}" for p, es in errors.items() for e in es]
        return [f"unexpected order errors: {'; '.join(found)}"] if found else []
    problems = []
    for player, es in errors.items():
        want = sorted(int(x) for x in (expected.get(player) or []))
        got = sorted({int(e.split(":")[0]) for e in es})
        if want != got:
            detail = "; ".join(es) or "none"
            problems.append(f"{player}: expected errors on lines {want}, got {got} ({detail})")
    for player in expected:
        if player not in errors and expected[player]:
            problems.append(f"{player}: expected errors on lines {expected[player]}, but sent no orders")
    return problems


def run_case_file(path: str | Path) -> list[CaseResult]:
    path = Path(path)
    return [run_case(case, path.parent, str(path)) for case in load_cases(path)]
