"""The legal choices of a decision, as a list to move through and confirm, with the time left.
Only actions from the view's `options` are ever listed."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from client.i18n import I18n
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

    def __init__(self, i18n: I18n, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.i18n = i18n
        self.actions: list[Action] = []
        self._shown: tuple[str, tuple[str, ...]] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="ask")
        yield OptionList(id="choices")
        yield Countdown(self.i18n, id="countdown")

    @property
    def option_list(self) -> OptionList:
        return self.query_one("#choices", OptionList)

    def show(
        self, ask: str, choices: list[tuple[Action, str]], deadline: float | None
    ) -> None:
        """Replace the list; keeps the highlight when the same choices come back."""
        self.query_one(Countdown).deadline = deadline
        labels = tuple(label for _, label in choices)
        if self._shown == (ask, labels):
            return
        self._shown = (ask, labels)
        self.query_one("#ask", Static).update(ask)
        self.actions = [action for action, _ in choices]
        options = self.option_list
        options.clear_options()
        options.add_options(
            [Option(f"{n}. {label}" if n <= 9 else label) for n, label in enumerate(labels, 1)]
        )
        if choices:
            options.highlighted = 0

    def choose_number(self, number: int) -> bool:
        """Confirm the numbered choice directly (prompts: number keys)."""
        if 1 <= number <= len(self.actions):
            self.post_message(self.Chosen(self.actions[number - 1]))
            return True
        return False

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(self.actions[event.option_index]))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        index = event.option_index
        self.post_message(self.Highlighted(self.actions[index] if index < len(self.actions)
                                           else None))
