"""Every Railway Rivals rules case (tests/cases/railway-rivals/*.yaml), one test each, by case id."""
from __future__ import annotations

from pathlib import Path

import pytest

from gm.cases import load_cases, run_case

CASE_DIR = Path(__file__).parent / "cases" / "railway-rivals"
CASES = [(path, case) for path in sorted(CASE_DIR.glob("*.yaml")) for case in load_cases(path)]

# the worked examples of the rules text, each of which must stay a case
WORKED_EXAMPLES = {
    "rr-forest-to-forest", "rr-helms-deep-half-price", "rr-helms-deep-full-price", "rr-same-roll-no-junction",
    "rr-arrival-by-pip", "rr-overdraft-interest", "rr-leapfrog-town-to-town-is-free",
    "rr-leapfrog-pays-two-junctions", "rr-straight-line-jump",
}


@pytest.mark.parametrize("path,case", CASES, ids=[str(case["id"]) for _, case in CASES])
def test_rules_case(path: Path, case: dict) -> None:
    result = run_case(case, path.parent, str(path))
    assert result.ok, "\n".join(result.problems)


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
