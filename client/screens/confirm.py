"""A yes/no question before a step that cannot be taken back (ending a turn with cards still
playable, quitting a game under way). "No" has the focus, so a stray Enter loses nothing."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from client.i18n import I18n
from client.plaintext import plain


class ConfirmScreen(ModalScreen[bool]):
    """Dismissed with True (y) or False (n, Esc). `decision`: the id of the decision a move
    was asked about; the table closes the question when that decision has passed."""

    AUTO_FOCUS = "#no"
    BINDINGS = [
        Binding("y", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]

    def __init__(self, question: str, i18n: I18n, decision: int | None = None) -> None:
        super().__init__()
        self.question = question
        self.i18n = i18n
        self.decision = decision

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(plain(self.question), id="question")
            with Horizontal(id="answers"):
                yield Button(self.i18n.t("confirm_yes"), id="yes", variant="warning")
                yield Button(self.i18n.t("confirm_no"), id="no", variant="primary")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")
