"""Check Thurn und Taxis map files: python -m gm.games.thurn_und_taxis FILE... (exit 1 on errors)."""
import sys

from .maps import check_file

found = [line for name in sys.argv[1:] for line in check_file(name)]
print("\n".join(found) or "ok")
sys.exit(1 if found else 0)
