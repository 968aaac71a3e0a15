"""Order receipts on the website and in the record: the receipts the reports published, each
player who sent nothing marked with what replaced their orders, and the canonical form exactly as
docs/site.md states it (checked here by an implementation of the documented rules that does not
use gm's order frame, and by the documented sha256sum line)."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess

import jsonschema
import pytest
import yaml

from gm.turn import engine
from gm.store.campaign import Campaign
from gm.store.receipts import canonical_orders, receipt
from gm.delivery.record import public_record
from gm.delivery.site import build
from test_record import SCHEMA
from test_site_support import GAME_NAMES, copy_campaign, seeded_campaign


@pytest.mark.parametrize("name", GAME_NAMES)
def test_record_and_pages_carry_the_receipts_the_reports_published(name, tmp_path):
    campaign = Campaign(seeded_campaign(name))
    build(campaign, tmp_path / "site")
    record = json.loads((tmp_path / "site" / "record.json").read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(record)
    assert record["turns"][0]["orders"] == []
    for entry in record["turns"][1:]:
        turn = entry["turn"]
        stored = campaign.stored_orders(turn)
        assert entry["orders"] and {o["player"] for o in entry["orders"]} == set(stored)
        report = (campaign.turn_dir(turn) / "reports" / "public.html").read_text()
        page = (tmp_path / "site" / f"turn-{turn:03d}.html").read_text()
        for row in entry["orders"]:
            assert row["status"] == "sent" and row["receipt"] == receipt(stored[row["player"]])
            assert row["receipt"] in report and row["receipt"] in page
        # a digest, never the orders themselves
        for text in stored.values():
            for line in canonical_orders(text).split("\n"):
                if len(line) > 12:
                    assert line not in json.dumps(entry["orders"])


def test_a_missing_player_is_marked_with_the_policy_that_replaced_their_orders(tmp_path):
    campaign = copy_campaign("railway-rivals", tmp_path)
    config = yaml.safe_load((campaign.path / "campaign.yaml").read_text())
    config["nmr_policy"] = "bot"
    (campaign.path / "campaign.yaml").write_text(yaml.safe_dump(config))
    campaign = Campaign(campaign.path)
    first_player = campaign.player_ids[0]
    seeded = Campaign(seeded_campaign("railway-rivals", 3))  # the same game one turn further
    campaign.store_orders(3, first_player, seeded.stored_orders(3)[first_player])
    engine.resolve(campaign, force=True)
    build(Campaign(campaign.path), tmp_path / "site")
    record = json.loads((tmp_path / "site" / "record.json").read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(record)
    rows = record["turns"][3]["orders"]
    settings = campaign.settings(3)
    assert settings["missing"] == campaign.player_ids[1:] and settings["applied_policy"] == "bot"
    assert rows[0] == {"player": first_player, "status": "sent",
                       "receipt": receipt(seeded.stored_orders(3)[first_player])}
    assert rows[1:] == [{"player": p, "status": "missing", "receipt": None, "policy": "bot"}
                        for p in campaign.player_ids[1:]]
    page = (tmp_path / "site" / "turn-003.html").read_text()
    names = {p["id"]: p["name"] for p in record["players"]}
    missing = re.findall(r'<li class="missing">.*?</li>', page, re.S)
    assert len(missing) == len(campaign.player_ids) - 1
    assert all("no orders" in li and "the bot's orders were played instead" in li for li in missing)
    assert names[campaign.player_ids[1]] in missing[0]


def test_a_turn_resolved_before_settings_were_recorded_reads_the_missed_turn_events(tmp_path):
    campaign = copy_campaign("network", tmp_path)
    player = campaign.player_ids[0] if campaign.stored_orders(1).get(campaign.player_ids[0]) else campaign.player_ids[1]
    (campaign.turn_dir(1) / "settings.yaml").unlink()
    events = campaign.events(1) + [{"engine": True, "kind": "nmr", "player": player, "text": "x"}]
    (campaign.turn_dir(1) / "events.yaml").write_text(yaml.safe_dump(events))
    rows = public_record(Campaign(campaign.path))["turns"][1]["orders"]
    assert rows == [{"player": player, "status": "missing", "receipt": None, "policy": None}]


def documented_canonical(text: str) -> str:
    """docs/site.md, "Checking your receipt", steps 1-6, written from the text alone."""
    lines = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))
    bodies = []
    for raw in lines:
        if raw.lstrip().startswith(">"):
            bodies.append("")  # 3. quoted
            continue
        quoted, body = False, raw
        for i, ch in enumerate(raw):  # 4. a comment: '#' outside double quotes
            quoted = not quoted if ch == '"' else quoted
            if ch == "#" and not quoted:
                body = raw[:i]
                break
        if body.strip() == "--":
            break  # 2. signature
        bodies.append(body.strip())
    def header(line: str) -> bool:
        key, colon, _ = line.partition(":")
        return bool(colon) and key.strip().lower() in ("player", "turn", "password")
    first = next((i for i, b in enumerate(bodies) if b and header(b)), 0)  # 5. greeting above it
    return "\n".join(b for b in bodies[first:] if b and not header(b))  # 5, 6


SENT = ("Hi GM,\r\nhere are my orders:\r\n\r\nPlayer : p1\r\nturn: 4\r\npassword: hunter2\r\n"
        "  round 1: (0203) 0207   # the \"fast\" line\r\n> round 1: quoted, from your last mail\r\n"
        "\tround 2: \"say # this\" 0308\r\n\r\n-- \r\nAnn\r\nround 3: after the signature\r\n")


def test_the_documented_canonical_form_gives_gms_receipt():
    expected = 'round 1: (0203) 0207\nround 2: "say # this" 0308'
    assert canonical_orders(SENT) == expected == documented_canonical(SENT)
    assert receipt(SENT) == hashlib.sha256(expected.encode("utf-8")).hexdigest()
    for name in GAME_NAMES:
        campaign = Campaign(seeded_campaign(name))
        for turn in campaign.resolved_turns()[1:]:
            for text in campaign.stored_orders(turn).values():
                assert documented_canonical(text) == canonical_orders(text)


@pytest.mark.skipif(not (shutil.which("sha256sum") and shutil.which("sh")), reason="no sha256sum here")
def test_the_documented_sha256sum_line_gives_the_receipt(tmp_path):
    (tmp_path / "orders.txt").write_text(canonical_orders(SENT) + "\n")  # as a player saves the lines
    out = subprocess.run(["sh", "-c", 'printf %s "$(cat orders.txt)" | sha256sum'], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == receipt(SENT)
