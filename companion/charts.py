"""Charts drawn on the server as accessible SVG: no JavaScript, no chart library.

Each chart is one <svg role="img"> with a <title> and a <desc> (named by aria-labelledby and
aria-describedby), a viewBox and width 100% so it shrinks to a 360 px phone, and a <title> on
every bar and point so a screen reader or a long press can tell the figure.

The viewBox is about as wide as a phone's card (310 px at 360 px), so text drawn at FONT units
is at least 14 px on a phone; labels are thinned out so that they never overlap at that size.
Colours are classes (series-0, ...) that the stylesheet sets for the light and the dark theme.
"""

import itertools
import math

from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.stats import score_text

WIDTH, HEIGHT = 320, 220
LEFT, RIGHT, TOP, BOTTOM = 60, 8, 12, 40
FONT = 15
CHAR = FONT * 0.6  # a character's width, about, in the system font
SERIES = 6  # series-0 ... series-5 in companion.css
LEGEND_COLUMNS, LEGEND_ROW = 2, 20
_ids = itertools.count(1)


def _join(parts):
    """Already escaped fragments, joined (each was built by format_html)."""
    return format_html_join("", "{}", ((part,) for part in parts))


def _f(value):
    return f"{value:.1f}"


def _number(value):
    """A figure as the reader writes it: 2.5 in English, 2,5 in Spanish; every digit of it."""
    return score_text(value).replace(".", formats.get_format("DECIMAL_SEPARATOR"))


def _tick(value):
    """An axis step, short enough for the room left of the axis (about four characters, beside
    the axis' title): 800, 2.5k, 1.5M. A bar's or a point's own title says the figure whole."""
    for size, suffix in ((1_000_000, "M"), (1_000, "k")):
        if abs(value) >= size:
            return _number(round(value / size, 1)) + suffix
    return _number(value)


