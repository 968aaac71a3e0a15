"""A turn's own commands: `gm games`, `gm new`, `gm status`, `gm check`, `gm submit`, `gm resolve`.

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import sys
import json

import click

from gm.cli.common import CAMPAIGN, campaign_at


@click.command()
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


@click.command()
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


@click.command()
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


@click.command()
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


@click.command()
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


@click.command()
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
