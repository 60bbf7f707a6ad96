"""Lenino's Jack Rabbits (Lenin Compres): the pure rules.

The board, the pile and the hands stay physical. The app keeps the royal line, who holds which
royal (and so whose carrot is on which royal's tile), the carrots left, each rabbit's first ace,
the turn's dice and price, and it checks payments, audiences, steals and the ending.

Rulebook: shared/rules/messenger-rabbits.txt (Spanish first, English second). Where the spec
leaves a point open the comment says "the app's reading" and cites the rulebook.

Turns (the app's reading of "START THE TURNS" and "4TH THE ACQUISITION"):
- the seats play in order from the seat the set-up names (the option "first", the platform's
  "Who starts?": a seat or a draw, as the rulebook leaves it open: "How you choose the starting
  player ... may be random or creative"; seat 0 by default); a turn starts with its `roll`;
- the next seat's `roll` ends the previous turn (its ACQUISITION happens at the table);
- an audience or a won spades attack ends the turn at once, so only the next seat may then act,
  by rolling;
- `where` (board, off, underground) may be entered at any time, since a rabbit is thrown OFF in
  other players' turns too (lost duels, broken trades, wrong challenges at a Queen's palace).
"""

from __future__ import annotations

import re
from typing import Any

from companion.engine import (
    Game,
    Option,
    RuleViolation,
    Text,
    _,
    copied,
    joined,
    n_,
    seat_name,
)

# ---------------------------------------------------------------------------------------------
# Cards

SUITS = ("H", "S", "D", "C")  # the line's order, as the spec's example starts JH, QH, KH, JS
SUIT_NAMES = {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}
SUIT_SINGULAR = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}  # words a form takes
ROYAL_RANKS = ("J", "Q", "K")
RANK_NAMES = {"J": _("Jack"), "Q": _("Queen"), "K": _("King")}
# "a Jack": a whole phrase each, since the article goes with the word (una Jota, un Rey).
A_RANK = {"J": _("a Jack"), "Q": _("a Queen"), "K": _("a King")}
NUMBER_RANKS = tuple(str(n) for n in range(2, 11))
RANKS = ("A", *NUMBER_RANKS, *ROYAL_RANKS)
ROYALS = tuple(rank + suit for suit in SUITS for rank in ROYAL_RANKS)

AUDIENCE_POINTS = 10  # a royal audience: 10 points of the royal's suit
CITADEL_SUIT = "H"  # the advanced Citadel's door takes hearts
ENDINGS = ("simple", "diverse", "monarchy", "diverse_monarchy", "tribal")
# What each ending asks, in words: "back at the Citadel with ...".
ENDING_WORDS = {
    "simple": _("any 3 royals"),
    "diverse": _("3 royals of different suits"),
    "monarchy": _("a Jack, a Queen and a King"),
    "diverse_monarchy": _("a Jack, a Queen and a King of three different suits"),
    "tribal": _("3 royals of one suit"),
}
VALUES = ("classic", "patriarchy")
PLACES = ("board", "off", "underground")
PLACE_NAMES = {"board": _("on the board"), "off": _("off the board"),
               "underground": _("underground")}
HAND_LIMIT = 9


def parse_card(text: Any) -> tuple[str, str]:
    """(rank, suit) of a card written rank + suit ("AS", "10D", "qh"), or RuleViolation."""
    if isinstance(text, str):
        card = text.strip().upper()
        rank, suit = card[:-1], card[-1:]
        if rank in RANKS and suit in SUIT_NAMES:
            return rank, suit
    raise RuleViolation(_(
        "{card} is not a card: write the rank (A, 2-10, J, Q, K) and then the suit "
        "(S, H, D, C), as in AS, 10D or QH.", card=repr(text)))


def normal_card(text: Any) -> str:
    rank, suit = parse_card(text)
    return rank + suit


# A card in a sentence: in English as players write it ("QH"); in Spanish with its suit's symbol
# ("Q♥"), since there the letters are other suits' initials (C is corazones, hearts, where the
# app's C is clubs). The English words stay the sentence's str, which the state and the tests read.
_CARD_IN_WORDS = {
    "S": lambda rank: _("{rank}S", rank=rank),
    "H": lambda rank: _("{rank}H", rank=rank),
    "D": lambda rank: _("{rank}D", rank=rank),
    "C": lambda rank: _("{rank}C", rank=rank),
}


def card_text(card: str) -> Text | str:
    """A card ("QH", as normal_card writes it) as a sentence says it; anything else as it is."""
    said = _CARD_IN_WORDS.get(card[-1:]) if isinstance(card, str) else None
    return said(card[:-1]) if said else card


def is_royal(card: str) -> bool:
    return parse_card(card)[0] in ROYAL_RANKS


def first_ace_value(values: str = "classic") -> int:
    """What a player's first ace spent is worth: 11, or 14 with the patriarchy values."""
    return 14 if values == "patriarchy" else 11


