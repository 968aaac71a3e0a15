"""A campaign run only by `gm run --send` as the clock moves: four players over ten turns, orders
arriving by mail (a Maildir the campaign fetches) at random times, some late, one player never.
The schedule crosses the end of British Summer Time (2026-10-25)."""
from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from zoneinfo import ZoneInfo

from test_mail_support import maildir_with, message
from test_run_support import gm, mailroom  # noqa: F401  (mailroom is a fixture)

from gm.campaign import Campaign
from gm.engine import new_campaign
from gm.schedule import show_moment

PLAYERS = {"ann": "Ann", "bob": "Bob", "cat": "Cat", "dan": "Dan"}   # dan never sends orders
TURNS = 10
LONDON = ZoneInfo("Europe/London")
GRACE = dt.timedelta(hours=6)
STEP = dt.timedelta(hours=3)


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
    moment — usually in time, sometimes after deadline and grace, once in a while twice."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.seen: set[tuple[str, int]] = set()
        self.plans: list[tuple[dt.datetime, str, int, int]] = []   # when, player, turn, guess
        self.sent: list[tuple[dt.datetime, str, int, int]] = []

    def read_mail(self, room, now: dt.datetime) -> None:
        for to, msg in list(room.received):
            match = re.fullmatch(r"\[camp\] Turn (\d+) report for \w+", str(msg["Subject"]))
            pid = to[0].split("@")[0]
            if not match or (pid, int(match[1])) in self.seen:
                continue
            self.seen.add((pid, int(match[1])))
            turn = int(match[1]) + 1
            if pid == "dan" or turn > TURNS:
                continue
            late = self.rng.random() < 0.15
            hours = self.rng.uniform(50, 70) if late else self.rng.uniform(1, 38)
            self.plans.append((now + dt.timedelta(hours=hours), pid, turn, self.rng.randint(1, 6)))
            if self.rng.random() < 0.2:  # a change of mind a little later
                self.plans.append((now + dt.timedelta(hours=hours + 2), pid, turn, self.rng.randint(1, 6)))

    def post(self, box, now: dt.datetime) -> None:
        due = sorted(p for p in self.plans if p[0] <= now)
        self.plans = [p for p in self.plans if p[0] > now]
        for when, pid, turn, guess in due:
            date = when.strftime("%a, %d %b %Y %H:%M:%S +0000")
            maildir_with(box, message(f"player: {pid}\nturn: {turn}\nguess {guess}\n", sender=address(pid),
                                      date=date, msgid=f"<{pid}-{turn}-{when.timestamp():.0f}@example.org>"))
            self.sent.append((when, pid, turn, guess))


def drive(camp, box, room, bots: Bots):
    """Move the clock in steps; at each: the bots post what is due, then one `gm run --send`.
    Returns the deadlines seen (turn, deadline, when set), when each turn was resolved, and the end."""
    now = dt.datetime(2026, 10, 14, 9, 0, tzinfo=dt.timezone.utc)
    deadlines: list[tuple[int, dt.datetime, dt.datetime]] = []
    resolved_at: dict[int, dt.datetime] = {}
    for _step in range(400):
        bots.post(box, now)
        before = camp.resolved_turns()[-1]
        gm("run", camp.path, "--send", env={"GM_NOW": now.isoformat()})
        camp = Campaign(camp.path)
        if camp.resolved_turns()[-1] != before:
            resolved_at[camp.resolved_turns()[-1]] = now
        if camp.config.get("deadline") and (not deadlines or deadlines[-1][0] != camp.current_turn):
            deadlines.append((camp.current_turn, dt.datetime.fromisoformat(camp.config["deadline"]), now))
        bots.read_mail(room, now)
        if camp.resolved_turns()[-1] == TURNS and not bots.plans:
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
                          if to == [address(pid)] and " report for " in str(m["Subject"]))
        assert reports == {f"[camp] Turn {t} report for {name}": 1 for t in range(TURNS + 1)}, (pid, reports)
    assert all(len(to) == 1 for to, _ in mailroom.received)
    due_by = {t: show_moment(d, LONDON) for t, d, _ in deadlines}
    for _to, msg in mailroom.received:
        match = re.fullmatch(r"\[camp\] Turn (\d+) report for \w+", str(msg["Subject"]))
        if match:
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

    gm("replay", camp.path)
    gm("dice", "verify", camp.path)
    assert gm("run", camp.path, "--send", env={"GM_NOW": now.isoformat()}).output == ""
