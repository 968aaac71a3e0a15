"""What every module of click commands shares: the campaign folder argument, and opening it.

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import click

CAMPAIGN = click.argument("directory", metavar="DIR", type=click.Path(file_okay=False))


def campaign_at(directory: str):
    from gm.store.campaign import Campaign
    return Campaign(directory)