def card_value(card: str, values: str = "classic", first_ace: bool = False) -> int:
    """A card's value; `first_ace` says this ace is the player's first one spent (11, or 14)."""
    rank, _ = parse_card(card)
    if rank == "A":
        if first_ace:
            return first_ace_value(values)
        return 1
    if rank in ROYAL_RANKS:
        return {"J": 11, "Q": 12, "K": 13}[rank] if values == "patriarchy" else 10
    return int(rank)


def payment_parts(cards: list[str], values: str = "classic",
                  first_ace_spent: bool = False) -> tuple[list[dict[str, Any]], str | None]:
    """Each card with its value, and the card spent as the first ace (or None).

    Only one ace in a payment can be the first ace: the first ace listed, if the player has not
    spent one yet (rulebook FIRST ACES: "Your first Ace is worth 11; the others you get are ones").
    """
    parts = []
    first = None
    for text in cards:
        card = normal_card(text)
        is_first = not first_ace_spent and first is None and card[0] == "A"
        if is_first:
            first = card
        parts.append({"card": card, "value": card_value(card, values, is_first)})
    return parts, first


def selection_total(cards: list[str], values: str = "classic", first_ace_spent: bool = False,
                    price: int | None = None) -> dict[str, Any]:
    """The running total of a card selection, for the page: total, parts, first_ace, enough."""
    parts, first = payment_parts(cards, values, first_ace_spent)
    total = sum(part["value"] for part in parts)
    return {"total": total, "parts": parts, "first_ace": first,
            "enough": None if price is None else total >= price}


def seat_selection_total(state: dict[str, Any], seat: int, cards: list[str],
                         price: int | None = None) -> dict[str, Any]:
    """selection_total for one seat of a session, against the turn's price by default."""
    if price is None:
        price = state["turn"]["price"]
    return selection_total(cards, state["options"]["values"],
                           state["seats"][seat]["first_ace_spent"], price)


CARD_SEPARATORS = re.compile(r"[\s,;+]+")


def card_words(data: Any) -> Any:
    """The words of a text or of a list of texts, as players write cards ("QH 10D, AS"); blanks
    dropped. Anything else comes back as it is, for the caller to refuse."""
    items = [data] if isinstance(data, str) else data
    if not isinstance(items, list):
        return items
    words: list[Any] = []
    for item in items:
        if isinstance(item, str):
            words += [word for word in CARD_SEPARATORS.split(item) if word]
        else:
            words.append(item)
    return words


def cards_listed(items: list[Any]) -> Text:
    """"JH", "JH and KS", "JH, QS and KD"; "none" for nothing. Items are cards (each said as
    card_text) or Texts (suit names), each said alone; the "and" is the reader's language's."""
    items = [item if isinstance(item, Text) else card_text(item) for item in items]
    if not items:
        return _("none")
    if len(items) == 1:
        return joined("", items)
    return _("{items} and {last}", items=joined(", ", items[:-1]), last=items[-1])


def sorted_royals(royals: list[str]) -> list[str]:
    return sorted(royals, key=ROYALS.index)


# ---------------------------------------------------------------------------------------------
# The endings

def _more_of_suit(suit: str, n: int) -> Text:
    """"2 more spade royals": a phrase per suit, since other languages name the suit elsewhere
    (2 reales más de picas)."""
    return {
        "S": n_("{n} more spade royal", "{n} more spade royals", n, n=n),
        "H": n_("{n} more heart royal", "{n} more heart royals", n, n=n),
        "D": n_("{n} more diamond royal", "{n} more diamond royals", n, n=n),
        "C": n_("{n} more club royal", "{n} more club royals", n, n=n),
    }[suit]


