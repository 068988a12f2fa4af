"""The top line: room, connection state, whose turn it is, deck and discard counts."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive

from client.i18n import I18n
from client.plaintext import clean
from client.render import card_content, player_name
from client.widgets.rows import RowsWidget
from shared.views import TableView

_STATUS_STYLE = {
    "connected": "$text-success",
    "offline": "$text-success",
    "connecting": "$text-warning",
    "reconnecting": "$text-error bold",
    "disconnected": "$text-error bold",
}


class StatusBar(RowsWidget):
    """Always visible, so a dropped connection is never a surprise. Most updates leave its
    text as it was: the row drawn is kept."""

    status: reactive[str] = reactive("connecting")
    view: reactive[TableView | None] = reactive(None)
    room: reactive[str] = reactive("")

    def __init__(self, i18n: I18n, room: str, spectator: bool = False) -> None:
        super().__init__()
        self.i18n = i18n
        self.set_reactive(StatusBar.room, room)
        self.spectator = spectator

    def rows(self) -> list[Content]:
        return [self._line()]

    def _line(self) -> Content:
        t = self.i18n.t
        parts: list[str | tuple[str, str] | Content] = [
            (f" {t('title')} ", "bold reverse"),
            f" {clean(self.room)} ",
            ("● " + t(self.status), _STATUS_STYLE.get(self.status, "")),
        ]
        if self.spectator:
            parts += [" · ", (t("spectating"), "italic")]
        view = self.view
        if view is not None:
            if view.turn == view.viewer and view.winner is None:
                turn = (t("your_turn"), "bold $text-warning")
            else:
                turn = (t("turn_of", name=player_name(view, view.turn)), "bold")
            parts += [" │ ", turn, f" · {t('round', n=view.turn_number)}"]
            parts += [" │ ", t("deck", deck=view.deck_count, discard=view.discard_count)]
            if view.discard_top is not None:
                parts += [" ", card_content(view.discard_top, self.i18n)]
        return Content.assemble(*parts)
