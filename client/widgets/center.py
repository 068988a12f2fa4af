"""The middle of the table on wide screens: deck, discard pile, and what is happening now."""

from __future__ import annotations

from textual.content import Content

from client.i18n import I18n
from client.plaintext import clean
from client.render import card_content, describe_decision, player_name
from client.widgets.rows import RowsWidget
from shared.views import TableView


class TableCenter(RowsWidget):
    def __init__(self, i18n: I18n) -> None:
        super().__init__()
        self.i18n = i18n
        self.view: TableView | None = None
        self.last = ""  # the latest log line

    def show(self, view: TableView | None, last: str) -> None:
        """Repaint the rows that changed: it changes with almost every update, and each row
        painted costs."""
        if (view, last) != (self.view, self.last):
            self.view, self.last = view, last
            self.repaint()

    def rows(self) -> list[Content]:
        view, t = self.view, self.i18n.t
        if view is None:
            return [Content("")]
        top = card_content(view.discard_top, self.i18n) if view.discard_top is not None \
            else Content("—")
        lines = [
            Content.assemble(t("deck", deck=view.deck_count, discard=view.discard_count),
                             ": ", top),
            Content(""),
            Content.styled(clean(self.last), "italic"),  # quotes players
        ]
        if view.pending is not None and view.winner is None:
            lines.append(Content.styled(
                f"{player_name(view, view.pending.seat)}: "
                f"{describe_decision(view, self.i18n, waiting=True)}",
                "bold $text-warning",
            ))
        return lines