def ending_missing(royals: list[str], ending: str, *, sheet: bool = False) -> Text | None:
    """None when these royals win under `ending`; otherwise what is missing, in a sentence: to
    the player ("You need a Jack: you hold 7H."), or with `sheet` of the seat on its sheet,
    under its name, which every phone and the board show ("Needs a Jack: holds 7H.")."""
    royals = sorted_royals(royals)
    held = (_("holds {royals}.", royals=cards_listed(royals)) if sheet
            else _("you hold {royals}.", royals=cards_listed(royals)))
    ranks = {card[0] for card in royals}
    suits = [s for s in SUITS if any(card[-1] == s for card in royals)]
    short = 3 - len(royals)
    if ending in ("monarchy", "diverse_monarchy"):
        missing = [A_RANK[rank] for rank in ROYAL_RANKS if rank not in ranks]
        if missing:
            what = cards_listed(missing)
            return (_("Needs {what}: {held}", what=what, held=held) if sheet
                    else _("You need {what}: {held}", what=what, held=held))
        if ending == "diverse_monarchy" and len(suits) < 3:
            return (_("The Jack, Queen and King must be of 3 different suits: {held}", held=held)
                    if sheet else
                    _("Your Jack, Queen and King must be of 3 different suits: {held}",
                      held=held))
        return None
    if ending == "diverse":
        if not royals:
            return (_("Needs 3 royals of different suits: {held}", held=held) if sheet
                    else _("You need 3 royals of different suits: {held}", held=held))
        if len(suits) < 3:
            more = 3 - len(suits)
            what = n_("a royal of another suit", "royals of {n} more suits", more, n=more)
            besides = cards_listed([SUIT_NAMES[s] for s in suits])
            return (_("Needs {what} (besides {besides}): {held}", what=what, besides=besides,
                      held=held) if sheet else
                    _("You need {what} (besides {besides}): {held}", what=what,
                      besides=besides, held=held))
        return None
    if ending == "tribal":
        if not royals:
            return (_("Needs 3 royals of one suit: {held}", held=held) if sheet
                    else _("You need 3 royals of one suit: {held}", held=held))
        if len(suits) > 1:
            return (_("The royals must all be of one suit: {held}", held=held) if sheet
                    else _("Your royals must all be of one suit: {held}", held=held))
        if short:
            what = _more_of_suit(suits[0], short)
            return (_("Needs {what}: {held}", what=what, held=held) if sheet
                    else _("You need {what}: {held}", what=what, held=held))
        return None
    if short:  # simple: any 3 royals
        return (n_("Needs {n} more royal: {held}", "Needs {n} more royals: {held}", short,
                   n=short, held=held) if sheet else
                n_("You need {n} more royal: {held}", "You need {n} more royals: {held}", short,
                   n=short, held=held))
    return None


# ---------------------------------------------------------------------------------------------
# Options and set-up

def check_options(options: dict[str, Any], seat_count: int) -> None:
    if options.get("ending") not in ENDINGS:
        raise RuleViolation(
            _("The ending must be one of {endings}, not {given}.", endings=", ".join(ENDINGS),
              given=repr(options.get("ending"))),
            field="ending")
    if options.get("values") not in VALUES:
        raise RuleViolation(
            _("The values must be classic or patriarchy, not {given}.",
              given=repr(options.get("values"))),
            field="values")
    if not isinstance(options.get("advanced_citadel"), bool):
        raise RuleViolation(_("advanced_citadel must be true or false."), field="advanced_citadel")


def setup(seat_names: list[str], options: dict[str, Any], rng: Any) -> dict[str, Any]:
    options = {**OPTIONS, **options}
    check_options(options, len(seat_names))
    return {
        # The turn's seat; dice and price are None until its roll. lottery: the lottery was
        # played this turn; ended: an audience or a steal ended the turn (and how, in words).
        "turn": {"seat": options["first"], "dice": None, "price": None, "lottery": False,
                 "ended": None},
        "line": list(ROYALS),
        "seats": [{"name": name, "royals": [], "carrots": 3, "first_ace_spent": False,
                   "place": "board"} for name in seat_names],
        # Whose carrot is on each royal's tile: royal -> seat. A royal is held iff it is here.
        "tiles": {},
        "winner": None,
        "options": options,
        "last": None,
    }


# ---------------------------------------------------------------------------------------------
# Checking a move's fields

# A move's fields come as its serializer (moves.py) made them: seats as whole numbers, cards
# written as normal_card writes them, suits as letters, dice as two numbers from 1 to 6.

def _seat(state: dict[str, Any], data: dict[str, Any], field: str = "seat") -> int:
    seat = data[field]
    count = len(state["seats"])
    if not seat < count:
        raise RuleViolation(_("There is no seat {seat}: the seats are 0 to {last}.", seat=seat,
                              last=count - 1), field=field)
    return seat


def _cards(data: dict[str, Any], field: str = "cards", needed: bool = True) -> list[str]:
    raw = data.get(field) or []
    if needed and not raw:
        raise RuleViolation(_("Say which cards are paid (cards)."), field=field)
    cards = []
    for card in raw:
        if card in cards:
            raise RuleViolation(_("{card} is listed twice: there is one {card} in the deck.",
                                  card=card_text(card)), field=field)
        cards.append(card)
    return cards


def _royal(data: dict[str, Any], field: str = "royal") -> str:
    card = data[field]
    if not is_royal(card):
        raise RuleViolation(
            _("{card} is not a royal: the royals are the Jacks, Queens and Kings.",
              card=card_text(card)), field=field)
    return card


def next_seat(state: dict[str, Any]) -> int:
    """The seat whose turn comes after this one: play goes round the table."""
    return (state["turn"]["seat"] + 1) % len(state["seats"])


def roller(state: dict[str, Any]) -> int:
    """Who rolls next: the seat in turn before its roll, the next seat after it."""
    return next_seat(state) if state["turn"]["dice"] is not None else state["turn"]["seat"]


