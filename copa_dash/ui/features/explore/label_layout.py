"""Where the front figure's labels go, so that none covers another, a marked point, the
axes' tick labels or the alpha colour bar.

Plotly places an annotation where it is told and never moves it out of the way of anything
else (it has no label-avoidance), and the front figure's labels (the COPA pick, the
baselines' picks) sit on points anywhere in the plot, the figure's right edge included,
where a label pointing right ran into the colour bar. This module picks, for each label in
turn, the first offset of a short list (up-right, up-left, down-right, down-left, ... at
growing distances) whose text box stays inside the plot area and clear of the boxes placed
before and of every marked point. The boxes are estimated in pixels from the text's length.

The real plot's size is only known in the browser; the estimate assumes the smallest plot
the page gives the figure (:data:`PLOT_WIDTH` x :data:`PLOT_HEIGHT`). A wider plot only
moves the points apart: a box that fits inside the smaller plot fits inside the wider one,
and two boxes apart stay apart, because a box may only be separated from another on the
side its point lies on (no crossed labels).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PLOT_WIDTH = 640      # px: the front plot's area is about 800 px wide at a 1400 px window
PLOT_HEIGHT = 330     # px: 520 px figure less the title, the x axis and the legend below
CHAR_WIDTH = {11: 6.6, 12: 7.2, 13: 7.8, 14: 8.4}   # px per character (bold included)
LINE_HEIGHT = {11: 17, 12: 18, 13: 20, 14: 21}
PAD = 6               # px around the text (border, padding)
RING = 13             # px: half the size of the box kept free around a marked point
DIRECTIONS = ((1, -1), (-1, -1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1), (0, 1))
DISTANCES = (38, 62, 90, 124)


@dataclass(frozen=True)
class Box:
    """A rectangle in pixels, y down: left, top, right, bottom."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return (self.left < other.right and other.left < self.right
                and self.top < other.bottom and other.top < self.bottom)

    def inside(self, width: float, height: float) -> bool:
        return self.left >= 0 and self.top >= 0 and self.right <= width and self.bottom <= height


@dataclass(frozen=True)
class Placed:
    """A label's offset from its point (Plotly's ``ax``, ``ay``: pixels, y down) and its
    estimated box in the plot's pixels."""

    ax: float
    ay: float
    box: Box


def text_size(text: str, font_size: int) -> tuple[float, float]:
    """Estimated width and height in pixels of a label's box (tags such as ``<b>`` do not
    count; an entity such as ``&amp;`` is one character)."""
    plain = re.sub(r"&[#\w]+;", "x", re.sub(r"<[^>]+>", "", text))
    width = len(plain) * CHAR_WIDTH.get(font_size, 0.6 * font_size) + 2 * PAD
    return width, LINE_HEIGHT.get(font_size, 1.5 * font_size) + PAD


def to_pixels(fx: float, fy: float, width: float = PLOT_WIDTH,
              height: float = PLOT_HEIGHT) -> tuple[float, float]:
    """A point at fractions (fx, fy) of the axes' ranges (0 = left / bottom) in pixels."""
    return fx * width, (1.0 - fy) * height


def place_labels(points, sizes, marked=(), *, width: float = PLOT_WIDTH,
                 height: float = PLOT_HEIGHT) -> list[Placed]:
    """An offset for each label, in the order given (the first placed gets the first choice).

    Parameters
    ----------
    points : sequence of (fx, fy)
        Where each label's arrow points, as fractions of the axes' ranges.
    sizes : sequence of (width, height)
        Each label's box in pixels (:func:`text_size`).
    marked : sequence of (fx, fy)
        Other points to keep clear (the labelled points are kept clear as well).

    Returns
    -------
    list of Placed
        The first offset, by :data:`DISTANCES` then :data:`DIRECTIONS`, whose box lies inside
        the plot, clear of every marked point and of the boxes placed before, each on the
        side its point lies on. When none fits (a crowded plot), the offset whose box
        overlaps the least.

    Notes
    -----
    Plotly centres a label's box on its arrow's tail (``xanchor`` and ``yanchor`` "auto").
    O(L^2 D) for L labels and D candidate offsets (a few labels: microseconds).
    """
    pixels = [to_pixels(fx, fy, width, height) for fx, fy in points]
    keep_clear = [Box(x - RING, y - RING, x + RING, y + RING)
                  for x, y in pixels + [to_pixels(fx, fy, width, height) for fx, fy in marked]]
    placed: list[Placed] = []
    anchors: list[tuple[float, float]] = []
    for (x, y), (w, h) in zip(pixels, sizes):
        best, best_cost = None, None
        for distance in DISTANCES:
            for dx, dy in DIRECTIONS:
                # the box's near side ``distance`` from the point (a diagonal box's near
                # corner at about that distance): a long id is not centred over its point
                ax = dx * ((distance if dy == 0 else 0.45 * distance) + w / 2)
                ay = dy * ((distance if dx == 0 else 0.7 * distance) + (h / 2 if dx == 0 else 0))
                ax, ay = round(ax, 1), round(ay, 1)     # short numbers in the figure's JSON
                box = Box(x + ax - w / 2, y + ay - h / 2, x + ax + w / 2, y + ay + h / 2)
                cost = _cost(box, (x, y), placed, anchors, keep_clear, width, height)
                if best_cost is None or cost < best_cost:
                    best, best_cost = Placed(ax, ay, box), cost
                if cost == 0:
                    break
            if best_cost == 0:
                break
        placed.append(best)
        anchors.append((x, y))
    return placed


def _cost(box: Box, point, placed, anchors, keep_clear, width, height) -> float:
    """How badly a box fits: 0 when inside the plot and clear of everything."""
    cost = 0.0
    if not box.inside(width, height):
        cost += 1e6 + _outside(box, width, height)
    for other in keep_clear:
        if box.overlaps(other):
            cost += 1e4 + _area(box, other)
    for other, anchor in zip(placed, anchors):
        if box.overlaps(other.box) or _crossed(box, point, other.box, anchor):
            cost += 1e5 + _area(box, other.box)
    return cost


def _crossed(box: Box, point, other: Box, anchor) -> bool:
    """True unless the two boxes are apart on the side their points' order says (the box of
    the point further right lies to the right, or the box of the lower point below): a
    bigger plot moves the points apart and pushes such boxes further apart, but crossed
    boxes into each other."""
    right_of, left_of = box.left >= other.right, other.left >= box.right
    below, above = box.top >= other.bottom, other.top >= box.bottom
    ordered_x = (right_of and point[0] >= anchor[0]) or (left_of and point[0] <= anchor[0])
    ordered_y = (below and point[1] >= anchor[1]) or (above and point[1] <= anchor[1])
    return not (ordered_x or ordered_y)


def _area(a: Box, b: Box) -> float:
    return max(0.0, min(a.right, b.right) - max(a.left, b.left)) * \
        max(0.0, min(a.bottom, b.bottom) - max(a.top, b.top))


def _outside(box: Box, width, height) -> float:
    return max(0.0, -box.left) + max(0.0, box.right - width) + \
        max(0.0, -box.top) + max(0.0, box.bottom - height)
