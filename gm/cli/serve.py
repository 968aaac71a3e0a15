"""`gm serve` and `gm link`: the players' web door and their sign-in links (docs/web.md)."""
from __future__ import annotations

import click

from gm.cli.common import CAMPAIGN, campaign_at


@click.command("serve")
@click.argument("root", metavar="ROOT", type=click.Path(file_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--secure-cookies", is_flag=True,
              help="Behind HTTPS (a reverse proxy): session cookies are sent over HTTPS only.")
@click.option("--forwarded-allow-ips", metavar="IPS", default=None,
              help="Proxies trusted for X-Forwarded-For (default 127.0.0.1).")
def serve(root: str, host: str, port: int, secure_cookies: bool, forwarded_allow_ips: str | None) -> None:
    """Serve the players' web door for every campaign under ROOT (as `gm list` finds them).

    Players sign in with the link `gm link` prints (report mails carry it when campaign.yaml sets
    serve_url), read their report and write orders checked as they type. Run it behind a reverse
    proxy with HTTPS and --secure-cookies (docs/web.md).

    Example: gm serve campaigns --port 8080
    """
    from gm.delivery.web.serve import serve as run  # starlette and uvicorn only when serving
    run(root, host=host, port=port, secure_cookies=secure_cookies, forwarded_allow_ips=forwarded_allow_ips)


@click.command("link")
@CAMPAIGN
@click.argument("player", metavar="PLAYER")
@click.option("--new", "new", is_flag=True, help="Replace the player's link; the old one stops working at once.")
def link(directory: str, player: str, new: bool) -> None:
    """Print PLAYER's sign-in link for the web door (/signin/TOKEN; a full URL when campaign.yaml
    sets serve_url). The same link each time, until --new replaces it.

    Example: gm link camp ann --new
    """
    from gm.delivery.web.tokens import sign_in_link  # the web package only when asked for
    campaign = campaign_at(directory)
    with campaign.lock():
        click.echo(sign_in_link(campaign, campaign.player(player)["id"], new=new))