def _in_turn(state: dict[str, Any], seat: int, field: str = "seat") -> None:
    """The seat is playing its own turn: rolled, and the turn not ended by an audience/steal."""
    turn = state["turn"]
    current, name = seat_name(state, turn["seat"]), seat_name(state, seat)
    if seat != turn["seat"]:
        if turn["ended"]:
            raise RuleViolation(
                _("It is {name}'s turn, which starts with a roll.",
                  name=seat_name(state, next_seat(state))), field=field)
        raise RuleViolation(_("It is {current}'s turn, not {name}'s.", current=current,
                              name=name), field=field)
    if turn["dice"] is None:
        raise RuleViolation(_("{name}'s turn starts with a roll.", name=name), field=field)
    if turn["ended"]:
        raise RuleViolation(
            _("{name}'s turn has ended ({how}): it is {next}'s turn to roll.", name=name,
              how=ended_text(turn), next=seat_name(state, next_seat(state))), field=field)


# How a turn ended, kept in the state as its English words (the state is JSON, where a Text
# is a plain str again): read back here as the Text, for the reader's language.
_ENDED = (
    (re.compile(r"after the audience with (\w+)"),
     lambda royal: _("after the audience with {royal}", royal=card_text(royal))),
    (re.compile(r"after stealing (\w+)"),
     lambda royal: _("after stealing {royal}", royal=card_text(royal))),
)


def ended_text(turn: dict[str, Any]) -> Text | str | None:
    """How the turn ended (turn["ended"]), as a Text; None while it goes on."""
    ended = turn.get("ended")
    for pattern, text in _ENDED:
        found = pattern.fullmatch(ended or "")
        if found:
            return text(found.group(1))
    return ended


def _on_board(state: dict[str, Any], seat: int, doing: Text, field: str = "seat") -> None:
    place = state["seats"][seat]["place"]
    if place != "board":
        raise RuleViolation(
            _("{name} is {place}: {doing} only on the board (say where the rabbit is with "
              "`where`).", name=seat_name(state, seat), place=PLACE_NAMES[place], doing=doing),
            field=field)


def _check_held(state: dict[str, Any], seat: int, cards: list[str], field: str = "cards") -> None:
    held = state["seats"][seat]["royals"]
    for card in cards:
        if is_royal(card) and card not in held:
            raise RuleViolation(
                _("{card} is not {name}'s to spend: {name} holds {royals}.", card=card_text(card),
                  name=seat_name(state, seat), royals=cards_listed(sorted_royals(held))),
                field=field)


def _spend(state: dict[str, Any], seat: int, cards: list[str]) -> dict[str, Any]:
    """Spend cards (already checked) from a seat, in place on the new state: the first ace is
    recorded, each royal goes back to the line and its carrot back to the seat."""
    player = state["seats"][seat]
    parts, first = payment_parts(cards, state["options"]["values"], player["first_ace_spent"])
    if first:
        player["first_ace_spent"] = True
    returned = [card for card in cards if is_royal(card)]
    for card in returned:
        _release(state, seat, card)
    return {"parts": parts, "total": sum(p["value"] for p in parts), "first_ace": first,
            "returned": returned}


def _release(state: dict[str, Any], seat: int, royal: str) -> None:
    """A held royal goes back to the line; the carrot on its tile back to the seat."""
    player = state["seats"][seat]
    player["royals"].remove(royal)
    player["carrots"] += 1
    del state["tiles"][royal]
    state["line"] = sorted_royals([*state["line"], royal])


def _take(state: dict[str, Any], seat: int, royal: str) -> None:
    """A royal from the line to the seat, which leaves a carrot on its tile."""
    player = state["seats"][seat]
    state["line"].remove(royal)
    player["royals"] = sorted_royals([*player["royals"], royal])
    player["carrots"] -= 1
    state["tiles"][royal] = seat


def _add_up(cards: list[str], total: int, price: int) -> Text:
    return n_("{cards} adds up to {total}: the price is {price}.",
              "{cards} add up to {total}: the price is {price}.", len(cards),
              cards=cards_listed(cards), total=total, price=price)


def _sum_text(spent: dict[str, Any]) -> Text:
    """"7H+AS(11)+3H=21": the arithmetic of a payment, each card as card_text."""
    terms: list[Any] = []
    for part in spent["parts"]:
        terms += ["+"] if terms else []
        terms.append(card_text(part["card"]))
        if part["card"] == spent["first_ace"]:
            terms.append(f"({part['value']})")
    return joined("", [*terms, f"={spent['total']}"])


# ---------------------------------------------------------------------------------------------
# Moves

