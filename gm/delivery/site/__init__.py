"""The campaign website (`gm site DIR -o FOLDER`): static pages built from the public record only.

``build(campaign, folder)`` writes the whole site; ``update(campaign, folder)`` rewrites only what
one more turn changes (the unattended runner calls it after each resolve). docs/site.md.
"""
from __future__ import annotations

from gm.delivery.site.builder import MARKER, SiteResult, build, configured_folder, update

__all__ = ["MARKER", "SiteResult", "build", "configured_folder", "update"]
