"""Golden transcripts: every report of a seeded sample campaign per game, compared with the stored
files. After an intended change: `make golden`, then read `git diff tests/golden` before committing."""
from __future__ import annotations

import difflib

import pytest

from support import golden


@pytest.mark.parametrize("name", sorted(golden.SAMPLES))
def test_reports_match_the_golden_transcript(name):
    want = golden.stored(name)
    assert want, f"no golden transcript for {name}: run `make golden`"
    got = golden.transcript(name)
    assert sorted(got) == sorted(want), "the set of report files changed"
    for rel in want:
        if got[rel] != want[rel]:
            diff = "".join(difflib.unified_diff(want[rel].splitlines(True), got[rel].splitlines(True),
                                                f"golden/{name}/{rel}", "now", n=2))
            pytest.fail(f"{name}/{rel} differs from the golden transcript (`make golden` if intended):\n{diff[:4000]}")
