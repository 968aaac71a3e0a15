"""The blank order form of an operating-stage turn: the races open this round, or the budget."""
from __future__ import annotations

from typing import Any

from gm.hexmap.model import HexMap

from .entries import open_races, runnable
from .network import race_title, railway
from .round import expansion_budget


def operating_form(state: dict[str, Any], hexmap: HexMap, player: str) -> str:
    company = state["companies"][player]
    options = state["options"]
    r = state["race_round"]
    head = [f"player: {player}", f"turn: {len(state.get('cash_history') or [1])}"]
    if state["operate_phase"] == "expansion":
        budget = expansion_budget(state)
        return "\n".join(head + [
            f"# Railway Rivals, expansion after race round {r}: {company['name']}, cash {state['cash'][player]}.",
            f"# Build up to {budget} pips, 1 cash a pip (payments to rivals and ferries on top), as in a build",
            "# round: expand: (START) HEX HEX \"TOWN\" ...; (START) ...",
            "expand:",
        ]) + "\n"
    net = railway(state, hexmap)
    lines = head + [
        f"# Railway Rivals, race round {r} of {options['race_rounds']}: {company['name']}, "
        f"cash {state['cash'][player]}.",
        f"# Enter up to {options['max_entries']} races, one line each: race ID: START HEX HEX ... DESTINATION",
        "# along existing track ('ferry F1' to cross by ferry). Fees: 1 a hex of a rival's track, the",
        f"# foreign fee a hex of a foreign route, a rival's ferry its use fee; at most {options['fee_cap']} to "
        "one rival.",
        "# A joint run: 'race ID with COMPANY: ROUTE' (the partner writes 'race ID with YOU:'); running",
        "# powers (pay one rival more than the cap if it pays you too): 'race ID powers COMPANY: ROUTE'.",
    ]
    for race in open_races(state):
        note = "" if runnable(net, hexmap, race) else "  (no track joins them yet: carried over)"
        lines.append(f"#   {race_title(hexmap, race)}{note}")
    return "\n".join(lines) + "\n"
