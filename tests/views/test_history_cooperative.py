"""A cooperative play is won or lost by the whole table: the history list and the play's page say
which, and a lost one shows nobody in first place with 0 points; a play without points shows no
score at all."""

import re

from companion import services
from tests.views.helpers import browser_for


def logged(alice, *, win, winners=(), scores=None, title="Pandemic"):
    names = ["Ana", "Bea", "Cid"]
    return services.play_log(owner=alice, title=title, win=win, players=[
        {"name": name, "winner": name in winners,
         **({"score": scores[index]} if scores else {})}
        for index, name in enumerate(names)])


def cells(html):
    """The standings table's cells, as text."""
    table = html[html.index('<table class="scoreboard">'):html.index("</table>")]
    return [re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", table, re.S)]


def test_a_lost_cooperative_play_reads_lost(alice):
    session = logged(alice, win="coop")
    client = browser_for(alice)
    assert "lost together" in client.get("/history/").content.decode()
    page = client.get(f"/history/sessions/{session.pk}/").content.decode()
    assert "The table lost together." in page
    assert cells(page) == ["Ana", "Bea", "Cid"]  # no rank, no score column, no winner
    assert ">Score<" not in page


def test_a_won_cooperative_play_reads_won(alice):
    session = logged(alice, win="coop", winners=("Ana", "Bea", "Cid"))
    client = browser_for(alice)
    assert "won together" in client.get("/history/").content.decode()
    page = client.get(f"/history/sessions/{session.pk}/").content.decode()
    assert "The table won together." in page


def test_a_play_without_points_shows_no_score(alice):
    session = logged(alice, win="none", winners=("Bea",), title="Werewolf")
    page = browser_for(alice).get(f"/history/sessions/{session.pk}/").content.decode()
    assert cells(page) == ["1", "Bea winner", "2", "Ana", "2", "Cid"]
    assert ">Score<" not in page
    assert "together" not in page


def test_a_players_page_says_a_cooperative_play_was_lost_or_won_together(alice):
    logged(alice, win="coop")
    logged(alice, win="coop", winners=("Ana", "Bea", "Cid"))
    from companion.models import Player

    ana = Player.objects.get(owner=alice, name="Ana")
    page = browser_for(alice).get(f"/history/players/{ana.pk}/").content.decode()
    recent = page[page.index("<ul", page.index("Pandemic")):]
    assert "lost together" in recent and "won together" in recent
    assert "rank 1" not in recent
