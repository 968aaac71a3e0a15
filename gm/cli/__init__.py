"""The command line: click commands only. Parse arguments, call the engine, print.

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import json
import sys

import click

from gm.cli.common import CAMPAIGN, campaign_at
from gm.store.errors import GMError


class _Group(click.Group):
    """Turns every GMError into one line on stderr with its exit code, never a traceback."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except GMError as exc:
            for line in str(exc).splitlines() or [type(exc).__name__]:
                click.echo(f"Error: {line}" if not _located(line) else line, err=True)
            ctx.exit(exc.exit_code)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except BrokenPipeError:  # `gm report ... | head`: the reader has gone, nothing to say
            import os
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(0)
        except OSError as exc:  # a fault of the disk or of a file (full, read-only, a folder for a file)
            from gm.store.errors import os_error_line
            click.echo(f"Error: {os_error_line(exc)}", err=True)
            ctx.exit(2)
        except Exception as exc:  # a bug: still one line, the traceback only on request
            import os
            if os.environ.get("GM_DEBUG"):
                raise
            click.echo(f"Error: internal error ({type(exc).__name__}: {exc}); "
                       "rerun with GM_DEBUG=1 for details and report it", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            click.echo("Error: interrupted; the campaign is unchanged unless a turn finished writing", err=True)
            ctx.exit(2)


def _located(line: str) -> bool:
    head = line.split(": ", 1)[0]
    return head.count(":") >= 1 and head.rsplit(":", 1)[-1].isdigit()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gm")
def main() -> None:
    """gm — a game master's tool for play-by-email board-game campaigns.

    \b
    Typical turn:
      gm new network camp --player ann --player bob
      gm check camp orders/ann.txt        # tell a player what is wrong
      gm submit camp orders/ann.txt       # store clean orders for this turn
      gm resolve camp                     # roll, resolve, write reports
      gm report camp --player ann         # what Ann reads
    """


@main.command()
def games() -> None:
    """List the games, their maps and options.

    Example: gm games
    """
    from gm import games as registry
    for game in registry.all_games():
        span = (game.min_players if game.min_players == game.max_players
                else f"{game.min_players}-{game.max_players}")
        click.echo(f"{game.name} — {game.title} ({span} players"
                   f"{', sequential' if game.sequential else ', simultaneous'})")
        if game.maps():
            click.echo(f"  maps: {', '.join(game.maps())}")
        for key, opt in sorted(game.options.items()):
            choices = f" [{'|'.join(str(c) for c in opt.choices)}]" if opt.choices else ""
            click.echo(f"  --option {key}=… (default {opt.default!r}){choices}: {opt.help}")


@main.command()
@click.argument("game")
@CAMPAIGN
@click.option("--player", "players", multiple=True, required=True, metavar="ID[:NAME[:EMAIL]]",
              help="A player, in seat order; repeat for each. A ':' inside NAME is written '\\:'.")
@click.option("--map", "map_name", help="A shipped map's name or a map file.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A game option; repeatable.")
@click.option("--name", help="The campaign's name in reports (default: the folder's name).")
@click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE",
              help="Any setting by its dotted key (gm config lists them); repeatable.")
def new(game: str, directory: str, players: tuple[str, ...], map_name: str | None,
        options: tuple[str, ...], name: str | None, assignments: tuple[str, ...]) -> None:
    """Start a campaign in a new folder DIR.

    \b
    Examples:
      gm new network camp --player ann:Ann:ann@example.org --player bob
      gm new network camp --player ann --player bob --set schedule.every=7d --set early=true
    """
    from gm import games as registry
    from gm.store import settings
    from gm.store.auditlog import audit
    from gm.store.players import labelled
    from gm.time import clock
    from gm.turn.engine import new_campaign, parse_option_specs, status
    extra = settings.option_settings(registry.get(game).options)
    chosen = settings.parse_assignments(assignments, extra)  # every value checked before anything is written
    settings.apply_assignments({}, chosen)
    campaign = new_campaign(directory, game, list(players), map_name=map_name,
                            options=parse_option_specs(list(options)), name=name)
    for key, value in chosen.items():
        settings.change_setting(campaign, key, value, extra,
                                audit=lambda action, **details: audit(campaign, action, at=clock.stamp(),
                                                                      **details))
    info = status(campaign)
    click.echo(f"Created {campaign.path} ({campaign.game_name}); turn {info['turn']} waits for: "
               f"{', '.join(labelled(campaign.players, info['due'])) or 'nobody'}. "
               f"Reports for the set-up: {campaign.path}/turns/000/reports/")
    for warning in campaign.setup_warnings():
        click.echo(warning, err=True)


@main.command()
@CAMPAIGN
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def status(directory: str, as_json: bool) -> None:
    """Turn, phase, whose orders are due and in, deadline.

    Example: gm status camp
    """
    from gm.delivery.mail.automatic import bounce_lines
    from gm.turn.engine import status as campaign_status
    from gm.time.schedule import deadline_lines, timing_json
    campaign = campaign_at(directory)
    info = campaign_status(campaign)
    bounced = bounce_lines(campaign)  # report mail that came back from a player's server
    if as_json:
        click.echo(json.dumps(dict(info, timing=timing_json(campaign), bounces=bounced), indent=2))
        return
    rows = deadline_lines(campaign)  # read every setting before printing: an error is then the only line
    if info["finished"]:
        click.echo(f"{info['campaign']} ({info['game']}): the game is over after turn {info['last_resolved']}; "
                   f"{info['summary']}")
        return
    click.echo(f"{info['campaign']} ({info['game']}): turn {info['turn']}, {info['summary']}")
    from gm.store.players import labelled
    click.echo(f"  orders in:      {', '.join(labelled(campaign.players, info['in'])) or '-'}")
    click.echo(f"  orders missing: {', '.join(labelled(campaign.players, info['missing'])) or '-'}")
    for label, text in rows:
        click.echo(f"  {label + ':':<15} {text}")
    for line in bounced:
        click.echo(f"  {line}")


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


