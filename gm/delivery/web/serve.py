"""Running the web door under uvicorn, a production ASGI server (one worker: the rate limits and the
per-campaign write lock live in the process; one worker serves hundreds of players at once)."""
from __future__ import annotations

import logging
import sys
from pathlib import Path

from gm.delivery.web.app import Settings, create_app, session_key
from gm.store.errors import UsageError
from gm.turn.campaign_list import find_campaigns


def serve(root: str, *, host: str, port: int, secure_cookies: bool, forwarded_allow_ips: str | None) -> None:
    import uvicorn  # only when serving: `gm --help` stays fast
    folder = Path(root)
    if not folder.is_dir():
        raise UsageError(f"{root}: no such folder")
    settings = Settings(root=folder, secure_cookies=secure_cookies, session_key=session_key(folder))
    app = create_app(settings)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    web_log = logging.getLogger("gm.web")
    web_log.handlers[:] = [handler]
    web_log.setLevel(logging.INFO)
    web_log.propagate = False
    web_log.info("serving %d campaign(s) under %s on http://%s:%d%s", len(app_campaigns(folder)), folder, host,
                 port, " (cookies Secure: behind HTTPS)" if secure_cookies else "")
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning", proxy_headers=True,
                forwarded_allow_ips=forwarded_allow_ips, server_header=False)


def app_campaigns(folder: Path) -> list[Path]:
    return find_campaigns(folder)
