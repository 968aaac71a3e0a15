"""Line charts as inline SVG: they scale with the page, take the reader's colour scheme (axes in
``currentColor``) and need no drawing library, so a site of many turns builds fast."""
from __future__ import annotations

import re
from html import escape
from typing import Any

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 66, 14, 14, 46


def _ticks(high: float, count: int = 5) -> list[int]:
    """Round tick values from 0 up to at least ``high``."""
    if high <= 0:
        return [0]
    raw = high / count
    step = min(c for c in (b * 10 ** p for p in range(9) for b in (1, 2, 5)) if c >= raw)
    ticks = list(range(0, int(high) + step, step))
    return ticks if ticks[-1] >= high else ticks + [ticks[-1] + step]


def line_chart(series: list[dict[str, Any]], *, title: str, x_label: str, y_label: str,
               x_start: int = 0) -> str:
    """``series``: [{name, colour, values}] (values by step, None where unknown). SVG markup with
    a title and a description for screen readers; ``x_start``: the first step's number."""
    steps = max((len(s["values"]) for s in series), default=0)
    values = [v for s in series for v in s["values"] if isinstance(v, (int, float))]
    if steps < 2 or not values:
        return ""
    low = min(0, min(values))
    ticks = _ticks(max(values) - low)
    top = low + ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / (steps - 1)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - (v - low) / (top - low or 1))

    ident = "chart-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{ident}">',
             f'<title id="{ident}">{escape(title)}</title>']
    for t in ticks:
        level = y(low + t)
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{level:.1f}" y2="{level:.1f}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{level + 4:.1f}" text-anchor="end">{low + t:g}</text>')
    every = max(1, (steps - 1) // 8 + 1)
    for i in range(0, steps, every):
        parts.append(f'<text class="tick" x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 20}" text-anchor="middle">'
                     f'{x_start + i}</text>')
    parts.append(f'<text class="axis" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle">'
                 f'{escape(x_label)}</text>')
    parts.append(f'<text class="axis" transform="translate(16 {TOP + plot_h / 2:.1f}) rotate(-90)" '
                 f'text-anchor="middle">{escape(y_label)}</text>')
    for s in series:
        points = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s["values"]) if isinstance(v, (int, float))]
        colour = escape(s.get("colour") or "currentColor")
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{" ".join(points)}">'
                     f'<title>{escape(s["name"])}</title></polyline>')
        if points:
            cx, cy = points[-1].split(",")
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="4" fill="{colour}"/>')
    parts.append("</svg>")
    legend = "".join(f'<li><span class="swatch" style="background:{escape(s.get("colour") or "")}"></span>'
                     f'{escape(s["name"])}</li>' for s in series)
    return f'<figure class="chart">{"".join(parts)}<figcaption>{escape(title)}<ul class="legend">{legend}</ul>' \
           f'</figcaption></figure>'