SCREEN = 20  # errors listed per file by gm check / gm submit, then "and N more errors from line L on"


def _print_checked(results, campaign, *, stored: bool | None = None) -> int:
    """Each file's errors, at most a screenful per file (the rest counted in one last line)."""
    from gm.store.errors import located_lines
    from gm.store.players import labelled
    bad = 0
    for r in results:
        for line in located_lines(r.problems, SCREEN):
            click.echo(line, err=True)
        if r.ok:
            what = "stored" if stored else "ok"
            click.echo(f"{r.file}: {what}, orders of {labelled(campaign.players, [r.player])[0]}")
            for note in r.notes:
                click.echo(f"  {note}")
        else:
            bad += 1
    if bad:
        n = sum(len(r.problems) for r in results)
        click.echo(f"{_count(n, 'error')} in {_count(bad, 'file')}" + ("; nothing stored" if stored is False else ""),
                   err=True)
    return 1 if bad else 0


@main.command()
@CAMPAIGN
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--player", help="Whose orders (when a file has no 'player:' header).")
def check(directory: str, files: tuple[str, ...], player: str | None) -> None:
    """Check order files only; exit 1 if any has an error.

    Example: gm check camp orders/ann.txt
    """
    from gm.turn.engine import check_files
    campaign = campaign_at(directory)
    sys.exit(_print_checked(check_files(campaign, list(files), player), campaign))


@main.command()
@CAMPAIGN
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--player", help="Whose orders (when a file has no 'player:' header).")
@click.option("--force", is_flag=True, help="Store orders even with errors (recorded for the GM).")
@click.option("--as-gm", "as_gm", is_flag=True, help="The GM enters or edits these orders (kept in the audit log).")
def submit(directory: str, files: tuple[str, ...], player: str | None, force: bool, as_gm: bool) -> None:
    """Check and store orders for the current turn (a later file replaces an earlier one).

    Example: gm submit camp orders/ann.txt
    """
    from gm.turn.engine import submit_files
    campaign = campaign_at(directory)
    results = submit_files(campaign, list(files), player, force=force, as_gm=as_gm)
    clean = all(r.ok for r in results)
    code = _print_checked(results, campaign, stored=True if (clean or force) else False)
    if force and not clean:
        click.echo("stored with errors (--force): the GM must settle them before resolving", err=True)
    sys.exit(code)


@main.command()
@CAMPAIGN
@click.option("--force", is_flag=True, help="Resolve with missing orders (the missed-turn policy applies).")
def resolve(directory: str, force: bool) -> None:
    """Resolve the current turn: roll the dice, apply all orders, write state and reports.

    Example: gm resolve camp
    """
    from gm.turn.engine import resolve as resolve_turn
    campaign = campaign_at(directory)
    result = resolve_turn(campaign, force=force)
    from gm.store.players import labelled
    missed = ", ".join(labelled(campaign.players, result.nmr))
    click.echo(f"Turn {result.turn} resolved." + (f" Missed turn: {missed}." if result.nmr else ""))
    for event in result.events:
        if event.get("text") and not event.get("private"):
            click.echo(f"  {event['text']}")
    click.echo(f"Reports: {campaign.turn_dir(result.turn) / 'reports'}/")
    if result.finished:
        click.echo("The game is over.")


@main.command()
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


class _MapGroup(_Group):
    """`gm map DIR -o FILE` draws a campaign; `gm map check|render MAPFILE` work on map files."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["draw", *args]
        return super().parse_args(ctx, args)


@main.group("map", cls=_MapGroup)
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


@main.command()
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


@main.command()
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


# ---- commands kept in modules of their own ----------------------------------------------------
from gm.cli import run as cli_run  # noqa: E402  (running a campaign over time: gm run, deadline, player, rollback, list)
from gm.cli.audit import case, dice, replay  # noqa: E402  (checking a campaign's record: gm replay, dice, case)
from gm.cli.config import config  # noqa: E402  (gm config: every setting by its dotted key)
from gm.cli.inbox import inbox  # noqa: E402  (gm inbox: what players wrote to the GM)
from gm.cli.mail import mail  # noqa: E402  (gm mail ...)
from gm.cli.simulate import simulate  # noqa: E402
from gm.cli.site import export, site  # noqa: E402  (gm site, gm export)
from gm.cli.serve import link, serve  # noqa: E402  (gm serve, gm link: the players' web door)

for command in (mail, inbox, simulate, cli_run.run, cli_run.deadline, cli_run.player, cli_run.rollback,
                cli_run.list_command, site, export, replay, dice, case, config, serve, link):
    main.add_command(command)

if __name__ == "__main__":  # pragma: no cover  (python -m gm.cli; python -m gm is gm/__main__.py)
    main()
