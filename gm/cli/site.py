"""`gm site` and `gm export`: the campaign's public website and its public record.

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import click

from gm.cli.common import CAMPAIGN


@click.command("site")
@CAMPAIGN
@click.option("-o", "--output", "output", required=True, metavar="FOLDER", type=click.Path(),
              help="Folder for the site: new, empty, or a site gm made before.")
def site(directory: str, output: str) -> None:
    """Write a static website of the campaign: index, one page per turn, dice check, record.

    Only public information goes on it. The pages work opened from disk and on any static host.

    Example: gm site camp -o public_html/camp
    """
    from gm.store.campaign import Campaign
    from gm.delivery.site import build
    result = build(Campaign(directory), output)
    turns = len(result.turns_written)
    click.echo(f"Wrote the site to {result.folder}/: index.html, {turns} turn page{'s' if turns != 1 else ''}, "
               f"dice.html ({result.rolls} roll{'s' if result.rolls != 1 else ''}"
               + (f", {result.secret_rolls} hidden ones revealed" if result.secret_rolls else "") + "), record.json")


@click.command("export")
@CAMPAIGN
@click.option("-o", "--output", "output", required=True, metavar="FILE.json", type=click.Path(dir_okay=False),
              help="Where to write the record.")
def export(directory: str, output: str) -> None:
    """Write the campaign's public record as JSON (docs/record.schema.json): settings without
    addresses, every turn's public view and events, revealed seeds and rolls.

    Example: gm export camp -o camp.json
    """
    from gm.store.campaign import Campaign
    from gm.delivery.record import export as write_record
    record = write_record(Campaign(directory), output)
    click.echo(f"Wrote the public record of {len(record['turns'])} turns to {output}")
