"""Checking a campaign's record: `gm replay`, `gm dice verify`, `gm case run`
(click commands only; the work is in gm.turn.audit and gm.turn.cases).

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import sys

import click

from gm.cli.common import CAMPAIGN, campaign_at


def _exit_on_problems(problems: list[str]) -> None:
    """Each problem on its own line on stderr; exit 1 when there is any."""
    for line in problems:
        click.echo(line, err=True)
    if problems:
        sys.exit(1)


@click.command()
@CAMPAIGN
def replay(directory: str) -> None:
    """Re-resolve every turn from the stored orders and seeds; exit 1 if any state differs.

    Example: gm replay camp
    """
    from gm.turn.audit import replay as replay_campaign
    campaign = campaign_at(directory)
    _exit_on_problems(replay_campaign(campaign))
    click.echo(f"Replayed turns 0 to {campaign.last_turn}: every state matches, and every event, roll and report.")


@click.group()
def dice() -> None:
    """Verifiable dice.

    Example: gm dice verify camp
    """


@dice.command("verify")
@CAMPAIGN
def dice_verify(directory: str) -> None:
    """Recompute every logged roll from the revealed seeds; exit 1 on any mismatch.

    Example: gm dice verify camp
    """
    from gm.turn.audit import verify_dice
    campaign = campaign_at(directory)
    checked, problems = verify_dice(campaign)
    _exit_on_problems(problems)
    turns = len(campaign.resolved_turns())
    if checked:
        click.echo(f"All {checked} rolls verified. ({turns} turns checked.)")
    else:
        click.echo(f"No dice were rolled in the {turns} turn(s) so far; every seed and commitment checks.")


@click.group()
def case() -> None:
    """Rules cases (tests/cases/<game>/*.yaml).

    Example: gm case run tests/cases/network/*.yaml
    """


@case.command("run")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False), metavar="FILE...")
def case_run(files: tuple[str, ...]) -> None:
    """Run rules cases: PASS or FAIL with the difference for each; exit 1 if any fails.

    Example: gm case run tests/cases/network/*.yaml
    """
    from gm.turn.cases import run_case_file
    failed = passed = 0
    for file in files:
        for result in run_case_file(file):
            if result.ok:
                passed += 1
                click.echo(f"PASS {result.id}")
            else:
                failed += 1
                click.echo(f"FAIL {result.id} ({file})" + (f" — {result.rule}" if result.rule else ""))
                for line in result.problems:
                    click.echo(f"     {line}")
    click.echo(f"{passed} passed, {failed} failed")
    if failed:
        sys.exit(1)
