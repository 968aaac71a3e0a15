"""`gm map`: draw a campaign's map, or check and draw map files.

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import sys
import click

from gm.cli.common import CAMPAIGN, OneLineErrors, campaign_at


class _MapGroup(OneLineErrors):
    """`gm map DIR -o FILE` draws a campaign; `gm map check|render MAPFILE` work on map files."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["draw", *args]
        return super().parse_args(ctx, args)


@click.group("map", cls=_MapGroup)
def map_group() -> None:
    """Draw a campaign's map (gm map DIR -o FILE.png) or work on map files.

    \b
    Examples:
      gm map camp -o board.png
      gm map check gm/games/railway_rivals/maps/tutorial.yaml
      gm map render gm/games/railway_rivals/maps/tutorial.yaml -o blank.png
    """


@map_group.command("draw")
@CAMPAIGN
@click.option("--turn", type=int, help="Which turn (default: the last resolved).")
@click.option("--player", help="Draw what this player may see.")
@click.option("-o", "--output", "out", required=True, help="FILE.png or FILE.svg")
def map_draw(directory: str, turn: int | None, player: str | None, out: str) -> None:
    """Draw the campaign's map or board.

    Example: gm map draw camp -o board.png
    """
    from gm.turn.engine import resolve_viewer
    from gm.turn.publish import draw
    campaign = campaign_at(directory)
    draw(campaign, turn, resolve_viewer(campaign, player, False), out)
    click.echo(f"Wrote {out}")


@map_group.command("check")
@click.argument("mapfile", type=click.Path(dir_okay=False))
@click.option("--game", "game_name", help="Whose map format (default: from the folder, else a hex map).")
def map_check(mapfile: str, game_name: str | None) -> None:
    """Validate a map file and list every error.

    Example: gm map check gm/games/railway_rivals/maps/tutorial.yaml
    """
    from gm.games.mapfiles import check_map_file
    problems = check_map_file(mapfile, game_name)
    for line in problems:
        click.echo(line, err=True)
    if problems:
        click.echo(f"{len(problems)} error(s)", err=True)
        sys.exit(1)
    click.echo(f"{mapfile}: ok")


@map_group.command("render")
@click.argument("mapfile", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, help="FILE.png or FILE.svg")
@click.option("--game", "game_name", help="Whose map format (default: from the folder, else a hex map).")
def map_render(mapfile: str, out: str, game_name: str | None) -> None:
    """Draw a blank map with every hex number, for authors and for players writing orders.

    Example: gm map render gm/games/railway_rivals/maps/tutorial.yaml -o blank.png
    """
    from gm.games.mapfiles import render_map_file
    render_map_file(mapfile, out, game_name)
    click.echo(f"Wrote {out}")
