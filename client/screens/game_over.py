"""Who won, every role revealed, and a rematch."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Static

from client.i18n import I18n
from client.localize import localize_bindings
from client.plaintext import plain
from shared.characters import CHARACTERS
from shared.views import TableView


class GameOverScreen(ModalScreen[bool]):
    """Dismissed with True for a rematch, False to look at the final table."""

    BINDINGS = [
        Binding("r", "dismiss(True)", "Rematch"),
        Binding("escape", "dismiss(False)", "Back"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, view: TableView, i18n: I18n) -> None:
        super().__init__()
        self.view = view
        self.seated = view.viewer is not None  # spectators get no rematch
        self.i18n = i18n
        localize_bindings(self, i18n)

    def compose(self) -> ComposeResult:
        t = self.i18n.t
        with Vertical(id="game-over"):
            yield Static(t("game_over"), id="title")
            side = self.i18n.side(self.view.winner) if self.view.winner else "?"
            yield Static(t("winner", side=side), id="winner")
            yield DataTable(id="roles", cursor_type="none", show_cursor=False)
            with Horizontal(id="buttons"):
                if self.seated:
                    yield Button(f"{t('rematch')} (r)", id="rematch", variant="primary")
                yield Button(f"{t('back')} (Esc)", id="back")
                yield Button(f"{t('quit')} (q)", id="quit", variant="error")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        t = self.i18n.t
        table.add_columns("", t("name"), t("characters"), t("role"), t("status"))
        for p in self.view.players:
            won = t("won") if p.seat in self.view.winners else ""  # ★ is the Sheriff's mark
            role = self.i18n.role(p.role) if p.role else "?"
            alive = f"{p.life}/{p.max_life}" if p.alive else t("dead")
            table.add_row(won, plain(p.name), CHARACTERS[p.character].name, role, alive)
        self.query_one(Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.seated or not (action == "dismiss" and parameters == (True,))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "quit":
            self.app.exit()
        else:
            self.dismiss(event.button.id == "rematch")
