"""The game log: one readable line per thing that happened."""

from __future__ import annotations

from textual.widgets import RichLog


class GameLog(RichLog):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, max_lines=500, **kwargs)  # type: ignore[arg-type]
        self.can_focus = False

    def add(self, lines: tuple[str, ...] | list[str]) -> None:
        if lines:  # one write per update: one scroll, one refresh
            self.write("\n".join(lines))
