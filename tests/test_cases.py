"""Every rules case in tests/cases/<game>/*.yaml, one pytest id per case, run by gm's own runner."""
from __future__ import annotations

from pathlib import Path

import pytest

from gm.turn.cases import load_cases, run_case

CASES = Path(__file__).parent / "cases"


def _all_cases():
    for file in sorted(CASES.glob("*/*.yaml")):
        for case in load_cases(file):
            yield pytest.param(case, file, id=f"{file.parent.name}/{case['id']}")


@pytest.mark.parametrize("case,file", list(_all_cases()))
def test_rules_case(case, file):
    result = run_case(case, file.parent, str(file))
    assert result.ok, f"{result.id} ({result.rule}):\n" + "\n".join(result.problems)


def test_case_ids_are_unique():
    ids = [p.values[0]["id"] for p in _all_cases()]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_case_runner_reports_a_failing_case(tmp_path):
    case = {"id": "guess-wrong", "rule": "a case that must fail", "game": "guess", "players": ["a"],
            "dice": [3], "turns": [{"orders": {"a": "guess 3"}}], "expect": {"score": {"a": 0}}}
    result = run_case(case, tmp_path)
    assert not result.ok and result.problems == ["score.a: expected 0, got 1"]


def test_case_runner_expect_errors(tmp_path):
    case = {"id": "guess-errors", "game": "guess", "players": ["a", "b"],
            "turns": [{"orders": {"a": "guess 7\n", "b": "guess 2"}}], "expect_errors": {"a": [1], "b": []},
            "expect": {"turn": 0}}
    assert run_case(case, tmp_path).ok
    case["expect_errors"] = {"a": [2]}
    result = run_case(case, tmp_path)
    assert result.problems == ["a: expected errors on lines [2], got [1] (1: a guess is 1 to 6, not '7')"]


def test_case_runner_expect_setup_error(tmp_path):
    case = {"id": "guess-bad-option", "game": "guess", "players": ["a"], "options": {"turns": "x"},
            "expect_setup_error": "whole number"}
    assert run_case(case, tmp_path).ok
    case["expect_setup_error"] = "something else"
    assert not run_case(case, tmp_path).ok
    case["options"] = {}
    assert run_case(case, tmp_path).problems == [
        "set-up was accepted, but a refusal containing 'something else' was expected"]


def test_case_runner_error_on_added_header_is_line_one(tmp_path):
    case = {"id": "guess-not-due", "game": "guess", "players": ["a"], "options": {"turns": 0},
            "turns": [{"orders": {"a": "guess 3"}}], "expect_errors": {"a": [1]}}
    assert run_case(case, tmp_path).ok, run_case(case, tmp_path).problems
