"""The game log: one readable line per thing that happened."""

from __future__ import annotations

from textual.content import Content
from textual.events import MouseScrollDown, MouseScrollUp
from textual.widget import Widget

from client.render import red_suits

MAX_LINES = 500


class GameLog(Widget):
    """The latest lines that fit, wrapped, Hearts and Diamonds in red; the mouse wheel (or
    PageUp/PageDown anywhere on the table) scrolls back. Deliberately not a scrolling container: a
    RichLog's growing virtual size re-laid out the whole screen on every update, while a new
    line here only repaints this widget."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._lines: list[Content] = []
        self._back = 0  # rows scrolled back from the newest
        # Each line wrapped at `_wrap_width`, aligned with `_lines` (None: not wrapped yet):
        # a new line then costs one wrap, not one per line shown.
        self._wrapped: list[list[Content] | None] = []
        self._wrap_width = 0

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
        del self._lines[:-MAX_LINES]
        del self._wrapped[:-MAX_LINES]
        self.refresh()

    def clear(self) -> None:
        self._lines.clear()
        self._wrapped.clear()
        self._back = 0
        self.refresh()

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

    def render(self) -> Content:
        width, height = max(self.size.width, 1), max(self.size.height, 1)
        if width != self._wrap_width:
            self._wrap_width = width
            self._wrapped = [None] * len(self._lines)
        rows: list[Content] = []
        for index in range(len(self._lines) - 1, -1, -1):  # wrap only as much as is shown
            wrapped = self._wrapped[index]
            if wrapped is None:
                wrapped = self._wrapped[index] = self._lines[index].wrap(width)
            rows[:0] = wrapped
            if len(rows) >= height + self._back:
                break
        self._back = min(self._back, max(0, len(rows) - height))
        end = len(rows) - self._back
        return Content("\n").join(rows[max(0, end - height):end])
