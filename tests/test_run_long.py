"""A campaign run only by `gm run --send` as the clock moves: four players over ten turns, orders
and mail commands (help, status, orders, resend [TURN], press to one player or to all) arriving by
mail (a Maildir the campaign fetches) at random times, some late; one player never sends orders.
The schedule crosses the end of British Summer Time (2026-10-25)."""
from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from zoneinfo import ZoneInfo

from test_mail_support import maildir_with, message
from test_run_support import gm, mailroom  # noqa: F401  (mailroom is a fixture)

from gm.store.campaign import Campaign
from gm.turn.engine import new_campaign
from gm.time.schedule import show_moment

PLAYERS = {"ann": "Ann", "bob": "Bob", "cat": "Cat", "dan": "Dan"}   # dan never sends orders
TURNS = 10
LONDON = ZoneInfo("Europe/London")
GRACE = dt.timedelta(hours=6)
STEP = dt.timedelta(hours=3)
KINDS = ("help", "status", "orders", "orders", "resend", "resend", "press", "press", "press")   # weighted
REPORT = r"\[camp\] Turn (\d+) report for \w+"


def address(pid: str) -> str:
    return f"{pid}@example.org"


def setup_campaign(tmp_path, port: int):
    camp = new_campaign(tmp_path / "camp", "guess", [f"{p}:{n}:{address(p)}" for p, n in PLAYERS.items()],
                        options={"turns": TURNS}, master=bytes(range(32)))
    box = maildir_with(tmp_path / "Maildir")
    with open(camp.path / "campaign.yaml", "a", encoding="utf-8") as handle:
        handle.write(f"""schedule: {{every: 2d, at: "18:00", zone: Europe/London}}
grace: 6h
early: true
remind: 12h
mail:
  from: GM <gm@example.org>
  inbox: {{kind: maildir, path: {box}}}
  smtp: {{host: 127.0.0.1, port: {port}, security: none, retry_delay: 0, attempts: 1}}
""")
    return Campaign(camp.path), box


