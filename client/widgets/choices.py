"""The legal choices of a decision, as a list to move through and confirm, with the time left.
Only actions from the view's `options` are ever listed."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from client.i18n import I18n
from client.plaintext import plain
from client.render import red_suits
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
        self._list = OptionList(*_numbered(self._shown[1]), id="choices")
        if choices:
            self._list.highlighted = 0
        self._countdown = Countdown(i18n, id="countdown")
        self._countdown.set_reactive(Countdown.deadline, deadline)
        self._countdown.display = bool(choices)

    def compose(self) -> ComposeResult:
        yield self._ask
        yield self._list
        yield self._countdown

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
        labels = tuple(label for _, label in choices)
        if self._shown == (ask, labels):
            return
        self._shown = (ask, labels)
        self._ask.update(plain(ask), layout=False)
        self.actions = [action for action, _ in choices]
        options = self.option_list
        options.clear_options()
        options.add_options(_numbered(labels))
        if choices and highlight:
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


def _numbered(labels: tuple[str, ...]) -> list[Option]:
    """Number keys 1-9 choose directly; the number is shown."""
    return [Option(red_suits(f"{n}. {label}" if n <= 9 else f"   {label}")) for n, label in
            enumerate(labels, 1)]
