"""Publishing a resolved turn: every viewer's reports (four formats) and pictures, built through
the one door (``gm.store.viewing``), and the turn written to the campaign folder. Reports are rebuilt
from the stored state, events and dice log, so `gm report` gives what was written."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from gm import games
from gm.games.base import Game
from gm.store.campaign import Campaign
from gm.store.dice import Dice, commitment, turn_seed
from gm.store.errors import UsageError
from gm.store.fileio import atomic_write
from gm.store.pictures import figure_bytes
from gm.store.press import press_for
from gm.store.receipts import turn_receipts
from gm.store.viewing import GM_VIEWER, PUBLIC, Seen, drawing, extra_pictures, picture, picture_focus, seen_by
from gm.turn.links import site_links, turn_page_url


def viewers(campaign: Campaign) -> list[str]:
    return campaign.player_ids + [PUBLIC, GM_VIEWER]


def public_players(campaign: Campaign) -> list[dict[str, Any]]:
    """What every reader may know of the players (reports, pictures): id, name and colour; never
    e-mail addresses or passwords."""
    return [{"id": p["id"], "name": p.get("name", p["id"]), "colour": p.get("colour", "")} for p in campaign.players]


def image_file(game: Game, viewer: str) -> str:
    return f"{game.image_name}-{viewer}.png" if game.images_per_viewer else f"{game.image_name}.png"


def dice_log(turn: int, dice: Dice) -> dict[str, Any]:
    """The public dice log of a turn: its seed revealed, its commitment, the public rolls, and how
    many secret rolls were made (their log is in secret/ until the game ends)."""
    log: dict[str, Any] = {"turn": turn, "seed": dice.seed.hex(), "commitment": commitment(dice.seed),
                           "rolls": [r for r in dice.log if not r.get("secret")]}
    secret = sum(1 for r in dice.log if r.get("secret"))
    if secret:
        log["secret_rolls"] = secret
        log["secret_commitment"] = commitment(dice.secret_seed)
    return log


def write_resolved(campaign: Campaign, game: Game, turn: int, state: dict, events: list[dict], dice: Dice, *,
                   settings: dict[str, Any] | None = None, opening: dict[str, Any] | None = None,
                   fail_after: str | None = None) -> list[str]:
    """Write a resolved turn (state, dice, events, settings, reports, pictures, the deadline it
    opens); the state last, all in one atomic swap."""
    log = dice_log(turn, dice)
    secret_rolls = [r for r in dice.log if r.get("secret")]
    if secret_rolls:
        campaign.write_secret_rolls(turn, secret_rolls)
    if turn and game.finished(state):
        reveal_secret_dice(campaign, turn, log)
    reports = build_reports(campaign, game, turn, state, events, log)
    reports["digests.yaml"] = report_digests(reports)
    campaign.write_turn(turn, state=state, dice=log, events=events, reports=reports, settings=settings,
                        opening=opening, fail_after=fail_after)
    return sorted(reports)


def reveal_secret_dice(campaign: Campaign, turn: int, log: dict[str, Any]) -> None:
    """At the game's end the final turn's public dice log reveals every hidden roll: each turn's
    secret seed (the final reports print them too) and the rolls made with it, so a player, the
    website and `gm dice verify` can check every shuffle without the campaign's secret/ folder."""
    turns = [t for t in campaign.secret_dice_turns() if t <= turn]
    if not turns:
        return
    master = campaign.master_secret()
    log["secret_seeds"] = [{"turn": t, "seed": turn_seed(master, t, secret=True).hex()} for t in turns]
    log["revealed_secret_rolls"] = [{"turn": t, "rolls": campaign.secret_rolls(t) or []} for t in turns]


def report_digests(reports: dict[str, str | bytes]) -> str:
    """SHA-256 of every report file, so `gm replay` notices a report edited after the fact."""
    lines = []
    for name in sorted(reports):
        data = reports[name]
        raw = data.encode("utf-8") if isinstance(data, str) else data
        lines.append(f"{name}: {hashlib.sha256(raw).hexdigest()}")
    return "\n".join(lines) + "\n"


def build_reports(campaign: Campaign, game: Game, turn: int, state: dict, events: list[dict],
                  log: dict) -> dict[str, str | bytes]:
    from gm.turn.report import FORMATS, render_report  # jinja2 only when reports are written
    out: dict[str, str | bytes] = {}
    template_dirs = (campaign.path / "templates",)
    images: dict[str, bytes] = {}
    players = public_players(campaign)
    drawn: dict[str, Any] = {}  # each picture drawn once, kept for the players' parts of it
    for viewer in viewers(campaign):
        seen = seen_by(game, state, events, viewer, players)
        name = image_file(game, viewer)
        if name not in images:
            figure = drawing(game, seen)
            if figure is not None:
                drawn[name] = figure.keep() if hasattr(figure, "keep") else figure
                images[name] = figure_bytes(drawn[name], "png")
        near = _near_image(game, seen, name, drawn.get(name), images)
        extra = []
        for stem, data in extra_pictures(game, seen).items():
            extra_name = f"{stem}.png" if not game.images_per_viewer else f"{stem}-{viewer}.png"
            images.setdefault(extra_name, data)
            extra.append(extra_name)
        shown = near or (name if name in images else None)
        context = report_context(campaign, game, turn, state, log, seen, image=shown)
        context["extra_images"] = extra
        if near:
            context["whole_image"] = whole_image(campaign, turn, name)
        for fmt, ext in FORMATS.items():
            out[f"{viewer}.{ext}"] = render_report(context, fmt, game_name=game.name, template_dirs=template_dirs)
    out.update(images)
    return out


