"""The command line: the `gm` group and its commands, one module per group of commands (click only:
parse arguments, call the layer below, print).

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import click

from gm.cli import run as cli_run  # running a campaign over time: gm run, deadline, player, rollback, list
from gm.cli.audit import case, dice, replay  # checking a campaign's record
from gm.cli.common import OneLineErrors
from gm.cli.config import config  # every setting by its dotted key
from gm.cli.inbox import inbox  # what players wrote to the GM
from gm.cli.mail import mail
from gm.cli.maps import map_group
from gm.cli.serve import link, serve  # the players' web door
from gm.cli.simulate import simulate
from gm.cli.site import export, site
from gm.cli.turns import SCREEN, check, games, new, resolve, status, submit  # noqa: F401 (SCREEN: the error cap)
from gm.cli.views import report, route, show


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
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


# ---- every command, one module per group of commands -------------------------------------------
for command in (games, new, status, check, submit, resolve,       # the turn (turns.py)
                report, show, route, map_group,                   # what a viewer reads (views.py, maps.py)
                cli_run.run, cli_run.deadline, cli_run.player, cli_run.rollback, cli_run.list_command,
                config, mail, inbox, site, export, serve, link,   # settings, mail, website, web door
                replay, dice, case, simulate):                    # checking the record, cases, self-play
    main.add_command(command)

if __name__ == "__main__":  # pragma: no cover  (python -m gm.cli; python -m gm is gm/__main__.py)
    main()
