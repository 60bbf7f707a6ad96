"""What the rabbits panel shows, derived from the (redacted) state for one phone. Read-only."""

from django import template

from games.rabbits import rules

register = template.Library()

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ENDING_TEXT = {
    "simple": "any 3 royals",
    "diverse": "3 royals of different suits",
    "monarchy": "a Jack, a Queen and a King",
    "diverse_monarchy": "a Jack, a Queen and a King of three different suits",
    "tribal": "3 royals of one suit",
}


def card_label(card):
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


@register.filter
def suit_symbol(card):
    """"QH" -> "Q♥"."""
    return card_label(card) if card else ""


@register.filter
def posted(request, key):
    """The values of a posted form field (to refill a refused form). The live stream renders the
    panel without a request: then there is nothing to refill."""
    if getattr(request, "method", None) != "POST":
        return []
    return request.POST.getlist(key)


@register.simple_tag
def rabbits_view(state, viewer=None, is_host=False):
    """The panel's view of the state: the royal line as a grid, the rabbits, the turn, and which
    forms this phone may use (the host enters for everyone; a guest for its own seat)."""
    names = [seat["name"] for seat in state["seats"]]
    count = len(names)
    turn = state["turn"]
    options = state["options"]
    tiles = state.get("tiles", {})
    rolled = turn["dice"] is not None
    roller = (turn["seat"] + 1) % count if rolled else turn["seat"]
    finished = state["winner"] is not None

    grid = [{"suit": suit, "symbol": SUIT_SYMBOLS[suit], "name": rules.SUIT_NAMES[suit],
             "royals": [{"card": rank + suit, "label": rank + SUIT_SYMBOLS[suit],
                         "holder": tiles.get(rank + suit),
                         "holder_name": names[tiles[rank + suit]]
                         if rank + suit in tiles else None}
                        for rank in rules.ROYAL_RANKS]}
            for suit in rules.SUITS]

    seats = []
    for index, player in enumerate(state["seats"]):
        seats.append({
            "index": index, "name": player["name"], "royals": player["royals"],
            "carrots": player["carrots"], "carrot_marks": range(player["carrots"]),
            "first_ace_spent": player["first_ace_spent"], "place": player["place"],
            "place_name": rules.PLACE_NAMES[player["place"]],
            "missing": rules.ending_missing(player["royals"], options["ending"]),
            "is_me": index == viewer, "editable": bool(is_host) or index == viewer,
            "where_form": f"where-{index}", "in_turn": index == turn["seat"],
        })

    in_turn = rolled and not turn["ended"] and not finished
    thief = seats[turn["seat"]]
    victims = [{"index": s["index"], "name": s["name"], "royals": s["royals"],
                "form": f"steal-{s['index']}"}
               for s in seats if s["index"] != turn["seat"] and s["royals"]]
    return {
        "names": names,
        "finished": finished,
        "winner_name": names[state["winner"]] if finished else None,
        "turn_seat": turn["seat"], "turn_name": names[turn["seat"]],
        "dice": turn["dice"], "price": turn["price"], "rolled": rolled,
        "lottery_played": turn.get("lottery", False), "ended": turn.get("ended"),
        "roller": roller, "roller_name": names[roller],
        "in_turn": in_turn,
        "may_roll": not finished and (bool(is_host) or viewer == roller),
        "may_act": in_turn and (bool(is_host) or viewer == turn["seat"]),
        "grid": grid,
        "line": state["line"],
        "seats": seats,
        "thief": thief,
        "thief_full": len(thief["royals"]) >= 3,
        "victims": victims,
        "ending": options["ending"], "ending_text": ENDING_TEXT[options["ending"]],
        "values": options["values"], "advanced_citadel": options["advanced_citadel"],
        "lottery_ranks": ["A", "2", "3", "4", "5", "6"],
        "ranks": list(rules.RANKS),
        "suits": [{"code": s, "symbol": SUIT_SYMBOLS[s], "name": rules.SUIT_NAMES[s]}
                  for s in rules.SUITS],
        "first_ace_value": 14 if options["values"] == "patriarchy" else 11,
    }
