"""The history list (filters, pages, htmx partial) and a session's timeline with its
step-through: the host's own sessions only, constant queries."""

import datetime

import pytest

from companion import services
from companion.models import Player
from tests.factories import finished_session, played
from tests.views.helpers import assert_phone_ready, browser_for


def test_history_lists_own_sessions_only(alice, charlie):
    mine = played(alice)
    theirs = played(charlie, players=("Zed", "Yan"))
    response = browser_for(alice).get("/history/")
    assert response.status_code == 200
    assert_phone_ready(response)
    html = response.content.decode().split("<main>")[1]  # not the random CSRF token
    assert f"/history/sessions/{mine.pk}/" in html and "Vanessa" in html
    assert f"/history/sessions/{theirs.pk}/" not in html and "Zed" not in html


def test_history_needs_a_sign_in(db):
    response = browser_for().get("/history/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_filters_by_game_player_and_date(alice):
    with_peter = played(alice)
    without = played(alice, players=("Vanessa", "Olga"))
    peter = Player.objects.get(owner=alice, name="Peter")
    html = browser_for(alice).get(f"/history/?player={peter.pk}").content.decode()
    assert f"/history/sessions/{with_peter.pk}/" in html
    assert f"/history/sessions/{without.pk}/" not in html
    html = browser_for(alice).get("/history/?game=chess").content.decode()
    assert f"/history/sessions/{without.pk}/" in html  # an unknown game filters nothing
    tomorrow = (datetime.date.today() + datetime.timedelta(days=2)).isoformat()
    html = browser_for(alice).get(f"/history/?since={tomorrow}").content.decode()
    assert "/history/sessions/" not in html and "No games match." in html


def test_htmx_filter_answers_the_results_partial(alice):
    played(alice)
    response = browser_for(alice).get("/history/?game=tiny", HTTP_HX_REQUEST="true",
                                      HTTP_HX_TARGET="results")
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="results"') and "<html" not in html


def test_pages_and_constant_queries(alice, django_assert_max_num_queries):
    for _ in range(3):
        played(alice)
    client = browser_for(alice)
    with django_assert_max_num_queries(10):
        assert client.get("/history/").status_code == 200
    for _ in range(22):
        played(alice, players=("Vanessa", "Peter", "Olga"))
    with django_assert_max_num_queries(10):
        first = client.get("/history/").content.decode()
    assert "Page 1 of 2" in first and "page=2" in first
    assert "Page 2 of 2" in client.get("/history/?page=2").content.decode()


def test_timeline_shows_moves_who_dice_and_undone(alice, game, bob):
    actor = services.Actor(user=alice)
    services.move_play(session=game, type="add", data={"seat": 0, "points": 4}, actor=actor)
    services.move_play(session=game, type="roll", data={"seat": 1},
                       actor=services.Actor(guest=bob))
    services.move_play(session=game, type="add", data={"seat": 1, "points": 9}, actor=actor)
    services.move_undo(session=game, actor=actor)
    response = browser_for(alice).get(f"/history/sessions/{game.pk}/")
    assert response.status_code == 200
    assert_phone_ready(response)
    html = response.content.decode()
    game.refresh_from_db()
    die = game.state["rolls"][0]
    assert f"the app rolled {die}" in html
    assert "by alice (host)" in html and "by Peter's phone" in html
    assert "<del>Peter +9</del>" in html
    assert "<svg" in html and 'role="img"' in html


def test_step_through_replays_to_a_move(alice, game):
    actor = services.Actor(user=alice)
    for seat, points in ((0, 4), (1, 6), (0, 5)):
        services.move_play(session=game, type="add", data={"seat": seat, "points": points},
                           actor=actor)
    client = browser_for(alice)
    html = client.get(f"/history/sessions/{game.pk}/?upto=2").content.decode()
    assert "After move 2 (2 of 3)" in html
    step = html.split('id="step"')[1].split("</table>")[0]
    assert ">4<" in step and ">6<" in step and ">9<" not in step
    partial = client.get(f"/history/sessions/{game.pk}/?upto=1", HTTP_HX_REQUEST="true",
                         HTTP_HX_TARGET="step").content.decode()
    assert partial.lstrip().startswith('<div id="step"') and "After move 1" in partial
    start = client.get(f"/history/sessions/{game.pk}/?upto=0").content.decode()
    assert "Before the first move" in start


@pytest.mark.parametrize("moves", [2, 20])
def test_timeline_queries_do_not_grow_with_moves(alice, game, moves,
                                                 django_assert_max_num_queries):
    actor = services.Actor(user=alice)
    for number in range(moves):
        services.move_play(session=game, type="add", data={"seat": number % 2, "points": 1},
                           actor=actor)
    client = browser_for(alice)
    with django_assert_max_num_queries(6):
        assert client.get(f"/history/sessions/{game.pk}/").status_code == 200


def test_other_hosts_sessions_are_404(alice, charlie, game, bob):
    assert browser_for(charlie).get(f"/history/sessions/{game.pk}/").status_code == 404
    guest = browser_for()
    guest.cookies[f"guest{game.pk}"] = bob.token
    assert guest.get(f"/history/sessions/{game.pk}/").status_code == 302  # sign in first


def test_results_csv_page(alice, charlie):
    played(alice)
    played(charlie, players=("Zed", "Yan"))
    response = browser_for(alice).get("/history/results.csv")
    body = b"".join(response.streaming_content).decode()
    assert "Vanessa" in body and "Zed" not in body


def test_a_long_timeline_comes_in_pages_holding_the_step_shown(alice, game):
    from companion import history

    actor = services.Actor(user=alice)
    for _ in range(7):
        services.move_play(session=game, type="add", data={"seat": 1, "points": 1}, actor=actor)
    client = browser_for(alice)
    original, history.TIMELINE_PAGE = history.TIMELINE_PAGE, 3
    try:
        last = client.get(f"/history/sessions/{game.pk}/").content.decode()
        assert "Page 3 of 3" in last and 'class="seq">7<' in last
        assert 'class="seq">1<' not in last
        first = client.get(f"/history/sessions/{game.pk}/?upto=2").content.decode()
        assert "Page 1 of 3" in first and 'class="seq">1<' in first
        assert 'class="seq">7<' not in first
        assert client.get(f"/history/sessions/{game.pk}/?page=x").status_code == 400
    finally:
        history.TIMELINE_PAGE = original


def test_filters_by_location_offering_the_places_used(alice):
    club = services.session_create(owner=alice, game="tiny", players=["Ana", "Ben"],
                                   location="Club")
    kitchen = services.play_log(owner=alice, game="tiny", location="Ana's kitchen",
                                players=[{"name": "Ana", "score": 3}, {"name": "Ben", "score": 1}])
    nowhere = played(alice)
    client = browser_for(alice)
    html = client.get("/history/").content.decode()
    assert '<option value="Club">' in html and "<option value=\"Ana&#x27;s kitchen\">" in html
    html = client.get("/history/?location=club").content.decode()  # any case
    assert f"/history/sessions/{club.pk}/" in html
    assert f"/history/sessions/{kitchen.pk}/" not in html
    assert f"/history/sessions/{nowhere.pk}/" not in html
    html = client.get("/history/", {"location": "Ana's kitchen"}).content.decode()
    assert f"/history/sessions/{kitchen.pk}/" in html and "logged" in html
    assert f"/history/sessions/{club.pk}/" not in html
    assert "No games match." in client.get("/history/?location=Moon").content.decode()
    assert client.get("/history/?location=%01").status_code < 500


def test_a_logged_play_in_history_and_its_session_page(alice, django_assert_max_num_queries):
    session = services.play_log(owner=alice, title="Azul", played_at=datetime.date(2026, 9, 1),
                                minutes=50, location="Club", note="rematch soon",
                                players=[{"name": "Ana", "score": 60},
                                         {"name": "Ben", "score": 72}])
    client = browser_for(alice)
    html = client.get("/history/").content.decode()
    assert "<strong>Azul</strong>" in html and "Club" in html
    with django_assert_max_num_queries(10):
        page = client.get(f"/history/sessions/{session.pk}/")
    html = page.content.decode()
    assert page.status_code == 200 and "<h1>Azul</h1>" in html
    assert "rematch soon" in html and "50 minutes" in html
    assert html.index("Ben") < html.index("Ana")  # the winner first
    assert "/history/games/pad/?title=Azul" in html


def test_one_date_format_and_one_word_for_a_game_in_play(alice):
    from companion.models import Result, Session

    moment = datetime.datetime(2026, 11, 24, 14, 5, tzinfo=datetime.UTC)
    done = played(alice)
    on = services.session_create(owner=alice, game="tiny", players=["Ana", "Ben"], options={},
                                 seed="s")
    Session.objects.filter(pk__in=[done.pk, on.pk]).update(created_at=moment)
    Result.objects.filter(session=done).update(finished_at=moment)
    client = browser_for(alice)
    vanessa = Player.objects.get(owner=alice, name="Vanessa")
    pages = {path: client.get(path).content.decode()
             for path in ("/", "/history/", f"/history/sessions/{done.pk}/",
                          f"/history/players/{vanessa.pk}/", "/history/games/tiny/")}
    for path, html in pages.items():
        assert "24 Nov 2026" in html, path
        for other in ("Nov. 24", "11/24/2026", "2026-11-24<", "November 24"):
            assert other not in html, (path, other)
    assert "24 Nov 2026, 14:05" in pages[f"/history/sessions/{done.pk}/"]
    assert "in play" in pages["/"] and "active" not in pages["/"]


def test_the_score_pad_s_figures_are_its_named_games(alice):
    # Every play on the score pad is a named game's: the pad has no figures of its own, so the
    # history offers each named game, and the pad's own address shows its plays.
    services.play_log(owner=alice, title="Carcassonne",
                      players=[{"name": "Ana", "score": 10}, {"name": "Ben", "score": 12}])
    host = browser_for(alice)
    page = host.get("/history/").content.decode()
    assert 'href="/history/games/pad/?title=Carcassonne"' in page
    assert 'href="/history/games/pad/"' not in page
    assert 'href="/history/games/quixote/"' in page
    response = host.get("/history/games/pad/")
    assert response.status_code == 302 and response["Location"] == "/history/?game=pad"
    assert "Carcassonne" in host.get(response["Location"]).content.decode()


def test_a_game_page_says_why_a_figure_is_missing(alice):
    # A play logged with no length, and one of a game with no points: not "no finished games".
    services.play_log(owner=alice, title="Codenames", win="none",
                      players=[{"name": "Ana", "winner": True}, {"name": "Ben"}])
    page = browser_for(alice).get("/history/games/pad/?title=Codenames").content.decode()
    assert "No finished games yet." not in page
    assert "Its plays have no scores to rank." in page
    assert "No play kept its length (a play logged afterwards without one)." in page


def test_a_game_s_length_reads_as_a_table_says_it(alice):
    for minutes in (1440, 45, 125):
        services.play_log(owner=alice, title="Catan", minutes=minutes,
                          players=[{"name": "Ana", "score": 9}, {"name": "Ben", "score": 7}])
    page = browser_for(alice).get("/history/games/pad/?title=Catan",
                                  HTTP_ACCEPT_LANGUAGE="es").content.decode()
    # It wrote "1 day, 0:00:00" and "0:45:00", in English on a Spanish page.
    assert "<dd>24 h</dd>" in page and "<dd>45 min</dd>" in page
    assert "<dd>8 h 56 min</dd>" in page  # the average of 1,440, 45 and 125 minutes
    assert "day" not in page


def test_the_steps_scoreboard_heads_its_number_as_the_game_counts_it(alice):
    """Jack Rabbits' number is the royals held (it has no points): the step-through table heads
    it "Royals", as the live scoreboard does."""
    session = finished_session(alice, game="rabbits")
    html = browser_for(alice).get(f"/history/sessions/{session.pk}/").content.decode()
    assert '<th class="num">Royals</th>' in html and '<th class="num">Score</th>' not in html
