"""Running a campaign over time: `gm run`, `gm deadline`, `gm player`, `gm rollback`, `gm list`
(click commands only; the work is in gm.automation.unattended and gm.automation.housekeeping).

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import json
import sys

import click

from gm.cli.common import CAMPAIGN, campaign_at


@click.command("run")
@click.argument("directories", nargs=-1, required=True, metavar="DIR...", type=click.Path(file_okay=False))
@click.option("--send", is_flag=True, help="Send mail by SMTP (default: write .eml files to DIR/outbox/).")
def run(directories: tuple[str, ...], send: bool) -> None:
    """One unattended pass over each campaign: fetch and answer mail, resolve a turn that is due,
    send reports, notices and reminders, set the next deadline. Safe to run again at once (cron).
    A DIR that is not a campaign but holds campaigns stands for all of them (as gm list finds them).
    Exit code 2 when any campaign failed; the others still run.

    \b
    Examples:
      gm run camp
      gm run --send /srv/pbem           # every campaign under /srv/pbem, from cron
    """
    from gm.time.clock import now
    from gm.automation.unattended import campaign_folders, run_campaign
    now()  # a GM_NOW that cannot be read is one error, not one per campaign
    directories = campaign_folders(directories)
    failed = 0
    for directory in directories:
        result = run_campaign(directory, send=send)
        failed += result.failed
        for line in result.lines:
            click.echo(f"{directory}: {line}", err=line.startswith("error:"))
    if failed:
        click.echo(f"Error: {failed} of {len(directories)} campaign(s) failed; see the lines above and "
                   "each campaign's run.log", err=True)
        sys.exit(2)


@click.command("deadline")
@CAMPAIGN
@click.argument("action", type=click.Choice(["set", "extend", "clear"]))
@click.argument("value", required=False, metavar="[WHEN|DURATION]")
def deadline(directory: str, action: str, value: str | None) -> None:
    """Set, extend or clear the current turn's deadline; players are told (outbox/notices/).

    WHEN is 2026-12-05T18:00 (the campaign's zone) or with a zone, 2026-12-05T18:00+01:00;
    DURATION is like 1d, 12h, 1d 6h.

    \b
    Examples:
      gm deadline camp set 2026-12-05T18:00
      gm deadline camp extend 2d
      gm deadline camp clear
    """
    from gm.automation.housekeeping import change_deadline
    from gm.time.schedule import campaign_zone, show_moment
    if action in ("set", "extend") and not value:
        raise click.UsageError(f"gm deadline DIR {action} needs a {'moment' if action == 'set' else 'period'}")
    if action == "clear" and value:
        raise click.UsageError("gm deadline DIR clear takes nothing more")
    campaign = campaign_at(directory)
    new = change_deadline(campaign, action, value)
    if new is None:
        click.echo(f"Turn {campaign.current_turn}: no deadline.")
    else:
        click.echo(f"Turn {campaign.current_turn}: deadline {show_moment(new, campaign_zone(campaign))}.")


@click.command("player")
@CAMPAIGN
@click.argument("player_id", metavar="ID")
@click.option("--name", help="The player's new name.")
@click.option("--email", help="The player's new address.")
@click.option("--replace", metavar="NEWID[:NAME[:EMAIL]]", help="A new player takes over this seat.")
@click.option("--drop", type=click.Choice(["bot", "default"]),
              help="The player has left: the seat plays by the game's bot or default orders, without waiting.")
def player(directory: str, player_id: str, name: str | None, email: str | None, replace: str | None,
           drop: str | None) -> None:
    """Change a player's name or address, hand the seat to a new player, or drop the player.

    \b
    Examples:
      gm player camp ann --email ann@new.example.org
      gm player camp ann --replace carl:Carl:carl@example.org
      gm player camp ann --drop bot
    """
    from gm.automation.housekeeping import edit_player
    for line in edit_player(campaign_at(directory), player_id, name=name, email=email, replace=replace, drop=drop):
        click.echo(line)


@click.command("rollback")
@CAMPAIGN
@click.option("--force", is_flag=True, help="Undo even the final turn of a finished game whose reports revealed "
              "the secret seeds (the audit log and the website then say the seeds were public).")
def rollback(directory: str, force: bool) -> None:
    """Undo the last resolved turn; its files move into DIR/audit/, its orders stay, its dice stay
    the same.

    Example: gm rollback camp
    """
    import datetime as dt
    from gm.automation.housekeeping import rollback as undo
    from gm.time.schedule import campaign_zone, show_moment
    campaign = campaign_at(directory)
    entry = undo(campaign, force=force)
    deadline = entry.get("deadline")
    when = (f"deadline {show_moment(dt.datetime.fromisoformat(deadline), campaign_zone(campaign))}" if deadline
            else "no deadline")
    waiting = ", ".join(entry.get("waiting_for") or [])
    click.echo(f"Turn {entry['turn']} rolled back; its files are in {directory}/{entry['moved_to']}/. "
               f"Turn {entry['turn']} is open again with its stored orders ({when})"
               + (f"; an early resolve waits until {waiting} send orders again." if waiting else "."))
    if entry.get("seeds_public"):
        click.echo("The secret seeds its reports revealed stay public: recorded in the audit log and on the website.")
    if entry.get("site"):
        click.echo(entry["site"].capitalize(), err=entry["site"].startswith("error:"))


@click.command("list")
@click.argument("root", metavar="ROOT", type=click.Path(file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_command(root: str, as_json: bool) -> None:
    """Every campaign under ROOT: game, turn, deadline, orders missing.

    Example: gm list /srv/pbem --json
    """
    from gm.turn.campaign_list import list_campaigns
    rows = list_campaigns(root)
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not rows:
        click.echo(f"No campaigns under {root}.")
    for row in rows:
        if "error" in row:
            click.echo(f"{row['path']}: error: {row['error']}")
        elif row["finished"]:
            click.echo(f"{row['path']}: {row['game']}, over after turn {row['turn'] - 1}")
        else:
            deadline = f"deadline {row['deadline_shown']} ({row['left']})" if row["deadline"] else "no deadline"
            missing = ", ".join(row["missing"]) or "none"
            click.echo(f"{row['path']}: {row['game']}, turn {row['turn']}, {deadline}, missing: {missing}")


COMMANDS = (run, deadline, player, rollback, list_command)
