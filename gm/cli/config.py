"""`gm config DIR [KEY [VALUE] | --unset KEY]`: every setting of campaign.yaml by its dotted key
(click command only; the table and the checks are in gm.store.settings).

Imports inside the function (lazy, on purpose): `gm --help` and `gm check` start fast."""
from __future__ import annotations

import click

from gm.cli.common import CAMPAIGN, campaign_at


@click.command("config")
@CAMPAIGN
@click.argument("key", required=False)
@click.argument("value", required=False)
@click.option("--unset", "unset", metavar="KEY", help="Remove a setting: it goes back to its default.")
def config(directory: str, key: str | None, value: str | None, unset: str | None) -> None:
    """Every setting of the campaign, or read, change or unset one (checked first; audited).

    \b
    Examples:
      gm config camp                             every setting, its value, default or set
      gm config camp schedule.every              one setting, with what it takes
      gm config camp schedule.every 2d
      gm config camp mail.from "The GM <gm@example.org>"
      gm config camp --unset remind
    """
    from gm import games
    from gm.store import settings
    from gm.store.auditlog import audit
    from gm.time import clock
    campaign = campaign_at(directory)
    extra = settings.option_settings(games.get(campaign.game_name).options)
    if unset is not None and (key is not None or value is not None):
        raise click.UsageError("give either KEY [VALUE] or --unset KEY")
    if key is None and unset is None:
        rows = settings.list_settings(campaign, extra)
        width = max(len(r.key) for r in rows)
        shown = max(len(r.text()) for r in rows)
        click.echo(f"{campaign.name}: {campaign.game_name}"
                   + (f" on {campaign.map_name}" if campaign.map_name else "")
                   + f"; players {', '.join(campaign.player_ids)} (gm player changes them)")
        for row in rows:
            click.echo(f"  {row.key:<{width}}  {row.text():<{shown}}  {row.source}")
        return

    def record(action: str, **details) -> None:
        audit(campaign, action, at=clock.stamp(), **details)

    if unset is not None:
        old, _ = settings.change_setting(campaign, unset, settings.UNSET, extra, audit=record)
        shown = settings.show_setting(campaign, unset, extra)
        click.echo(f"{unset}: unset" + ("" if old is not settings.UNSET else " (it was not set)")
                   + f"; default: {shown.text()}")
        return
    if value is None:
        row = settings.show_setting(campaign, key, extra)
        click.echo(f"{row.key} = {row.text()} ({row.source})")
        click.echo(f"  takes {row.setting.kind}: {row.setting.help}"
                   + (f"; changed by `{row.setting.managed_by}`" if row.setting.managed_by else ""))
        return
    old, new = settings.change_setting(campaign, key, value, extra, audit=record)
    before = "unset" if old is settings.UNSET else settings.show_value(old)
    click.echo(f"{key}: {settings.show_value(new)}" + ("" if old == new else f" (was {before})"))
