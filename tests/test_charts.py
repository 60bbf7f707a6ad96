"""Server-rendered SVG charts: accessible (title, desc, aria), the card's width with text at the
page's size, dates spaced by time, whole-number steps for whole numbers, escaped."""

import datetime
import xml.etree.ElementTree as ET  # noqa: S405 (our own SVG)

import pytest

from companion import charts

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg):
    root = ET.fromstring(str(svg))  # noqa: S314
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    # No viewBox: nothing scales the text; the stylesheet gives the width (.chart).
    assert root.get("viewBox") is None and root.get("class") == "chart"
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert root.get("aria-labelledby") == title.get("id")
    assert root.get("aria-describedby") == desc.get("id")
    return root, title.text, desc.text


def test_score_distribution():
    rows = [{"score": 10.0, "count": 3}, {"score": 12.0, "count": 1}]
    root, title, desc = parse(charts.score_distribution(rows, game_name="Tiny"))
    assert title == "Score distribution: Tiny"
    assert "4 results" in desc and "most common: 10" in desc
    bars = root.findall(f".//{SVG}rect")
    assert [bar.find(f"{SVG}title").text for bar in bars] == ["10: 3", "12: 1"]


def test_a_distribution_counts_its_axis_in_whole_results():
    for most in (1, 3, 5, 7, 25, 130):
        rows = [{"score": 10.0, "count": most}, {"score": 12.0, "count": 1}]
        root, _title, _desc = parse(charts.score_distribution(rows, game_name="Tiny"))
        ticks = [text.text for text in root.findall(f".//{SVG}text")
                 if text.get("class") == "chart-tick" and text.get("x") == "-6"]
        assert len(ticks) == 5 and all(tick.isdigit() for tick in ticks), (most, ticks)
        assert int(ticks[-1]) >= most


def test_wide_distributions_are_binned():
    rows = [{"score": float(score), "count": 1} for score in range(0, 200, 3)]
    root, _title, _desc = parse(charts.score_distribution(rows, game_name="Big"))
    assert len(root.findall(f".//{SVG}rect")) <= 20


def test_empty_chart_says_so():
    _root, _title, desc = parse(charts.score_distribution([], game_name="Tiny"))
    assert desc == "No results yet."


def test_session_progression_escapes_names():
    progression = {"by": "round", "xs": [0, 1, 2, 3],
                   "series": [("<b>Ana</b>", [0, 10, 25, 40]), ("Ben", [0, 12, 20, 38])]}
    svg = str(charts.session_progression(progression, game_name="Don Quixote"))
    assert "<b>" not in svg and "&lt;b&gt;Ana&lt;/b&gt;" in svg
    root, title, desc = parse(svg)
    assert "Don Quixote" in title and "after each round" in desc and "Ben 38" in desc
    assert len([group for group in root.iter(f"{SVG}g")
                if group.get("class") == "chart-series"]) == 2


def test_player_results():
    day = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
    history = [{"date": day + datetime.timedelta(days=n), "game": "tiny", "score": 10,
                "rank": 1, "winner": n % 2 == 0, "session": n} for n in range(5)]
    root, title, desc = parse(charts.player_results(history, player_name="Ana"))
    assert title == "Results over time: Ana"
    assert "3 wins" in desc and "60%" in desc
    assert len(root.findall(f".//{SVG}circle")) == 5


def test_a_win_rate_is_drawn_on_0_to_100_whatever_the_player_won():
    day = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
    for won in (False, True):
        history = [{"date": day + datetime.timedelta(days=n), "game": "tiny", "score": 10,
                    "rank": 1 if won else 2, "winner": won, "session": n} for n in range(3)]
        root, _title, _desc = parse(charts.player_results(history, player_name="Cruz"))
        ticks = [text.text for text in root.findall(f".//{SVG}text")
                 if text.get("class") == "chart-tick" and text.get("x") == "-6"]
        assert ticks[:5] == ["0", "25", "50", "75", "100"], (won, ticks)  # then the last date


