"""Your hand: each card with name, suit and rank (Hearts and Diamonds in red), its number key,
whether it can be played now, and what it does."""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Size
from textual.message import Message

from client.i18n import I18n
from client.render import card_content
from client.widgets.rows import RowsWidget
from shared.cards import CARDS


class HandView(RowsWidget):
    """Cards are picked by number (1-9, 0 for the tenth) or by a click."""

    LINKS = True  # each card is a link that picks it

    class Picked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, i18n: I18n, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.i18n = i18n
        self.cards: tuple[int, ...] = ()
        self.playable: frozenset[int] = frozenset()
        self.selected: int | None = None
        self.detailed = False  # one card per line with its effect (set on wide screens)
        # The last lines laid out and what they were laid out from: `show`, the height and
        # the render each need them, several times for one update.
        self._laid_out: tuple[tuple[object, ...], list[Content]] | None = None
        # ((width, detailed), rows): the most rows the hand took laid out so. A smaller hand
        # keeps them, so playing a card repaints the hand without laying the screen out again.
        self._reserved: tuple[tuple[int, bool], int] = ((0, False), 0)

    def show(self, cards: tuple[int, ...], playable: frozenset[int], selected: int | None) -> None:
        if (cards, playable, selected) == (self.cards, self.playable, self.selected):
            return
        width = self.size.width
        self.cards, self.playable, self.selected = cards, playable, selected
        if self._rows(width) != self._reserved[1]:
            self.refresh(layout=True)
        else:
            self.repaint()

    def action_pick(self, index: int) -> None:
        """Called from the click action embedded in each card."""
        self.post_message(self.Picked(index))

    def _chip(self, index: int, card_id: int) -> Content:
        number = str((index + 1) % 10) if index < 10 else " "
        selected = card_id == self.selected
        playable = card_id in self.playable
        style = "reverse bold" if selected else ("bold" if playable else "dim")
        mark = "✓" if playable else " "
        return Content.assemble(
            (f"{number}", "bold $text-accent"),
            " ",
            card_content(card_id, self.i18n, style),
            (mark, "$text-success"),
        ).stylize(f"@click=pick({index})")

    def _lines(self, width: int) -> list[Content]:
        """The lines at `width`, laid out again only when the hand or its marks change."""
        key = (self.cards, self.playable, self.selected, self.detailed, width)
        if self._laid_out is None or self._laid_out[0] != key:
            self._laid_out = (key, self._lay_out(width))
        return self._laid_out[1]

    def _lay_out(self, width: int) -> list[Content]:
        """Chips laid out greedily, never breaking inside a card."""
        title = Content.styled(self.i18n.t("your_hand") + ": ", "bold")
        if not self.cards:
            return [title + self.i18n.t("no_hand")]
        chips = [self._chip(i, c) for i, c in enumerate(self.cards)]
        if self.detailed:
            lines = [title]
            for chip, card_id in zip(chips, self.cards, strict=True):
                text = Content.styled(self.i18n.card_text(CARDS[card_id].key), "dim")
                lines.append(chip.pad_right(max(1, 24 - chip.cell_length)) + text)
            return lines
        lines, line = [], title
        for chip in chips:
            if line.cell_length and line.cell_length + 2 + chip.cell_length > width:
                lines.append(line)
                line = chip
            else:
                line = line + "  " + chip if line is not title else line + chip
        lines.append(line)
        return lines

    def rows(self) -> list[Content]:
        return self._lines(self.size.width)

    def _rows(self, width: int) -> int:
        """Rows for the hand at `width`: what it needs, or more if it once needed more."""
        needed = len(self._lines(width))
        laid_out, reserved = self._reserved
        return max(needed, reserved) if laid_out == (width, self.detailed) else needed

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        rows = self._rows(width)
        self._reserved = ((width, self.detailed), rows)
        return rows
