"""The decision of the moment, shown once, on the table: what is asked and the time left, the
cards it shows (General Store, Kit Carlson, Lucky Duke), the legal choices as a list to move
through, warnings, and the one rule for choosing. Only actions from the view's `options` are
ever listed.

One widget that draws all of it in a height the screen gives it: a new decision, a shorter
list or a warning repaints these rows and nothing else. (Child widgets whose heights follow
their contents made every decision lay the whole screen out again, twice.)"""

from __future__ import annotations

import math
import time

from textual.binding import Binding
from textual.content import Content
from textual.events import Click, MouseScrollDown, MouseScrollUp
from textual.message import Message

from client.i18n import I18n
from client.plaintext import clean
from client.render import card_content, red_suits, spread
from client.widgets.rows import RowsWidget
from shared.model import Action

CURSOR = "$block-cursor-foreground on $block-cursor-background"
CURSOR_BLURRED = "$block-cursor-blurred-foreground on $block-cursor-blurred-background"
MAX_NOTE = 2  # rows a warning may take from the list (the shown cards take one)


def countdown(i18n: I18n, deadline: float | None) -> tuple[str, bool]:
    """The clock's text, and whether it is urgent (5 seconds or less)."""
    if deadline is None:
        return i18n.t("no_timeout"), False
    left = max(0, math.ceil(deadline - time.time()))
    return f"⏱ {i18n.t('seconds_left', n=left)}", left <= 5


