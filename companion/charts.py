"""Charts drawn on the server as accessible SVG: no JavaScript, no chart library.

Each chart is one <svg role="img"> with a <title> and a <desc> (named by aria-labelledby and
aria-describedby), and a <title> on every bar and point so a screen reader or a long press can
tell the figure.

A chart has no viewBox: it is the card's width (the stylesheet's .chart), and its text is drawn at
the page's own size on every screen instead of growing with the chart. Along the x axis
everything is placed in percentages of the plot's width; up and down, in pixels. The svg element
is the plot: the stylesheet leaves LEFT pixels beside it for the y axis' steps, which are drawn
left of it (the svg lets them show, overflow: visible), and its title goes above the plot. Labels
along the x axis are thinned out for the narrowest plot, a 360-pixel phone's.

Colours are classes (series-0, ...) that the stylesheet sets for the light and the dark theme.
"""

import datetime
import itertools
import math

from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.stats import score_text

FONT = 17  # the page's body text (companion.css), which the charts' text inherits
CHAR = FONT * 0.6  # a character's width, about, in the system font
LEFT = 48  # the room left of the plot for the y axis' steps (companion.css: .chart)
NARROWEST = 250  # the plot's width on a 360-pixel phone: x labels are thinned for it
PLOT = 180  # the plot's height
TOP = FONT + 16  # the y axis' title above the plot
BOTTOM = 2 * FONT + 18  # the x axis' steps and its title below it
SERIES = 6  # series-0 ... series-5 in companion.css
LEGEND_COLUMNS, LEGEND_ROW = 2, FONT + 8
_ids = itertools.count(1)


def _join(parts):
    """Already escaped fragments, joined (each was built by format_html)."""
    return format_html_join("", "{}", ((part,) for part in parts))


def _f(value):
    return f"{value:.1f}"


def _pct(fraction):
    return f"{100 * fraction:.2f}%"


def _number(value):
    """A figure as the reader writes it: 2.5 in English, 2,5 in Spanish; every digit of it."""
    return score_text(value).replace(".", formats.get_format("DECIMAL_SEPARATOR"))


def _tick(value):
    """An axis step, short enough for the room left of the axis (four characters): 800, 2.5k,
    1.5M. A bar's or a point's own title says the figure whole."""
    for size, suffix in ((1_000_000, "M"), (1_000, "k")):
        if abs(value) >= size:
            return _number(round(value / size, 1)) + suffix
    return _number(value)


def _scale(low, high, *, whole=False):
    """(bottom, top) of the y axis, drawn in four steps: round steps (1, 2, 2.5, 5 × 10^n), and
    whole ones when the figures are (plays, ranks, scores of whole points)."""
    span = max(high - low, 0)
    if span == 0:
        return low, low + (4 if whole else 1)
    power = 10 ** math.floor(math.log10(span / 4))
    for size in (1, 2, 2.5, 5, 10):
        step = size * power
        if whole and (step < 1 or step != int(step)):
            continue
        if span <= 4 * step:
            break
    bottom = math.floor(low / step) * step
    if bottom + 4 * step < high:
        step *= 2
    return bottom, bottom + 4 * step


def _thinned(positions, labels):
    """(index, anchor) of the labels written under the x axis: each only where it does not run
    into the one written before it on the narrowest plot, the first from the axis rightwards and
    the last leftwards from the edge, so that neither is cut."""
    written, end = [], -math.inf
    last = len(labels) - 1
    for index, (position, label) in enumerate(zip(positions, labels, strict=True)):
        width = len(str(label)) * CHAR
        anchor = ("start" if index == 0 and last else "end" if index == last and last
                  else "middle")
        x = position * NARROWEST
        start = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
        if start < end + CHAR:
            if index != last or not written:
                continue
            written.pop()  # the last label is the one to keep: the one before it goes
        written.append((index, anchor))
        end = start + width
    return written


def _frame(title, desc, body, *, top=TOP, label_x="", label_y=""):
    chart_id = f"chart{next(_ids)}"
    height = top + PLOT + BOTTOM
    axes = format_html(
        '<text x="{}" y="{}" class="chart-label">{}</text>'
        '<text x="50%" y="{}" text-anchor="middle" class="chart-label">{}</text>',
        -LEFT, FONT, label_y, height - 4, label_x)
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" height="{}" '
        'aria-labelledby="{}-title" aria-describedby="{}-desc">'
        '<title id="{}-title">{}</title><desc id="{}-desc">{}</desc>{}{}</svg>',
        height, chart_id, chart_id, chart_id, title, chart_id, desc, axes, body)


def _empty(title):
    return _frame(title, _("No results yet."),
                  format_html('<text x="50%" y="{}" text-anchor="middle" class="chart-empty">'
                              '{}</text>', TOP + PLOT / 2, _("No results yet.")))


