"""The game log: one readable line per thing that happened."""

from __future__ import annotations

from typing import Any, Self

from textual.content import Content
from textual.events import MouseScrollDown, MouseScrollUp
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widget import Widget

from client.render import red_suits
from client.widgets.rows import placed

#: Lines kept: a whole game, so scrolling back reaches its start (7-player games of normal bots
#: log about 360 lines, 650 at most in 60 games). Only the lines shown are wrapped and
#: rendered: the others cost their text.
MAX_LINES = 5000


class GameLog(Widget):
    """The latest lines that fit, wrapped, Hearts and Diamonds in red; the mouse wheel (or
    PageUp/PageDown anywhere on the table) scrolls back. Deliberately not a scrolling container: a
    RichLog's growing virtual size re-laid out the whole screen on every update, while a new
    line here only repaints this widget."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._lines: list[Content] = []
        self._back = 0  # rows scrolled back from the newest
        # Each line wrapped at `_wrap_width` and its rows rendered in `_style`, aligned with
        # `_lines` (None: not yet): a new line costs its own rows, not every row shown again.
        self._wrapped: list[list[Content] | None] = []
        self._strips: list[list[Strip] | None] = []
        self._wrap_width = 0
        self._style: Style | None = None
        self._shown: tuple[Size, list[tuple[int, int]]] | None = None  # see `_rows`

    def add(self, lines: list[str] | tuple[str, ...]) -> None:
        """Log lines, with the suits of the cards they name in colour."""
        if lines:
            self.add_content([red_suits(line) for line in lines])

    def add_content(self, lines: list[Content]) -> None:
        """Lines already styled (the chat's). New lines bring a scrolled-back log to the
        bottom: what just happened matters more than what was being reread."""
        self._back = 0
        self._lines.extend(lines)
        self._wrapped.extend(None for _ in lines)
        self._strips.extend(None for _ in lines)
        del self._lines[:-MAX_LINES]
        del self._wrapped[:-MAX_LINES]
        del self._strips[:-MAX_LINES]
        self.refresh()

    def clear(self) -> None:
        self._lines.clear()
        self._wrapped.clear()
        self._strips.clear()
        self._back = 0
        self.refresh()

    def refresh(self, *args: Any, **kwargs: Any) -> Self:
        self._shown = None  # lines or the place in them changed (or the size: a layout)
        return super().refresh(*args, **kwargs)

    def text(self) -> str:
        """Everything in the log, as plain text."""
        return "\n".join(line.plain for line in self._lines)

    def scroll_back(self, rows: int) -> None:
        self._back = max(0, self._back + rows)
        self.refresh()

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        self.scroll_back(3)

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        self.scroll_back(-3)

    def _rows(self) -> list[tuple[int, int]]:
        """The rows shown, top to bottom: (line, row of that line wrapped)."""
        size = self.size
        if self._shown is not None and self._shown[0] == size:
            return self._shown[1]
        width, height = max(size.width, 1), max(size.height, 1)
        if width != self._wrap_width:
            self._wrap_width = width
            self._wrapped = [None] * len(self._lines)
            self._strips = [None] * len(self._lines)
        rows: list[tuple[int, int]] = []
        for index in range(len(self._lines) - 1, -1, -1):  # wrap only as much as is shown
            wrapped = self._wrapped[index]
            if wrapped is None:
                wrapped = self._wrapped[index] = self._lines[index].wrap(width)
            rows[:0] = [(index, row) for row in range(len(wrapped))]
            if len(rows) >= height + self._back:
                break
        self._back = min(self._back, max(0, len(rows) - height))
        end = len(rows) - self._back
        shown = rows[max(0, end - height):end]
        self._shown = (size, shown)
        # Rows no longer shown let their strips go: each keeps a tree of derived strips alive
        # (Textual's per-strip caches), work for every full garbage collection.
        first = shown[0][0] if shown else len(self._lines)
        self._strips[:first] = [None] * first
        return shown

    def render(self) -> Content:
        wrapped = self._wrapped
        return Content("\n").join(wrapped[line][row]  # type: ignore[index]
                                  for line, row in self._rows())

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in `crop`, each its kept strip. Every new line moves every row, so
        Textual's own pipeline (a line cache by row, then padding, borders and effects
        applied row by row, four new strips a row) would redo every row of the log at every
        update; for a log whose box has none of those, the kept rows are final as they are.
        They go without their places (offsets): Textual asks `render_line` for those when
        the mouse starts a selection. Any other box goes through Textual's pipeline."""
        if not self._plain_box():
            return super().render_lines(crop)
        width = self.size.width
        filters = self.get_line_filters()
        base_background, background = self.background_colors
        fill = Style(background=base_background + background).rich_style
        rows, style = self._rows(), self.visual_style
        strips = []
        for y in crop.line_range:
            strip = self._row_strip(rows, y, style).adjust_cell_length(width, fill)
            for line_filter in filters:  # each strip keeps what these give: once per row
                strip = strip.apply_filter(line_filter, background)
            strips.append(strip)
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

    def _plain_box(self) -> bool:
        """Whether the log's box adds nothing to its rows: no border, padding, outline,
        tint, hatch or see-through, and no text selected (it spans rows)."""
        styles = self.styles
        return (self.text_selection is None and not any(styles.gutter)
                and not any(edge for edge, _ in styles.outline) and not styles.tint.a
                and self.opacity == 1.0 and styles.text_opacity == 1.0
                and not (styles.has_rule("hatch") and styles.hatch != "none"))

    def render_line(self, y: int) -> Strip:
        """Row `y` as `render()` would render it: each row is rendered once and kept until the
        width or the style (the theme) changes, then given the place (offsets) where it is
        now shown, which text selection reads."""
        rows = self._rows()
        if self.text_selection is not None or not rows:  # a selection spans rows
            return super().render_line(y)
        strip = self._row_strip(rows, y, self.visual_style)
        return placed(strip, y) if y < len(rows) else strip

    def _row_strip(self, rows: list[tuple[int, int]], y: int, style: Style) -> Strip:
        """Row `y` of `rows` (see `_rows`) in `style`, rendered once and kept (blank below
        the last line), without its place."""
        if y >= len(rows):
            return Strip.blank(self.size.width, style.rich_style)
        if style != self._style:
            self._style = style
            self._strips = [None] * len(self._lines)
        line, row = rows[y]
        strips = self._strips[line]
        if strips is None:
            wrapped = self._wrapped[line]
            assert wrapped is not None  # `_rows` wrapped every line it shows
            strips = self._strips[line] = [
                Visual.to_strips(self, part, self._wrap_width, 1, style)[0] for part in wrapped
            ]
        return strips[row]

