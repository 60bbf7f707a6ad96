"""Jack Rabbits has no points ("You will win if you return with 3 royal cards in hand"): a
finished game's results keep its ranks and winner but no score, so no average, record or
distribution counts the royals held; results kept before (migration 0018) lose theirs too."""

from importlib import import_module

from django.apps import apps

from companion import stats
from companion.models import Result
from tests.factories import finished_session

no_points = import_module("companion.migrations.0018_rabbits_no_points")


def test_a_finished_game_keeps_ranks_and_its_winner_but_no_score(alice):
    session = finished_session(alice, game="rabbits")
    results = list(Result.objects.filter(session=session).order_by("rank"))
    assert [result.score for result in results] == [None, None, None]
    assert [result.winner for result in results].count(True) == 1
    assert results[0].winner and results[0].rank == 1
    figures = stats.game_stats(owner=alice, game="rabbits")
    assert figures["average"] is None and figures["distribution"] == []


def test_results_kept_with_the_royals_as_a_score_lose_it(alice):
    rabbits = finished_session(alice, game="rabbits")
    quixote = finished_session(alice, game="quixote")
    Result.objects.filter(session=rabbits).update(score=3)  # as results were kept before 0018
    kept = list(Result.objects.filter(session=quixote).values_list("score", flat=True))

    no_points.unscored(apps, None)

    assert set(Result.objects.filter(session=rabbits).values_list("score", flat=True)) == {None}
    assert list(Result.objects.filter(session=quixote).values_list("score", flat=True)) == kept
