"""Issue 24, "done when": a campaign built only from commands (`gm new --set`, `gm config`; nobody
opens campaign.yaml), run by `gm run --send` through a month of GM_NOW with two undos and a
replacement. Players mail their orders to a Maildir the campaign fetches; an aiosmtpd server on
127.0.0.1 receives what gm sends."""
from __future__ import annotations

import datetime as dt
import json

import yaml
from test_mail_support import maildir_with, message
from test_run_support import gm, mailroom  # noqa: F401  (mailroom is a fixture)

from gm.store.auditlog import read_audit
from gm.store.campaign import Campaign
from gm.time.deadlines import read_deadline

START = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.timezone.utc)
STEP = dt.timedelta(hours=3)
SEATS = {"ann": "ann@example.org", "bob": "bob@example.org", "cat": "cat@example.org"}


def _date(when: dt.datetime) -> str:
    return when.strftime("%a, %d %b %Y %H:%M:%S +0000")


def make_campaign(tmp_path, port: int):
    camp = tmp_path / "camp"
    box = maildir_with(tmp_path / "Maildir")
    env = {"GM_NOW": START.isoformat()}
    gm("new", "guess", camp, *[f"--player={p}:{p.title()}:{a}" for p, a in SEATS.items()], "--option", "turns=20",
       "--set", "schedule.every=2d", "--set", "schedule.at=20:00", "--set", "schedule.zone=Europe/London",
       "--set", "early=true", "--set", "remind=1d", "--set", "grace=6h", "--set", "nmr_policy=default",
       "--set", "mail.from=The GM <gm@example.org>", env=env)
    for key, value in (("mail.inbox.kind", "maildir"), ("mail.inbox.path", str(box)), ("site", "www"),
                       ("site_url", "https://pbem.example.org/camp"), ("press", "grey"),
                       ("mail.smtp.host", "127.0.0.1"), ("mail.smtp.port", str(port)),
                       ("mail.smtp.security", "none"), ("mail.smtp.retry_delay", "0"), ("mail.smtp.attempts", "1")):
        gm("config", camp, key, value, env=env)
    return camp, box


def test_settings_are_checked_listed_and_audited_without_touching_the_file(tmp_path, mailroom):  # noqa: F811
    camp, _box = make_campaign(tmp_path, mailroom.port)
    config = yaml.safe_load((camp / "campaign.yaml").read_text())
    assert config["schedule"] == {"every": "2d", "at": "20:00", "zone": "Europe/London"}
    assert (config["early"], config["remind"], config["grace"], config["nmr_policy"]) == (True, "1d", "6h", "default")
    assert config["mail"]["inbox"]["kind"] == "maildir" and config["mail"]["smtp"]["port"] == mailroom.port
    listing = gm("config", camp).output
    rows = {line.split()[0]: line.split() for line in listing.splitlines()[1:]}
    assert rows["schedule.every"][1:] == ["2d", "set"] and rows["passwords"][1:] == ["false", "default"]
    assert rows["press"][1:] == ["grey", "set"] and rows["mail.inbox.folder"][1:] == ["INBOX", "default"]
    assert "takes true|false" in gm("config", camp, "early").output

    before = (camp / "campaign.yaml").read_bytes()
    for args, words in ((["schedule.every", "weekly"], "schedule.every: 'weekly' is not a number of days"),
                        (["schedule.evry", "3d"], 'did you mean "schedule.every"?'),
                        (["schedule.zone", "Europe/Londn"], 'did you mean "Europe/London"?'),
                        (["schedule.at", "25:00"], 'is not a time of day like "18:00"'),
                        (["mail.from", "nobody"], "is not an address"),
                        (["schedule.turn_length", "3d"], "--unset schedule.every"),
                        (["mail.smtp.password", "hunter2"], "a password is never written in campaign.yaml"),
                        (["deadline", "2027-01-01T00:00Z"], "gm deadline"),
                        (["options.turns", "many"], "options.turns: 'many' is not")):
        result = gm("config", camp, *args, code=2)
        assert len(result.output.splitlines()) == 1 and words in result.output, result.output
    bad = gm("new", "guess", tmp_path / "other", "--player", "ann", "--player", "bob", "--set", "early=maybe", code=2)
    assert "early: 'maybe' is not true or false" in bad.output and not (tmp_path / "other").exists()
    assert (camp / "campaign.yaml").read_bytes() == before

    changes = [e for e in read_audit(Campaign(camp)) if e["action"] == "config"]
    assert {"key": "schedule.every", "old": None, "new": "2d"} in [{k: e[k] for k in ("key", "old", "new")}
                                                                   for e in changes]
    assert len(changes) == 7 + 10  # each --set (nmr_policy=default changes nothing) and each gm config
    gm("config", camp, "--unset", "press")
    assert "press" not in yaml.safe_load((camp / "campaign.yaml").read_text())
    assert read_audit(Campaign(camp))[-1] | {"at": None} == {"at": None, "action": "config", "key": "press",
                                                              "old": "grey", "new": None}


