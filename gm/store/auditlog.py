"""The GM's audit log, CAMPAIGN/audit/log.yaml: one line per change a GM made by command (deadline,
player, rollback, setting), a YAML list with one flow mapping a line. GM-only: never in a report."""
from __future__ import annotations

import json
from typing import Any

import yaml

from gm.store.campaign import Campaign


def audit(campaign: Campaign, action: str, *, at: str, **details: Any) -> dict[str, Any]:
    """One line appended to CAMPAIGN/audit/log.yaml (a YAML list, one flow mapping a line); ``at`` is
    the moment (gm.time.clock.stamp(): the store reads no clock)."""
    entry = {"at": at, "action": action, **details}
    path = campaign.path / "audit" / "log.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("- " + json.dumps(entry, ensure_ascii=False, default=str) + "\n")
    return entry


def read_audit(campaign: Campaign) -> list[dict[str, Any]]:
    path = campaign.path / "audit" / "log.yaml"
    return list(yaml.safe_load(path.read_text(encoding="utf-8")) or []) if path.exists() else []
