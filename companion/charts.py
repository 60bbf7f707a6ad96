"""Charts drawn on the server as accessible SVG: no JavaScript, no chart library.

Each chart is one <svg role="img"> with a <title> and a <desc> (named by aria-labelledby and
aria-describedby), a viewBox and width 100% so it shrinks to a 360 px phone, and a <title> on
every bar and point so a screen reader or a long press can tell the figure.
"""

import itertools
import math

from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 16, 48
COLOURS = ("#8a2c14", "#2f6b2f", "#1f4e8a", "#b8860b", "#6a2c8a", "#2c7a7a")
_ids = itertools.count(1)


def _join(parts):
    """Already escaped fragments, joined (each was built by format_html)."""
    return format_html_join("", "{}", ((part,) for part in parts))


def _f(value):
    return f"{value:.1f}"


def _number(value):
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def _nice_max(value):
    """A round top for the y axis (1, 2, 2.5, 5 × 10^n)."""
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def _frame(title, desc, body, *, chart_id=None, label_x="", label_y=""):
    chart_id = chart_id or f"chart{next(_ids)}"
    axes = format_html(
        '<text x="{}" y="{}" text-anchor="middle" class="chart-label">{}</text>'
        '<text x="12" y="{}" text-anchor="middle" class="chart-label" '
        'transform="rotate(-90 12 {})">{}</text>',
        LEFT + (WIDTH - LEFT - RIGHT) / 2, HEIGHT - 6, label_x,
        TOP + (HEIGHT - TOP - BOTTOM) / 2, TOP + (HEIGHT - TOP - BOTTOM) / 2, label_y)
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="100%" '
        'viewBox="0 0 {} {}" preserveAspectRatio="xMidYMid meet" '
        'aria-labelledby="{}-title" aria-describedby="{}-desc">'
        '<title id="{}-title">{}</title><desc id="{}-desc">{}</desc>{}{}</svg>',
        WIDTH, HEIGHT, chart_id, chart_id, chart_id, title, chart_id, desc, axes, body)


def _grid(top_value):
    """Horizontal lines with their values, four steps up to top_value."""
    plot = HEIGHT - TOP - BOTTOM
    lines = []
    for step in range(5):
        value = top_value * step / 4
        y = TOP + plot - plot * step / 4
        lines.append((LEFT, y, WIDTH - RIGHT, y, LEFT - 4, y + 4, _number(round(value, 2))))
    return format_html_join(
        "", '<line x1="{}" y1="{}" x2="{}" y2="{}" class="chart-grid" stroke="#ddd3c2"/>'
        '<text x="{}" y="{}" text-anchor="end" class="chart-tick">{}</text>', lines)


def _empty(title):
    return _frame(title, _("No results yet."),
                  format_html('<text x="{}" y="{}" text-anchor="middle">{}</text>',
                              WIDTH / 2, HEIGHT / 2, _("No results yet.")))


def bar_chart(*, title, desc, bars, label_x="", label_y="", chart_id=None):
    """Vertical bars: [(label, value)]. At most one label in every few bars is written out."""
    bars = list(bars)
    if not bars:
        return _empty(title)
    top_value = _nice_max(max(value for _label, value in bars))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / len(bars)
    every = max(1, math.ceil(len(bars) / 12))
    shapes = []
    for index, (label, value) in enumerate(bars):
        height = plot_h * value / top_value
        x = LEFT + index * slot + slot * 0.1
        shapes.append(format_html(
            '<rect x="{}" y="{}" width="{}" height="{}" fill="{}">'
            '<title>{}: {}</title></rect>',
            _f(x), _f(TOP + plot_h - height), _f(slot * 0.8), _f(height), COLOURS[0], label,
            _number(value)))
        if index % every == 0:
            shapes.append(format_html(
                '<text x="{}" y="{}" text-anchor="middle" class="chart-tick">{}</text>',
                _f(x + slot * 0.4), TOP + plot_h + 16, label))
    body = _grid(top_value) + _join(shapes)
    return _frame(title, desc, body, chart_id=chart_id, label_x=label_x, label_y=label_y)


