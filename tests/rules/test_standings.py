"""Every game: standings of a game in play call nobody the winner; the first place is the leader.
Once it is finished, the winners are the game's own."""

import importlib
import random

import pytest

from companion import engine
from companion.engine import Game, Refused, rank_by_score, standings_of
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


@pytest.mark.parametrize("game", [QUIXOTE, ALATRISTE, KNIGHTS, RABBITS], ids=lambda g: g.slug)
def test_a_game_in_play_with_one_player_ahead_still_has_no_winner(game):
    """Each game played from its samples (as the conformance test plays it): at every step
    before the end the leaders are rank 1 and nobody is the winner, with one player ahead alone
    at some step; once over, the winners are the game's own."""
    samples = importlib.import_module(f"games.{game.slug}.samples")
    seats = NAMES[:max(game.min_players, 2)]
    options = game.resolve_options({}, len(seats))
    ahead_alone = False
    for game_number in range(3):
        rng = random.Random(f"{game.slug}:{game_number}")
        seed = f"standings-{game_number}"
        state = engine.initial_state(game, seats, options, seed)
        for seq in range(1, 400):
            if game.finished(state):
                break
            rows = standings_of(game, state)
            assert not any(row["winner"] for row in rows), rows
            assert [row["leader"] for row in rows] == [row["rank"] == 1 for row in rows]
            ahead_alone = ahead_alone or [row["leader"] for row in rows].count(True) == 1
            for move in samples.candidates(state, rng):
                try:
                    state = engine.apply(game, state, move["type"], move["data"],
                                         move["actor"], seed, seq)
                    break
                except Refused:
                    continue
        if game.finished(state):
            own = [row["winner"] for row in game.standings(state)]
            assert [row["winner"] for row in standings_of(game, state)] == own
    assert ahead_alone, f"{game.slug}: no step of these games had one player ahead"


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
