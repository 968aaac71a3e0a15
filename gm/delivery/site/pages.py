"""The website's pages: one jinja2 environment over gm/delivery/site/templates (escaping everywhere,
StrictUndefined), and what each page template receives."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2

from gm.delivery.help import COMMANDS, PRESS_COMMAND
from gm.delivery.site.standings import outcome_rows, standings
from gm.turn.report import render_report, template_context
from gm.turn.links import turn_page_name

HERE = Path(__file__).parent
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
STATIC = HERE / "static"
_ENV: jinja2.Environment | None = None


def environment() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        _ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True,
                                  undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return _ENV


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def page_name(turn: int) -> str:
    return turn_page_name(turn)


def report_body(campaign, game, turn: int, state: dict, events: list, players: list, dice: dict) -> str:
    """The turn's public report, as the game's own HTML template writes it, without its page frame.
    Pictures are left out here: the site shows them itself, with alt text."""
    context = template_context(game, state, events, "public", turn=turn, campaign=campaign.name,
                               players=players, dice=dice, image=None, extra_images=[])
    html = render_report(context, "html", game_name=game.name, template_dirs=(campaign.path / "templates",))
    match = re.search(r"<body[^>]*>(.*)</body>", html, re.S | re.I)
    return match.group(1) if match else html


def picture_alt(game, stem: str, turn: int) -> str:
    words = stem.replace("-", " ").replace("_", " ").strip().capitalize()
    return f"{words} after turn {turn}" if turn else f"{words} at the start"


def common(head: dict[str, Any], colours: dict[str, str] | None = None) -> dict[str, Any]:
    """What every page shows: the campaign, the game, the players. ``colours``: the players' colours
    as the game's pictures draw them at that point (game.player_colours), over the campaign's."""
    players = head["players"]
    shown = {p["id"]: p.get("colour") or "" for p in players}
    shown.update({p: c for p, c in (colours or {}).items() if p in shown and _COLOUR.match(str(c))})
    return {"campaign": head["campaign"], "game": head["game"], "map": head["map"], "players": players,
            "names": {p["id"]: p["name"] for p in players},
            "colours": shown,
            "generated": head["generated"]}


def turn_page(head: dict[str, Any], entry: dict[str, Any], report_html: str, images: list[dict[str, str]], *,
              turns: list[int], hidden_turns: int = 0, colours: dict[str, str] | None = None) -> str:
    turn = entry["turn"]
    at = turns.index(turn)
    previous = page_name(turns[at - 1]) if at > 0 else None
    following = page_name(turns[at + 1]) if at + 1 < len(turns) else None
    last = following is None
    # the public report may carry the press itself (gm.store.press's report partial): then once is enough
    press = [] if 'class="press"' in report_html else entry["press"]
    return render("turn.html.j2", **common(head, colours), turn=turn, entry=entry, report=report_html, images=images,
                  press=press,
                  previous=previous, next=following, rolls=len(entry["dice"]["rolls"]),
                  orders=entry.get("orders") or [], secret_rolls=entry["dice"].get("secret_rolls") or 0,
                  revealed=hidden_turns if last and entry["finished"] else 0,
                  outcome=entry["outcome"] if last else None, ranking=outcome_rows(entry["outcome"] if last else None),
                  title=f"Turn {turn}" if turn else "Set-up")


def index_page(head: dict[str, Any], entries: list[dict[str, Any]], *, colours: dict[str, str] | None = None,
               latest: dict[str, str] | None = None, notices: list[dict[str, Any]] | None = None) -> str:
    """The front page; ``latest``: the last turn's public map ({src, alt, href}); ``notices``: the
    record's public notices (a forced rollback after the secret seeds were revealed)."""
    last = entries[-1] if entries else None
    status = head["status"]
    return render("index.html.j2", **common(head, colours), status=status, options=head["options"], latest=latest,
                  standings=standings(head["game"]["name"], last["view"] if last else None, head["players"]),
                  outcome=last["outcome"] if last else None,
                  ranking=outcome_rows(last["outcome"] if last else None),
                  next_commitment=last["next_commitment"] if last else None,
                  turns=[{"turn": e["turn"], "href": page_name(e["turn"]), "phase": e["phase"],
                          "events": len(e["events"]), "rolls": len(e["dice"]["rolls"]),
                          "undone": len(e.get("undone") or [])} for e in reversed(entries)],
                  notices=list(notices or []), title="Campaign")


def players_page(head: dict[str, Any], guide_html: str, *, colours: dict[str, str] | None = None) -> str:
    """What players need and nothing of the GM's: how to write this game's orders (``guide_html``, the
    game's own text: gm.turn.report.players_guide), the mail commands, how to check the dice."""
    return render("players.html.j2", **common(head, colours), guide=guide_html, commands=[*COMMANDS, PRESS_COMMAND],
                  title="For the players")


def dice_page(head: dict[str, Any], entries: list[dict[str, Any]], secret: list[dict[str, Any]] | None, *,
              colours: dict[str, str] | None = None, notices: list[dict[str, Any]] | None = None) -> str:
    """Every revealed roll and the digest binding each turn's list; once the game is over
    (``secret``: gm.delivery.reveal.revealed_secret_dice) the hidden rolls too, else only how many
    there were, their commitments and digests. The rolls are as the one door gave them
    (gm.store.viewing: label, k, sides, value)."""
    turns = [{"turn": e["turn"], "seed": e["dice"]["seed"] or "", "commitment": e["dice"]["commitment"] or "",
              "digest": e["dice"].get("rolls_digest") or "", "href": page_name(e["turn"]),
              "rolls": e["dice"]["rolls"]} for e in entries]
    hidden = [{"turn": s["turn"], "seed": s["seed"] or "", "commitment": s["commitment"] or "",
               "digest": s.get("rolls_digest") or "", "announced": s["announced"], "href": page_name(s["turn"]),
               "rolls": s["rolls"]} for s in secret or []]
    committed = [] if secret is not None else [
        {"turn": e["turn"], "href": page_name(e["turn"]), "count": e["dice"].get("secret_rolls") or 0,
         "commitment": e["dice"]["secret_commitment"] or "", "digest": e["dice"].get("secret_rolls_digest") or ""}
        for e in entries if "secret_commitment" in e["dice"]]
    public_total = sum(len(t["rolls"]) for t in turns)
    secret_total = sum(len(t["rolls"]) for t in hidden)
    return render("dice.html.j2", **common(head, colours), turns=turns, hidden=hidden, committed=committed,
                  total=public_total + secret_total, secret_total=secret_total, notices=list(notices or []),
                  title="Dice")
