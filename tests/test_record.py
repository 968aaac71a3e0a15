"""The public record (`gm export`, record.json): valid against docs/record.schema.json for every
game, nothing hidden in it, and unchanged when only hidden information changes."""
from __future__ import annotations

import importlib
import json
import random
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from gm.store.campaign import Campaign
from gm.cli import main
from gm.store.fileio import write_yaml
from gm.delivery.record import public_record
from test_site_support import FINISHED, GAME_NAMES, MASTER, copy_campaign, seeded_campaign

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "record.schema.json").read_text())


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_games_record_is_valid_and_public(name, tmp_path):
    camp = seeded_campaign(name)
    out = tmp_path / "record.json"
    result = CliRunner().invoke(main, ["export", str(camp), "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    record = json.loads(text)
    jsonschema.Draft202012Validator(SCHEMA).validate(record)
    campaign = Campaign(camp)
    assert [t["turn"] for t in record["turns"]] == campaign.resolved_turns()
    assert record["game"]["name"] == name and record["format"] == "gm-record" and record["version"] == 1
    assert [p["name"] for p in record["players"]][:2] == ["Ann", "Bob"]
    for turn in record["turns"]:
        logged = [r for r in campaign.dice_log(turn["turn"]).get("rolls", []) if not r.get("secret")]
        assert turn["dice"]["rolls"] == logged
        assert turn["dice"]["seed"] == campaign.dice_log(turn["turn"])["seed"]
    # commitments chain: what turn t-1 published is SHA-256 of turn t's seed
    for before, after in zip(record["turns"], record["turns"][1:]):
        assert before["next_commitment"] == after["dice"]["commitment"]
        assert after["dice"]["commitment"] == campaign.dice_log(after["turn"])["commitment"]
    assert "@example.org" not in text and MASTER.hex() not in text
    assert '"secret"' not in text and "@{" not in text


def test_secret_rolls_stay_out(tmp_path):
    """Hidden shuffles (Thurn und Taxis decks) are logged under secret/, never in the record."""
    camp = seeded_campaign("thurn-und-taxis")
    secret = sorted((camp / "secret" / "dice").glob("*.yaml"))
    assert secret, "the test needs a game with hidden shuffles"
    record = public_record(Campaign(camp))
    labels = {r["label"] for t in record["turns"] for r in t["dice"]["rolls"]}
    import yaml
    hidden = {r["label"] for f in secret for r in yaml.safe_load(f.read_text())["rolls"]}
    assert hidden and not labels & hidden


@pytest.mark.parametrize("name,turns", [(n, 2) for n in GAME_NAMES] + [("network-king", FINISHED)])
def test_hidden_information_does_not_change_the_record_or_the_site(name, turns, tmp_path, monkeypatch):
    """The engine's perturbation test applied to the public outputs: change only what the public
    may not see in every stored state; the record and every file of the site stay the same. Also
    for a finished game whose hidden rolls the site reveals, and with the order receipts: neither
    is hidden state (the orders players sent and the secret dice log are not perturbed)."""
    try:
        hidden = importlib.import_module(f"support.hidden_{name.replace('-', '_')}")
    except ModuleNotFoundError:
        pytest.skip(f"no tests/support/hidden_{name.replace('-', '_')}.py to perturb {name} with")
    from gm.delivery.site import build
    monkeypatch.setenv("GM_NOW", "2026-12-05T18:00Z")
    plain = Campaign(seeded_campaign(name, turns))
    changed = copy_campaign(name, tmp_path, turns)
    rng = random.Random(3)
    perturbed = 0
    for turn in changed.resolved_turns():
        other = hidden.perturb(changed.state(turn), "public", rng)
        if other is not None:
            write_yaml(changed.turn_dir(turn) / "state.yaml", other)
            perturbed += 1
    build(plain, tmp_path / "plain")
    build(changed, tmp_path / "changed")
    files = sorted(p.relative_to(tmp_path / "plain") for p in (tmp_path / "plain").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "changed") for p in (tmp_path / "changed").rglob("*")
                           if p.is_file())
    for rel in files:
        if rel.name == ".gm-site.json":  # keyed fingerprints of the files differ by design
            continue
        assert (tmp_path / "plain" / rel).read_bytes() == (tmp_path / "changed" / rel).read_bytes(), (name, rel)
    record = json.loads((tmp_path / "plain" / "record.json").read_text())
    assert all(o["receipt"] for t in record["turns"] for o in t["orders"]) and record["turns"][-1]["orders"]
    assert (record["secret_dice"] is not None) == (turns == FINISHED)
    if perturbed == 0:
        assert hidden.perturb(plain.state(), "public", rng) is None  # nothing hidden: nothing to change


def test_export_wants_a_json_file(tmp_path):
    camp = seeded_campaign("network")
    result = CliRunner().invoke(main, ["export", str(camp), "-o", str(tmp_path / "record.txt")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"Error: {tmp_path / 'record.txt'}: the record is JSON; "
                                                  "name the file FILE.json"]
    assert not (tmp_path / "record.txt").exists()


def test_export_of_a_missing_campaign_is_one_line(tmp_path):
    result = CliRunner().invoke(main, ["export", str(tmp_path / "nope"), "-o", str(tmp_path / "r.json")])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "no such campaign folder" in result.output