class Players:
    """Each seat mails its orders for the current turn once a day before the deadline; after an
    undo, the seats named in ``resend`` mail theirs again (``delay`` passes later)."""

    def __init__(self, box):
        self.box = box
        self.address = dict(SEATS)
        self.sent: set[tuple[str, int, int]] = set()   # (seat, turn, undo count)
        self.resend: dict[str, int] = {}                 # seat -> passes to wait after an undo
        self.n = 0

    def mail(self, seat: str, turn: int, guess: int, now: dt.datetime) -> None:
        self.n += 1
        body = f"player: {seat}\nturn: {turn}\nguess {guess}\n"
        maildir_with(self.box, message(body, sender=self.address[seat], date=_date(now),
                                       msgid=f"<m{self.n}@example.org>"))

    def post(self, camp: Campaign, now: dt.datetime, undos: int) -> None:
        deadline = read_deadline(camp)
        turn = camp.current_turn
        for seat in SEATS:
            if (seat, turn, undos) in self.sent:
                continue
            if undos and (turn, undos) in UNDONE_TURNS:
                if seat not in self.resend or self.resend[seat] > 0:
                    continue
            elif deadline is None or now < deadline - dt.timedelta(hours=20):
                continue
            self.mail(seat, turn, 1 + (turn + undos + len(seat)) % 6, now)
            self.sent.add((seat, turn, undos))
        self.resend = {s: n - 1 for s, n in self.resend.items()}


UNDONE_TURNS: set[tuple[int, int]] = set()