NEAR_GAIN = 0.8  # a player's part of the map replaces the whole map in their report when this much smaller


def near_image_file(game: Game, viewer: str) -> str:
    return f"{game.image_name}-near-{viewer}.png"


def _near_image(game: Game, seen: Seen, name: str, figure: Any, images: dict[str, bytes]) -> str | None:
    """A player's report shows the map around their network (game.picture_focus), at full scale, when
    that is much smaller than the whole map (issue 24 item 11: report mails a third of the size); the
    name of that picture, added to ``images``, or None for the whole map."""
    if figure is None or game.images_per_viewer or not hasattr(figure, "near"):
        return None
    focus = picture_focus(game, seen)
    if not focus:
        return None
    data = figure.near(focus)
    if len(data) > NEAR_GAIN * len(images[name]):
        return None
    near = near_image_file(game, seen.viewer)
    images[near] = data
    return near


def whole_image(campaign: Campaign, turn: int, name: str) -> dict[str, Any]:
    """Where the whole picture is when a report shows a part of it: the file, and the turn's page on
    the campaign's website when ``site_url`` is set."""
    return {"name": name, "url": turn_page_url(campaign, turn)}


def report_context(campaign: Campaign, game: Game, turn: int, state: dict, log: dict, seen: Seen, *,
                   image: str | None) -> dict[str, Any]:
    """What a report template receives, for one viewer of one resolved turn of ``campaign``."""
    from gm.turn.report import dice_block, template_context  # jinja2 only when reports are written
    master = campaign.master_secret()
    finished = game.finished(state)
    next_seed = None if finished else turn_seed(master, turn + 1)
    seed = bytes.fromhex(log["seed"]) if log.get("seed") else None
    dice = dice_block(turn, seed, next_seed, log.get("rolls", []))
    if finished:
        dice["secret_seeds"] = [{"turn": t, "seed": turn_seed(master, t, secret=True).hex()}
                                for t in campaign.secret_dice_turns() if t <= turn]
    context = template_context(game, state, [], seen.viewer, turn=turn, campaign=campaign.name,
                               players=seen.players, dice=dice, image=image, receipts=_receipts(campaign, turn),
                               seen=seen, audit=campaign.audit_log(turn) if seen.viewer == GM_VIEWER else [],
                               press=press_for(campaign, turn, seen.viewer))
    context["site"] = site_links(campaign, turn)  # the campaign's website (``site_url``), or None
    return context


def _receipts(campaign: Campaign, turn: int) -> list[dict[str, str]]:
    """Each player's receipt for the orders this turn applied: anyone can check theirs."""
    if turn == 0:
        return []
    names = {p["id"]: p["name"] for p in campaign.players}
    stored = {p: t for p, t in campaign.stored_orders(turn).items() if not campaign.forced_errors(turn, p)}
    return [{"player": p, "name": names.get(p, p), "receipt": r} for p, r in turn_receipts(stored).items()]


def report_text(campaign: Campaign, turn: int | None, viewer: str, fmt: str, *,
                image_base: str | None = None, forum_folder: str | None = None) -> str:
    """A turn's report for ``viewer``. ``image_base``: images are referenced at that URL (a forum
    post); ``forum_folder``: forum-sized copies of the images are written there to upload."""
    from gm.turn.report import render_report  # jinja2 only when reports are written
    game = games.get(campaign.game_name)
    turn = campaign.check_turn(turn)
    state = campaign.state(turn)
    name = image_file(game, viewer)
    reports = campaign.turn_dir(turn) / "reports"
    image = name if (reports / name).exists() else None
    near = near_image_file(game, viewer)
    shown = near if image and not image_base and not forum_folder and (reports / near).exists() else image
    seen = seen_by(game, state, campaign.events(turn), viewer, public_players(campaign))
    context = report_context(campaign, game, turn, state, campaign.dice_log(turn), seen, image=shown)
    context["extra_images"] = sorted(p.name for p in reports.glob("*.png")
                                     if p.name != name and not p.name.startswith(f"{game.image_name}-"))
    if shown != image:
        context["whole_image"] = whole_image(campaign, turn, name)
    if forum_folder:
        from gm.turn.forum import write_forum_images  # Pillow only for forum copies
        write_forum_images(reports, turn, [n for n in [image, *context["extra_images"]] if n], Path(forum_folder))
    if image_base:
        from gm.turn.forum import image_url, part_references  # Pillow only for forum copies
        context["image"] = image_url(image_base, turn, image) if image else None
        context["image_parts"] = part_references(image_base, turn, reports / image) if image else []
        context["extra_images"] = [image_url(image_base, turn, n) for n in context["extra_images"]]
    return render_report(context, fmt, game_name=game.name, template_dirs=(campaign.path / "templates",))


def draw(campaign: Campaign, turn: int | None, viewer: str, out: str) -> None:
    """`gm map`: the turn's picture as ``viewer`` sees it, to a PNG or SVG file."""
    game = games.get(campaign.game_name)
    suffix = Path(out).suffix.lower().lstrip(".")
    if suffix not in ("png", "svg"):
        raise UsageError(f"{out}: the image must end in .png or .svg")
    turn = campaign.check_turn(turn)
    state = campaign.state(turn)
    data = picture(game, seen_by(game, state, campaign.events(turn), viewer, public_players(campaign)), suffix)
    if data is None:
        raise UsageError(f"{game.title} has no board image")
    atomic_write(out, data)