def roll(state: dict[str, Any], data: dict[str, Any], actor: int | None, rng: Any) -> dict:
    """Start a turn: the next seat in order rolls two dice, whose sum is the turn's price."""
    seat = _seat(state, data)
    turn = state["turn"]
    if turn["dice"] is None:
        expected = turn["seat"]
        if seat != expected:
            raise RuleViolation(_("It is {name}'s turn: {name} rolls first.",
                                  name=seat_name(state, expected)), field="seat")
    else:
        expected = next_seat(state)
        if seat == turn["seat"]:
            raise RuleViolation(
                _("{name} has rolled already this turn ({first}+{second}): the next to roll is "
                  "{next}.", name=seat_name(state, seat), first=turn["dice"][0],
                  second=turn["dice"][1], next=seat_name(state, expected)), field="seat")
        if seat != expected:
            raise RuleViolation(_("It is {name}'s turn; the next to roll is {next}.",
                                  name=seat_name(state, turn["seat"]),
                                  next=seat_name(state, expected)), field="seat")
    dice = _dice(data, rng)
    new = copied(state)
    previous = None if turn["dice"] is None else turn["seat"]
    new["turn"] = {"seat": seat, "dice": dice, "price": sum(dice), "lottery": False,
                   "paid": False, "ended": None}
    player = new["seats"][seat]
    # "Mas, cuando el turno empieza en las afueras, en el subsuelo esperas la salida. Te mueves al
    # subsuelo en el momento que vas a ejecutar EL LANZAMIENTO": off the board -> underground.
    surfaced = player["place"] == "off"
    if surfaced:
        player["place"] = "underground"
    new["last"] = {"type": "roll", "seat": seat, "dice": dice, "price": sum(dice),
                   "underground": surfaced,
                   # The previous turn's ACQUISITION: a card from the pile if on the board.
                   "acquisition": None if previous is None else {
                       "seat": previous,
                       "card": state["seats"][previous]["place"] == "board"}}
    return new


def _dice(data: dict[str, Any], rng: Any) -> list[int]:
    dice = data.get("dice")
    if dice is None:
        return [rng.randint(1, 6), rng.randint(1, 6)]
    return list(dice)


def lottery_over(turn: dict[str, Any]) -> bool:
    """The lottery is over for the turn: played, or the journey has paid ("right after the dice
    are rolled"). A turn kept before payments were counted has no "paid"."""
    return bool(turn.get("lottery") or turn.get("paid"))


def lottery(state: dict[str, Any], data: dict[str, Any], actor: int | None, rng: Any) -> dict:
    """+ THE LOTTERY: a held card matching one of the dice wins one card from the pile."""
    seat = _seat(state, data)
    _in_turn(state, seat)
    name = seat_name(state, seat)
    if lottery_over(state["turn"]):
        # "right after the dice are rolled": before the journey's first payment, which could
        # otherwise spend the very card shown.
        said = (_("{name} has played the lottery already this turn.", name=name)
                if state["turn"]["lottery"] else
                _("The lottery comes right after the roll: {name} has paid on the journey "
                  "already this turn.", name=name))
        raise RuleViolation(said, field="card")
    card = data["card"]
    rank = card[:-1]
    dice = state["turn"]["dice"]
    if rank in ROYAL_RANKS:
        raise RuleViolation(_("{card} is a royal: royals never match a die.", card=card_text(card)),
                            field="card")
    if rank == "A":
        # "Your first Ace won't match a die": an ace is 1 only once the first ace is spent.
        if not state["seats"][seat]["first_ace_spent"]:
            raise RuleViolation(
                _("{name}'s first ace is not spent yet, so {card} is worth 11 and matches no die.",
                  name=name, card=card_text(card)), field="card")
        number = 1
    else:
        number = int(rank)
    if number not in dice:
        raise RuleViolation(_("{card} matches neither die: the dice show {first} and {second}.",
                              card=card_text(card), first=dice[0], second=dice[1]), field="card")
    new = copied(state)
    new["turn"]["lottery"] = True
    new["last"] = {"type": "lottery", "seat": seat, "card": card, "dice": dice,
                   "answer": _("{name} draws one card from the pile; holding 10 cards, "
                               "discard down to {limit}.", name=name, limit=HAND_LIMIT)}
    return new


def pay(state: dict[str, Any], data: dict[str, Any], actor: int | None, rng: Any) -> dict:
    """THE PRICE and PAYING WITH CARDS: accepted suits only, at least the dice's sum."""
    seat = _seat(state, data)
    _in_turn(state, seat)
    if state["seats"][seat]["place"] == "off":
        # The app's reading of FUERA: "Tu turno acabará esperando fuera, y no recibes carta de
        # la pila"; the spec's `where`: "the next journey starts from the underground". Gone off
        # in its turn (its roll brought it underground otherwise), the rabbit's journey is over:
        # it pays no more this turn. Underground it may ("en el subsuelo esperas la salida").
        raise RuleViolation(
            _("{name} is off the board: nothing is paid there, and the turn ends waiting off "
              "it (say where the rabbit is with `where`).", name=seat_name(state, seat)),
            field="seat")
    suits = _suits(data)
    cards = _cards(data)
    for card in cards:
        if card[-1] not in suits:
            raise RuleViolation(
                _("{card} is {suit}: this tile takes {suits}.", card=card_text(card),
                  suit=SUIT_NAMES[card[-1]], suits=cards_listed([SUIT_NAMES[s] for s in suits])),
                field="cards")
    _check_held(state, seat, cards)
    price = state["turn"]["price"]
    total = seat_selection_total(state, seat, cards)["total"]
    if total < price:
        raise RuleViolation(_add_up(cards, total, price), field="cards")
    new = copied(state)
    spent = _spend(new, seat, cards)
    new["turn"]["paid"] = True
    new["last"] = {"type": "pay", "seat": seat, "price": price, "suits": suits, **spent}
    return new