def _grid(low, high, *, top=TOP):
    """Horizontal lines with their values, four steps from low to high."""
    lines = []
    for step in range(5):
        value = low + (high - low) * step / 4
        y = top + PLOT - PLOT * step / 4
        lines.append((_f(y), _f(y), _f(y + FONT / 3), _tick(round(value, 2))))
    return format_html_join(
        "", '<line x1="0" y1="{}" x2="100%" y2="{}" class="chart-grid"/>'
        '<text x="-6" y="{}" text-anchor="end" class="chart-tick">{}</text>', lines)


def _x_labels(positions, labels, *, top=TOP):
    return _join(format_html(
        '<text x="{}" y="{}" text-anchor="{}" class="chart-tick">{}</text>',
        _pct(positions[index]), _f(top + PLOT + FONT + 6), anchor, labels[index])
        for index, anchor in _thinned(positions, labels))


def bar_chart(*, title, desc, bars, label_x="", label_y="", counts=False, slots=None):
    """Vertical bars: [(label, value)], side by side, or where `slots` [(start, width)] (fractions
    of the plot) put them (bars over time). `counts`: the values are counts, and so are the axis'
    steps (never "0.25 results")."""
    bars = list(bars)
    if not bars:
        return _empty(title)
    low, high = _scale(0, max(value for _label, value in bars), whole=counts)
    if slots is None:
        slots = [(index / len(bars), 1 / len(bars)) for index in range(len(bars))]
    shapes = []
    for (label, value), (start, width) in zip(bars, slots, strict=True):
        height = PLOT * value / high
        shapes.append(format_html(
            '<rect x="{}" y="{}" width="{}" height="{}" class="series-0">'
            '<title>{}: {}</title></rect>',
            _pct(start + width * 0.1), _f(TOP + PLOT - height), _pct(width * 0.8), _f(height),
            label, _number(value)))
    middles = [start + width / 2 for start, width in slots]
    body = _grid(low, high) + _join(shapes) + _x_labels(middles, [label for label, _v in bars])
    return _frame(title, desc, body, label_x=label_x, label_y=label_y)


def line_chart(*, title, desc, xs, series, label_x="", label_y="", most=None, whole=False,
               positions=None):
    """Lines over shared x values: series [(name, [y per x])], with a legend above the plot.
    `positions`: where each x stands along the axis (fractions: dates spaced by time), else
    evenly. `most`: the top of a scale known beforehand (a percentage's 100). `whole`: the
    values are whole numbers, and so are the axis' steps."""
    series = [(name, list(values)) for name, values in series]
    values = [value for _name, ys in series for value in ys if value is not None]
    if not xs or not values:
        return _empty(title)
    low, high = _scale(min(0, min(values)), max(values), whole=whole)
    if most is not None and low == 0:
        high = most
    if positions is None:
        positions = [index / max(1, len(xs) - 1) for index in range(len(xs))]
    # The legend takes rows above the plot, two names a row; one series is named by the axis.
    legend = series if len(series) > 1 else []
    top = TOP + LEGEND_ROW * math.ceil(len(legend) / LEGEND_COLUMNS)

    def y_of(value):
        return top + PLOT - PLOT * (value - low) / (high - low)

    shapes = [_x_labels(positions, xs, top=top)]
    for number, (name, ys) in enumerate(series):
        colour = f"series-{number % SERIES}"
        points = [(positions[index], y_of(value), index, value)
                  for index, value in enumerate(ys) if value is not None]
        segments = _join(format_html(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" class="{} chart-line"/>',
            _pct(x1), _f(y1), _pct(x2), _f(y2), colour)
            for (x1, y1, _i, _v), (x2, y2, _j, _w) in zip(points, points[1:], strict=False))
        dots = _join(format_html(
            '<circle cx="{}" cy="{}" r="4" class="{}"><title>{} · {}: {}</title></circle>',
            _pct(x), _f(y), colour, name, xs[index], _number(value))
            for x, y, index, value in (points if len(points) <= 60 else []))
        # A group names its series for a long press; role="img" is not given to it, so the
        # chart stays one image to a screen reader (its desc has every final figure).
        shapes.append(format_html('<g class="chart-series"><title>{}</title>{}{}</g>',
                                  name, segments, dots))
        if not legend:
            continue
        column, row = number % LEGEND_COLUMNS, number // LEGEND_COLUMNS
        legend_y = TOP + FONT + row * LEGEND_ROW
        shapes.append(format_html(
            '<rect x="{}" y="{}" width="12" height="12" class="{}"/>'
            '<text x="{}" dx="16" y="{}" class="chart-legend">{}</text>',
            _pct(column / LEGEND_COLUMNS), legend_y - 11, colour,
            _pct(column / LEGEND_COLUMNS), legend_y, _short(name)))
    return _frame(title, desc, _grid(low, high, top=top) + _join(shapes), top=top,
                  label_x=label_x, label_y=label_y)