def line_chart(*, title, desc, xs, series, label_x="", label_y="", chart_id=None):
    """Lines over shared x values: series [(name, [y per x])], with a legend below the title."""
    series = [(name, list(values)) for name, values in series]
    values = [value for _name, ys in series for value in ys if value is not None]
    if not xs or not values:
        return _empty(title)
    low = min(0, min(values))
    top_value = _nice_max(max(values) - low) + low if max(values) > low else low + 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = max(1, len(xs) - 1)

    def point(index, value):
        return (LEFT + plot_w * index / span,
                TOP + plot_h - plot_h * (value - low) / (top_value - low))

    shapes = []
    every = max(1, math.ceil(len(xs) / 12))
    for index, x in enumerate(xs):
        if index % every == 0 or index == len(xs) - 1:
            px, _py = point(index, low)
            shapes.append(format_html(
                '<text x="{}" y="{}" text-anchor="middle" class="chart-tick">{}</text>',
                _f(px), TOP + plot_h + 16, x))
    for number, (name, ys) in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        points = [point(index, value) for index, value in enumerate(ys) if value is not None]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        dots = []
        for index, value in enumerate(ys):
            if value is None or len(points) > 60:
                continue
            x, y = point(index, value)
            dots.append(format_html(
                '<circle cx="{}" cy="{}" r="3.5" fill="{}"><title>{} · {}: {}</title>'
                '</circle>', _f(x), _f(y), colour, name, xs[index], _number(value)))
        shapes.append(format_html(
            '<g class="chart-series" aria-label="{}"><polyline points="{}" fill="none" '
            'stroke="{}" stroke-width="2.5"/>{}</g>', name, path, colour, _join(dots)))
        legend_x = LEFT + 4 + (number % 3) * 190
        legend_y = TOP + 12 + (number // 3) * 16
        shapes.append(format_html(
            '<rect x="{}" y="{}" width="12" height="12" fill="{}"/>'
            '<text x="{}" y="{}" class="chart-legend">{}</text>',
            legend_x, legend_y - 10, colour, legend_x + 16, legend_y, name))
    grid = _grid_range(low, top_value)
    return _frame(title, desc, grid + _join(shapes), chart_id=chart_id,
                  label_x=label_x, label_y=label_y)


def _grid_range(low, high):
    if low == 0:
        return _grid(high)
    plot = HEIGHT - TOP - BOTTOM
    lines = []
    for step in range(5):
        value = low + (high - low) * step / 4
        y = TOP + plot - plot * step / 4
        lines.append((LEFT, y, WIDTH - RIGHT, y, LEFT - 4, y + 4, _number(round(value, 2))))
    return format_html_join(
        "", '<line x1="{}" y1="{}" x2="{}" y2="{}" class="chart-grid" stroke="#ddd3c2"/>'
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
    desc = _("%(count)s results, scores from %(low)s to %(high)s; the most common: %(mode)s.") % {
        "count": total, "low": _number(low), "high": _number(high),
        "mode": _number(max(rows, key=lambda row: row[1])[0])}
    return bar_chart(title=title, desc=desc, bars=bars, label_x=_("Score"),
                     label_y=_("Results"))


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
    xs = [row["date"].date().isoformat() if hasattr(row["date"], "date") else str(row["date"])
          for row in history]
    desc = _("The last %(count)s results from %(first)s to %(last)s: %(wins)s wins; the win rate "
             "over them ends at %(rate)s%%.") % {"count": len(history), "first": xs[0],
                                                 "last": xs[-1], "wins": wins,
                                                 "rate": _number(rates[-1])}
    return line_chart(title=title, desc=desc, xs=xs,
                      series=[(_("Win rate (%)"), rates)], label_x=_("Date"),
                      label_y=_("Win rate (%)"))