def _nice_max(value):
    """A round top for the y axis (1, 2, 2.5, 5 × 10^n)."""
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def _every(labels, width):
    """Write out one label in every `every`, so that written labels never overlap."""
    longest = max((len(str(label)) for label in labels), default=1)
    fits = max(1, int(width // (longest * CHAR + CHAR)))
    return max(1, math.ceil(len(labels) / fits))


def _x_labels(xs, x_of):
    """(index, x, text-anchor) of the x values written under a line chart: one in every `_every`,
    each only where it does not run into the one written before it. The first starts at the
    axis and the last ends at the right edge, so that neither is cut: they take more room on one
    side than a centred label, which the spacing of `_every` alone does not allow for."""
    every = _every(xs, WIDTH - LEFT - RIGHT)
    wanted = [index for index in range(len(xs)) if index % every == 0]
    if wanted[-1] != len(xs) - 1:
        wanted.append(len(xs) - 1)
    written, end = [], -math.inf
    for index in wanted:
        width = len(str(xs[index])) * CHAR
        anchor = ("start" if index == 0 and len(xs) > 1 else
                  "end" if index == len(xs) - 1 and len(xs) > 1 else "middle")
        x = x_of(index)
        start = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
        if start < end + CHAR:
            continue
        written.append((index, x, anchor))
        end = start + width
    return written


def _short(name, room=(WIDTH - LEFT) / LEGEND_COLUMNS - 20):
    """A legend name cut to its room (the full name is in the series' titles and the desc)."""
    fits = int(room // CHAR)
    name = str(name)
    return name if len(name) <= fits else name[:fits - 1] + "…"


def _frame(title, desc, body, *, chart_id=None, label_x="", label_y="", top=TOP):
    chart_id = chart_id or f"chart{next(_ids)}"
    height = HEIGHT + top - TOP
    axes = format_html(
        '<text x="{}" y="{}" text-anchor="middle" class="chart-label">{}</text>'
        '<text x="{}" y="{}" text-anchor="middle" class="chart-label" '
        'transform="rotate(-90 {} {})">{}</text>',
        LEFT + (WIDTH - LEFT - RIGHT) / 2, height - 6, label_x, FONT - 2,
        top + (HEIGHT - TOP - BOTTOM) / 2, FONT - 2, top + (HEIGHT - TOP - BOTTOM) / 2,
        label_y)
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="100%" '
        'viewBox="0 0 {} {}" preserveAspectRatio="xMidYMid meet" '
        'aria-labelledby="{}-title" aria-describedby="{}-desc">'
        '<title id="{}-title">{}</title><desc id="{}-desc">{}</desc>{}{}</svg>',
        WIDTH, height, chart_id, chart_id, chart_id, title, chart_id, desc, axes, body)


def _grid(top_value, *, top=TOP):
    """Horizontal lines with their values, four steps up to top_value."""
    return _grid_range(0, top_value, top=top)


def _empty(title):
    return _frame(title, _("No results yet."),
                  format_html('<text x="{}" y="{}" text-anchor="middle" class="chart-empty">'
                              '{}</text>', WIDTH / 2, HEIGHT / 2, _("No results yet.")))


def bar_chart(*, title, desc, bars, label_x="", label_y="", chart_id=None, counts=False):
    """Vertical bars: [(label, value)]. At most one label in every few bars is written out.
    `counts`: the values are counts, and so are the axis' four steps (never "0.25 results")."""
    bars = list(bars)
    if not bars:
        return _empty(title)
    top_value = _nice_max(max(value for _label, value in bars))
    if counts:
        top_value = math.ceil(top_value / 4) * 4
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / len(bars)
    every = _every([label for label, _value in bars], plot_w)
    shapes = []
    for index, (label, value) in enumerate(bars):
        height = plot_h * value / top_value
        x = LEFT + index * slot + slot * 0.1
        shapes.append(format_html(
            '<rect x="{}" y="{}" width="{}" height="{}" class="series-0">'
            '<title>{}: {}</title></rect>',
            _f(x), _f(TOP + plot_h - height), _f(slot * 0.8), _f(height), label,
            _number(value)))
        if index % every == 0:
            shapes.append(format_html(
                '<text x="{}" y="{}" text-anchor="middle" class="chart-tick">{}</text>',
                _f(x + slot * 0.4), TOP + plot_h + FONT + 4, label))
    body = _grid(top_value) + _join(shapes)
    return _frame(title, desc, body, chart_id=chart_id, label_x=label_x, label_y=label_y)


def line_chart(*, title, desc, xs, series, label_x="", label_y="", chart_id=None, most=None):
    """Lines over shared x values: series [(name, [y per x])], with a legend below the title.
    `most`: the top of a scale known beforehand (a percentage's 100), else one fitted."""
    series = [(name, list(values)) for name, values in series]
    values = [value for _name, ys in series for value in ys if value is not None]
    if not xs or not values:
        return _empty(title)
    low = min(0, min(values))
    top_value = _nice_max(max(values) - low) + low if max(values) > low else low + 1
    if most is not None and low == 0:
        top_value = most
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = max(1, len(xs) - 1)
    # The legend takes rows above the plot, two names a row.
    top = TOP + LEGEND_ROW * math.ceil(len(series) / LEGEND_COLUMNS)

    def point(index, value):
        return (LEFT + plot_w * index / span,
                top + plot_h - plot_h * (value - low) / (top_value - low))

    shapes = []
    for index, x, anchor in _x_labels(xs, lambda index: point(index, low)[0]):
        shapes.append(format_html(
            '<text x="{}" y="{}" text-anchor="{}" class="chart-tick">{}</text>',
            _f(x), top + plot_h + FONT + 4, anchor, xs[index]))
    for number, (name, ys) in enumerate(series):
        colour = f"series-{number % SERIES}"
        points = [point(index, value) for index, value in enumerate(ys) if value is not None]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        dots = []
        for index, value in enumerate(ys):
            if value is None or len(points) > 60:
                continue
            x, y = point(index, value)
            dots.append(format_html(
                '<circle cx="{}" cy="{}" r="3.5" class="{}"><title>{} · {}: {}</title>'
                '</circle>', _f(x), _f(y), colour, name, xs[index], _number(value)))
        # A group names its series for a long press; role="img" is not given to it, so the
        # chart stays one image to a screen reader (its desc has every final figure).
        shapes.append(format_html(
            '<g class="chart-series"><title>{}</title><polyline points="{}" class="{}" '
            'stroke-width="2.5"/>{}</g>', name, path, colour, _join(dots)))
        legend_x = LEFT + (number % LEGEND_COLUMNS) * (WIDTH - LEFT) / LEGEND_COLUMNS
        legend_y = TOP + FONT - 2 + (number // LEGEND_COLUMNS) * LEGEND_ROW
        shapes.append(format_html(
            '<rect x="{}" y="{}" width="12" height="12" class="{}"/>'
            '<text x="{}" y="{}" class="chart-legend">{}</text>',
            _f(legend_x), legend_y - 11, colour, _f(legend_x + 16), legend_y, _short(name)))
    grid = _grid_range(low, top_value, top=top)
    return _frame(title, desc, grid + _join(shapes), chart_id=chart_id,
                  label_x=label_x, label_y=label_y, top=top)


def _grid_range(low, high, *, top=TOP):
    """Horizontal lines with their values, four steps from low to high."""
    plot = HEIGHT - TOP - BOTTOM
    lines = []
    for step in range(5):
        value = low + (high - low) * step / 4
        y = top + plot - plot * step / 4
        lines.append((LEFT, y, WIDTH - RIGHT, y, LEFT - 4, y + 5, _tick(round(value, 2))))
    return format_html_join(
        "", '<line x1="{}" y1="{}" x2="{}" y2="{}" class="chart-grid"/>'
        '<text x="{}" y="{}" text-anchor="end" class="chart-tick">{}</text>', lines)


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
    return line_chart(title=title, desc=desc, xs=progression["xs"],
                      series=progression["series"],
                      label_x=_("Round") if by_round else _("Move"), label_y=_("Score"))


def player_results(history, *, player_name, last=60):
    """A player's rank over their last results, and their running win rate, by result."""
    history = history[-last:]
    title = _("Results over time: %(name)s") % {"name": player_name}
    if not history:
        return _empty(title)
    wins = 0
    rates = []
    for number, row in enumerate(history, start=1):
        wins += 1 if row["winner"] else 0
        rates.append(round(100 * wins / number, 1))
    xs = [formats.date_format(row["date"], "DATE_FORMAT") if hasattr(row["date"], "date")
          else str(row["date"]) for row in history]
    figures = {"count": len(history), "first": xs[0], "last": xs[-1], "wins": wins,
               "rate": _number(rates[-1])}
    won = ngettext("%(wins)s win", "%(wins)s wins", wins) % figures
    desc = ngettext(
        "The last result, on %(first)s: %(won)s; a win rate of %(rate)s%%.",
        "The last %(count)s results from %(first)s to %(last)s: %(won)s; the win rate over "
        "them ends at %(rate)s%%.", len(history)) % {**figures, "won": won}
    return line_chart(title=title, desc=desc, xs=xs,
                      series=[(_("Win rate (%)"), rates)], label_x=_("Date"),
                      label_y=_("Win rate (%)"), most=100)
