"""run.yaml: what `gm run` has delivered of a campaign (reports through which turn, turns undone and
resolved again), read and written by the pass and by `gm rollback`."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from gm.store.campaign import Campaign
from gm.store.errors import CampaignError
from gm.store.fileio import write_yaml


def _run_state_path(campaign: Campaign) -> Path:
    return campaign.path / "run.yaml"


def read_run_state(campaign: Campaign) -> dict[str, Any]:
    path = _run_state_path(campaign)
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        raise CampaignError(f"{path}: corrupt; move it aside (the next gm run delivers the last turn's reports "
                            "again, skipping those in outbox/sent.yaml)") from None
    return data if isinstance(data, dict) else {}


def _write_run_state(campaign: Campaign, data: dict[str, Any]) -> None:
    write_yaml(_run_state_path(campaign), data)


def forget_delivery(campaign: Campaign, turn: int) -> None:
    """After a rollback of ``turn``: its reports are delivered again once it is resolved again,
    under new keys (gm/delivery/mail/outbox.report_key counts the rollbacks in the audit log; the
    sent log keeps the old keys as the record of what went out)."""
    data = read_run_state(campaign)
    data["delivered_through"] = min(int(data.get("delivered_through", turn)), turn - 1)
    redone = dict(data.get("rolled_back") or {})
    redone[turn] = int(redone.get(turn, 0)) + 1
    data["rolled_back"] = redone
    _write_run_state(campaign, data)