class ChoicePanel(RowsWidget, can_focus=True):
    BINDINGS = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("home", "move(-1000)", show=False),
        Binding("end", "move(1000)", show=False),
        Binding("enter", "choose", show=False),
    ]

    class Chosen(Message):
        def __init__(self, action: Action) -> None:
            super().__init__()
            self.action = action

    class Highlighted(Message):
        def __init__(self, action: Action | None) -> None:
            super().__init__()
            self.action = action

    def __init__(self, i18n: I18n, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.i18n = i18n
        self.actions: list[Action] = []
        self.ask = ""
        self.labels: tuple[str, ...] = ()
        self.cards: tuple[int, ...] = ()
        self.note = ""  # the warning line ("" for none)
        self.deadline: float | None = None
        self.clock = ""  # the countdown as drawn
        self._highlighted: int | None = None
        self._top = 0  # the first choice in view
        self._rows: list[int | None] = []  # the choice drawn on each row of the last render

    def on_mount(self) -> None:
        self.set_interval(0.5, self._tick)

    # --- what the table shows ------------------------------------------------------------

    def show(
        self, ask: str, choices: list[tuple[Action, str]], deadline: float | None,
        highlight: bool = True,
    ) -> None:
        """Replace the list; keeps the highlight when the same choices come back. Without
        `highlight` nothing is pre-selected, so a stray Enter chooses nothing."""
        self.deadline = deadline
        labels = tuple(label for _, label in choices)
        self.actions = [action for action, _ in choices]
        changed = self._new_clock()
        if (self.ask, self.labels) != (ask, labels):
            self.ask, self.labels, self._top = ask, labels, 0
            self._highlight(0 if choices and highlight else None, anew=True)
            changed = True
        if changed:
            self.repaint()  # once, with everything above in place

    def show_cards(self, cards: tuple[int, ...]) -> None:
        """The cards the decision is about (not your hand): a store, a look at the deck."""
        if cards != self.cards:
            self.cards = cards
            self.repaint()

    def show_note(self, text: str) -> None:
        """Warnings; "" for none."""
        if text != self.note:
            self.note = text
            self.repaint()

    def _new_clock(self) -> bool:
        """Work out the countdown shown; whether it changed."""
        clock = countdown(self.i18n, self.deadline)[0] if self.actions else ""
        changed, self.clock = clock != self.clock, clock
        return changed

    def _tick(self) -> None:
        if self._new_clock():
            self.repaint()

    # --- moving and choosing -------------------------------------------------------------

    @property
    def highlighted(self) -> int | None:
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if self._highlight(index):
            self.repaint()

    def _highlight(self, index: int | None, anew: bool = False) -> bool:
        """Highlight choice `index` (kept in the list) and say so; whether it moved. In a new
        list (`anew`) it is said even at the same place: it is another choice."""
        if index is not None:
            index = min(max(index, 0), len(self.actions) - 1) if self.actions else None
        if index == self._highlighted and not anew:
            return False
        self._highlighted = index
        self.post_message(self.Highlighted(None if index is None else self.actions[index]))
        return True

    def action_move(self, step: int) -> None:
        if not self.actions:
            return
        current = self._highlighted
        if current is None:
            self.highlighted = 0 if step > 0 else len(self.actions) - 1
        else:
            self.highlighted = current + step

    def action_choose(self) -> None:
        if self._highlighted is not None:
            self.post_message(self.Chosen(self.actions[self._highlighted]))

    def on_click(self, event: Click) -> None:
        row = event.y
        if 0 <= row < len(self._rows) and (index := self._rows[row]) is not None:
            self.highlighted = index
            self.post_message(self.Chosen(self.actions[index]))

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        self._top += 1
        self.repaint()

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        self._top = max(0, self._top - 1)
        self.repaint()

    def on_focus(self) -> None:
        self.repaint()

    def on_blur(self) -> None:
        self.repaint()

    # --- drawing -------------------------------------------------------------------------

    def list_rows(self) -> int:
        """Rows the choices get now: the height less the question, the rule, the shown cards
        and the warning (at least one)."""
        width = max(self.size.width, 1)
        return self._rows_left(len(self._cards_lines(width)) + len(self._note_lines(width)))

    def _rows_left(self, taken: int) -> int:
        """Rows for the choices when the shown cards and the warning take `taken`."""
        return max(1, self.size.height - 2 - taken)

    def _cards_lines(self, width: int) -> list[Content]:
        if not self.cards:
            return []
        shown = Content("   ").join(card_content(c, self.i18n) for c in self.cards)
        return [shown.truncate(width, ellipsis=True)]

    def _note_lines(self, width: int) -> list[Content]:
        if not self.note:
            return []
        return _at_most(red_suits(self.note).stylize("bold $text-warning").wrap(width),
                        MAX_NOTE, width)

    def rows(self) -> list[Content]:
        self._rows = []
        if not self.actions:
            return [Content("")]
        width = max(self.size.width, 1)
        clock, urgent = countdown(self.i18n, self.deadline)
        clock_content = Content.styled(clock, "bold $text-error" if urgent else "$text-muted")
        lines = [spread(Content.styled(clean(self.ask), "bold"), clock_content, width)]
        cards, note = self._cards_lines(width), self._note_lines(width)
        lines += cards
        self._rows = [None] * len(lines)
        lines += self._choice_lines(width, self._rows_left(len(cards) + len(note)))
        lines += note
        lines += [Content("")] * (self.size.height - 1 - len(lines))  # the rule: last row
        rule = Content.styled(self.i18n.t("rule"), "$text-muted")
        lines.append(rule.truncate(width, ellipsis=True))
        return lines

    def _choice_lines(self, width: int, rows: int) -> list[Content]:
        """The choices in view (`rows` of them at most), the highlighted one kept in view,
        with how many more there are above and below at the right edge."""
        count = len(self.actions)
        top = min(self._top, max(0, count - rows))
        if self._highlighted is not None:
            top = min(max(top, self._highlighted - rows + 1), self._highlighted)
        self._top = top
        lines: list[Content] = []
        cursor = CURSOR if self.has_focus else CURSOR_BLURRED
        for index in range(top, min(count, top + rows)):
            more = ""
            if index == top and top > 0:
                more = f"↑{top}"
            elif index == top + rows - 1 and count > top + rows:
                more = f"↓{count - top - rows}"
            line = spread(red_suits(self.labels[index]), Content.styled(more, "$text-muted"),
                           width)
            if index == self._highlighted:
                line = line.stylize_before(cursor)
            lines.append(line)
            self._rows.append(index)
        return lines


def _at_most(lines: list[Content], count: int, width: int) -> list[Content]:
    """The first `count` of `lines`, the last one ending in an ellipsis if any were cut."""
    if len(lines) <= count:
        return lines
    kept = lines[:count]
    kept[-1] = (kept[-1] + "…").truncate(width, ellipsis=True)
    return kept