def _suits(data: dict[str, Any]) -> list[str]:
    suits = data.get("suits") or []
    if not suits:
        raise RuleViolation(_("Say which suits the tile accepts (suits), as [\"S\", \"C\"]."),
                            field="suits")
    return [s for s in SUITS if s in suits]


def audience(state: dict[str, Any], data: dict[str, Any], actor: int | None, rng: Any) -> dict:
    """3RD THE ROYAL AUDIENCE: 10 points of the royal's suit and a carrot; the turn ends."""
    seat = _seat(state, data)
    _in_turn(state, seat)
    royal = _royal(data)
    name = seat_name(state, seat)
    if royal not in state["line"]:
        holder = state["tiles"][royal]
        raise RuleViolation(_("{royal} is not in the line: {name} holds it.",
                              royal=card_text(royal), name=seat_name(state, holder)), field="royal")
    _on_board(state, seat, _("an audience is held on the royal's land"))
    cards = _cards(data)
    suit = royal[-1]
    for card in cards:
        if card[-1] != suit:
            raise RuleViolation(_("{card} is not {suit}: an audience with {royal} is paid in "
                                  "{suit}.", card=card_text(card), suit=SUIT_NAMES[suit],
                                  royal=card_text(royal)), field="cards")
    _check_held(state, seat, cards)
    total = seat_selection_total(state, seat, cards, price=AUDIENCE_POINTS)["total"]
    if total < AUDIENCE_POINTS:
        raise RuleViolation(n_("{cards} adds up to {total}: an audience needs {points} points of "
                               "{suit}.", "{cards} add up to {total}: an audience needs {points} "
                               "points of {suit}.", len(cards), cards=cards_listed(cards),
                               total=total, points=AUDIENCE_POINTS, suit=SUIT_NAMES[suit]),
                            field="cards")
    # The app's reading: a held royal spent in the payment frees its carrot first ("take your
    # carrot off their shrine"), so that carrot may be the one left on the new royal's tile.
    freed = sum(1 for card in cards if is_royal(card))
    if state["seats"][seat]["carrots"] + freed < 1:
        raise RuleViolation(
            _("{name} has no carrot left: all 3 are on the tiles of {royals}.", name=name,
              royals=cards_listed(state["seats"][seat]["royals"])), field="seat")
    new = copied(state)
    spent = _spend(new, seat, cards)
    _take(new, seat, royal)
    new["turn"]["ended"] = str(_("after the audience with {royal}", royal=royal))
    new["last"] = {"type": "audience", "seat": seat, "royal": royal, **spent}
    return new


def steal(state: dict[str, Any], data: dict[str, Any], actor: int | None, rng: Any) -> dict:
    """A won spades attack that drew a royal: it passes to the thief, with the tile's carrot.

    The app's reading of ATACAR A LOS CONEJOS (the Spanish half): the attacker "throws spades
    where someone waits", so the thief acts in its own turn, after the roll, both rabbits on the
    board; "aquél que pierde el duelo sale FUERA", so the victim goes off the board; "la
    zanahoria cambiará en su pieza, y el turno acabará inmediatamente", so the turn ends.
    """
    thief = _seat(state, data, "thief")
    victim = _seat(state, data, "victim")
    if thief == victim:
        raise RuleViolation(_("A rabbit cannot steal from itself."), field="victim")
    _in_turn(state, thief, "thief")
    royal = _royal(data)
    _on_board(state, thief, _("an attack is made"), "thief")
    _on_board(state, victim, _("a rabbit is attacked"), "victim")
    victim_royals = state["seats"][victim]["royals"]
    if royal not in victim_royals:
        raise RuleViolation(_("{name} does not hold {royal}: {name} holds {royals}.",
                              name=seat_name(state, victim), royal=card_text(royal),
                              royals=cards_listed(victim_royals)), field="royal")
    after = sorted_royals([*state["seats"][thief]["royals"], royal])
    returns = _returns(state, data, thief, after)
    new = copied(state)
    _release(new, victim, royal)
    # The carrot changes colour: the victim's comes back, the thief's goes on the tile. With 4
    # royals the thief has no carrot left, and the one freed by the returned royal is used.
    _take(new, thief, royal)
    if returns:
        _release(new, thief, returns)
    new["seats"][victim]["place"] = "off"
    new["turn"]["ended"] = str(_("after stealing {royal}", royal=royal))
    new["last"] = {"type": "steal", "seat": thief, "victim": victim, "royal": royal,
                   "returns": returns}
    return new


