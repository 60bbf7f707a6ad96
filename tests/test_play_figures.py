"""The figures a game group looks at first (issue 53), each against a plain recount of the plays
that made them: plays by month across a year's end, minutes with plays of unknown length, first
and last played, by the number of players (a 2- and a 4-player game), a cooperative loss, a
play without points, and who finishes ahead of whom; on the API and in its schema."""

import datetime

import pytest

from companion import play_figures, services
from companion.models import Player

PLAYS = [
    # (day, game's name, how it is won, minutes, [(name, score, winner)])
    ("2025-12-30", "Pandemic", "coop", 45, [("Ana", None, False), ("Ben", None, False)]),
    ("2026-01-02", "Pandemic", "coop", None, [("Ana", None, True), ("Ben", None, True),
                                              ("Cy", None, True), ("Di", None, True)]),
    ("2026-01-20", "Azul", "high", 30, [("Ana", 60, False), ("Ben", 72, False)]),
    ("2026-03-05", "Azul", "high", 40, [("Ana", 80, False), ("Ben", 51, False),
                                        ("Cy", 44, False), ("Di", 90, False)]),
    ("2026-03-06", "Codenames", "none", 15, [("Ana", None, True), ("Cy", None, False)]),
]


@pytest.fixture
def plays(alice):
    for day, title, win, minutes, seats in PLAYS:
        services.play_log(owner=alice, title=title, win=win, minutes=minutes,
                          played_at=datetime.date.fromisoformat(day),
                          players=[{"name": name, "score": score, "winner": winner}
                                   for name, score, winner in seats])
    return PLAYS


def recount(plays, *, name=None, title=None):
    """The figures of one player (`name`) or one game (`title`), counted plainly."""
    chosen = [play for play in plays if (title is None or play[1] == title)
              and (name is None or name in [seat[0] for seat in play[4]])]

    def won(play):
        seats = play[4]
        if play[2] == "high" and not any(winner for _n, _s, winner in seats):
            best = max(score for _n, score, _w in seats)
            return {n: score == best for n, score, _w in seats}
        return {n: winner for n, _s, winner in seats}

    months, counts = {}, {}
    for play in chosen:
        month = play[0][:7]
        wins = won(play)
        row = months.setdefault(month, {"month": month, "plays": 0, "wins": 0})
        row["plays"] += 1
        seated = counts.setdefault(str(len(play[4])), {"plays": 0, "wins": 0})
        seated["plays"] += 1
        if name is not None:
            row["wins"] += wins[name]
            seated["wins"] += wins[name]
        else:
            seated["wins"] += any(wins.values())
    coop = [play for play in chosen if play[2] == "coop"]
    coop_won = sum(1 for play in coop if won(play)[name or play[4][0][0]])
    return {
        "by_month": [row if name is not None else {"month": row["month"], "plays": row["plays"]}
                     for _month, row in sorted(months.items())],
        "minutes_played": sum(play[3] or 0 for play in chosen),
        "first_played": min(play[0] for play in chosen),
        "last_played": max(play[0] for play in chosen),
        "by_player_count": counts,
        "coop": {"plays": len(coop), "won": coop_won, "lost": len(coop) - coop_won}
        if coop else None,
    }


@pytest.mark.parametrize("name", ["Ana", "Ben", "Cy", "Di"])
def test_a_players_figures_equal_a_recount(plays, alice, name):
    player = Player.objects.get(owner=alice, name=name)
    assert play_figures.player_figures(player=player) == recount(plays, name=name)


@pytest.mark.parametrize("title", ["Pandemic", "Azul", "Codenames"])
def test_a_games_figures_equal_a_recount(plays, alice, title):
    assert play_figures.game_figures(owner=alice, game="pad", title=title) == \
        recount(plays, title=title)


def test_plays_by_year_add_up_their_months(plays, alice):
    figures = play_figures.player_figures(player=Player.objects.get(owner=alice, name="Ana"))
    assert play_figures.by_year(figures["by_month"]) == [{"year": "2025", "plays": 1},
                                                         {"year": "2026", "plays": 4}]


def test_who_finishes_ahead_of_whom_equals_a_recount(plays, alice):
    table = play_figures.versus(owner=alice)
    names = [row["name"] for row in table["players"]]
    assert names == ["Ana", "Ben", "Cy", "Di"]  # the most played first, then by name
    ranks = []
    for play in plays:
        standings = services.play_standings(
            names=[seat[0] for seat in play[4]], scores=[seat[1] for seat in play[4]],
            winners=[seat[2] for seat in play[4]], win=play[2])
        ranks.append({row["name"]: row["rank"] for row in standings})
    for i, mine in enumerate(names):
        for j, theirs in enumerate(names):
            cell = table["rows"][i][j]
            if i == j:
                assert cell is None
                continue
            shared = [play for play in ranks if mine in play and theirs in play]
            assert cell == {"together": len(shared),
                            "ahead": sum(1 for play in shared if play[mine] < play[theirs])}


def test_the_api_gives_the_figures_and_the_schema_names_them(plays, alice, as_alice):
    ana = Player.objects.get(owner=alice, name="Ana")
    answer = as_alice.get(f"/api/players/{ana.pk}/stats/").json()
    assert {key: answer[key] for key in recount(plays, name="Ana")} == recount(plays, name="Ana")
    game = as_alice.get("/api/games/pad/stats/?title=Pandemic").json()
    assert game["coop"] == {"plays": 2, "won": 1, "lost": 1}
    versus = as_alice.get("/api/players/versus/").json()
    assert versus == play_figures.versus(owner=alice)
    schema = as_alice.get("/api/schema/?format=json").json()["components"]["schemas"]
    for name in ("PlayerStats", "GameStats"):
        assert {"by_month", "minutes_played", "first_played", "last_played",
                "by_player_count", "coop"} <= set(schema[name]["properties"])
    assert set(schema["Versus"]["properties"]) == {"players", "rows"}


def test_the_history_says_the_time_played_and_the_pages_the_plays_by_year(plays, alice):
    from tests.views.helpers import browser_for

    client = browser_for(alice)
    # 45 + 30 + 40 + 15 minutes: the play of unknown length counts for nothing.
    assert "5 games · 2 h 10 min played" in client.get("/history/").content.decode()
    filtered = client.get("/history/?game=pad:Azul").content.decode()
    assert "2 games · 1 h 10 min played" in filtered
    ana = Player.objects.get(owner=alice, name="Ana")
    page = client.get(f"/history/players/{ana.pk}/").content.decode()
    assert "By year: 2025, 1 play; 2026, 4 plays." in page


def test_the_players_page_shows_who_finishes_ahead_once(plays, alice):
    from tests.views.helpers import browser_for

    html = browser_for(alice).get("/players/").content.decode()
    assert html.count('id="versus"') == 1
    assert "<title>Players" in html and "</section>" not in html.split("</title>")[0]
    table = play_figures.versus(owner=alice)
    ana_cy = table["rows"][0][2]  # Ana against Cy: ahead in 2 of their 3 games together
    assert ana_cy == {"together": 3, "ahead": 2} and "2 of 3" in html
