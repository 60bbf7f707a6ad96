"""Every game: standings of a game in play call nobody the winner; the first place is the leader.
Once it is finished, the winners are the game's own."""

import random

import pytest

from companion.engine import Game, rank_by_score, standings_of
from games.alatriste.rules import GAME as ALATRISTE
from games.knights.rules import GAME as KNIGHTS
from games.quixote.rules import GAME as QUIXOTE
from games.rabbits.rules import GAME as RABBITS

NAMES = ["Ann", "Bo", "Cy", "Di"]


@pytest.mark.parametrize("game", [QUIXOTE, ALATRISTE, KNIGHTS, RABBITS], ids=lambda g: g.slug)
def test_a_game_in_play_has_a_leader_and_no_winner(game):
    seats = NAMES[:max(game.min_players, 2)]
    state = game.setup(seats, game.resolve_options({}, len(seats)), random.Random(1))
    assert not game.finished(state)
    rows = standings_of(game, state)
    assert not any(row["winner"] for row in rows)
    assert [row["leader"] for row in rows] == [row["rank"] == 1 for row in rows]
    assert any(row["leader"] for row in rows)


def race(target):
    return Game(slug="race", name="Race", min_players=2, max_players=2,
                setup=lambda names, options, rng: {"names": names, "scores": [0, 0]},
                moves={}, summary=lambda move, before, after: "",
                finished=lambda state: max(state["scores"]) >= target,
                standings=lambda state: rank_by_score(
                    [{"seat": i, "name": n, "score": s, "details": {}}
                     for i, (n, s) in enumerate(zip(state["names"], state["scores"],
                                                    strict=True))]))


def test_the_winner_appears_when_the_game_is_over():
    game = race(10)
    playing = {"names": ["Ann", "Bo"], "scores": [7, 3]}
    assert [(r["name"], r["leader"], r["winner"]) for r in standings_of(game, playing)] == [
        ("Ann", True, False), ("Bo", False, False)]
    over = {"names": ["Ann", "Bo"], "scores": [12, 3]}
    assert [(r["name"], r["leader"], r["winner"]) for r in standings_of(game, over)] == [
        ("Ann", True, True), ("Bo", False, False)]
