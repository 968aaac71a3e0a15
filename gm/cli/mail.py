"""`gm mail ...`: click commands only — fetch orders, send reports, remind, set passwords.

Every command imports the logic it calls inside its own function (lazy, on purpose): `gm --help`
and `gm check` then load only what they use, and start fast."""
from __future__ import annotations

import os
import sys

import click

from gm.cli.common import CAMPAIGN, campaign_at
from gm.store.errors import GMError


@click.group()
def mail() -> None:
    """E-mail in and out: fetch orders and mail commands, send reports, remind, passwords.

    \b
    Examples:
      gm mail fetch camp --maildir ~/Maildir/pbem
      gm mail send camp --send
      gm mail remind camp --send
    """


@mail.command("fetch")
@CAMPAIGN
@click.option("--maildir", metavar="PATH", help="Read this Maildir (instead of mail.inbox in campaign.yaml).")
@click.option("--mbox", metavar="PATH", help="Read this mbox file.")
@click.option("--send", "send", is_flag=True,
              help="Send the replies by SMTP (default: leave them in DIR/outbox/replies/ for you to send).")
def fetch(directory: str, maildir: str | None, mbox: str | None, send: bool) -> None:
    """Fetch new orders and mail commands: keep, check, store, and answer each message.

    Every reply is written to DIR/outbox/replies/ as soon as it is decided; with --send, the
    replies not sent yet (this run's and any an earlier run could not send) go out by SMTP.

    Example: gm mail fetch camp --mbox orders.mbox
    """
    from gm.delivery.mail.inbox import inbox_settings
    from gm.delivery.mail.intake import fetch as fetch_mail
    campaign = campaign_at(directory)
    fetched = fetch_mail(campaign, inbox_settings(campaign, maildir=maildir, mbox=mbox))
    for outcome in fetched.outcomes:
        click.echo(f"{outcome.digest[:12]} {outcome.sender or '?'}: {outcome.line}")
    if not fetched.outcomes:
        click.echo("No new messages.")
    code = _deliver(campaign, send)
    if fetched.failure:
        click.echo(f"Error: {fetched.failure}", err=True)
        sys.exit(2)
    sys.exit(code)


def _deliver(campaign, send: bool) -> int:
    """Send the pending replies, or hand them to the GM; the exit code (1 when some failed)."""
    from gm.delivery.mail.replies import deliver_replies, folder, pending_count
    if not send:
        written = deliver_replies(campaign, send=False).written
        if written:
            click.echo(f"{len(written)} repl{'y' if len(written) == 1 else 'ies'} written to {folder(campaign)}/")
        return 0
    count = pending_count(campaign)
    if not count:
        return 0
    try:
        with click.progressbar(length=count, label="Sending replies", file=sys.stderr) as bar:
            results = deliver_replies(campaign, send=True, on_done=lambda r: bar.update(1)).sent
    except GMError:
        click.echo(f"{count} repl{'y' if count == 1 else 'ies'} kept in {folder(campaign)}/; "
                   "the next run with --send sends them", err=True)
        raise
    return _summary(results)


def _send(campaign, items, what: str) -> int:
    """Send through the one delivery path with a progress bar; the exit code."""
    from gm.delivery.mail.deliver import deliver
    with click.progressbar(length=len(items), label=f"Sending {what}", file=sys.stderr) as bar:
        results = deliver(campaign, items, send=True, on_done=lambda r: bar.update(1))
    return _summary(results)


def _summary(results) -> int:
    failed = []
    for r in results:
        click.echo(f"{r.key}: {r.status}" + (f" ({r.detail})" if r.detail else ""))
        if r.status == "failed":
            failed.append(r)
    sent = sum(r.status == "sent" for r in results)
    refused = sum(r.status == "refused" for r in results)
    click.echo(f"{sent} sent, {len(results) - sent - len(failed) - refused} already sent before, "
               f"{len(failed)} failed" + (f", {refused} refused as unsafe (see mail.log)" if refused else ""))
    if failed:
        click.echo(f"Error: {len(failed)} message(s) not sent; run the command again to retry them", err=True)
    return 1 if failed else 0


@mail.command("send")
@CAMPAIGN
@click.option("--turn", type=int, help="Which turn's reports (default: the last resolved).")
@click.option("--out", "out", metavar="FOLDER", help="Write .eml files here (default: DIR/outbox/turn-NNN/).")
@click.option("--send", "send", is_flag=True, help="Send by SMTP (settings: mail.smtp in campaign.yaml).")
def send_reports(directory: str, turn: int | None, out: str | None, send: bool) -> None:
    """One message per player with their own report, board image and order form.

    Reports go through the same delivery as `gm run`: a report already sent is not sent again,
    and a turn undone (gm rollback) and resolved again is a new report, sent again.

    Example: gm mail send camp --send
    """
    from pathlib import Path

    from gm.delivery.mail.deliver import deliver, report_items
    if out and send:
        raise click.UsageError("give --out FOLDER or --send, not both")
    campaign = campaign_at(directory)
    turn = campaign.check_turn(turn)
    items, notes = report_items(campaign, turn, folder=Path(out) if out else None)
    for note in notes:
        click.echo(note, err=True)
    if send:
        sys.exit(_send(campaign, items, f"turn {turn} reports"))
    # without --send: a copy for the GM to look at or send by hand; --send later still sends
    results = deliver(campaign, items, send=False, hand_over=False)
    folder = items[0].folder if items else Path(out) if out else campaign.path / "outbox" / f"turn-{turn:03d}"
    click.echo(f"{sum(r.status == 'written' for r in results)} message(s) written to {folder}/")


@mail.command("remind")
@CAMPAIGN
@click.option("--send", "send", is_flag=True, help="Send by SMTP (default: write to DIR/outbox/reminders/).")
def remind(directory: str, send: bool) -> None:
    """Remind each player whose orders are missing; never twice for the same deadline.

    Example: gm mail remind camp --send
    """
    from gm.delivery.mail.deliver import deliver, reminder_items
    campaign = campaign_at(directory)
    items, notes = reminder_items(campaign)
    for note in notes:
        click.echo(note)
    if not items:
        click.echo("No reminders to send.")
        return
    if send:
        sys.exit(_send(campaign, items, "reminders"))
    deliver(campaign, items, send=False)
    click.echo(f"{len(items)} reminder(s) written to {items[0].folder}/")


@mail.command("password")
@CAMPAIGN
@click.argument("player")
def password(directory: str, player: str) -> None:
    """Set a player's password (read from $GM_PASSWORD or stdin; stored as a scrypt hash).

    Example: echo 's3cret-word' | gm mail password camp ann
    """
    from gm.delivery.mail.passwords import set_password
    campaign = campaign_at(directory)
    value = os.environ.get("GM_PASSWORD")
    if not value:
        if sys.stdin.isatty():
            value = click.prompt(f"Password for {player}", hide_input=True, confirmation_prompt=True)
        else:
            value = sys.stdin.readline().rstrip("\n")
    set_password(campaign, player, value)
    click.echo(f"Password set for {player} (in {campaign.path / 'secret' / 'passwords.yaml'}, hashed).")