class Bots:
    """Each bot reads its mail; on a new report it plans its orders for the next turn at a random
    moment (usually in time, sometimes after deadline and grace, once in a while twice) and, often,
    a mail command at another random moment."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.seen: set[tuple[str, int]] = set()
        self.plans: list[tuple[dt.datetime, str, int, int]] = []   # when, player, turn, guess
        self.sent: list[tuple[dt.datetime, str, int, int]] = []
        self.asks: list[tuple[dt.datetime, str, str, int]] = []     # when, player, kind, number
        self.commands: list[dict] = []                              # every command mailed

    def read_mail(self, room, now: dt.datetime) -> None:
        for to, msg in list(room.received):
            match = re.fullmatch(r"\[camp\] Turn (\d+) report for \w+", str(msg["Subject"]))
            pid = to[0].split("@")[0]
            if not match or msg["In-Reply-To"] or (pid, int(match[1])) in self.seen:
                continue
            self.seen.add((pid, int(match[1])))
            turn = int(match[1]) + 1
            late = self.rng.random() < 0.15
            hours = self.rng.uniform(50, 70) if late else self.rng.uniform(1, 38)
            kind = self.rng.choice(KINDS)
            asked = hours + 0.5 if kind == "orders" and self.rng.random() < 0.5 else self.rng.uniform(1, 45)
            self.asks.append((now + dt.timedelta(hours=asked), pid, kind, int(match[1])))
            if pid == "dan" or turn > TURNS:
                continue
            self.plans.append((now + dt.timedelta(hours=hours), pid, turn, self.rng.randint(1, 6)))
            if self.rng.random() < 0.2:  # a change of mind a little later
                self.plans.append((now + dt.timedelta(hours=hours + 2), pid, turn, self.rng.randint(1, 6)))

    def post(self, box, now: dt.datetime, turn: int) -> None:
        """Mail what is due; ``turn``: the turn being played (the fetch comes before any resolve)."""
        due = sorted(p for p in self.plans if p[0] <= now)
        self.plans = [p for p in self.plans if p[0] > now]
        for when, pid, order_turn, guess in due:
            msgid = f"<{pid}-{order_turn}-{when.timestamp():.0f}@example.org>"
            maildir_with(box, message(f"player: {pid}\nturn: {order_turn}\nguess {guess}\n", sender=address(pid),
                                      date=_date(when), msgid=msgid))
            self.sent.append((when, pid, order_turn, guess))
        asks = sorted(a for a in self.asks if a[0] <= now)
        self.asks = [a for a in self.asks if a[0] > now]
        for when, pid, kind, seen_turn in asks:
            self._command(box, when, pid, kind, seen_turn, turn)

    def _command(self, box, when, pid, kind, seen_turn, turn) -> None:
        n = len(self.commands)
        entry = {"when": when, "player": pid, "kind": kind, "turn": turn, "msgid": f"<cmd-{n}@example.org>"}
        if kind == "resend":
            entry["asked"] = self.rng.choice((None, self.rng.randint(0, seen_turn), seen_turn + 5))
            kind = "resend" if entry["asked"] is None else f"resend {entry['asked']}"
        if kind == "press":
            others = [p for p in PLAYERS if p != pid]
            entry["to"] = self.rng.choice(others + ["all", "all"])
            entry["mark"] = f"note-{n}"
            written = PLAYERS.get(entry["to"], "all") if self.rng.random() < 0.5 else entry["to"]
            kind = f"press {written}: {entry['mark']} from {PLAYERS[pid]}"
        in_subject = self.rng.random() < 0.5
        maildir_with(box, message("" if in_subject else f"{kind}\n", subject=kind if in_subject else "gm",
                                  sender=address(pid), date=_date(when), msgid=entry["msgid"]))
        self.commands.append(entry)


def _date(when: dt.datetime) -> str:
    return when.strftime("%a, %d %b %Y %H:%M:%S +0000")


def drive(camp, box, room, bots: Bots):
    """Move the clock in steps; at each: the bots post what is due, then one `gm run --send`.
    Returns the deadlines seen (turn, deadline, when set), when each turn was resolved, and the end."""
    now = dt.datetime(2026, 10, 14, 9, 0, tzinfo=dt.timezone.utc)
    deadlines: list[tuple[int, dt.datetime, dt.datetime]] = []
    resolved_at: dict[int, dt.datetime] = {}
    for _step in range(400):
        bots.post(box, now, camp.current_turn)
        before = camp.resolved_turns()[-1]
        gm("run", camp.path, "--send", env={"GM_NOW": now.isoformat()})
        camp = Campaign(camp.path)
        if camp.resolved_turns()[-1] != before:
            resolved_at[camp.resolved_turns()[-1]] = now
        if camp.config.get("deadline") and (not deadlines or deadlines[-1][0] != camp.current_turn):
            deadlines.append((camp.current_turn, dt.datetime.fromisoformat(camp.config["deadline"]), now))
        bots.read_mail(room, now)
        if camp.resolved_turns()[-1] == TURNS and not bots.plans and not bots.asks:
            break
        now += STEP
    return camp, deadlines, resolved_at, now


def test_ten_turns_driven_only_by_gm_run(tmp_path, mailroom):  # noqa: F811 (fixture)
    camp, box = setup_campaign(tmp_path, mailroom.port)
    bots = Bots(random.Random(2026))
    camp, deadlines, resolved_at, now = drive(camp, box, mailroom, bots)
    assert camp.resolved_turns() == list(range(TURNS + 1)), "the campaign did not finish"
    assert camp.config.get("deadline") is None   # the game is over: no deadline left behind

    # every player got every report exactly once, and only their own
    for pid, name in PLAYERS.items():
        reports = Counter(str(m["Subject"]) for to, m in mailroom.received
                          if to == [address(pid)] and " report for " in str(m["Subject"]) and not m["In-Reply-To"])
        assert reports == {f"[camp] Turn {t} report for {name}": 1 for t in range(TURNS + 1)}, (pid, reports)
    assert all(len(to) == 1 for to, _ in mailroom.received)
    due_by = {t: show_moment(d, LONDON) for t, d, _ in deadlines}
    for _to, msg in mailroom.received:
        match = re.fullmatch(r"\[camp\] Turn (\d+) report for \w+", str(msg["Subject"]))
        if match and not msg["In-Reply-To"]:  # (a report sent again answers a resend)
            text = msg.get_body(("plain",)).get_content()
            turn = int(match[1])
            top = f"Orders for turn {turn + 1} are due by {due_by[turn + 1]}." if turn < TURNS else "Guess"
            assert text.startswith(top), text[:200]
            assert "are due by" not in text or turn < TURNS

    # deadlines follow the schedule: 18:00 London time, two days apart (or a multiple), set in the future
    assert [t for t, _, _ in deadlines] == list(range(1, TURNS + 1))
    for (_, deadline, set_at), (_, following, _) in zip(deadlines, deadlines[1:] + [deadlines[-1]]):
        local = deadline.astimezone(LONDON)
        assert (local.hour, local.minute) == (18, 0) and deadline > set_at
        assert (following.astimezone(LONDON).date() - local.date()).days % 2 == 0
    utc_hours = {d.astimezone(dt.timezone.utc).hour for _, d, _ in deadlines}
    assert utc_hours == {17, 18}, "the schedule should cross the end of summer time"

    # each turn was resolved when due: all in (never, as dan never writes) or deadline + grace passed
    for turn, deadline, _ in deadlines:
        assert deadline + GRACE <= resolved_at[turn] < deadline + GRACE + STEP

    # the orders applied are the last ones each bot sent in time; late ones were refused
    late_refusals = 0
    for turn, _deadline, _ in deadlines:
        state = camp.state(turn)
        for pid in ("ann", "bob", "cat"):
            timely = [g for when, p, t, g in bots.sent if p == pid and t == turn and when <= resolved_at[turn]]
            assert state["guesses"][pid] == (timely[-1] if timely else None), (turn, pid)
            late_refusals += any(p == pid and t == turn and when > resolved_at[turn] for when, p, t, _ in bots.sent)
        assert state["guesses"]["dan"] is None
    assert late_refusals >= 1, "the random times should make some orders late"
    refused = [m for to, m in mailroom.received if "NOT stored" in str(m["Subject"])]
    assert len(refused) >= late_refusals

    # dan is reminded once per deadline, never twice
    reminders = Counter(str(m["Subject"]) for to, m in mailroom.received
                        if to == [address("dan")] and "Reminder" in str(m["Subject"]))
    assert len(reminders) == TURNS and set(reminders.values()) == {1}

    check_commands(camp, bots, mailroom)
    check_press(camp, bots, mailroom)
    gm("replay", camp.path)
    gm("dice", "verify", camp.path)
    assert gm("run", camp.path, "--send", env={"GM_NOW": now.isoformat()}).output == ""


def expected_subject(bots: Bots, command: dict) -> str:
    """What the answer to one mail command is called, worked out from what the bots sent."""
    pid, turn, kind = command["player"], command["turn"], command["kind"]
    if kind == "help":
        return "[camp] Help"
    if kind == "status":
        return f"[camp] Status of turn {turn}"
    if kind == "orders":
        return f"[camp] {'Your orders' if stored_guess(bots, command) else 'No orders stored'} for turn {turn}"
    if kind == "resend":
        asked = turn - 1 if command["asked"] is None else command["asked"]
        return f"[camp] Turn {asked} report for {PLAYERS[pid]}" if asked < turn else "[camp] Report not sent"
    if turn > TURNS:
        return "[camp] Press not sent"
    return f"[camp] Press to {PLAYERS.get(command['to'], 'all players')} recorded"


def stored_guess(bots: Bots, command: dict) -> int | None:
    """The guess stored for the command's sender when it was read: their last orders for that turn
    dated before it (orders and commands of one fetch are read in Date order)."""
    mine = [g for when, p, t, g in bots.sent
            if p == command["player"] and t == command["turn"] and when <= command["when"]]
    return mine[-1] if mine else None


def check_commands(camp, bots: Bots, room) -> None:
    """Every command answered exactly once, to its sender only, with what was asked."""
    kinds = Counter(c["kind"] for c in bots.commands)
    assert set(kinds) == {"help", "status", "orders", "resend", "press"} and len(bots.commands) >= 40, kinds
    assert any(c["kind"] == "orders" and stored_guess(bots, c) for c in bots.commands)
    assert {expected_subject(bots, c) == "[camp] Report not sent" for c in bots.commands if c["kind"] == "resend"} \
        == {True, False}
    answers: dict[str, list] = {}
    for to, msg in room.received:
        if msg["In-Reply-To"]:
            answers.setdefault(str(msg["In-Reply-To"]), []).append((to, msg))
    for command in bots.commands:
        got = answers.get(command["msgid"], [])
        assert len(got) == 1, (command, [str(m["Subject"]) for _, m in got])
        [(to, msg)] = got
        assert to == [address(command["player"])], command
        assert str(msg["Subject"]) == expected_subject(bots, command), (command, str(msg["Subject"]))
        if command["kind"] == "orders" and stored_guess(bots, command):
            assert f"guess {stored_guess(bots, command)}" in msg.get_body(("plain",)).get_content()
    log = (camp.path / "mail.log").read_text()
    assert log.count("command ") == len(bots.commands)


def check_press(camp, bots: Bots, room) -> None:
    """Each press reaches exactly its recipients' (and its sender's) report of the turn it was sent
    in; the public report shows only press to all; the GM's report shows every one."""
    press = [c for c in bots.commands if c["kind"] == "press" and c["turn"] <= TURNS]
    assert {c["to"] == "all" for c in press} == {True, False}
    mails = {(to[0].split("@")[0], int(m[1])): msg for to, msg in room.received
             if not msg["In-Reply-To"] and (m := re.fullmatch(REPORT, str(msg["Subject"])))}
    for turn in range(1, TURNS + 1):
        sent = [c for c in press if c["turn"] == turn]
        for viewer in [*PLAYERS, "public", "gm"]:
            if viewer in PLAYERS:
                text = mails[(viewer, turn)].get_body(("plain",)).get_content()
                wanted = {c["mark"] for c in sent if viewer in (c["to"], c["player"]) or c["to"] == "all"}
            else:
                text = (camp.turn_dir(turn) / "reports" / f"{viewer}.txt").read_text()
                wanted = {c["mark"] for c in sent if viewer == "gm" or c["to"] == "all"}
            assert set(re.findall(r"note-\d+", text)) == wanted, (turn, viewer)
        gm_report = (camp.turn_dir(turn) / "reports" / "gm.txt").read_text()
        assert all(f"{c['mark']} from {PLAYERS[c['player']]}" in gm_report for c in sent)
