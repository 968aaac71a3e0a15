"""What every module of click commands shares: the campaign folder argument, opening it, and the
group that turns every error into one line.

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import sys

import click

from gm.store.errors import GMError

CAMPAIGN = click.argument("directory", metavar="DIR", type=click.Path(file_okay=False))


def campaign_at(directory: str):
    from gm.store.campaign import Campaign
    return Campaign(directory)


class OneLineErrors(click.Group):
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
