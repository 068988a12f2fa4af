"""Widgets drawn as rows of one line each, every row rendered by itself and kept.

Textual renders a widget's whole content again whenever any part of it is refreshed, and a
table update changes most widgets of the table by a row or two: a life, a count, a new
decision in a list of fourteen rows. A `RowsWidget` repaints only the rows that show something
new (`repaint`), renders each row by itself and keeps the others' strips.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar, Self

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.content import Content
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget

#: Strips kept per widget before they are all let go (a few screens' worth of rows).
KEPT_STRIPS = 256


class RowsWidget(Widget):
    """A widget whose content is `rows()`, one line each: its CSS says `text-wrap: nowrap`,
    so a row never wraps onto the next one and can be rendered alone."""

    #: Whether rows hold links (`@click` actions) that the mouse highlights. Rows without
    #: them skip working out the link style for every row rendered, and a repaint whenever
    #: the mouse moves over the widget.
    LINKS: ClassVar[bool] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_reactive(Widget.auto_links, self.LINKS)
        self._row_contents: list[Content] | None = None  # `rows()` since the last refresh
        self._rows_size = Size(0, 0)  # the content size `_row_contents` were worked out at
        # Each row's strip by what it was rendered from: row, place, width, style and theme.
        self._row_strips: dict[tuple[object, ...], Strip] = {}

    def rows(self) -> list[Content]:
        """The rows to show at the widget's size now."""
        raise NotImplementedError

    def refresh(self, *args: Any, **kwargs: Any) -> Self:
        self._row_contents = None  # something shown changed: ask `rows()` again
        return super().refresh(*args, **kwargs)

    def repaint(self) -> None:
        """Something `rows()` shows changed: refresh the rows that differ from the ones shown
        (a row's text or styles), or every row if the size changed since. A change of style
        or of height is not a change of rows: `refresh` those."""
        shown, size = self._row_contents, self.content_size
        if shown is None or size != self._rows_size:
            self.refresh()
            return
        self._row_contents = None
        rows = self.shown_rows()
        changed = [Region(0, y, size.width, 1) for y in range(max(len(shown), len(rows)))
                   if y >= len(shown) or y >= len(rows) or not same_row(shown[y], rows[y])]
        if changed:
            super().refresh(*changed)  # not `self.refresh`: the rows just worked out stay

    def shown_rows(self) -> list[Content]:
        if self._row_contents is None:
            self._rows_size = self.content_size
            self._row_contents = self.rows()
        return self._row_contents

    def render(self) -> Content:
        return Content("\n").join(self.shown_rows())

    def render_line(self, y: int) -> Strip:
        """Row `y`, rendered as `render()` would render it, once for as long as it shows the
        same thing in the same place, width, style and theme."""
        if self.text_selection is not None:  # a selection spans rows: render them together
            return super().render_line(y)
        rows, width, style = self.shown_rows(), self.size.width, self.visual_style
        if y >= len(rows) or width <= 0:
            return Strip.blank(width, style.rich_style)
        row = rows[y]
        key = (y, row.plain, tuple(row.spans), width, style, self.app.theme)  # $variables
        strip = self._row_strips.get(key)
        if strip is None:
            if len(self._row_strips) >= KEPT_STRIPS:
                self._row_strips.clear()
            strips = Visual.to_strips(self, _without_empty_spans(row), width, 1, style)
            strip = placed(strips[0], y) if strips else Strip.blank(width, style.rich_style)
            self._row_strips[key] = strip
        return strip


def same_row(old: Content, new: Content) -> bool:
    """Whether two rows look the same (`Content`'s == compares the text alone)."""
    return old.plain == new.plain and old.spans == new.spans


def _without_empty_spans(row: Content) -> Content:
    """`row` as it is when rendered among the others: splitting the whole into lines drops
    the styles of empty text, which would otherwise cut a run of spaces in two pieces."""
    spans = [span for span in row.spans if span.end > span.start]
    return row if len(spans) == len(row.spans) else Content(row.plain, spans, row.cell_length)


def placed(strip: Strip, y: int) -> Strip:
    """`strip` shown on row `y`: each piece's style carries its place, as Textual's own
    rendering gives it (text selection reads it). A row rendered alone was rendered as row 0."""
    if y == 0:
        return strip
    segments, x = [], 0
    for text, style, _ in strip:
        segments.append(Segment(text, _with_offset(style, x, y)))
        x += len(text)
    return Strip(segments, strip.cell_length)


@lru_cache(maxsize=8192)
def _with_offset(style: RichStyle | None, x: int, y: int) -> RichStyle:
    offset = RichStyle.from_meta({"offset": (x, y)})
    return style + offset if style else offset
