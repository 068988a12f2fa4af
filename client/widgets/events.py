"""High Noon's event cards on the table: the one in play, the next one, how many are left."""

from __future__ import annotations

import textwrap

from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from client.i18n import I18n
from shared.views import TableView


def has_events(view: TableView) -> bool:
    """The game is played with High Noon's event cards."""
    return view.event_active is not None or view.event_next is not None or view.events_left > 0


def event_texts(view: TableView, i18n: I18n) -> list[str]:
    """"Name: text" for the card in play (or that none is yet) and for the next one."""
    lines = [i18n.t("no_event_text")] if view.event_active is None else \
        [f"{i18n.event_name(view.event_active)}: {i18n.event_text(view.event_active)}"]
    if view.event_next is not None:
        lines.append(i18n.t("event_next", name=f"{i18n.event_name(view.event_next)}: "
                                               f"{i18n.event_text(view.event_next)}"))
    return lines


class EventBar(Widget, can_focus=True):
    """One line: the event card in play, the next one and how many are to come; on a wide
    table also the text of the card in play. The texts of both show on `v` (the table's key),
    on focus (the info line, `Focused`), on a click and in the tooltip. Hidden in games
    without events."""

    class Focused(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Read(Message):
        """Clicked: the table shows both texts."""

    def __init__(self, i18n: I18n) -> None:
        super().__init__(id="events")
        self.i18n = i18n
        self.view: TableView | None = None
        self._shown: tuple[object, ...] | None = None
        self.display = False

    def show(self, view: TableView) -> None:
        """Draw the cards of `view`; nothing is repainted when they did not change."""
        shown = (view.event_active, view.event_next, view.events_left)
        if shown == self._shown:
            return
        self._shown, self.view = shown, view
        self.display = has_events(view)
        if self.display:
            self.tooltip = "\n".join(event_texts(view, self.i18n))
        self.refresh(layout=True)

    def on_focus(self) -> None:
        if self.view is not None:
            self.post_message(self.Focused(" · ".join(event_texts(self.view, self.i18n))))

    def on_click(self, event: Click) -> None:
        self.post_message(self.Read())

    def render(self) -> Content:
        view, t, i18n = self.view, self.i18n.t, self.i18n
        if view is None or not has_events(view):
            return Content("")
        active = view.event_active
        now = t("event_none") if active is None else t("event_now", name=i18n.event_name(active))
        parts: list[str | tuple[str, str]] = [("☀ ", "bold $text-warning"), (now, "bold")]
        if view.event_next is not None:
            parts.append(" · " + t("event_next", name=i18n.event_name(view.event_next)))
        elif view.events_left:  # hidden by the table's option
            parts.append(" · " + t("event_hidden"))
        if view.events_left:
            parts.append(" · " + t("events_left", n=view.events_left))
        parts.append(("  " + t("event_read"), "dim"))
        line = Content.assemble(*parts)
        rows = self.size.height - 1
        if active is None or rows <= 0:
            return line
        text = textwrap.wrap(i18n.event_text(active), max(self.size.width - 2, 10))[:rows]
        return Content("\n").join([line, *[Content.styled("  " + row, "dim italic")
                                           for row in text]])
