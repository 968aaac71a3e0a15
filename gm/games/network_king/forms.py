"""The blank order form sent with a player's report: their hand, numbered, and the order syntax.
Built from the player's view (``views.view``), never from the raw state."""
from __future__ import annotations

from gm.games.base import State

EFFECT_HELP = (
    "#   Business:        effect: draw \"NAME FROM YOUR DECK\", bottom \"NAME FROM YOUR HAND\"",
    "#   Design/Writing:  effect: relocate [my|their] \"NAME\" [from STUDIO] to STUDIO",
    "#   Programming/QA:  effect: layoff [my|their] \"NAME\", [my|their] \"NAME\"",
    "#   Art:             effect: rehire [my|their] \"NAME\"",
    "#   Sound:           effect: pass",
    "#   No Name:         effect: layoff all",
    "#   No Profession:   effect: mimic PROFESSION, <that profession's effect>",
)


def order_form(view: State, player: str) -> str:
    if player not in view["players"] or view.get("winner"):
        return ""
    if view["starting_player"] is None:
        if view["deck_sizes"].get(player) is not None:
            return "# Your deck list is in; the game starts when your opponent's is.\n"
        return ("# Your deck list: one card a line, 'Name | Job Title', at least 10 cards.\n"
                "# An empty name is a No Name card, an empty title No Profession.\n")
    if view["to_move"] != player:
        return "# It is your opponent's turn; you will get a form when it is yours.\n"
    lines = ["# Your turn: one hire, then either a layoff or an effect (or neither).",
             "# Your hand (name a card by its number or its name):"]
    for card in view.get("hand", []):
        fits = " or ".join(card["professions"])
        lines.append(f"#   {card['number']}. {card['card']} ({card['title']}): {fits}")
    studios = [s["name"] for s in view["studios"]]
    lines.append("# Studios: " + (", ".join(studios) if studios else "none yet")
                 + ("" if len(studios) >= 3 else " (hiring to a new name opens a studio)"))
    lines += ["#", "# hire CARD to STUDIO [as PROFESSION]",
              "# ; layoff \"NAME\"    (an opponent card of the same profession in that studio)",
              "# ; or the hire's effect:", *EFFECT_HELP, "",
              "hire "]
    return "\n".join(lines) + "\n"

