"""Every command example of the settings docs is run: README's "Running a campaign" (its first
block), docs/running.md "Settings, by command" and docs/mail.md "Mail settings, by command", each
line as written, in a fresh folder, with the clock fixed."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml
from test_run_support import gm

from gm.store.auditlog import read_audit
from gm.store.campaign import Campaign
from gm.store.settings import SETTINGS

ROOT = Path(__file__).resolve().parent.parent


def examples(doc: str, heading: str, blocks: int | None = None) -> list[list[str]]:
    """The `gm ...` command lines of the ```sh blocks under ``heading`` (continuations joined,
    comments dropped), each as its words."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"```sh\n(.*?)```", section, re.S)[:blocks]
    assert found, (doc, heading)
    commands = []
    for block in found:
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                assert words[0] == "gm", line
                commands.append(words[1:])
    return commands


def run_all(commands: list[list[str]], folder: Path, monkeypatch) -> None:
    monkeypatch.chdir(folder)
    monkeypatch.setenv("GM_NOW", "2026-12-01T09:00Z")
    for words in commands:
        gm(*words)


def test_readme_running_a_campaign_runs_as_written(tmp_path, monkeypatch):
    commands = examples("README.md", "## Running a campaign", blocks=1)
    assert any(w[:1] == ["config"] for w in commands) and any("--set" in w for w in commands)
    run_all(commands, tmp_path, monkeypatch)
    camp = Campaign(tmp_path / "camp")
    assert camp.config["schedule"] == {"every": "2d", "at": "20:00", "zone": "Europe/London"}
    assert (camp.config["site"], camp.config["press"], camp.player("cat")["name"]) == ("www", "grey", "Dan")
    assert [e["action"] for e in read_audit(camp)].count("rollback") == 1 and camp.last_turn == 0


def test_running_md_settings_run_as_written(tmp_path, monkeypatch):
    run_all(examples("docs/running.md", "## Settings, by command"), tmp_path, monkeypatch)
    config = yaml.safe_load((tmp_path / "camp" / "campaign.yaml").read_text())
    assert config["schedule"]["zone"] == "Europe/London" and "remind" not in config
    assert config["site_url"] == "https://pbem.example.org/camp" and (tmp_path / "camp" / "outbox").is_dir()


def test_mail_md_settings_run_as_written(tmp_path, monkeypatch):
    commands = [["new", "network", "camp", "--player", "ann", "--player", "bob"]]
    run_all(commands + examples("docs/mail.md", "## Mail settings, by command"), tmp_path, monkeypatch)
    mail = yaml.safe_load((tmp_path / "camp" / "campaign.yaml").read_text())["mail"]
    assert mail["inbox"]["kind"] == "imap" and mail["smtp"]["password_env"] == "GM_SMTP_PASSWORD"


@pytest.mark.parametrize("doc", ["README.md", "docs/running.md", "docs/mail.md", "docs/site.md", "docs/guide.md"])
def test_the_docs_show_commands_not_campaign_yaml_to_paste(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    keys = {s.key.split(".")[0] for s in SETTINGS} - {"name", "options"}  # (a rules case has those too)
    for block in re.findall(r"```ya?ml\n(.*?)```", text, re.S):
        tops = {m for m in re.findall(r"^([A-Za-z_]+)\s*:", block, re.M)}
        assert not tops & keys, (doc, block[:200])
