"""`gm inbox DIR`: what players wrote to the GM (mail with no orders and no command, and `gm:`)."""
from __future__ import annotations

import json

import click

from gm.cli.common import CAMPAIGN, campaign_at


@click.command("inbox")
@CAMPAIGN
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True, help="How many messages.")
def inbox(directory: str, as_json: bool, limit: int) -> None:
    """What players wrote to the GM, newest first, with the turn it was written in.

    Example: gm inbox camp
    """
    from gm.delivery.mail.for_gm import messages
    campaign = campaign_at(directory)
    found = messages(campaign)
    if as_json:
        click.echo(json.dumps(found[:limit], indent=2, ensure_ascii=False))
        return
    if not found:
        click.echo("No messages for the GM.")
        return
    names = {p["id"]: str(p.get("name") or p["id"]) for p in campaign.players}
    for entry in found[:limit]:
        who = entry.get("player")
        click.echo(f"{entry.get('at')}  turn {entry.get('turn')}  {names.get(who, who)} ({who})"
                   + (f": {entry['subject']}" if entry.get("subject") else ""))
        for line in str(entry.get("text", "")).splitlines() or [""]:
            click.echo(f"    {line}")
    if len(found) > limit:
        click.echo(f"... and {len(found) - limit} older (--limit {len(found)} shows them all)")
