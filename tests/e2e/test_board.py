"""The board, the screen in the middle of the table: it follows the table to its rematch, and on
a TV it shows a game in play whole, in letters read across the table, with nothing to tap."""

import os

import pytest

import games
from companion import plugins, services
from tests.e2e.conftest import screenshot, words_cut_in_two
from tests.factories import in_play, played, session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("BOARD_SHOTS")  # a folder: save each game's board on a TV there
TV = {"width": 1920, "height": 1080}
NAMES = ("Vanessa", "Peter", "Íñigo", "Ana", "Guillermo", "Bartolomé", "Leo", "Marta", "Rocío",
         "Xavier", "Zoe", "Nicolás")

# (seats, moves): each game in the middle of a game at its fullest table (the score pad's
# twelve seats, in round 14), its moves drawn from its samples. Don Quixote's third round is
# being scored; Alatriste's last move was a duel, its result above six sheets; Knights' round 9
# has its event, its offers and a card grid filling up; Jack Rabbits' royals are half held.
IN_PLAY = {"pad": (12, 120), "quixote": (4, 40), "alatriste": (6, 42), "knights": (6, 115),
           "rabbits": (4, 40)}
GAMES = [app.rpartition(".")[2] for app in games.INSTALLED_APPS]


def table_of(slug):
    """(seats, moves) of `slug`'s table in play: a game added later at six seats at most, forty
    moves on."""
    rules = plugins.rules_of(slug)
    return IN_PLAY.get(slug, (max(rules.min_players, min(6, rules.max_players)), 40))


# What a TV shows of the page: its size, its smallest letters, the parts that scroll inside
# themselves, the controls it shows.
MEASURED = """() => {
  const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
  let smallest = null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || !el || !shown(el)) continue;
    if (el.closest(".sr-only, [hidden], script, style, title")) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (!smallest || size < smallest.size) {
      smallest = {size, text: el.tagName + ": " + walker.currentNode.textContent.trim()};
    }
  }
  // A part that scrolls inside itself would hide what does not fit as surely as the page's
  // foot would. (The log is no such part: it shows its newest lines and clips older ones.)
  const scrolled = [...document.querySelectorAll("body *")].filter((el) => {
    const style = getComputedStyle(el);
    return /auto|scroll/.test(style.overflowY + style.overflowX) && shown(el)
      && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
  }).map((el) => el.tagName + "#" + el.id + "." + el.className);
  const controls = [...document.querySelectorAll(
      "button, input:not([type=hidden]), select, textarea, summary, a[href], form")]
    .filter(shown).map((el) => el.outerHTML.slice(0, 60));
  const root = document.documentElement;
  return {height: root.scrollHeight, width: root.scrollWidth, smallest, scrolled, controls};
}"""


@pytest.mark.parametrize("game", GAMES)
def test_a_tv_shows_the_board_of_a_game_in_play_whole(phone, alice, game):
    seats, moves = table_of(game)
    session = in_play(session_for(alice, game=game, players=NAMES[:seats]), moves=moves)
    assert not session.is_finished
    board = phone()
    board.set_viewport_size(TV)
    board.goto(f"/board/{session.board_key}/")
    board.wait_for_selector("#table[data-stream=open]", state="attached")
    shown = board.evaluate(MEASURED)
    screenshot(SHOTS, board, f"board-{game}")
    assert shown["height"] <= TV["height"] and shown["width"] <= TV["width"], shown
    assert shown["scrolled"] == [], shown
    assert shown["smallest"]["size"] >= 24, shown["smallest"]
    assert words_cut_in_two(board) == []
    # No sign-in, no theme or language switch, no button: a screen nobody touches.
    assert shown["controls"] == [], shown["controls"]


def test_the_board_follows_the_table_to_its_rematch(phone, alice):
    done = played(alice)
    board = phone()
    board.goto(f"/board/{done.board_key}/")
    board.wait_for_selector("#table[data-stream=open]", state="attached")
    new = services.session_rematch(session=done, actor=services.Actor(user=alice))
    board.wait_for_url(f"**/board/{new.board_key}/")
    board.wait_for_selector("#scoreboard")
