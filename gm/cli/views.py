"""What a viewer reads: `gm report`, `gm show`, and `gm route` (a game's route advice).

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import json

import click

from gm.cli.common import CAMPAIGN, campaign_at


@click.command()
@CAMPAIGN
@click.option("--turn", type=int, help="Which turn (default: the last resolved).")
@click.option("--player", help="The report this player reads.")
@click.option("--public", is_flag=True, help="The public report (forum).")
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "markdown", "bbcode", "html"]))
@click.option("--image-url", "image_base", metavar="URL",
              help="Reference images at URL/turnNNN-NAME.png (forum posts).")
@click.option("--forum-images", "forum_folder", metavar="FOLDER",
              help="Write forum-sized copies of the images there (at most 800 px wide, 500 kB), to upload.")
def report(directory: str, turn: int | None, player: str | None, public: bool, fmt: str,
           image_base: str | None, forum_folder: str | None) -> None:
    """Print a turn's report as one viewer sees it (GM's by default).

    \b
    Examples:
      gm report camp --player ann --format markdown
      gm report camp --public --format bbcode --image-url https://example.org/camp --forum-images up/
    """
    from gm.turn.engine import resolve_viewer
    from gm.turn.publish import report_text
    campaign = campaign_at(directory)
    click.echo(report_text(campaign, turn, resolve_viewer(campaign, player, public), fmt,
                           image_base=image_base, forum_folder=forum_folder), nl=False)


@click.command()
@CAMPAIGN
@click.option("--turn", type=int, help="Which turn (default: the last resolved).")
@click.option("--player", help="Show what this player may see.")
@click.option("--public", is_flag=True, help="Show what anyone may see.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (the stable form for scripts).")
def show(directory: str, turn: int | None, player: str | None, public: bool, as_json: bool) -> None:
    """The state as a viewer sees it (the GM's view by default).

    Example: gm show camp --player ann --json
    """
    from gm.turn.engine import resolve_viewer
    from gm.turn.engine import show as show_state
    campaign = campaign_at(directory)
    data = show_state(campaign, turn, resolve_viewer(campaign, player, public))
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        from gm.store.fileio import dump_yaml
        click.echo(dump_yaml(data), nl=False)


@click.command()
@CAMPAIGN
@click.argument("origin", metavar="FROM")
@click.argument("destination", metavar="TO")
@click.option("--player", required=True, help="Whose routes (their own track runs free).")
def route(directory: str, origin: str, destination: str, player: str) -> None:
    """The fastest and the cheapest route between two places, with fees and expected turns.

    Example: gm route camp Isengard Edoras --player blue
    """
    from gm.turn.engine import route_advice
    click.echo(route_advice(campaign_at(directory), player, origin, destination))