def _short(name, room=NARROWEST / LEGEND_COLUMNS - 20):
    """A legend name cut to its room (the full name is in the series' titles and the desc)."""
    fits = int(room // CHAR)
    name = str(name)
    return name if len(name) <= fits else name[:fits - 1] + "…"


def _by_time(moments):
    """Where each moment stands along an axis from the first to the last (fractions)."""
    first, last = moments[0], moments[-1]
    span = (last - first).total_seconds()
    return [(moment - first).total_seconds() / span if span else 0.5 for moment in moments]


def score_distribution(distribution, *, game_name, bins=20):
    """The game's score distribution ([{"score", "count"}]) as bars, grouped in at most `bins`
    ranges when the scores spread wide."""
    rows = [(row["score"], row["count"]) for row in distribution]
    title = _("Score distribution: %(game)s") % {"game": game_name}
    if not rows:
        return _empty(title)
    low, high = rows[0][0], rows[-1][0]
    if len(rows) <= bins:
        bars = [(_number(score), count) for score, count in rows]
    else:
        width = math.ceil((high - low + 1) / bins) or 1
        counts = {}
        for score, count in rows:
            start = low + (score - low) // width * width
            counts[start] = counts.get(start, 0) + count
        bars = [(f"{_number(start)}–{_number(start + width - 1)}", counts.get(start, 0))
                for start in (low + i * width for i in range(bins)) if start <= high]
    total = sum(count for _score, count in rows)
    desc = ngettext(
        "%(count)s result, scored %(low)s.",
        "%(count)s results, scores from %(low)s to %(high)s; the most common: %(mode)s.",
        total) % {
        "count": total, "low": _number(low), "high": _number(high),
        "mode": _number(max(rows, key=lambda row: row[1])[0])}
    return bar_chart(title=title, desc=desc, bars=bars, label_x=_("Score"),
                     label_y=_("Results"), counts=True)


def session_progression(progression, *, game_name):
    """Each seat's score through one session, by round or by move."""
    by_round = progression["by"] == "round"
    title = _("Scores through the game: %(game)s") % {"game": game_name}
    finals = ", ".join(f"{name} {_number(ys[-1])}" for name, ys in progression["series"] if ys)
    desc = (_("Running totals after each round. Final scores: %(finals)s.") if by_round else
            _("Scores after each move. Final scores: %(finals)s.")) % {"finals": finals}
    whole = all(float(value).is_integer() for _name, ys in progression["series"]
                for value in ys if value is not None)
    return line_chart(title=title, desc=desc, xs=progression["xs"],
                      series=progression["series"], whole=whole,
                      label_x=_("Round") if by_round else _("Move"), label_y=_("Score"))


def player_results(history, *, player_name, last=60):
    """A player's running win rate over their last results, each at its date."""
    history = history[-last:]
    title = _("Results over time: %(name)s") % {"name": player_name}
    if not history:
        return _empty(title)
    wins = 0
    rates = []
    for number, row in enumerate(history, start=1):
        wins += 1 if row["winner"] else 0
        rates.append(round(100 * wins / number, 1))
    xs = [formats.date_format(row["date"], "DATE_FORMAT") for row in history]
    figures = {"count": len(history), "first": xs[0], "last": xs[-1], "wins": wins,
               "rate": _number(rates[-1])}
    won = ngettext("%(wins)s win", "%(wins)s wins", wins) % figures
    desc = ngettext(
        "The last result, on %(first)s: %(won)s; a win rate of %(rate)s%%.",
        "The last %(count)s results from %(first)s to %(last)s: %(won)s; the win rate over "
        "them ends at %(rate)s%%.", len(history)) % {**figures, "won": won}
    return line_chart(title=title, desc=desc, xs=xs,
                      positions=_by_time([row["date"] for row in history]),
                      series=[(_("Win rate (%)"), rates)], label_x=_("Date"),
                      label_y=_("Win rate (%)"), most=100)


def _next_month(day):
    """The first day of the month after `day`'s."""
    return (day.replace(day=1) + datetime.timedelta(days=32)).replace(day=1)


def plays_by_month(by_month, *, name):
    """Plays in each month from the first to the last (play_figures' by_month: [{"month":
    "2026-09", "plays"}]), as bars placed by time: a month with no play is a gap."""
    title = _("Plays by month: %(name)s") % {"name": name}
    if not by_month:
        return _empty(title)
    counts = {row["month"]: row["plays"] for row in by_month}
    first = datetime.date.fromisoformat(by_month[0]["month"] + "-01")
    last = datetime.date.fromisoformat(by_month[-1]["month"] + "-01")
    months = []
    while first <= last:
        months.append(first)
        first = _next_month(first)
    days = (_next_month(months[-1]) - months[0]).days
    slots = [((month - months[0]).days / days, (_next_month(month) - month).days / days)
             for month in months]
    bars = [(formats.date_format(month, "M Y"), counts.get(f"{month:%Y-%m}", 0))
            for month in months]
    total = sum(counts.values())
    desc = ngettext("%(count)s play from %(first)s to %(last)s; the most in a month: %(most)s.",
                    "%(count)s plays from %(first)s to %(last)s; the most in a month: %(most)s.",
                    total) % {"count": total, "first": bars[0][0], "last": bars[-1][0],
                              "most": max(counts.values())}
    return bar_chart(title=title, desc=desc, bars=bars, slots=slots, counts=True,
                     label_x=_("Month"), label_y=_("Plays"))
