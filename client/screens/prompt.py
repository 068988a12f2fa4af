"""An out-of-turn decision popped up over the table: what is asked, the cards shown (General
Store, Lucky Duke, Kit Carlson), the legal answers and the time left."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from client.i18n import I18n
from client.localize import localize_bindings
from client.render import card_content, describe_action, describe_decision
from client.widgets.choices import ChoicePanel
from shared.model import Action
from shared.views import TableView


class PromptScreen(ModalScreen[Action | None]):
    """Dismissed with the chosen action, or with None (Esc) to look at the table first; the
    same choices stay on the table and `p` brings the prompt back."""

    AUTO_FOCUS = "#choices"
    BINDINGS = [
        *[Binding(str(n), f"choose({n})", show=False) for n in range(1, 10)],
        Binding("escape", "dismiss(None)", "Hide"),
    ]

    def __init__(self, view: TableView, deadline: float | None, i18n: I18n) -> None:
        super().__init__()
        self.view = view
        self.deadline = deadline
        self.i18n = i18n
        localize_bindings(self, i18n)

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt"):
            cards = self.view.pending.shown if self.view.pending else ()
            cards = cards or self.view.private
            if cards:
                yield Static(
                    Content("   ").join(card_content(c, self.i18n) for c in cards), id="shown"
                )
            yield ChoicePanel(
                self.i18n,
                describe_decision(self.view, self.i18n),
                [(a, describe_action(a, self.view, self.i18n)) for a in self.view.options],
                self.deadline,
            )


    def action_choose(self, number: int) -> None:
        self.query_one(ChoicePanel).choose_number(number)

    @on(ChoicePanel.Chosen)
    def _chosen(self, event: ChoicePanel.Chosen) -> None:
        event.stop()
        self.dismiss(event.action)

    @on(ChoicePanel.Highlighted)
    def _highlighted(self, event: ChoicePanel.Highlighted) -> None:
        event.stop()
