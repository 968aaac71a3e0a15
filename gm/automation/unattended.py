"""`gm run`: one unattended pass over a campaign, for cron or a systemd timer.

In order: read every setting (a bad one stops this campaign before anything changes); fetch and
answer mail when `mail.inbox` is set; resolve the turn when it is due; deliver the reports of every
turn resolved since the last delivery; deliver queued notices; open a deadline from the schedule
when none is set; remind the missing players `remind:` before the deadline, once per deadline.

Each step is idempotent: a second pass at the same moment finds nothing to do, and messages are
keyed in the sent log (outbox/sent.yaml), so none goes twice. Without --send every message is
written to the outbox as .eml (and logged as handed over), as `gm mail` does.

What happened goes to CAMPAIGN/run.log (one line per action or failure; an idle pass writes
nothing). Delivery bookkeeping is CAMPAIGN/run.yaml.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm import games
from gm.automation.runstate import _write_run_state, forget_delivery, read_run_state  # noqa: F401
from gm.delivery.mail.deliver import (
    Outgoing,
    deliver,
    notice_items,
    press_items,
    reminder_items,
    reply_items,
    report_items,
)
from gm.delivery.mail.inbox import inbox_settings
from gm.delivery.mail.intake import fetch
from gm.delivery.mail.notices import clear_notices, queued_notices
from gm.delivery.mail.settings import MailError, mail_config, secret
from gm.delivery.mail.smtp import smtp_settings
from gm.delivery.site import configured_folder, update
from gm.store.campaign import Campaign
from gm.store.errors import CampaignError, GMError, LockedError, os_error_line
from gm.store.logbook import append_line, check_plain
from gm.store.press import press_mode
from gm.store.settings import check_config, option_settings
from gm.time import clock
from gm.time.deadlines import deadline_status, read_deadline
from gm.time.schedule import (
    campaign_zone,
    next_deadline,
    read_early,
    read_remind,
    read_schedule,
    show_moment,
    write_deadline,
)
from gm.turn.campaign_list import find_campaigns
from gm.turn.engine import resolve


@dataclass
class Pass:
    """What one pass did to one campaign: lines for the screen, and whether it failed."""

    path: str
    lines: list[str] = field(default_factory=list)
    failed: bool = False
    busy: bool = False

    def say(self, campaign: Campaign | None, line: str, *, log: bool = True) -> None:
        self.lines.append(line)
        if log and campaign is not None:
            try:
                run_log(campaign, line)
            except GMError:  # a linked run.log: already said on screen as the pass's error
                self.failed = True
            except OSError as exc:  # a full disk: the line stays on screen, with why it is not in run.log
                self.failed = True
                self.lines.append(f"error: {os_error_line(exc)}")


def run_log(campaign: Campaign, line: str) -> None:
    stamp = clock.now().astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    append_line(campaign.path / "run.log", f"{stamp} {' '.join(line.split())}")


@contextlib.contextmanager
def pass_lock(path: Path) -> Iterator[None]:
    """One `gm run` pass at a time per campaign (an OS lock, released if the process dies). Each
    step inside also takes the campaign's own lock, so `gm submit`/`gm resolve` by hand interleave
    safely between steps."""
    fd = os.open(path / ".run.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LockedError(f"{path}: another gm run is working on this campaign") from None
        yield
    finally:
        os.close(fd)


# ---- delivery bookkeeping ------------------------------------------------------------------
# ---- sending or writing --------------------------------------------------------------------
def _deliver(campaign: Campaign, report: Pass, items: list[Outgoing], send: bool) -> tuple[int, list[str]]:
    """Through the one delivery path: sent by SMTP or written to each message's folder, keys
    already in the sent log skipped. Returns (how many went, keys that failed); a message refused
    as unsafe is one error line (it is never sent, nor retried)."""
    if not items:
        return 0, []
    results = deliver(campaign, items, send=send)
    for refused in (r for r in results if r.status == "refused"):
        report.failed = True
        report.say(campaign, f"error: {refused.key} to {refused.to} refused as unsafe ({refused.detail})")
    went = sum(r.status in ("sent", "written") for r in results)
    return went, [r.key for r in results if r.status == "failed"]


def _fetch(campaign: Campaign, report: Pass, send: bool) -> bool:
    """Fetch and answer mail; False when the mailbox could not be read to the end (no turn is then
    resolved in this pass: orders may be waiting in it)."""
    if not isinstance(mail_config(campaign).get("inbox"), dict):
        return True
    fetched = fetch(campaign, inbox_settings(campaign))
    for outcome in fetched.outcomes:
        report.say(campaign, f"mail from {outcome.sender or '?'}: {outcome.line}")
    # fetch keeps every reply in outbox/replies/ as soon as it is decided; hand them on once
    went, failed = _deliver(campaign, report, reply_items(campaign), send)
    if went or failed:
        report.say(campaign, f"{went} repl{'y' if went == 1 else 'ies'} {'sent' if send else 'written'}"
                   + (f", {len(failed)} not sent (kept for the next run)" if failed else ""))
    if failed:
        report.failed = True
    if fetched.failure:
        report.failed = True
        report.say(campaign, f"error: {fetched.failure}")
        return False
    return True


def _resolve_if_due(campaign: Campaign, report: Pass, now: dt.datetime) -> None:
    info = deadline_status(campaign, now)
    if not info.due:
        return
    early = read_early(campaign) and not info.stale  # an undone turn waits for orders sent again
    all_in = not info.missing
    passed = info.phase == "passed"
    if passed and info.missing and info.policy == "hold":
        report.say(campaign, f"turn {info.turn}: deadline and grace passed without orders from "
                   f"{', '.join(info.missing)}; policy hold: waiting for the GM (gm resolve --force)", log=False)
        return
    if not ((all_in and (early or info.phase in ("grace", "passed"))) or passed):
        return
    result = resolve(campaign, force=passed)  # the pass's one resolve: at most one turn per pass
    why = "every order in" if all_in else "deadline and grace passed"
    report.say(campaign, f"turn {result.turn} resolved ({why})"
               + (f"; missed turn: {', '.join(result.nmr)}" if result.nmr else "")
               + ("; the game is over" if result.finished else ""))
    site = update_site(campaign, result)
    if site:
        report.say(campaign, site)
        report.failed = report.failed or site.startswith("error:")


def update_site(campaign: Campaign, result: Any) -> str | None:
    """With `site: FOLDER` in campaign.yaml, the campaign's website is brought up to date after a
    resolve (only the new turn's pages, the index, dice and record are written). A site that cannot
    be written is one line; the turn stays resolved and the run goes on."""
    try:
        folder = configured_folder(campaign)
        if folder is None:
            return None
        update(campaign, folder)
    except GMError as exc:
        return f"error: site not updated after turn {result.turn}: {exc}"
    return f"site updated after turn {result.turn}: {folder}"


def _deliver_reports(campaign: Campaign, report: Pass, send: bool, first: int) -> None:
    """Reports of every turn after the last delivered; ``first``: where a campaign new to gm run
    starts (its latest turn when the pass began, so a turn resolved in the pass comes after it)."""
    state = read_run_state(campaign)
    last = campaign.last_turn
    start = int(state.get("delivered_through", first - 1)) + 1
    clean = True
    for turn in range(max(start, 0), last + 1):
        items, notes = report_items(campaign, turn)
        went, failed = _deliver(campaign, report, items, send)
        if went or failed:
            report.say(campaign, f"turn {turn} reports: {went} {'sent' if send else 'written to the outbox'}"
                       + (f", {len(failed)} failed (retried next run)" if failed else ""))
        for note in notes if went else []:
            report.say(campaign, f"turn {turn} reports: {note}")
        if failed:
            report.failed, clean = True, False
            break
    if clean and state.get("delivered_through") != last:
        _write_run_state(campaign, dict(state, delivered_through=last))


def _deliver_notices(campaign: Campaign, report: Pass, send: bool) -> None:
    queue = queued_notices(campaign)
    if not queue:
        return
    went, failed = _deliver(campaign, report, notice_items(campaign), send)
    if went or failed:
        report.say(campaign, f"{went} notice(s) {'sent' if send else 'in the outbox'}"
                   + (f", {len(failed)} failed (retried next run)" if failed else ""))
    report.failed = report.failed or bool(failed)
    clear_notices(campaign, {item["key"] for item in queue} - set(failed))


def _deliver_press(campaign: Campaign, report: Pass, send: bool, first: int) -> None:
    """Press received in this pass (or any not yet delivered) goes to its readers now; it still
    shows in the next report and the record."""
    went, failed = _deliver(campaign, report, press_items(campaign, range(first + 1, campaign.current_turn + 1)),
                            send)
    if went or failed:
        report.say(campaign, f"{went} press message(s) {'sent' if send else 'in the outbox'}"
                   + (f", {len(failed)} failed (retried next run)" if failed else ""))
    report.failed = report.failed or bool(failed)


def _open_deadline(campaign: Campaign, report: Pass, now: dt.datetime) -> None:
    """A schedule with no deadline set (a new campaign, or the GM cleared it): open one."""
    with campaign.lock():  # decided and written on campaign.yaml as it is now
        schedule = read_schedule(campaign)
        if schedule is None or read_deadline(campaign) is not None:
            return
        if not games.get(campaign.game_name).due(campaign.state()):
            return
        new = next_deadline(schedule, previous=None, now=now)
        write_deadline(campaign, new)
    report.say(campaign, f"turn {campaign.current_turn}: deadline set from the schedule: "
               f"{show_moment(new, campaign_zone(campaign))}")


def _remind(campaign: Campaign, report: Pass, send: bool, now: dt.datetime) -> None:
    lead = read_remind(campaign)
    if lead is None:
        return
    info = deadline_status(campaign, now)
    if info.deadline is None or not info.missing or info.phase == "passed" or now < info.deadline - lead:
        return
    items, _notes = reminder_items(campaign, now=now)
    went, failed = _deliver(campaign, report, items, send)
    if went or failed:
        report.say(campaign, f"turn {info.turn}: {went} reminder(s) {'sent' if send else 'written'}"
                   + (f", {len(failed)} failed (retried next run)" if failed else ""))
    report.failed = report.failed or bool(failed)


CLOCK_SLACK = dt.timedelta(minutes=5)  # clocks of two machines (or one after NTP) may differ this much


def _clock_agrees(campaign: Campaign, report: Pass, now: dt.datetime) -> bool:
    """Each pass records when it ran (run.yaml `last_pass`); a pass whose clock reads more than a
    few minutes before the last one does nothing (exit 2) until the clock is right: a clock set
    back would open deadlines in the past, which the next correct pass would resolve at once."""
    with campaign.lock():
        state = read_run_state(campaign)
        last = _last_pass(campaign, state)
        if last is not None and now < last - CLOCK_SLACK:
            report.failed = True
            zone = campaign_zone(campaign)  # times as the campaign's mail shows them
            report.say(campaign, f"error: the clock reads {show_moment(now, zone)}, "
                       f"before the last gm run at {show_moment(last, zone)}; "
                       "nothing done until the clock is right (see run.yaml last_pass)", log=False)
            return False
        if last is None or now - last >= dt.timedelta(minutes=1):  # an idle pass writes at most once a minute
            _write_run_state(campaign, dict(state, last_pass=now.astimezone(dt.timezone.utc).isoformat()))
        return True


def _last_pass(campaign: Campaign, state: dict[str, Any]) -> dt.datetime | None:
    value = state.get("last_pass")
    if value in (None, ""):
        return None
    try:
        moment = value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(str(value))
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None or not clock.in_range(moment):
        raise CampaignError(f"{campaign.path / 'run.yaml'}: last_pass {str(value)[:40]!r} is not a moment "
                            "like 2026-12-05T18:00:00+00:00; correct or remove the line")
    return moment


def check_settings(campaign: Campaign, *, send: bool = False) -> None:
    """Read every setting a pass uses, so a bad one fails before anything is fetched, resolved or
    sent: each value by the settings table (gm.store.settings), then as the steps read them — the
    site folder, the inbox, and with --send the SMTP server and its password."""
    game = games.get(campaign.game_name)
    deadline_status(campaign)
    read_schedule(campaign)
    read_early(campaign)
    read_remind(campaign)
    read_run_state(campaign)
    press_mode(campaign)
    check_config(campaign, option_settings(game.options))
    configured_folder(campaign)
    mail = mail_config(campaign)
    if isinstance(mail.get("inbox"), dict):
        inbox = inbox_settings(campaign)
        if inbox["kind"] == "imap":
            if not inbox.get("host") or not inbox.get("user"):
                raise MailError("mail.inbox for imap needs host and user: gm config DIR mail.inbox.host HOST, "
                                "gm config DIR mail.inbox.user USER")
            secret(campaign, inbox, "the IMAP account")
    if send:
        smtp = smtp_settings(campaign)
        if smtp.get("user"):
            secret(campaign, smtp, "the SMTP account")
    for log in ("run.log", "mail.log"):
        check_plain(campaign.path / log)


def campaign_folders(given: tuple[str, ...] | list[str]) -> list[str]:
    """Each DIR as given, except that a folder that is no campaign but holds campaigns stands for them."""
    out: list[str] = []
    for directory in given:
        path = Path(directory)
        found = find_campaigns(path) if path.is_dir() and not (path / "campaign.yaml").exists() else []
        out += [str(p) for p in found] or [directory]
    return out


def run_campaign(path: str | Path, *, send: bool = False) -> Pass:
    """One pass over one campaign; every failure becomes one line, never an exception."""
    report = Pass(str(path))
    campaign = None
    try:
        campaign = Campaign(path)
        with pass_lock(campaign.path):
            check_settings(campaign, send=send)
            now = clock.now()
            if not _clock_agrees(campaign, report, now):
                return report
            first = campaign.last_turn
            if _fetch(campaign, report, send):
                with campaign.lock():  # the decision and the resolve on the campaign as it is now
                    _resolve_if_due(campaign, report, now)
            _open_deadline(campaign, report, now)
            with campaign.lock():  # press, run.yaml, the notice queue: each read, changed and written
                _deliver_press(campaign, report, send, first)  # by one process at a time
            with campaign.lock():
                _deliver_reports(campaign, report, send, first)
            with campaign.lock():
                _deliver_notices(campaign, report, send)
            with campaign.lock():
                _remind(campaign, report, send, now)
    except LockedError as exc:
        report.busy = True
        report.say(None, f"skipped: {exc}")
    except GMError as exc:
        report.failed = True
        report.say(campaign, f"error: {exc}")
    except OSError as exc:  # a fault of the disk or of a file: one line naming it; the turn is whole
        report.failed = True
        report.say(campaign, f"error: {os_error_line(exc)}")
    except Exception as exc:  # one campaign's bug never stops the others
        if os.environ.get("GM_DEBUG"):
            raise
        report.failed = True
        report.say(campaign, f"error: internal error ({type(exc).__name__}: {exc}); rerun with GM_DEBUG=1")
    return report