def test_large_scores_fit_left_of_the_axis_and_are_whole_in_their_titles():
    """Six- and seven-digit steps ran off the chart's left edge (2000000 read "000000") or over
    the axis' title: they are written short, the figure whole in each bar's own title."""
    rows = [{"score": 1000009.0, "count": 1}, {"score": 1234567.5, "count": 2}]
    root, _title, _desc = parse(charts.score_distribution(rows, game_name="Pad"))
    titles = [bar.find(f"{SVG}title").text for bar in root.findall(f".//{SVG}rect")]
    assert titles == ["1000009: 1", "1234567.5: 2"]
    progression = charts.line_chart(title="t", desc="d", xs=[1, 2],
                                    series=[("Ana", [500000, 2000000])])
    ticks = [text.text for text in parse(progression)[0].findall(f".//{SVG}text")
             if text.get("class") == "chart-tick" and text.get("x") == "-6"]
    assert "2M" in ticks and all(len(tick) <= 5 for tick in ticks), ticks


def _extent(text):
    """Where a tick's text runs along the x axis of the narrowest plot, at the width the charts
    reckon a character."""
    x = float(text.get("x").rstrip("%")) / 100 * charts.NARROWEST
    width = len(text.text) * charts.CHAR
    anchor = text.get("text-anchor")
    start = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
    return start, start + width


def test_the_dates_under_a_line_chart_never_run_into_each_other():
    # Ten results over a fortnight: the first date is written from the axis rightwards, and the
    # next one written centred on its point ran into it ("22 Nov 202627 Nov 2026").
    day = datetime.datetime(2026, 11, 17, tzinfo=datetime.UTC)
    for count in (2, 3, 5, 7, 10, 14, 25, 60):
        history = [{"date": day + datetime.timedelta(days=n), "game": "tiny", "score": 10,
                    "rank": 1, "winner": n % 3 == 0, "session": n} for n in range(count)]
        root, _title, _desc = parse(charts.player_results(history, player_name="Ana"))
        # The x axis's ticks: the dates (the y axis's are the rates, figures alone).
        dates = sorted(_extent(text) for text in root.iter(f"{SVG}text")
                       if text.get("class") == "chart-tick" and not text.text.isdigit())
        assert dates, count
        for (_start, end), (start, _end) in zip(dates, dates[1:], strict=False):
            assert start >= end + charts.CHAR, (count, dates)
        assert dates[0][0] >= 0 and dates[-1][1] <= charts.NARROWEST, (count, dates)


def _x(element, name):
    return float(element.get(name).rstrip("%")) / 100


def test_results_are_placed_by_their_dates():
    day = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    days = (0, 1, 2, 30, 90)
    history = [{"date": day + datetime.timedelta(days=n), "game": "tiny", "score": 1,
                "rank": 1, "winner": True, "session": n} for n in days]
    root, _title, _desc = parse(charts.player_results(history, player_name="Ana"))
    xs = [_x(dot, "cx") for dot in root.iter(f"{SVG}circle")]
    assert xs == pytest.approx([n / 90 for n in days], abs=1e-3)


def test_plays_by_month_are_placed_by_time_with_empty_months_as_gaps():
    months = [{"month": "2025-12", "plays": 2}, {"month": "2026-01", "plays": 1},
              {"month": "2026-03", "plays": 3}]
    root, title, desc = parse(charts.plays_by_month(months, name="Ana"))
    assert title == "Plays by month: Ana" and "6 plays" in desc
    bars = {bar.find(f"{SVG}title").text: bar for bar in root.iter(f"{SVG}rect")}
    assert list(bars) == ["Dec 2025: 2", "Jan 2026: 1", "Feb 2026: 0", "Mar 2026: 3"]
    # 121 days from the 1st of December to the 1st of April: each bar starts at its month's.
    starts = [_x(bar, "x") for bar in bars.values()]
    widths = [_x(bar, "width") for bar in bars.values()]
    for start, width, first, days in zip(starts, widths, (0, 31, 62, 90), (31, 31, 28, 31),
                                         strict=True):
        assert start == pytest.approx((first + 0.1 * days) / 121, abs=1e-3)
        assert width == pytest.approx(0.8 * days / 121, abs=1e-3)


def test_whole_numbers_have_whole_steps():
    for top in (1, 2, 3, 5, 7, 13, 42, 97):
        progression = {"by": "round", "xs": [1, 2], "series": [("Ana", [0, top])]}
        root, _title, _desc = parse(charts.session_progression(progression, game_name="Pad"))
        ticks = [text.text for text in root.iter(f"{SVG}text")
                 if text.get("class") == "chart-tick" and text.get("x") == "-6"]
        assert len(ticks) == 5 and all(tick.lstrip("-").isdigit() for tick in ticks), ticks
        assert int(ticks[-1]) >= top
