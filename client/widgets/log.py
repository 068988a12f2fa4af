"""The game log: one readable line per thing that happened."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from client.render import RED_CARD


class GameLog(RichLog):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, max_lines=500, **kwargs)  # type: ignore[arg-type]
        self.can_focus = False

    def add(self, lines: tuple[str, ...] | list[str]) -> None:
        if lines:  # one write per update: one scroll, one refresh
            text = Text("\n".join(lines))
            text.highlight_regex(RED_CARD, "bold red")  # Hearts and Diamonds, as on the cards
            self.write(text)
