"""Coins, the game docs/adding-a-game.md adds step by step (a test game, not a product one): each
turn a seat takes one to three coins from the pile; whoever takes the last coin wins. Pure
Python: no Django."""

from companion.engine import Game, Option, RuleViolation, _, copied, rank_by_score, seat_name

OPTIONS = {"pile": 15}
OPTION_FIELDS = (Option("pile", _("Coins in the pile"), kind="number", minimum=3, maximum=99),)


def check_options(options, seat_count):
    pile = options["pile"]
    if not isinstance(pile, int) or isinstance(pile, bool) or not 3 <= pile <= 99:
        raise RuleViolation(_("The pile holds 3 to 99 coins."), field="pile")


def setup(names, options, rng):
    return {"seats": [{"name": name, "coins": 0} for name in names], "pile": options["pile"],
            "turn": 0, "winner": None, "last": {"type": "setup"}}


def take(state, data, actor, rng):
    seat, coins = data["seat"], data["coins"]
    if seat != state["turn"]:
        raise RuleViolation(_("It is {name}'s turn.", name=seat_name(state, state["turn"])),
                            field="seat")
    if coins > state["pile"]:
        raise RuleViolation(_("The pile holds {n} coins.", n=state["pile"]), field="coins")
    state = copied(state)
    state["pile"] -= coins
    state["seats"][seat]["coins"] += coins
    if state["pile"] == 0:
        state["winner"] = seat
    state["turn"] = (seat + 1) % len(state["seats"])
    state["last"] = {"type": "take", "seat": seat, "coins": coins}
    return state


def standings(state):
    rows = [{"seat": index, "name": seat["name"], "score": seat["coins"], "details": {}}
            for index, seat in enumerate(state["seats"])]
    ranked = rank_by_score(rows)
    for row in ranked:
        row["winner"] = row["seat"] == state["winner"]
    return ranked


def finished(state):
    return state["winner"] is not None


def summary(move, before, after):
    return _("{name} takes {n}", name=seat_name(after, move["data"]["seat"]),
             n=move["data"]["coins"])


GAME = Game(slug="coins", name="Coins", min_players=2, max_players=4, options=OPTIONS,
            option_fields=OPTION_FIELDS, check_options=check_options, setup=setup,
            moves={"take": take}, standings=standings, finished=finished, summary=summary)