def _returns(state: dict[str, Any], data: dict[str, Any], thief: int,
             after: list[str]) -> str | None:
    """Which royal a thief now holding 4 gives back to the line ("deshazte de una")."""
    given = data.get("returns")
    name = seat_name(state, thief)
    if len(after) <= 3:
        if given is not None:
            raise RuleViolation(n_("{name} will hold {n} royals: nothing is returned.",
                                   "{name} will hold {n} royals: nothing is returned.",
                                   len(after), name=name, n=len(after)), field="returns")
        return None
    if given is None:
        raise RuleViolation(_("{name} would hold 4 royals ({royals}): say which one goes back to "
                              "the line (returns).", name=name, royals=cards_listed(after)),
                            field="returns")
    royal = _royal(data, "returns")
    if royal not in after:
        raise RuleViolation(_("{name} can only return one of {royals}, not {royal}.", name=name,
                              royals=cards_listed(after), royal=card_text(royal)), field="returns")
    return royal


def where(state: dict[str, Any], data: dict[str, Any], actor: int | None, rng: Any) -> dict:
    """Where a rabbit is: on the board, off it (no card at the turn's end), or underground."""
    seat = _seat(state, data)
    place = data["place"]
    if state["seats"][seat]["place"] == place:
        raise RuleViolation(_("{name} is {place} already.", name=seat_name(state, seat),
                              place=PLACE_NAMES[place]), field="place")
    new = copied(state)
    new["seats"][seat]["place"] = place
    new["last"] = {"type": "where", "seat": seat, "place": place}
    return new


def arrive(state: dict[str, Any], data: dict[str, Any], actor: int | None, rng: Any) -> dict:
    """ENDING THE GAME: back at the Citadel, in one's turn, with 3 royals fitting the ending."""
    seat = _seat(state, data)
    _in_turn(state, seat)
    _on_board(state, seat, _("the Citadel is reached"))
    options = state["options"]
    royals = state["seats"][seat]["royals"]
    missing = ending_missing(royals, options["ending"])
    if missing:
        raise RuleViolation(missing, field="seat")
    cards = _cards(data, needed=False)
    spent = None
    new = copied(state)
    if options["advanced_citadel"]:
        _door_hearts(state, seat, cards)
        spent = _spend(new, seat, cards)
    elif cards:
        raise RuleViolation(_("Nothing is paid at the Citadel's door without the advanced "
                              "Citadel option: leave the cards out."), field="cards")
    new["winner"] = seat
    new["last"] = {"type": "arrive", "seat": seat, "royals": list(royals), "paid": spent}
    return new


def brought_home(card: str) -> Text:
    """Why a royal does not pay the advanced Citadel's door: the rules' refusal and the card
    picker's (panel.selection_preview) alike."""
    return _("{card} is one of the royals brought home: pay the door with other hearts.",
             card=card_text(card))


def _door_hearts(state: dict[str, Any], seat: int, cards: list[str]) -> None:
    """ADVANCED CITADEL: "expects hearts at the door when you're back", worth the price."""
    price = state["turn"]["price"]
    if not cards:
        raise RuleViolation(_("The advanced Citadel expects hearts worth at least {price} at "
                              "the door (cards).", price=price), field="cards")
    for card in cards:
        if card[-1] != CITADEL_SUIT:
            raise RuleViolation(_("{card} is not a heart: the Citadel's door takes hearts only.",
                                  card=card_text(card)), field="cards")
        if is_royal(card):
            raise RuleViolation(brought_home(card), field="cards")
    total = seat_selection_total(state, seat, cards)["total"]
    if total < price:
        raise RuleViolation(_add_up(cards, total, price), field="cards")


# ---------------------------------------------------------------------------------------------
# Standings, summary

