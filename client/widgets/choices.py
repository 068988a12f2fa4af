"""The decision of the moment, shown once, on the table: what is asked, the cards it shows
(General Store, Kit Carlson, Lucky Duke), the legal choices as a list to move through, the time
left, warnings, and the one rule for choosing. Only actions from the view's `options` are ever
listed."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from client.i18n import I18n
from client.plaintext import plain
from client.render import card_content, red_suits
from client.widgets.countdown import Countdown
from shared.model import Action


class ChoicePanel(Vertical):
    class Chosen(Message):
        def __init__(self, action: Action) -> None:
            super().__init__()
            self.action = action

    class Highlighted(Message):
        def __init__(self, action: Action | None) -> None:
            super().__init__()
            self.action = action

    def __init__(
        self,
        i18n: I18n,
        ask: str = "",
        choices: list[tuple[Action, str]] | None = None,
        deadline: float | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.i18n = i18n
        choices = choices or []
        self.actions: list[Action] = [action for action, _ in choices]
        self._shown = (ask, tuple(label for _, label in choices))
        # Kept, not queried: the table may update the panel before it has mounted.
        self._ask = Static(plain(ask), id="ask")  # may quote a player
        self._list = OptionList(*_options(self._shown[1]), id="choices")
        if choices:
            self._list.highlighted = 0
        self._countdown = Countdown(i18n, id="countdown")
        self._countdown.set_reactive(Countdown.deadline, deadline)
        self._countdown.display = bool(choices)
        self._cards = Static(id="shown")
        self._cards.display = False
        self._note = Static(id="note")  # warnings, and the countdown of an answer by itself
        self._note.display = False
        # What the shown cards and the note hold: unchanged, they are not updated (an update
        # lays the screen out again, as their height may change).
        self._cards_shown: tuple[int, ...] = ()
        self._note_shown = ""
        self._rule = Static(i18n.t("rule"), id="rule")
        self._rule.display = bool(choices)

    def compose(self) -> ComposeResult:
        with Horizontal(id="ask-row"):
            yield self._ask
            yield self._countdown
        yield self._cards
        yield self._list
        yield self._note
        yield self._rule

    @property
    def option_list(self) -> OptionList:
        return self._list

    def show(
        self, ask: str, choices: list[tuple[Action, str]], deadline: float | None,
        highlight: bool = True,
    ) -> None:
        """Replace the list; keeps the highlight when the same choices come back. Without
        `highlight` nothing is pre-selected, so a stray Enter chooses nothing."""
        self._countdown.deadline = deadline
        self._countdown.display = bool(choices)  # a clock only for a decision of ours
        self._rule.display = bool(choices)
        labels = tuple(label for _, label in choices)
        if self._shown == (ask, labels):
            return
        self._shown = (ask, labels)
        self._ask.update(plain(ask), layout=False)
        self.actions = [action for action, _ in choices]
        options = self.option_list
        options.clear_options()
        options.add_options(_options(labels))
        if choices and highlight:
            options.highlighted = 0

    def show_cards(self, cards: tuple[int, ...]) -> None:
        """The cards the decision is about (not your hand): a store, a look at the deck."""
        if cards == self._cards_shown:
            return
        self._cards_shown = cards
        self._cards.display = bool(cards)
        if cards:
            self._cards.update(Content("   ").join(card_content(c, self.i18n) for c in cards))

    def show_note(self, text: str) -> None:
        """Warnings; "" hides the line."""
        if text == self._note_shown:
            return
        self._note_shown = text
        self._note.display = bool(text)
        self._note.update(red_suits(text))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(self.actions[event.option_index]))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        index = event.option_index
        self.post_message(self.Highlighted(self.actions[index] if index < len(self.actions)
                                           else None))


def _options(labels: tuple[str, ...]) -> list[Option]:
    """Choices carry no numbers: the numbers on screen are your hand's (the one rule)."""
    return [Option(red_suits(label)) for label in labels]
