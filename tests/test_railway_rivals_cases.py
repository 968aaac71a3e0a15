"""The Railway Rivals rules cases (tests/cases/railway-rivals/*.yaml) cover the rules' worked examples.

tests/test_cases.py runs every case; this file checks that the worked examples stay cases and that
a wrong expectation really fails."""
from __future__ import annotations

from pathlib import Path

from gm.turn.cases import load_cases, run_case

CASE_DIR = Path(__file__).parent / "cases" / "railway-rivals"
CASES = [(path, case) for path in sorted(CASE_DIR.glob("*.yaml")) for case in load_cases(path)]

# the worked examples of the rules text, each of which must stay a case
WORKED_EXAMPLES = {
    "rr-forest-to-forest", "rr-helms-deep-half-price", "rr-helms-deep-full-price", "rr-same-roll-no-junction",
    "rr-arrival-by-pip", "rr-overdraft-interest", "rr-leapfrog-town-to-town-is-free",
    "rr-leapfrog-pays-two-junctions", "rr-straight-line-jump",
}


def test_case_ids_are_unique_and_cover_the_worked_examples() -> None:
    ids = [str(case["id"]) for _, case in CASES]
    assert len(ids) == len(set(ids))
    assert WORKED_EXAMPLES <= set(ids)


def test_a_wrong_expectation_fails() -> None:
    """The runner really compares: the half-price example with Blue's cash off by one fails."""
    path, case = next((p, c) for p, c in CASES if c["id"] == "rr-helms-deep-half-price")
    wrong = dict(case, expect={"cash": {"blue": 17}})
    result = run_case(wrong, path.parent, str(path))
    assert not result.ok and "cash.blue: expected 17, got 16" in result.problems[0]
