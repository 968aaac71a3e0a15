"""The blank order form of an operating-stage turn: the races open this round, or the budget."""
from __future__ import annotations

from typing import Any

from gm.hexmap.model import HexMap

from ..words import company_names, count
from .bot import cheapest_entry
from .entries import open_races, runnable
from .network import race_title, railway, route_pips, route_text
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
            f"# Spend up to {budget}: 1 cash a pip, and payments to rivals and ferries count too. Build as",
            "# in a build round: expand: (START) HEX HEX \"TOWN\" ...; (START) ...",
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
        "# Under each race, its cheapest route you may enter: to enter it, delete the '# ' before it.",
    ]
    names = company_names(state)
    for race in open_races(state):
        if not runnable(net, hexmap, race):
            lines.append(f"#   {race_title(hexmap, race)}  (no track joins them yet: carried over)")
            continue
        found = cheapest_entry(state, hexmap, net, player, race)
        if found is None:
            lines.append(f"#   {race_title(hexmap, race)}  (every route costs one rival more than "
                         f"{options['fee_cap']}: a joint run or running powers only)")
            continue
        route, fees = found
        paid = ", ".join(f"{f['amount']} to {f.get('country') or names[f['to']]}" for f in fees)
        lines.append(f"#   {race_title(hexmap, race)}: fees {sum(f['amount'] for f in fees)}"
                     f"{' (' + paid + ')' if paid else ''}, {count(route_pips(hexmap, route), 'pip')}")
        lines.append(f"# race {race['id']}: {route_text(route, hexmap)}")
    return "\n".join(lines) + "\n"