def standings(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The winner first; the others ranked by the royals they hold (no winner before arrival).

    The royals held are the scoreboard's number, not points: "You will win if you return with 3
    royal cards in hand" is the only way to win, so the statistics count no score ("scored"
    false: companion.stats.result_score), as for a game played without points."""
    winner = state["winner"]
    rows = []
    for index, player in enumerate(state["seats"]):
        rows.append({"seat": index, "name": player["name"], "score": len(player["royals"]),
                     "winner": index == winner,
                     "details": {"royals": list(player["royals"]), "carrots": player["carrots"],
                                 "place": player["place"],
                                 "first_ace_spent": player["first_ace_spent"],
                                 "scored": False}})

    def key(row: dict[str, Any]) -> tuple[int, int]:
        return (0 if row["winner"] else 1, -row["score"])

    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if key(other) < key(row))
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def finished(state: dict[str, Any]) -> bool:
    return state["winner"] is not None


def summary(move: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> Text | str:
    last = after.get("last") or {}
    name = seat_name(after, last["seat"]) if "seat" in last else "?"
    kind = last.get("type")
    if kind == "roll":
        dice = last["dice"]
        text = _("{name} rolled {first}+{second}: the price is {price}", name=name,
                 first=dice[0], second=dice[1], price=last["price"])
        if last["underground"]:
            return joined("; ", [text, _("{name} waits underground", name=name)])
        return text
    if kind == "lottery":
        return _("{name} won the lottery with {card}: one card from the pile", name=name,
                 card=card_text(last["card"]))
    if kind == "pay":
        return _with_returned(_("{name} paid {paid} (price {price})", name=name,
                                paid=_sum_text(last), price=last["price"]), last["returned"])
    if kind == "audience":
        return _with_returned(_("{name} won an audience with {royal} ({paid})", name=name,
                                royal=card_text(last["royal"]), paid=_sum_text(last)),
                              last["returned"])
    if kind == "steal":
        text = _("{name} stole {royal} from {victim}, who is off the board", name=name,
                 royal=card_text(last["royal"]), victim=seat_name(after, last["victim"]))
        return _with_returned(text, [last["returns"]] if last["returns"] else [])
    if kind == "where":
        return _("{name} is now {place}", name=name, place=PLACE_NAMES[last["place"]])
    if kind == "arrive":
        if last["paid"]:
            return _("{name} is back at the Citadel with {royals} and wins (hearts at the door: "
                     "{paid})", name=name, royals=cards_listed(last["royals"]),
                     paid=_sum_text(last["paid"]))
        return _("{name} is back at the Citadel with {royals} and wins", name=name,
                 royals=cards_listed(last["royals"]))
    return str(move.get("type", ""))


def _with_returned(text: Text, returned: list[str]) -> Text:
    """A line and, after "; ", the royals a payment or a steal sent back to the line."""
    if not returned:
        return text
    back = n_("{royals} back to the line", "{royals} back to the line", len(returned),
              royals=cards_listed(returned))
    return joined("; ", [text, back])


OPTIONS = {"ending": "diverse_monarchy", "values": "classic", "advanced_citadel": False,
           "first": 0}

# How the new-game form shows the options (the API takes the same values).
OPTION_FIELDS = (
    Option("ending", _("How to win"), "choice",
           choices=tuple((ending, _("Back at the Citadel with {what}", what=ENDING_WORDS[ending]))
                         for ending in ENDINGS),
           help=_("The royal cards a rabbit brings back to the Citadel to win.")),
    Option("values", _("Card values"), "choice", choices=(
        ("classic", _("Classic: the first ace 11, later aces 1, J Q K 10")),
        ("patriarchy", _("Patriarchy: the first ace 14, later aces 1, J 11, Q 12, K 13")),
    )),
    Option("advanced_citadel", _("Advanced Citadel"), "switch",
           help=_("The Citadel expects hearts at the door when you are back.")),
    Option("first", _("Starting player"), "seat",
           help=_("The rulebook leaves it to the table, random or creative; then the turns go "
                  "round in seat order.")),
)


# Who may make a move (engine.move_authority): a move whose fields name a "seat" is that seat's;
# a steal is the thief's or the victim's.
AUTHORITY = {
    "steal": "seat:thief,victim",
}


def now(state: dict[str, Any]) -> Text | None:
    """Where the game stands, for the table's "now" line."""
    if finished(state):
        return None
    turn = state["turn"]
    name = state["seats"][turn["seat"]]["name"]
    if turn.get("ended"):  # an audience or a steal ended it: the next seat rolls
        return _("{name}'s turn has ended ({how}): it is {next}'s turn to roll.", name=name,
                 how=ended_text(turn), next=seat_name(state, next_seat(state)))
    if turn.get("price") is not None:
        return _("{name}'s turn: the price is {price}", name=name, price=turn["price"])
    return _("{name}'s turn", name=name)


def awaited(state: dict[str, Any]) -> list[int]:
    """The seat the table waits on: the rabbit in turn, or once an audience or a steal ended its
    turn, the next one, to roll."""
    if finished(state):
        return []
    turn = state["turn"]
    return [next_seat(state) if turn.get("ended") else turn["seat"]]


GAME = Game(
    slug="rabbits",
    name="Lenino's Jack Rabbits",
    min_players=2,
    max_players=4,
    options=OPTIONS,
    option_fields=OPTION_FIELDS,
    check_options=check_options,
    first="first",
    authority=AUTHORITY,
    setup=setup,
    moves={"roll": roll, "lottery": lottery, "pay": pay, "audience": audience, "steal": steal,
           "where": where, "arrive": arrive},
    standings=standings,
    finished=finished,
    summary=summary,
    score_label=_("Royals"),
    rank_rule=_("The first rabbit back at the Citadel with the ending's royals wins; then the "
                "royals held."),
    now=now,
    awaited=awaited,
)