def test_a_month_by_commands_with_undos_and_a_replacement(tmp_path, mailroom):  # noqa: F811 (fixture)
    path, box = make_campaign(tmp_path, mailroom.port)
    players = Players(box)
    UNDONE_TURNS.clear()
    now, undos, lines = START, 0, []
    resolved_at: dict[int, dt.datetime] = {}
    deadlines: dict[int, str] = {}
    story: dict[str, object] = {}

    def run() -> str:
        camp = Campaign(path)
        before = camp.last_turn
        out = gm("run", path, "--send", env={"GM_NOW": now.isoformat()}).output
        lines.extend(out.splitlines())
        camp = Campaign(path)
        if camp.last_turn != before:
            resolved_at[camp.last_turn] = now
        if camp.config.get("deadline"):
            deadlines[camp.current_turn] = camp.config["deadline"]  # the last one each turn had
        return out

    while now < START + dt.timedelta(days=31):
        camp = Campaign(path)
        players.post(camp, now, undos if (camp.current_turn, undos) in UNDONE_TURNS else 0)
        run()
        camp = Campaign(path)
        if camp.last_turn in (5, 11) and f"undo{camp.last_turn}" not in story:
            # 3. the GM undoes the turn just resolved (early, before its deadline)
            turn = camp.last_turn
            story[f"undo{turn}"] = {"next": camp.config["deadline"], "resolved": now}
            out = gm("rollback", path, env={"GM_NOW": now.isoformat()}).output
            assert f"Turn {turn} rolled back" in out and "(Europe/London)" in out
            undos += 1
            UNDONE_TURNS.add((turn, undos))
            players.resend = {"ann": 1, "bob": 1, "cat": 3} if turn == 5 else {"ann": 1, "bob": 2}
            story[f"undo{turn}"]["deadline"] = Campaign(path).config["deadline"]
            waited = run()  # the very next pass: the notice goes out, the turn waits
            assert "resolved" not in waited and "notice(s) sent" in waited, waited
            assert Campaign(path).last_turn == turn - 1
        if camp.current_turn == 8 and "replaced" not in story:
            gm("player", path, "cat", "--replace", "dora:Dora:dora@example.org", env={"GM_NOW": now.isoformat()})
            players.address["cat"] = "dora@example.org"
            story["replaced"] = now
        now += STEP

    camp = Campaign(path)
    assert camp.last_turn >= 14, camp.last_turn

    # 3. turn 5 waited for every player to send again (cat three passes later), then resolved early,
    #    and turn 6's deadline is where the schedule had it before the undo: no drift
    undo5 = story["undo5"]
    assert undo5["deadline"] < undo5["next"]  # resolved early: the undo gave turn 5 its own deadline back
    assert resolved_at[5] >= undo5["resolved"] + 4 * STEP and resolved_at[5] < dt.datetime.fromisoformat(
        undo5["deadline"])
    assert deadlines[6] == undo5["next"]
    # turn 11: only ann and bob sent again; it was resolved at its deadline with cat's stored orders
    undo11 = story["undo11"]
    assert resolved_at[11] >= dt.datetime.fromisoformat(undo11["deadline"])
    assert camp.state(11)["guesses"]["cat"] is not None  # the stored orders stood
    assert deadlines[12] == undo11["next"]
    # every deadline stays on the 20:00 London grid, two days apart, always ahead
    for turn in range(2, camp.current_turn + 1):
        gap = dt.datetime.fromisoformat(deadlines[turn]) - dt.datetime.fromisoformat(deadlines[turn - 1])
        assert gap == dt.timedelta(days=2), (turn, deadlines)
        assert dt.datetime.fromisoformat(deadlines[turn]).strftime("%H:%M") == "20:00"

    # 4. the audit log has the deadline changes the undos made; the site says which turns were redone
    actions = [e for e in read_audit(camp) if e["action"].startswith("deadline")]
    moment = dt.datetime.fromisoformat
    assert [(e["action"], e["turn"], moment(e["old"]), moment(e["new"])) for e in actions] == [
        ("deadline undo", 5, moment(undo5["next"]), moment(undo5["deadline"])),
        ("deadline undo", 11, moment(undo11["next"]), moment(undo11["deadline"]))]
    for turn in (5, 11):
        page = (path / "www" / f"turn-{turn:03d}.html").read_text()
        assert "This turn was undone and resolved again." in page
    assert "undone and resolved again" not in (path / "www" / "turn-004.html").read_text()
    assert (path / "www" / "index.html").read_text().count("undone and resolved again") == 2
    record = json.loads((path / "www" / "record.json").read_text())
    assert [t["turn"] for t in record["turns"] if t.get("undone")] == [5, 11]

    # the replacement: Dora writes for the seat from her own address and gets its reports
    dora = [str(m["Subject"]) for to, m in mailroom.received if to == ["dora@example.org"]]
    assert "[camp] Turn 9 report for Dora" in dora
    assert camp.state(9)["guesses"]["cat"] is not None

    # players were told before the redo; reports of a redone turn went out again
    ann = [str(m["Subject"]) for to, m in mailroom.received if to == ["ann@example.org"]]
    assert ann.index("[camp] Turn 5 is undone and will be resolved again") < len(ann) - 1 - ann[::-1].index(
        "[camp] Turn 5 report for Ann")
    assert ann.count("[camp] Turn 5 report for Ann") == 2

    # 10. times on the console and in gm list are in the campaign's zone
    assert any("deadline set from the schedule: " in line and "GMT (Europe/London)" in line for line in lines)
    listed = gm("list", tmp_path, env={"GM_NOW": now.isoformat()}).output
    assert "GMT (Europe/London)" in listed and "+00:00" not in listed
    assert json.loads(gm("list", tmp_path, "--json", env={"GM_NOW": now.isoformat()}).output)[0]["zone"] \
        == "Europe/London"
    gm("replay", path)
    gm("dice", "verify", path)
